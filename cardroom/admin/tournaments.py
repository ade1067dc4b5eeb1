"""The operator's words for tournaments (admin/commands.py runs them): which tournament a command
names, and what `tournaments` and `tournament NAME` print. Plain text lines, every user-made
string cleaned; a name that matches nothing is a RoomError naming the tournaments there are."""

from __future__ import annotations

from cardroom.room import api
from cardroom.room.admin import RoomAdmin
from cardroom.room.narration import money
from cardroom.room.text import clean_text

NAME_SHOWN = 40
PLAYERS_SHOWN = 200        # lines of standings `tournament NAME` prints at most


def _show(text: str) -> str:
    return clean_text(text, NAME_SHOWN)


def _when(seconds: float | None) -> str:
    if seconds is None:
        return ""
    minutes, secs = divmod(int(seconds), 60)
    return f"{minutes}:{secs:02d}"


def named(admin: RoomAdmin, rest: str, prefer: tuple[str, ...]) -> tuple[api.TournamentView, str]:
    """The tournament `rest` starts with ("#N", a name with spaces, or a quoted name) and the
    rest of the line. Of several with that name, the first in a state of `prefer`."""
    text = rest.strip()
    if not text:
        raise api.RoomError("which tournament? (its name, or #N: see tournaments)")
    first, _, after = text.partition(" ")
    if first.startswith("#"):
        return admin.find_tournament(first, prefer), after.strip()
    if text[0] in "'\"" and (end := text.find(text[0], 1)) > 0:
        return admin.find_tournament(text[1:end], prefer), text[end + 1:].strip()
    names = sorted({v.summary.name for v in admin.tournaments()}, key=len, reverse=True)
    for name in names:
        if text.casefold() == name.casefold() or text.casefold().startswith(name.casefold() + " "):
            return admin.find_tournament(name, prefer), text[len(name):].strip()
    return admin.find_tournament(text, prefer), ""      # names what there is


def row(v: api.TournamentView) -> str:
    s = v.summary
    cost = f"{money(s.buy_in)}+{money(s.fee)}" if s.buy_in or s.fee else "freeroll"
    entries = f"{s.entries}/{s.max_entries}" if s.max_entries is not None else f"{s.entries}"
    when = f", starts in {_when(s.starts_in)}" if s.starts_in is not None else ""
    left = f", {s.players_left} left" if s.state not in ("registering", "cancelled") else ""
    return (f"#{s.number} {_show(s.name)}: {s.game} {s.structure}, {cost}, {entries} entries, {s.state}"
            f"{when}{left}, prize pool {money(s.prize_pool)}")


def listing(views: list[api.TournamentView]) -> list[str]:
    return [row(v) for v in views] or ["no tournaments"]


def details(v: api.TournamentView) -> list[str]:
    lines = [row(v)]
    if v.level:
        stakes = v.levels[v.level - 1].stakes
        lines.append(f"level {v.level} ({stakes})" + (", paused" if v.paused else "")
                     + (", hand for hand" if v.hand_for_hand else "")
                     + (", late registration open" if v.late_registration else ""))
    if v.payouts:
        lines.append("payouts: " + ", ".join(money(p) for p in v.payouts))
    for t in v.tables:
        lines.append(f"table {t.number} ({_show(t.name)}): {t.players} players"
                     + (", hand in progress" if t.hand_live else ""))
    for p in v.players[:PLAYERS_SHOWN]:
        if p.place is None and p.table is not None:
            lines.append(f"  {_show(p.name):<16} {p.chips:>10,} chips  table {_show(p.table)} seat {p.seat}")
        elif p.place is not None:
            lines.append(f"  {_show(p.name):<16} finished {p.place}" + (f", won {money(p.prize)}" if p.prize else ""))
        else:
            lines.append(f"  {_show(p.name):<16} registered")
    if len(v.players) > PLAYERS_SHOWN:
        lines.append(f"  ... {len(v.players) - PLAYERS_SHOWN} more")
    return lines


__all__ = ["details", "listing", "named", "row"]
