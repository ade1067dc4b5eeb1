"""Pure terminal facts about one SSH session: size clamping, TERM sanitising, colour depth.

No Textual, no asyncssh: the driver and the session both use these, and they are easy to test.
Everything a client sends here (TERM, COLORTERM, NO_COLOR, LANG, sizes) is an untrusted hint.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cardroom.ssh.hosting import SessionHosting

MIN_SIZE = (20, 10)
MAX_SIZE = (500, 200)
DEFAULT_SIZE = (80, 24)
MAX_TERM_LEN = 64


class ColorDepth(enum.Enum):
    """How many colours a client's terminal can show (what the driver downgrades output to)."""

    NONE = "none"
    STANDARD = "16"
    EIGHT_BIT = "256"
    TRUECOLOR = "truecolor"


def clamp_size(
    width: int,
    height: int,
    *,
    minimum: tuple[int, int] = MIN_SIZE,
    maximum: tuple[int, int] = MAX_SIZE,
) -> tuple[int, int]:
    """Clamp a client-reported size; 0 (\"unknown\", legal in SSH) means the default."""
    width = width if width > 0 else DEFAULT_SIZE[0]
    height = height if height > 0 else DEFAULT_SIZE[1]
    return (min(max(width, minimum[0]), maximum[0]), min(max(height, minimum[1]), maximum[1]))


def sanitize_term(term: str | None) -> str:
    """Keep a TERM value we may log and match on: short, lower-case, [a-z0-9.+_-] only."""
    if not term:
        return "unknown"
    cleaned = "".join(ch for ch in term[:MAX_TERM_LEN].lower() if ch.isascii() and (ch.isalnum() or ch in ".+_-"))
    return cleaned or "unknown"


# Terminals whose TERM does not say "256color" but which do show 24-bit colour.
_TRUECOLOR_TERMS = ("xterm-kitty", "alacritty", "wezterm", "foot", "xterm-ghostty", "contour", "iterm2")
_MONOCHROME_TERMS = ("dumb", "vt52", "vt100", "vt102", "vt220", "vt320", "unknown")


def detect_color_depth(term: str, env: Mapping[str, str] | None = None) -> ColorDepth:
    """Colour depth for one session from the client's TERM and (optional) env hints.

    Order: NO_COLOR (no-color.org: present and non-empty) wins; then monochrome TERMs; then
    COLORTERM=truecolor/24bit (what OpenSSH users pass with SetEnv); then the TERM name.
    """
    env = env or {}
    term = sanitize_term(term)
    if env.get("NO_COLOR", ""):
        return ColorDepth.NONE
    if term in _MONOCHROME_TERMS or term.endswith("-mono") or term.endswith("-m"):
        return ColorDepth.NONE
    if env.get("COLORTERM", "").strip().lower() in ("truecolor", "24bit"):
        return ColorDepth.TRUECOLOR
    if term.endswith("-direct") or term.endswith("-truecolor") or term in _TRUECOLOR_TERMS:
        return ColorDepth.TRUECOLOR
    if "256color" in term:
        return ColorDepth.EIGHT_BIT
    return ColorDepth.STANDARD


def locale_is_utf8(env: Mapping[str, str] | None = None) -> bool:
    """Does the client's locale (LC_ALL, else LC_CTYPE, else LANG: POSIX's order, the first one
    set decides) say UTF-8? OpenSSH sends LANG and LC_* where the client's ssh_config says SendEnv
    (Debian's and Fedora's do). None sent: we can't tell, and assume UTF-8 as most terminals are."""
    env = env or {}
    for name in ("LC_ALL", "LC_CTYPE", "LANG"):
        value = env.get(name, "")
        if value:
            charset = value.partition(".")[2].partition("@")[0]
            return charset.lower().replace("-", "").replace("_", "") == "utf8"
    return True


@dataclass(frozen=True, slots=True)
class SessionInfo:
    """What the app factory learns about the person at the other end (all already sanitised)."""

    username: str
    term: str
    color_depth: ColorDepth
    size: tuple[int, int]
    peer_address: str
    key_fingerprint: str | None = None
    # `end(reason)` ends this session: the app exits (giving the terminal back), then the reason
    # is written on the terminal, where the player's ssh client leaves it (AppSession.end).
    end: Callable[[str], None] | None = field(default=None, compare=False, repr=False)
    utf8: bool = True          # the client's locale says UTF-8 (or says nothing): symbols are shown
    # What hosts this session's app (ssh/hosting.py SessionHosting): the factory hands it to the
    # app it builds, and may ask it to do something once the app has ended.
    hosting: SessionHosting | None = field(default=None, compare=False, repr=False)
