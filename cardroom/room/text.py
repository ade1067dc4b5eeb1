"""Text that one user can make appear on another user's screen: names, chat, table names, admin
reasons, key comments, client versions, TERM values.

    clean_text(s, max_len)     # any str -> safe, single-line, bounded text (never raises)
    clean_name(s)              # a player name, or BadName with a message for the player
    name_skeleton(name)        # what a name looks like: equal skeletons = look-alike names
    looks_alike(a, b)          # name_skeleton(a) == name_skeleton(b)
    is_reserved(name)          # imitates the dealer, the system, an admin ...

RENDER-SAFETY: cleaning removes what a terminal would act on (escape sequences, controls, bidi
controls) and bounds the size, but it does NOT escape markup. Brackets are ordinary characters
here, so `[bold]x[/]` stays literally `[bold]x[/]`. Callers must render user text with markup OFF:
`rich.text.Text(s)` or `Text.assemble(...)`, Textual `Static(Text(s))` / `Label(Text(s))`,
`console.print(s, markup=False, highlight=False)`; never `Text.from_markup(s)`, an f-string passed to
a markup-enabled widget, or `[link]`/`@click` built from user text.

What `clean_text` does, in order (each defends against a class in notes/hostile-input.md):

1. looks at a bounded prefix only (a 1 MB paste costs no more than a long line);
2. NFC-normalises, so accents that have a precomposed form count as one character;
3. turns every whitespace character (tab, CR, LF, NEL, NBSP, U+2028/2029, ideographic space...)
   into a plain space; bare CRs and line feeds cannot move the cursor or fake a new line;
4. drops every character `str.isprintable()` rejects: C0 controls incl. ESC (so CSI/OSC/DCS/APC/PM/
   SOS sequences lose their introducer and their payload is inert text), BEL, BS, NUL, DEL, C1
   controls (U+0080..U+009F, i.e. 8-bit CSI written as UTF-8), bidi embeddings/overrides/isolates
   and marks (U+202A..E, U+2066..9, U+200E/F, U+061C), zero-width space/joiners (U+200B..D), word
   joiner, BOM, soft hyphen, tag characters, private-use, unassigned code points and lone surrogates;
5. drops printable-but-invisible fillers (Hangul fillers, U+034F, Khmer inherent vowels, braille
   blank is turned into a space) and any non-mark character that takes zero terminal cells;
6. keeps at most `max_marks` combining marks on each base character and drops marks with no base
   (Zalgo stacks cannot grow upwards over other lines);
7. collapses runs of spaces and strips the ends;
8. optionally breaks words longer than `max_word` cells with a space (endless single words);
9. cuts at a character-cluster boundary so the result has at most `max_len` characters and at
   most `max_cells` terminal cells (`rich.cells.cell_len`; double-width CJK and emoji count 2).

The result is NFC, printable, one line, and `clean_text(clean_text(s, n), n) == clean_text(s, n)`.
"""

from __future__ import annotations

import unicodedata

from rich.cells import cell_len

__all__ = [
    "clean_text", "clean_name", "name_skeleton", "looks_alike", "is_reserved", "BadName",
    "NAME_MAX_CHARS", "MAX_MARKS",
]

MAX_MARKS = 2                 # combining marks kept per base character
NAME_MAX_CHARS = 16
_NAME_PUNCT = frozenset(" ._-")

# Printable (per str.isprintable) yet invisible or blank: drop, or for the blank ones, space.
_INVISIBLE = frozenset("\u115f\u1160\u3164\uffa0\u034f\u17b4\u17b5\u180b\u180c\u180d\u180f")
_BLANK = frozenset("\u2800")  # braille pattern blank: looks like a space


def _is_mark(ch: str) -> bool:
    return unicodedata.category(ch) in ("Mn", "Mc", "Me")


def clean_text(s: str, max_len: int, *, max_cells: int | None = None, max_marks: int = MAX_MARKS,
               max_word: int | None = None) -> str:
    """`s` made safe to show on someone else's terminal, on one line, bounded.

    max_len: characters (code points) at most; max_cells: terminal cells at most (default
    `max_len`); max_marks: combining marks kept per base character; max_word: if set, words
    wider than this many cells are broken with a space. Never raises for a str `s`; anything
    else is first turned into text with `str()` (falling back to "")."""
    s = _as_text(s)
    max_len = max(0, int(max_len))
    max_cells = max_len if max_cells is None else max(0, int(max_cells))
    if max_len == 0 or max_cells == 0 or not s:
        return ""
    # 1. A bounded prefix: generous enough for whitespace to collapse and marks to be dropped.
    s = s[: max_len * (max_marks + 8) + 64]
    # 2. NFC (lone surrogates make normalize() raise: drop them first).
    s = "".join(ch for ch in s if not 0xD800 <= ord(ch) <= 0xDFFF)
    clusters = _clusters(unicodedata.normalize("NFC", s), max_marks)
    # 8. Endless words.
    if max_word is not None and max_word > 0:
        clusters = _break_words(clusters, max_word)
    return _bounded(clusters, max_len, max_cells)


def _as_text(s: object) -> str:
    """`s`, or what str() makes of anything else ("" if that fails)."""
    if isinstance(s, str):
        return s
    try:
        s = str(s)
    except Exception:
        return ""
    return s if isinstance(s, str) else ""


def _clusters(s: str, max_marks: int) -> list[str]:
    """Steps 3-7: character by character, the clusters (a base character and its kept marks) and
    single spaces between them, none at either end."""
    clusters: list[str] = []
    marks = 0
    for ch in s:
        if ch.isspace() or ch in _BLANK:
            if clusters and clusters[-1] != " ":
                clusters.append(" ")
            marks = max_marks + 1       # a mark after a space has no base
            continue
        if not ch.isprintable() or ch in _INVISIBLE:
            continue
        if _is_mark(ch):
            if not clusters or clusters[-1] == " " or marks >= max_marks:
                continue
            clusters[-1] += ch
            marks += 1
            continue
        if cell_len(ch) == 0:
            continue                    # zero-width and not a mark: nothing to see
        clusters.append(ch)
        marks = 0
    # 7. Collapse (done above) and strip.
    while clusters and clusters[-1] == " ":
        clusters.pop()
    if clusters and clusters[0] == " ":
        clusters.pop(0)
    return clusters


def _bounded(clusters: list[str], max_len: int, max_cells: int) -> str:
    """Step 9: the clusters that fit in `max_len` characters and `max_cells` cells, as NFC text."""
    out: list[str] = []
    chars = cells = 0
    for c in clusters:
        w = cell_len(c)
        if chars + len(c) > max_len or cells + w > max_cells:
            break
        out.append(c)
        chars += len(c)
        cells += w
    while out and out[-1] == " ":
        out.pop()
    result = unicodedata.normalize("NFC", "".join(out))
    # Cluster widths add up to the string's width in practice; make sure of it.
    while result and cell_len(result) > max_cells:
        result = result[:-1].rstrip()
    return result


def _break_words(clusters: list[str], max_word: int) -> list[str]:
    out: list[str] = []
    run = 0
    for c in clusters:
        if c == " ":
            run = 0
            out.append(c)
            continue
        w = cell_len(c)
        if run + w > max_word:
            out.append(" ")
            run = 0
        out.append(c)
        run += w
    return out


# ----------------------------------------------------------------------------------------- names

class BadName(ValueError):
    """A name the room will not take; the message is meant for the player."""


def clean_name(s: str) -> str:
    """A player name: NFKC, surrounding whitespace removed, then 1 to 16 characters, each a letter,
    an ASCII digit, a space, '.', '_' or '-'; at least one letter or digit; single spaces only.

    Letters may be from any script (Cyrillic, Greek, CJK: up to 32 terminal cells); combining marks
    are not letters, so accents must have a precomposed form. Look-alikes of other names are a
    separate check (`name_skeleton`), as are reserved names (`is_reserved`). Raises BadName."""
    if not isinstance(s, str):
        raise BadName("a name is text")
    name = unicodedata.normalize("NFKC", "".join(ch for ch in s if not 0xD800 <= ord(ch) <= 0xDFFF))
    name = name.strip()
    if not name:
        raise BadName("enter a name: 1 to 16 letters, digits, spaces, '.', '_' or '-'")
    if len(name) > NAME_MAX_CHARS:
        raise BadName(f"a name has at most {NAME_MAX_CHARS} characters; this one has {len(name)}")
    for ch in name:
        if ch in _NAME_PUNCT or "0" <= ch <= "9":
            continue
        if ch.isalpha() and ch.isprintable() and ch not in _INVISIBLE and cell_len(ch) > 0:
            continue
        raise BadName(f"a name may not contain {_show_char(ch)}: use letters, digits, spaces, "
                      "'.', '_' or '-'")
    if "  " in name:
        raise BadName("use single spaces between the words of a name")
    if not any(ch.isalpha() or "0" <= ch <= "9" for ch in name):
        raise BadName("a name needs at least one letter or digit")
    return name


def _show_char(ch: str) -> str:
    """A character named safely for an error message (the message is displayed)."""
    code = f"U+{ord(ch):04X}"
    if ch.isprintable() and not ch.isspace() and not _is_mark(ch) and cell_len(ch) > 0:
        return f"{ch!r} ({code})"
    try:
        return f"{code} {unicodedata.name(ch)}"
    except ValueError:
        return code


# Homoglyphs -> a Latin lower-case stand-in. Applied after NFKC + casefold + accent stripping, so only
# lower-case forms are needed. 'i', 'l', '1', '|' and friends all become 'l'; '0' becomes 'o'.
_CONFUSABLES: dict[str, str] = {
    # digits and ASCII look-alikes
    "0": "o", "1": "l", "i": "l", "|": "l", "!": "l", "5": "s", "8": "b", "2": "z", "9": "g",
    "$": "s", "@": "a",
    # Latin extras
    "ı": "l", "ȷ": "j", "ɑ": "a", "ɡ": "g", "ɩ": "l", "ʟ": "l", "ɪ": "l", "ʀ": "r", "ʏ": "y",
    "ᴀ": "a", "ʙ": "b", "ᴄ": "c", "ᴅ": "d", "ᴇ": "e", "ɢ": "g", "ʜ": "h", "ᴊ": "j", "ᴋ": "k",
    "ᴍ": "m", "ɴ": "n", "ᴏ": "o", "ᴘ": "p", "ꜱ": "s", "ᴛ": "t", "ᴜ": "u", "ᴠ": "v", "ᴡ": "w",
    "ᴢ": "z", "ø": "o", "đ": "d", "ħ": "h", "ŀ": "l", "ł": "l", "ƅ": "b", "ɓ": "b", "ƈ": "c",
    "ɗ": "d", "ƒ": "f", "ɦ": "h", "ƙ": "k", "ɱ": "m", "ɲ": "n", "ƥ": "p", "ʠ": "q", "ɽ": "r",
    "ʂ": "s", "ƭ": "t", "ʋ": "u", "ⱳ": "w", "ƴ": "y", "ȥ": "z", "þ": "p", "ƿ": "p",
    # Cyrillic
    "а": "a", "б": "b", "в": "b", "г": "r", "д": "d", "е": "e", "ё": "e", "ж": "x", "з": "z",
    "и": "u", "й": "u", "к": "k", "л": "n", "м": "m", "н": "h", "о": "o", "п": "n", "р": "p",
    "с": "c", "т": "t", "у": "y", "ф": "o", "х": "x", "ц": "u", "ч": "y", "ш": "w", "щ": "w",
    "ъ": "b", "ы": "bl", "ь": "b", "э": "e", "ю": "lo", "я": "r", "є": "e", "ѕ": "s", "і": "l",
    "ї": "l", "ј": "j", "љ": "jb", "њ": "hb", "ћ": "h", "ђ": "h", "ќ": "k", "ў": "y", "џ": "u",
    "ғ": "f", "ҕ": "b", "қ": "k", "ҝ": "k", "ң": "h", "ҥ": "h", "ҫ": "c", "ү": "y", "ұ": "y",
    "ҳ": "x", "һ": "h", "ӏ": "l", "ӑ": "a", "ӓ": "a", "ӕ": "ae", "ӗ": "e", "ә": "e", "ӧ": "o",
    "ө": "o", "ӱ": "y", "ԁ": "d", "ԃ": "d", "ԍ": "g", "ԛ": "q", "ԝ": "w", "ԋ": "h", "ԏ": "t",
    # Greek (casefold gives the lower-case forms)
    "α": "a", "β": "b", "γ": "y", "δ": "d", "ε": "e", "ζ": "z", "η": "n", "θ": "o", "ι": "l",
    "κ": "k", "λ": "a", "μ": "u", "ν": "v", "ξ": "e", "ο": "o", "π": "n", "ρ": "p", "σ": "o",
    "ς": "c", "τ": "t", "υ": "u", "φ": "o", "χ": "x", "ψ": "w", "ω": "w", "ϲ": "c", "ϳ": "j",
    "ϝ": "f", "ϻ": "m", "ϵ": "e", "ϱ": "p", "ϐ": "b", "ϑ": "o", "ϒ": "y", "ϰ": "k",
    # Armenian / Cherokee / other frequent spoofs
    "օ": "o", "ս": "u", "հ": "h", "ո": "n", "ց": "g", "ք": "p", "զ": "q", "ա": "w",
    "ꭰ": "d", "ꭱ": "r", "ꭲ": "t", "ꭵ": "l", "ꭺ": "a", "ꮃ": "w", "ꮇ": "m", "ꮋ": "h", "ꮪ": "s",
}
# Multi-letter look-alikes, applied (to a fixed point) after the single characters.
_DIGRAPHS = (("rn", "m"), ("vv", "w"), ("cl", "d"))
_SEPARATORS = frozenset(" ._-'`\u2019")


def name_skeleton(name: str) -> str:
    """What `name` looks like, for comparing names: equal skeletons = look-alikes.

    NFKC, casefold, accents removed (NFD, drop marks), separators (space . _ - ') removed,
    homoglyphs mapped to a Latin letter (Cyrillic 'а' -> 'a', Greek 'ο' -> 'o', '0' -> 'o',
    '1'/'i'/'I'/'l' -> 'l', '5' -> 's' ...), then 'rn' -> 'm', 'vv' -> 'w', 'cl' -> 'd'.
    A skeleton is only for comparison; never show it."""
    if not isinstance(name, str):
        return ""
    s = "".join(ch for ch in name if not 0xD800 <= ord(ch) <= 0xDFFF)
    s = unicodedata.normalize("NFKC", s).casefold()
    s = unicodedata.normalize("NFD", s)
    out = []
    for ch in s:
        if _is_mark(ch) or ch in _SEPARATORS or ch.isspace() or not ch.isprintable():
            continue
        out.append(_CONFUSABLES.get(ch, ch))
    s = "".join(out)
    changed = True
    while changed:
        changed = False
        for a, b in _DIGRAPHS:
            if a in s:
                s = s.replace(a, b)
                changed = True
    return s


def looks_alike(a: str, b: str) -> bool:
    """True when the two names could be mistaken for each other on screen."""
    return name_skeleton(a) == name_skeleton(b)


# Names that would let a player pass as the house. Compared as skeletons, so look-alikes match too.
# "Room" and "Table" are the names the house's own chat lines go by ("Room: The room closes in 10
# seconds", "Table: bob sits down"), as "Dealer" is (issue 34: a player named Room could write them).
_RESERVED_WORDS = ("dealer", "system", "admin", "administrator", "moderator", "cardroom", "croupier",
                   "sysop")
_RESERVED_EXACT = ("root", "server", "support", "staff", "house", "host", "mod", "operator", "official",
                   "notice", "console", "everyone", "room", "table")
_RESERVED_AFFIX = tuple(name_skeleton(w) for w in _RESERVED_WORDS)
_RESERVED_FULL = frozenset(name_skeleton(w) for w in _RESERVED_EXACT) | frozenset(_RESERVED_AFFIX)


def is_reserved(name: str) -> bool:
    """True if `name` imitates the dealer, the system, an admin or the house: "Dealer", "SYSTEM",
    "Dea1er", "аdmin" (Cyrillic а), "The Dealer", "TheDealer", "admin_2", "Dealer Bob".

    A word of the name (split at spaces . _ -) whose skeleton is reserved, or a whole skeleton that
    begins or ends with one of the long reserved words ("dealer", "system", "admin"...). Words in
    the middle of a longer word are left alone ("Badminton" is fine, "Ecosystem" is not)."""
    if not isinstance(name, str):
        return False
    sk = name_skeleton(name)
    if not sk:
        return False
    if sk in _RESERVED_FULL or any(sk.startswith(w) or sk.endswith(w) for w in _RESERVED_AFFIX):
        return True
    words = unicodedata.normalize("NFKC", "".join(
        ch for ch in name if not 0xD800 <= ord(ch) <= 0xDFFF)).replace(".", " ").replace("_", " ")
    words = words.replace("-", " ")
    return any(name_skeleton(w) in _RESERVED_FULL for w in words.split())
