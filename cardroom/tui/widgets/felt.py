"""The table: seats around an oval-ish grid (clockwise = ascending seat numbers), and in the middle
the board or up cards, the pot and side pots and what the dealer says of the draw.

One widget draws it all, line by line (see widgets/lines.py). It was a container of three rows of
seat widgets around a centre widget: fifteen widgets, each with its own styling pass on every
repaint and a CSS restyle whenever a seat changed state (acting, folded), which made the seats the
dearest part of a table screen's repaint over ssh. The look is the same: in a row every seat
(and the centre) gets an equal share of the width, as `1fr` gave it; on wide screens seats are
boxed, the box of the seat to act heavy. Seat states are styled by the component classes below.
"""

from __future__ import annotations

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events
from textual.message import Message
from textual.strip import Strip

from cardroom.room.api import TableView
from cardroom.tui.options import UIOptions
from cardroom.tui.render import amount_of, cards_text, money, street_label
from cardroom.tui.widgets.lines import TextLines, text_strip
from cardroom.tui.widgets.seat import seat_lines

# (top left, top, top right, side, bottom left, bottom, bottom right)
ROUND = ("\u256d", "\u2500", "\u256e", "\u2502", "\u2570", "\u2500", "\u256f")
HEAVY = ("\u250f", "\u2501", "\u2513", "\u2503", "\u2517", "\u2501", "\u251b")
ASCII_BOX = ("+", "-", "+", "|", "+", "-", "+")


def seat_layout(n: int) -> tuple[list[int], list[int], list[int], list[int]]:
    """(top left->right, right side, bottom right->left, left side) seat numbers, clockwise."""
    seats = list(range(1, n + 1))
    if n <= 4:
        top = (n + 1) // 2
        return seats[:top], [], list(reversed(seats[top:])), []
    top = (n - 1) // 2
    bottom = n - 2 - top
    return (seats[:top], [seats[top]], list(reversed(seats[top + 1:top + 1 + bottom])),
            [seats[-1]])


def shares(width: int, n: int) -> list[tuple[int, int]]:
    """(x, width) of n equal shares of `width`, as Textual lays out n `1fr` widgets."""
    cuts = [width * i // n for i in range(n + 1)]
    return [(cuts[i], cuts[i + 1] - cuts[i]) for i in range(n)]


def center_lines(view: TableView, opts: UIOptions, amount=money) -> list[Text]:
    """The board (or the game), the pot and side pots, the street."""
    lines = [cards_text(view.board, opts) if view.board else Text(view.game, "italic")]
    if view.pots:
        t = Text(f"Pot {amount(view.pots[0])}", "bold")
        for i, p in enumerate(view.pots[1:], 1):
            t.append(f"  side pot {i}: {amount(p)}")
        lines.append(t)
    elif view.phase == "waiting":
        lines.append(Text("waiting for players" if view.status == "open" else f"table {view.status}", "italic"))
    else:
        lines.append(Text(""))
    if view.phase in ("bet", "draw", "showdown"):
        lines.append(Text(street_label(view.street, view.phase), "dim"))
    return lines


class Felt(TextLines):
    DEFAULT_CSS = """
    Felt { height: auto; background: $success 12%; }
    Felt > .felt--empty { color: $text-muted; }
    Felt > .felt--folded { color: $text-muted; }
    Felt > .felt--acting { background: $warning 25%; }
    Felt > .felt--mine { text-style: bold; }
    Felt > .felt--box { color: $foreground 30%; }
    Felt > .felt--box-acting { color: $warning; }
    Felt > .felt--box-mine { color: $accent; }
    Felt > .felt--box-empty { color: $foreground 10%; }
    """
    COMPONENT_CLASSES = {"felt--empty", "felt--folded", "felt--acting", "felt--mine", "felt--box",
                         "felt--box-acting", "felt--box-mine", "felt--box-empty"}

    class SeatClicked(Message):
        def __init__(self, number: int) -> None:
            super().__init__()
            self.number = number

    def __init__(self, seats: int, opts: UIOptions, **kw) -> None:
        super().__init__(**kw)
        self.n = seats
        self.opts = opts
        self.top, self.right, self.bottom, self.left = seat_layout(seats)
        self._seats: dict = {}          # number -> (SeatState, mine, drew)
        self._center: tuple = ()
        self._view: TableView | None = None
        self._cells: list[tuple[int, int, int, int, int]] = []   # (number, x, y, w, h) last drawn
        # Each seat's block (and the centre's, under None) as last drawn, with what it was drawn
        # from: an action changes one or two seats, and re-rendering the other seats' Text was
        # most of a felt repaint (~17% of the server's CPU at 300 ssh sessions).
        self._blocks: dict[int | None, tuple[tuple, list[Strip]]] = {}
        self._layers: dict[str, Style] = {}
        self._style_key: tuple = ()
        self.amount = money              # how stacks, bets and pots read (show() sets it)

    # ------------------------------------------------------------------ data
    def show(self, view: TableView) -> None:
        seats = {s.number: (s, s.number == view.my_seat, view.draw_counts.get(s.number))
                 for s in view.seats}
        center = (view.board, view.pots, view.phase, view.street, view.status, view.game)
        if seats != self._seats or center != self._center:
            # A felt draws one table for its life: cash (money) or a tournament's (chips).
            self.amount = amount_of(view)
            self._seats, self._center, self._view = seats, center, view
            self.redraw()

    def restyle(self) -> None:
        """The display options changed: draw every block again."""
        self._blocks.clear()
        self._layers.clear()
        self.redraw()

    @property
    def wide(self) -> bool:
        return self.screen.has_class("-wide")

    def get_content_height(self, container, viewport, width: int) -> int:
        return 3 * (5 if self.wide else 3)

    # ------------------------------------------------------------------ drawing
    def build_strips(self, width: int, height: int, base: Style) -> list[Strip]:
        wide = self.wide
        h = 5 if wide else 3
        rows: list[list[tuple[int | None, int, int]]] = []     # per row: (seat or None=centre, x, w)
        for cells in (self.top, [*self.left, None, *self.right], self.bottom):
            if len(cells) == 1 and cells[0] is not None:
                # A lone seat (the heads-up table's two, a 3-seat table's bottom one) sits in the
                # middle third, over the centre, instead of stretching from the left edge.
                cells = [0, cells[0], 0]
            rows.append([(c, x, w) for c, (x, w) in zip(cells, shares(width, len(cells)))] if cells else [])
        # Seats for clicks: not the centre (None) nor a lone seat's blank sides (0).
        self._cells = [(c, x, y * h, w, h) for y, row in enumerate(rows) for c, x, w in row if c]
        strips: list[Strip] = []
        console = self.app.console
        style_key = (base, self.app.theme)
        if style_key != self._style_key:          # a new theme or felt style: the layers too
            self._style_key = style_key
            self._blocks.clear()
            self._layers.clear()
        cache = self._blocks
        for row in rows:
            if not row:
                strips.extend(Strip.blank(width, base) for _ in range(h))
                continue
            blocks = []
            for c, _x, w in row:
                if c == 0:
                    blocks.append([Strip.blank(w, base)] * h)
                    continue
                key = (self._center if c is None else self._seats.get(c), w, h, wide)
                hit = cache.get(c)
                if hit is None or hit[0] != key:
                    block = (self._center_block(w, h, base, console) if c is None
                             else self._seat_block(c, w, h, wide, base, console))
                    hit = cache[c] = (key, block)
                blocks.append(hit[1])
            for i in range(h):
                strips.append(Strip.join(block[i] for block in blocks))
        return strips[:height]

    def _layer(self, name: str) -> Style:
        """What component `name`'s CSS sets, and only that, to lay over a seat's style: layered
        as a seat widget's classes were (the full style would also reset the colour or background
        the component leaves alone; the partial one has colours not yet blended over the felt)."""
        layer = self._layers.get(name)
        if layer is None:
            layer = self._layers[name] = self._build_layer(name)
        return layer

    def _build_layer(self, name: str) -> Style:
        partial = self.get_component_rich_style(name, partial=True)
        full = self.get_component_rich_style(name)
        return Style(color=full.color if partial.color else None,
                     bgcolor=full.bgcolor if partial.bgcolor else None,
                     bold=partial.bold, italic=partial.italic, dim=partial.dim)

    def _center_block(self, w: int, h: int, base: Style, console) -> list[Strip]:
        view = self._view
        if view is None:
            return [Strip.blank(w, base)] * h
        lines = center_lines(view, self.opts, self.amount)
        lines = [Text()] * max(0, (h - len(lines)) // 2) + lines       # centred, as the CSS was
        out = [text_strip(t, w, base, console, "center") for t in lines[:h]]
        return out + [Strip.blank(w, base)] * (h - len(out))

    def _seat_block(self, number: int, w: int, h: int, wide: bool, base: Style, console) -> list[Strip]:
        entry = self._seats.get(number)
        if entry is None:
            return [Strip.blank(w, base)] * h
        state, mine, drew = entry
        style = base
        empty, folded = state.status == "empty", state.status == "folded"
        for on, name in ((empty, "felt--empty"), (folded, "felt--folded"), (state.acting, "felt--acting"),
                         (mine, "felt--mine")):
            if on:
                style = style + self._layer(name)
        lines = seat_lines(state, drew, self.opts, self.amount)
        if not wide:
            inner = max(0, w - 2)
            pad = Segment(" ", style)
            out = [Strip([pad, *text_strip(t, inner, style, console), pad], w) if w >= 2
                   else Strip.blank(w, style) for t in lines[:h]]
            return out + [Strip.blank(w, style)] * (h - len(out))
        # Boxed: the box's colour by state (later rules win, as the CSS had them: empty, then mine)
        box_name = "felt--box"
        if state.acting:
            box_name = "felt--box-acting"
        if mine:
            box_name = "felt--box-mine"
        if empty:
            box_name = "felt--box-empty"
        heavy = box_name == "felt--box-acting"
        chars = ASCII_BOX if self.opts.ascii else (HEAVY if heavy else ROUND)
        box = Style(bgcolor=style.bgcolor) + self._layer(box_name)     # the box: no text style
        tl, t, tr, side, bl, b, br = chars
        inner = max(0, w - 4)
        out = [Strip([Segment(tl + t * (w - 2) + tr, box)], w)]
        for i in range(h - 2):
            text = lines[i] if i < len(lines) else Text()
            out.append(Strip([Segment(side, box), Segment(" ", style),
                              *text_strip(text, inner, style, console),
                              Segment(" ", style), Segment(side, box)], w))
        out.append(Strip([Segment(bl + b * (w - 2) + br, box)], w))
        return out

    # ------------------------------------------------------------------ mouse
    def seat_at(self, x: int, y: int) -> int | None:
        for number, cx, cy, w, h in self._cells:
            if cx <= x < cx + w and cy <= y < cy + h:
                return number
        return None

    def seat_offset(self, number: int) -> tuple[int, int] | None:
        """Where seat `number` is drawn (its top-left cell inside the felt's content), if shown."""
        for n, cx, cy, _, _ in self._cells:
            if n == number:
                return cx, cy
        return None

    def on_click(self, event: events.Click) -> None:
        number = self.seat_at(event.x - self.styles.gutter.left, event.y - self.styles.gutter.top)
        if number is not None:
            self.post_message(self.SeatClicked(number))
