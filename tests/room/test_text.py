"""Text that reaches someone else's screen (notes/hostile-input.md): each hostile class has a test
that fails without its defence, plus properties over arbitrary text."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.cells import cell_len
from rich.console import Console
from rich.text import Text

from cardroom.room.text import (
    BadName, MAX_MARKS, clean_name, clean_text, is_reserved, looks_alike, name_skeleton,
)

ESC = "\x1b"
BIDI = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c"
ZERO_WIDTH = "\u200b\u200c\u200d\u2060\ufeff\u00ad\u180e\u3164\u115f\u1160\uffa0\u034f"


def assert_safe(out: str, max_len: int = 10_000, max_cells: int | None = None) -> None:
    """What every cleaned string must be, whatever went in."""
    assert isinstance(out, str)
    assert out.isprintable(), repr(out)                       # no C0/C1/ESC/bidi/separators/surrogates
    assert not any(ch in BIDI or ch in ZERO_WIDTH for ch in out), repr(out)
    assert "\n" not in out and "\r" not in out
    assert out == out.strip() and "  " not in out
    assert len(out) <= max_len
    assert cell_len(out) <= (max_len if max_cells is None else max_cells)
    assert unicodedata.is_normalized("NFC", out)
    run = 0
    for ch in out:
        run = run + 1 if unicodedata.category(ch) in ("Mn", "Mc", "Me") else 0
        assert run <= MAX_MARKS, repr(out)
    assert Text(out).plain == out                            # plain Text: nothing interpreted


# ------------------------------------------------------------------------------ escape and controls

@pytest.mark.parametrize("hostile", [
    f"{ESC}[31mred{ESC}[0m",                         # CSI SGR
    f"{ESC}[2J{ESC}[H",                              # clear screen, cursor home
    f"{ESC}[6n",                                     # cursor position query (answer lands in input)
    f"{ESC}[?1000h{ESC}[?1006h",                     # mouse mode on
    f"{ESC}[?2004h",                                 # bracketed paste toggle
    f"{ESC}]0;pwned{ESC}\\",                         # OSC title, ST-terminated
    f"{ESC}]2;pwned\x07",                            # OSC title, BEL-terminated
    f"{ESC}]52;c;cm0gLXJmIH4=\x07",                  # OSC 52 clipboard write
    f"{ESC}]8;;http://evil.example/\x07click{ESC}]8;;\x07",   # OSC 8 hyperlink
    f"{ESC}P1$r{ESC}\\",                             # DCS (DECRQSS query)
    f"{ESC}_apc{ESC}\\", f"{ESC}^pm{ESC}\\", f"{ESC}Xsos{ESC}\\",   # APC, PM, SOS
    f"{ESC}c",                                       # RIS: full terminal reset
])
def test_escape_sequences_lose_their_escape(hostile):
    out = clean_text("hi " + hostile + " there", 200)
    assert_safe(out)
    assert ESC not in out and "\x07" not in out
    assert out.startswith("hi ") and out.endswith("there")


@pytest.mark.parametrize("c1", [chr(c) for c in range(0x80, 0xA0)])
def test_c1_controls_written_as_utf8(c1):
    # U+009B is the 8-bit CSI: "\u009b31m" must not become an SGR on a terminal that honours C1.
    out = clean_text(f"a{c1}31mb", 50)
    assert out == ("a 31mb" if c1 == "\x85" else "a31mb")     # NEL is a line break: a space
    assert_safe(out)


@pytest.mark.parametrize("raw, expected", [
    ("ding\x07\x07\x07\x07dong", "dingdong"),        # BEL flood
    ("Alice wins\rBob wins", "Alice wins Bob wins"),  # bare CR cannot overwrite the line
    ("line1\nline2\r\nline3", "line1 line2 line3"),  # no fake new lines (a fake "Dealer:" line)
    ("abc\x08\x08\x08xyz", "abcxyz"),                # backspaces cannot erase what was shown
    ("nul\x00 del\x7f", "nul del"),                 # NUL / DEL
    ("tab\there\vvt\fff", "tab here vt ff"),
    ("\x85next\u2028line\u2029para", "next line para"),   # NEL, line and paragraph separators
    ("".join(chr(c) for c in range(32)) + "ok", "ok"),
])
def test_controls(raw, expected):
    out = clean_text(raw, 200)
    assert out == expected
    assert_safe(out)


# ------------------------------------------------------------------------------ invisible text

@pytest.mark.parametrize("ch", list(BIDI))
def test_bidi_controls_are_dropped(ch):
    # "exe.gnp" shown as "png.exe", or a name that flips the rest of a chat line.
    out = clean_text(f"my{ch}gnp.exe", 50)
    assert out == "mygnp.exe"


@pytest.mark.parametrize("ch", list(ZERO_WIDTH))
def test_zero_width_and_soft_hyphen_are_dropped(ch):
    assert clean_text(f"Al{ch}ice", 50) == "Alice"


def test_tag_characters_private_use_and_surrogates():
    assert clean_text("a\U000e0041\U000e007fb", 10) == "ab"            # tag characters
    assert clean_text("a\ue000\U000f0000b", 10) == "ab"                 # private use
    assert clean_text("a\ud800b\udfffc", 10) == "abc"                   # lone surrogates
    assert clean_text("a\u2800\u2800b", 10) == "a b"                    # braille blank is a space


# ------------------------------------------------------------------------------ layout breakers

def test_combining_mark_stacks_are_capped():
    zalgo = "Z" + "\u0301\u0302\u0303\u0304\u0305\u0306\u0307\u0308" * 50 + "A" + "\u0316" * 200 + "L"
    out = clean_text(zalgo, 100)
    assert_safe(out, 100)
    assert [c for c in unicodedata.normalize("NFD", out) if not unicodedata.combining(c)] == ["Z", "A", "L"]
    assert len(out) <= 3 * (1 + MAX_MARKS)


def test_marks_without_a_base_are_dropped():
    assert clean_text("\u0301\u0301abc", 10) == "abc"
    assert clean_text("a \u0301\u0301b", 10) == "a b"


def test_accents_still_work():
    assert clean_text("Jürgen José Zoë", 50) == "Jürgen José Zoë"
    assert clean_text("Jo\u0301se\u0301", 50) == "Jósé"                  # NFC: composed


def test_endless_single_word():
    out = clean_text("A" * 1_000_000, 200)
    assert out == "A" * 200
    out = clean_text("W" * 500, 200, max_word=30)
    assert_safe(out, 200)
    assert max(len(w) for w in out.split(" ")) <= 30


def test_double_width_characters_are_bounded_by_cells():
    out = clean_text("中" * 100, 50)
    assert cell_len(out) <= 50 and out == "中" * 25
    out = clean_text("😀" * 100, 80, max_cells=10)
    assert cell_len(out) <= 10 and len(out) == 5
    out = clean_text("ab中", 3)
    assert out == "ab"                                                   # never half a wide char


def test_emoji_sequences():
    family = "\U0001F468\u200d\U0001F469\u200d\U0001F467"   # ZWJ sequence: joiners dropped
    out = clean_text(family * 50, 40)
    assert_safe(out, 40)
    flag = "\U0001F1FA\U0001F1F8"                          # regional indicators
    assert_safe(clean_text(flag * 100, 20), 20)
    heart = "\u2764\ufe0f"                                   # variation selector counts as a mark
    assert clean_text(heart, 5) == heart


def test_whitespace_is_collapsed():
    assert clean_text("  a \t\t b \u3000 c\u00a0\u00a0d  ", 50) == "a b c d"
    assert clean_text(" \n\t ", 50) == ""


def test_bounds_and_odd_arguments():
    assert clean_text("hello", 0) == ""
    assert clean_text("hello", 3) == "hel"
    assert clean_text("hello", -5) == ""
    assert clean_text("", 10) == ""
    assert clean_text("a b", 2) == "a"                                   # no trailing space after a cut
    assert clean_text(12345, 10) == "12345"                              # not a str: str() of it

    class Nasty:
        def __str__(self):
            raise RuntimeError

    assert clean_text(Nasty(), 10) == ""


# ------------------------------------------------------------------------------ markup stays literal

@pytest.mark.parametrize("markup", [
    "[bold]x[/]", "[/]", "[/bold]", "[red on white]big[/red on white]",
    "[link=https://evil.example]click me[/link]", "[@click=app.quit]win a prize[/]",
    "[blink]", "\\[escaped]", "[", "]", ":smile: :warning:", "[b][i][u]" * 20,
])
def test_rich_markup_stays_literal(markup):
    out = clean_text(markup, 200)
    assert out == markup                                                    # brackets are text
    assert Text(out).plain == out
    console = Console(width=300, record=True, color_system=None, force_terminal=False, emoji=False)
    console.print(Text(out))
    assert console.export_text().rstrip("\n") == out
    assert not Text(out).spans                                              # nothing styled


def test_markup_text_is_unchanged():
    assert clean_text("[bold]x[/]", 50) == "[bold]x[/]"


# ------------------------------------------------------------------------------ properties

@settings(max_examples=400, deadline=None)
@given(st.text(max_size=400), st.integers(min_value=0, max_value=120))
def test_any_text_comes_out_safe(s, n):
    out = clean_text(s, n)
    assert_safe(out, n)
    assert clean_text(out, n) == out                                        # idempotent


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.characters(codec="utf-8"), max_size=300), st.integers(1, 60),
       st.integers(1, 60))
def test_cells_bound(s, n, cells):
    out = clean_text(s, n, max_cells=cells)
    assert_safe(out, n, cells)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(["\x1b[", "\x9b", "\x1b]", "\x07", "\r", "\b", "\x00", "\u202e", "\u200b",
                                 "\u0301", "中", "[b]", "[/]", " ", "a", "Z", "\n", "\u00ad", "\ufe0f"]),
                max_size=200))
def test_hostile_mixtures(parts):
    assert_safe(clean_text("".join(parts), 80), 80)


# ------------------------------------------------------------------------------ names

@pytest.mark.parametrize("raw, name", [
    ("Alice", "Alice"), ("  Bob  ", "Bob"), ("ＡＢＣ", "ABC"), ("Jürgen", "Jürgen"), ("Ju\u0308rgen", "Jürgen"),
    ("李小龙", "李小龙"), ("Мария", "Мария"), ("jo_bo-3.x", "jo_bo-3.x"), ("a b c", "a b c"), ("x" * 16, "x" * 16),
    ("ﬁsh", "fish"),
])
def test_clean_name_accepts(raw, name):
    assert clean_name(raw) == name


@pytest.mark.parametrize("raw, fragment", [
    ("", "enter a name"), ("   ", "enter a name"), ("x" * 17, "at most 16"), ("a  b", "single spaces"),
    ("...", "at least one letter"), ("-_-", "at least one letter"),
    ("Bob\x1b[31m", "U+001B"), ("Al\u200bice", "U+200B"), ("Al\u202eice", "U+202E"), ("a\nb", "U+000A"),
    ("\u3164", "U+1160"), ("Bob!", "'!'"), ("[bold]x", "'['"), ("a\u0301\u0301\u0301", "U+0301"),
    ("٣", "U+0663"), ("😀", "U+1F600"), (None, "text"),
])
def test_clean_name_refuses(raw, fragment):
    with pytest.raises(BadName) as e:
        clean_name(raw)
    msg = str(e.value)
    assert fragment in msg, msg
    assert msg.isprintable()                  # the message is shown: it must be safe itself
    assert issubclass(BadName, ValueError)


@pytest.mark.parametrize("a, b", [
    ("A1ice", "Alice"), ("\u0410lice", "Alice"), ("Аlice", "alice"), ("ALICE", "alice"),
    ("A l i c e", "Alice"), ("Al.ice", "Alice"), ("AIice", "Alice"), ("Αlice", "Alice"),   # Greek Alpha
    ("B0b", "Bob"), ("rnike", "mike"), ("vvill", "will"), ("ＢＯＢ", "bob"), ("Alíce", "Alice"),
    ("Ѕаm", "Sam"), ("рорру", "poppy"), ("ΚΟΡΑ", "kopa"),
])
def test_look_alike_names(a, b):
    assert looks_alike(a, b), (name_skeleton(a), name_skeleton(b))


@pytest.mark.parametrize("a, b", [("Alice", "Alicia"), ("Bob", "Rob"), ("Sam", "Pam"), ("Anna", "Ana")])
def test_different_names(a, b):
    assert not looks_alike(a, b)


@pytest.mark.parametrize("name", [
    "Dealer", "dealer", "DEALER", "Dea1er", "DeaIer", "Dеaler",   # the last with a Cyrillic е
    "The Dealer", "TheDealer", "Dealer Bob", "dealer_2",
    "SYSTEM", "System", "Sуstem", "5ystem", "admin", "Admin", "ADMIN", "аdmin", "adrnin", "admin_2", "Admin.",
    "Administrator", "Moderator", "root", "Server", "Support", "House", "Cardroom",
    "Room", "ROOM", "room", "R00m", "Rооm", "Table", "TABLE", "Tab1e", "Тable", "The Room", "Table 5",
])
def test_reserved_names(name):
    assert is_reserved(name), name_skeleton(name)


@pytest.mark.parametrize("name", ["Alice", "Bob", "Badminton", "Deal", "Sam", "Dale", "Hostess", "Ruth", "",
                                  "李小龙", "Broom", "Roomba", "Stable", "Tablet"])
def test_ordinary_names_are_not_reserved(name):
    assert not is_reserved(name)


def test_skeleton_never_raises():
    for s in ("", "\ud800", "\x00", "a" * 10_000, None):
        assert isinstance(name_skeleton(s), str)
    assert not is_reserved(None)
