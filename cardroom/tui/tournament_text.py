"""What the tournament screens say, as pure functions of room/api.py's tournament records: the
lobby's row of a tournament, a tournament's title and my standing, its players, levels and payouts,
the line a tournament table shows, and the words for a finish. Names come from other users: they
are only ever put into `Text` (never markup), as the room sanitised them."""

from __future__ import annotations

from functools import lru_cache

from rich.text import Text

from cardroom.engine.variants import UnknownVariant, find_variant
from cardroom.room.api import TournamentLine, TournamentPlayer, TournamentSummary, TournamentView
from cardroom.tui.render import money

STRUCTURES = {"No Limit": "NL", "Pot Limit": "PL", "Limit": "Limit", "Spread Limit": "Spread"}
LIVE = ("late registration", "running", "on break", "paused")       # states with players at tables


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def chips(n: int) -> str:
    """Tournament chips are not money: "12,500"."""
    return f"{n:,}"


def clock(seconds: float | None) -> str:
    """"4:05", "1:02:03"; "" for no time."""
    if seconds is None:
        return ""
    s = max(0, int(seconds + 0.999))        # a count down shows 0:00 only when it is over
    h, rest = divmod(s, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


def short_game(game: str, structure: str) -> str:
    """"NL Hold'em", "Limit Draw Lo"."""
    try:
        name = find_variant(game).short_name or game
    except UnknownVariant:
        name = game
    return f"{STRUCTURES.get(structure, structure)} {name}"


def buy_in(s: TournamentSummary) -> str:
    """"$10 + $1", "Freeroll"."""
    if not s.buy_in and not s.fee:
        return "Freeroll"
    return f"{money(s.buy_in)} + {money(s.fee)}"


def starts(s: TournamentSummary, narrow: bool) -> str:
    """When it starts (registering), or how many are left (under way)."""
    if s.state == "registering":
        if s.starts_at is None:
            return "when full" if s.kind == "sit-and-go" else ""
        at = s.starts_at.strftime("%H:%M")
        if s.starts_in is None:
            return at
        minutes = int(s.starts_in // 60)
        soon = f"{minutes // 60}h{minutes % 60:02d}" if minutes >= 60 else f"{minutes}m"
        return f"in {soon}" if narrow else f"{at} UTC, in {soon}"
    if s.state in LIVE:
        return f"{s.players_left} left"
    return ""


def entries(s: TournamentSummary) -> str:
    return f"{s.entries}/{s.max_entries}" if s.max_entries else str(s.entries)


TOURNAMENT_COLUMNS = ("#", "Tournament", "Game", "Buy-in", "Players", "State", "Starts")
NARROW_STATES = {"late registration": "late reg", "registering": "open", "cancelled": "cancelled"}


def lobby_row(s: TournamentSummary, narrow: bool) -> tuple:
    """A tournament's cells in the lobby's tournaments list."""
    return _lobby_cells(s.number, s.name, s.game, s.structure, buy_in(s), entries(s), s.state,
                        starts(s, narrow), narrow)


@lru_cache(maxsize=1024)
def _lobby_cells(number: int, name: str, game: str, structure: str, cost: str, players: str, state: str,
                 when: str, narrow: bool) -> tuple:
    """Made once for every session that sees the same row (the lobby's tables are made so too)."""
    shown_state = NARROW_STATES.get(state, state) if narrow else state
    style = "bold" if state in ("registering", "late registration") else "dim" if state in ("finished", "cancelled") else ""
    cells = (Text(f"#{number}", "dim"), Text(name, style), Text(short_game(game, structure)),
             Text(cost.replace(" + ", "+") if narrow else cost), Text(players), Text(shown_state, style),
             Text(when))
    if not narrow:
        return cells
    return tuple(Text(" ") + c for c in cells)


# ------------------------------------------------------------------ the tournament's own lobby

def title(v: TournamentView) -> Text:
    s = v.summary
    return Text.assemble((f"{s.name} #{s.number}", "bold"), f"   {short_game(s.game, s.structure)}",
                         f"   {buy_in(s)}", f"   {state_words(v)}")


def state_words(v: TournamentView) -> str:
    s = v.summary
    if s.state == "registering":
        when = starts(s, narrow=False)
        return f"registering, starts {when}" if when else "registering"
    if s.state in LIVE:
        level = level_of(v)
        out = f"{s.state}, level {v.level}" + (f" ({level.stakes})" if level is not None else "")
        if v.hand_for_hand:
            out += ", hand for hand"
        return out
    return s.state


def level_of(v: TournamentView):
    return v.levels[v.level - 1] if 0 < v.level <= len(v.levels) else None


def standing(v: TournamentView) -> Text:
    """My place in it, and what I may do (r / u)."""
    s, me = v.summary, v.me
    pool = f"   Pool {money(s.prize_pool)}, {s.entries} entr{'y' if s.entries == 1 else 'ies'}"
    if me is not None and me.place is not None:
        won = f" and won {money(me.prize)}" if me.prize else ": no prize"
        line = Text.assemble(("You finished ", "bold"), (f"{ordinal(me.place)} of {s.entries}{won}", "bold"))
    elif me is not None and me.table is not None:
        line = Text.assemble(("You: ", "bold"), (f"{ordinal(v.my_rank)} of {s.players_left}" if v.my_rank else "in", "bold"),
                             f", {chips(me.chips)} chips, table {table_number(v, me.table)} seat {me.seat}")
    elif v.registered:
        line = Text.assemble(("You are registered", "bold green"),
                             " (u unregisters)" if s.state == "registering" else "")
    elif not v.may_register:
        line = Text.assemble(("Not registered", "bold"), f": r registers ({buy_in(s)})")
    else:
        line = Text.assemble(("Not registered", "bold"), f": {v.may_register}")
    line.append(pool, "dim")
    return line


def table_number(v: TournamentView, name: str) -> str:
    for t in v.tables:
        if t.name == name:
            return str(t.number)
    return name


PLAYER_COLUMNS = ("#", "Player", "Chips", "Table")


def player_rows(v: TournamentView) -> list[tuple]:
    """(key, cells) per entry: those in by chips (their rank), then those out by place (their prize)."""
    numbers = {t.name: t.number for t in v.tables}
    me = v.me.entry if v.me is not None else None
    rows, rank = [], 0
    for p in v.players:
        rank += p.place is None
        table = numbers.get(p.table, 0) if p.table is not None else 0
        rows.append((("entry", p.entry), _player_cells(p, rank, table, p.entry == me)))
    return rows


@lru_cache(maxsize=8192)
def _player_cells(p: TournamentPlayer, rank: int, table: int, mine: bool) -> tuple:
    """One entry's cells, made once for every session and every reading that shows it alike: a
    big tournament's lobby is a thousand rows, read again at each registration by each player."""
    style = "bold" if mine else ""
    if p.place is None:
        where = f"{table or '?'}/{p.seat}" if p.table is not None else ""
        return (Text(str(rank)), Text(p.name, style), Text(chips(p.chips), style), Text(where))
    prize = money(p.prize) if p.prize else "out"
    return (Text(ordinal(p.place), "dim"), Text(p.name, style or "dim"), Text(prize, "dim"), Text(""))


def player_table(v: TournamentView, entry: int) -> str | None:
    p: TournamentPlayer | None = next((p for p in v.players if p.entry == entry), None)
    return p.table if p is not None else None


TABLE_COLUMNS = ("Table", "Players", "")


def table_rows(v: TournamentView) -> list[tuple]:
    return [(t.name, (Text(f"Table {t.number}"), Text(str(t.players)), Text("in a hand" if t.hand_live else "", "dim")))
            for t in v.tables]


def levels_text(v: TournamentView) -> Text:
    """The schedule from the level in force (marked) on, a line each (the screen shows what fits)."""
    first = max(0, v.level - 1)
    lines = []
    for lv in v.levels[first:]:
        mark = lv.number == v.level
        lines.append(Text.assemble((">" if mark else " ", "bold"), f"{lv.number:>3} ",
                                   (lv.stakes, "bold" if mark else ""), f"  {lv.minutes} min"))
        if lv.break_after:
            lines.append(Text(f"      break, {lv.break_after} min", "dim"))
    return Text("\n", no_wrap=True, overflow="ellipsis").join(lines)


def payouts_text(v: TournamentView) -> Text:
    if not v.payouts:
        return Text("Prizes: none yet", "dim")
    parts = [f"{ordinal(i)} {money(p)}" for i, p in enumerate(v.payouts, 1)]
    return Text("  ".join(parts))


# ------------------------------------------------------------------ at a tournament table

def table_line(t: TournamentLine, elapsed: float, narrow: bool) -> Text:
    """The tournament's line on its table's screen, `elapsed` seconds after the view was read."""
    def left(seconds: float | None) -> float | None:
        return None if seconds is None else max(0.0, seconds - elapsed)

    parts: list[tuple[str, str]] = []
    if t.on_break:
        parts.append((f"On break{', ' + clock(left(t.next_level_in)) if t.next_level_in is not None else ''}",
                      "bold yellow"))
        # On a break the line's level is the one the break comes before (engine levels.Stage).
        parts.append((f"then level {t.level}: {t.stakes}" if not narrow else f"then {t.stakes}", ""))
    else:
        parts.append((f"{'Lvl' if narrow else 'Level'} {t.level}: {t.stakes}", "bold"))
        if t.next_level_in is not None:
            parts.append((f"next {clock(left(t.next_level_in))}", ""))
        if t.next_break_in is not None:
            parts.append((f"break {'' if narrow else 'in '}{clock(left(t.next_break_in))}", "dim"))
    if t.paused:
        parts.append(("paused", "bold red"))
    if t.hand_for_hand:
        parts.append(("hand for hand", "bold yellow"))
    parts.append((f"{t.players_left}/{t.entrants} left", ""))
    parts.append((f"avg {chips(t.average_stack)}", ""))
    if t.my_rank is not None:
        parts.append((f"you {ordinal(t.my_rank)}", "bold"))
    line = Text(no_wrap=True, overflow="ellipsis")
    for text, style in parts:
        if not text:
            continue
        if line:
            line.append("  ")
        line.append(text, style)
    return line


def line_ticks(t: TournamentLine | None) -> bool:
    """Does this line count down (its text changes by the second)?"""
    return t is not None and not t.paused and (t.next_level_in is not None or t.next_break_in is not None)


def finish_words(place: int, entrants: int, prize: int) -> str:
    """"You finished 7th of 45 and won $1.20" (or ": no prize")."""
    won = f" and won {money(prize)}" if prize else ": no prize"
    return f"You finished {ordinal(place)} of {entrants}{won}"
