"""A widget that draws its few lines of Rich Text itself, through Textual's line API.

Why: a widget's `render()` goes through Textual's Content path on every refresh (the Text is
converted, wrapped, formatted and cut into strips again); for a three-line seat that measured
2.4 ms and for the chat pane 5.3 ms, and every screen at a table repaints a few of them on every
action (a railbird's screen: ~25 ms of repaint per action at 100x30). Lines drawn here are built
once per change from the same Text objects (`Text.render` plus the widget's CSS style underneath)
and cached as strips until the content, the size or the style changes.

Subclasses implement `text_lines(width, height)` (the lines, top first; each is cut to the width
with an ellipsis), or `build_strips` when they cache finer (the chat log: per entry), and call
`redraw()` when their data changed. Everything stays plain Text: no markup is ever parsed here.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.cache import LRUCache
from textual.geometry import Region
from textual.strip import Strip
from textual.style import Style as VisualStyle
from textual.widget import Widget


# Strips by what they are drawn from, shared by every widget of every session: at a table the
# same seat lines, chips and clock lines are drawn again and again, on every screen, while Rich's
# Text.render and the styling of its segments were most of a line-drawn repaint. A Strip is never
# changed once made (its methods return new ones), so one object serves every screen. The texts
# drawn here use literal styles only, which every session's console parses the same way.
_STRIPS: LRUCache[tuple, Strip] = LRUCache(4096)


def shared_strip(key: tuple, build: Callable[[], Strip]) -> Strip:
    """The strip `build()` makes, from the shared cache: `key` must say everything it is drawn
    from (texts with their spans and styles, widths, styles)."""
    strip = _STRIPS.get(key)
    if strip is None:
        strip = _STRIPS[key] = build()
    return strip


def text_strip(text: Text, width: int, base: Style, console, align: str = "left") -> Strip:
    """One line of Text as a Strip exactly `width` cells wide, over the `base` style: cut with an
    ellipsis when too long, padded (or centred) when short."""
    key = (text.plain, tuple(text.spans), text.style, width, base, align)
    return shared_strip(key, lambda: _text_strip(text, width, base, console, align))


def _text_strip(text: Text, width: int, base: Style, console, align: str) -> Strip:
    if text.cell_len > width:
        text = text.copy()
        text.truncate(width, overflow="ellipsis")
    own = text.style          # Text.render leaves a span-less text's own style out: put it under
    under = base + console.get_style(own) if own else base
    segments = list(Segment.apply_style(text.render(console), under))
    strip = Strip(segments, text.cell_len)
    if align == "center" and strip.cell_length < width:
        left = (width - strip.cell_length) // 2
        strip = Strip([Segment(" " * left, base), *segments], strip.cell_length + left)
    return strip.adjust_cell_length(width, base)


class TextLines(Widget):
    """Base class: a few lines of Rich Text, drawn as cached strips (see the module doc)."""

    ALIGN = "left"            # or "center" (each line; vertical centring is the subclass's)

    def __init__(self, **kw) -> None:
        super().__init__(**kw)
        self._strips: list[Strip] | None = None
        self._strips_key: tuple | None = None
        # The last render_lines answer: (crop, size, the strips it came from, the answer). The
        # compositor asks every widget under the bounding box of a repaint's changes, changed or
        # not (at a table: the whole screen on most actions), so most asks repeat the last one.
        self._rendered: tuple | None = None
        # Per line of the last answer: (what it was drawn from, what was answered), valid for the
        # crop, size, padding, filters and background of `_line_memo_setting`.
        self._line_memo: dict[int, tuple[Strip, Strip]] = {}
        self._line_memo_setting: tuple | None = None

    def text_lines(self, width: int, height: int) -> list[Text]:
        """The lines to draw, top first (subclasses); nothing by default."""
        return []

    def redraw(self) -> None:
        """The data changed: repaint the lines that now read differently.

        Why line by line: a refresh of the whole widget sends every line of it to the terminal
        again, changed or not (Textual keeps no copy of what the terminal shows), and at a table
        an action changes a line or two of the felt and of the bars while the whole of them was
        sent, encrypted and written to every screen. Drawn at the same size and style as last
        time, the strips are built now and compared with the last ones (most unchanged lines are
        the same cached Strip); otherwise the whole widget is repainted, as Textual does."""
        old, key = self._strips, self._strips_key
        self._strips = None
        if old is None or key is None or not self.is_mounted \
                or key != (*self.size, self.visual_style.rich_style):
            self.refresh()
            return
        width, height, base = key
        new = self._strips = self.build_strips(width, height, base)
        runs: list[list[int]] = []          # [first, last + 1] of each run of changed lines
        for y in range(height):
            a = old[y] if y < len(old) else None
            b = new[y] if y < len(new) else None
            if a is b or a == b:
                continue
            if runs and runs[-1][1] == y:
                runs[-1][1] = y + 1
            else:
                runs.append([y, y + 1])
        for top, bottom in runs:
            self.refresh(Region(0, top, width, bottom - top))

    def notify_style_update(self) -> None:
        # Textual restyled this widget (a class, the theme, an ancestor's style): the cached
        # answer may have another background, padding or box now, and the next redraw repaints
        # every line.
        super().notify_style_update()
        self._rendered = None
        self._strips_key = None

    def build_strips(self, width: int, height: int, base: Style) -> list[Strip]:
        """The strips on screen, top first: `text_lines` cut to the width over the `base` style."""
        console = self.app.console
        return [text_strip(t, width, base, console, self.ALIGN) for t in self.text_lines(width, height)[:height]]

    def render_lines(self, crop: Region) -> list[Strip]:
        """The strips straight from the cache when no border, outline, tint or opacity applies
        (padding is drawn here as Textual draws it). Why: Textual's styling pass (StylesCache)
        costs ~0.1 ms a line even for a cached strip it only passes through, and a table screen
        repaints a few dozen such lines per action in every session. Otherwise, Textual's way.

        The compositor asks for every line of a widget when one of them changed; a line drawn
        from the same strip as last time (same crop, size, padding, filters and background) is
        answered with last time's padded, filtered and cropped strip, not made again."""
        size = self.region.size
        last = self._rendered
        if last is not None and last[0] == crop and last[1] == size and last[2] is self._strips \
                and self._strips is not None:
            return last[3]
        styles = self.styles
        if (styles.tint.a or styles.text_opacity != 1.0 or self.opacity != 1.0 or styles.has_rule("hatch")
                or any(edge for edge, _ in styles.border) or any(edge for edge, _ in styles.outline)
                or self.border_title is not None or self.border_subtitle is not None):
            return super().render_lines(crop)
        width, height = size
        padding = top, right, bottom, left = styles.padding
        filters = tuple(self.get_line_filters())
        backgrounds = self.background_colors if any(padding) or filters else None   # walks the ancestors: once
        content, base = self._content()
        content_width = width - left - right
        blank: Strip | None = None         # made when there is padding (else no line is blank)
        if any(padding) and backgrounds is not None:
            base_background, background = backgrounds
            inner = VisualStyle(background=base_background + background).rich_style
            pad_left, pad_right = Segment(" " * left, inner), Segment(" " * right, inner)
            blank = _blank(width, inner)
        x1, x2 = crop.column_span
        cropped = (x1, x2) != (0, width)
        setting = (crop, size, padding, filters, backgrounds)
        memo = self._line_memo if setting == self._line_memo_setting else {}
        kept: dict[int, tuple[Strip, Strip]] = {}
        strips = []
        for y in crop.line_range:
            if blank is not None and (y < top or y >= height - bottom):
                source = blank
            else:
                i = y - top
                source = content[i] if i < len(content) else _blank(content_width, base)
            had = memo.get(y)
            if had is not None and had[0] is source:
                strip = had[1]
            else:
                strip = source
                if source is not blank and (left or right):
                    strip = Strip([pad_left, *source, pad_right], width)
                if backgrounds is not None:      # read when there are filters
                    for line_filter in filters:
                        strip = strip.apply_filter(line_filter, backgrounds[1])
                if cropped:
                    strip = strip.crop(x1, x2)
            kept[y] = (source, strip)
            strips.append(strip)
        self._line_memo, self._line_memo_setting = kept, setting
        self._rendered = (crop, size, self._strips, strips)
        return strips

    def _content(self) -> tuple[list[Strip], Style]:
        """The content's strips (built if the data, size or style changed) and its base style."""
        width, height = self.size
        base = self.visual_style.rich_style
        key = (width, height, base)
        strips = self._strips
        if strips is None or key != self._strips_key:
            strips = self._strips = self.build_strips(width, height, base)
            self._strips_key = key
        return strips, base

    def render_line(self, y: int) -> Strip:
        strips, base = self._content()
        if y < len(strips):
            return strips[y]
        return _blank(self.size.width, base)


@lru_cache(maxsize=256)
def _blank(width: int, style: Style) -> Strip:
    """A blank line (one object per width and style, so a line drawn from it is known unchanged)."""
    return Strip.blank(width, style)


class Line(TextLines):
    """One line of plain Text in a place of fixed size (a one-line Static, line-drawn): `update`
    repaints only when the text changed, and never asks for a layout pass."""

    DEFAULT_CSS = """
    Line { height: 1; }
    """

    def __init__(self, text: Text | str = "", **kw) -> None:
        super().__init__(**kw)
        self._text = text if isinstance(text, Text) else Text(text)

    def update(self, text: Text | str) -> None:
        text = text if isinstance(text, Text) else Text(text)
        if text != self._text:          # plain text and spans
            self._text = text
            self.redraw()

    def text_lines(self, width: int, height: int) -> list[Text]:
        return [self._text]
