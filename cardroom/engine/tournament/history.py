"""What a tournament's histories say besides the hands themselves, as records, and the pure
functions that make them from the director's records (the writers: pokerstars.py for the hands,
pokerstars_summary.py for the summary, phh/ for PHH).

- `TournamentHand`: a hand's place in its tournament. `to_pokerstars(hand, ..., tournament=th)`
  writes PokerStars' tournament header ("Tournament #T, 10+1 Hold'em No Limit - Level III
  (25/50)"), the table "T n", chips as whole numbers, and the places the hand decided;
  `phh.export_hand(hand, ..., tournament=th)` writes PHH's `event`, `level` and `table` and the
  rest in `_cardroom_` fields, which `phh.tournament_of` reads back.
- `TournamentResult`: the tournament as one player's summary tells it (`tournament_summary`).

The room (at each hand's end):

    th = hand_in_tournament(spec, tournament_id, deal, records, currency=room_currency)
    text = to_pokerstars(hand, hand_id=..., when=..., max_seats=spec.table_size, hero=me, tournament=th)

where `deal` is the director's Deal for the hand and `records` what `hand_ended` returned (and any
later Placed records of its players: a place decided at the end of a hand-for-hand round, or when
late registration closes, is written in the hands that were given it). And for a player's summary:

    result = tournament_result(director, tournament_id, placed, started=..., finished=..., names=...)
    text = tournament_summary(result, viewer="alice")

Money (buy-in, fee, prizes) is cents in `currency` (the room's: "play" or an ISO code, pokerstars.py
CURRENCIES); chips are chips.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Iterable, Mapping

from cardroom.engine.pokerstars import PLAY, header_stakes
from cardroom.engine.tournament.director import Director
from cardroom.engine.tournament.records import Deal, Placed, Player, Record
from cardroom.engine.tournament.spec import TournamentSpec

__all__ = ["Finish", "TournamentHand", "Entrant", "TournamentResult", "hand_in_tournament", "finishes_of",
           "tournament_result"]


def _whole(value: object, what: str, least: int = 0) -> None:
    if type(value) is not int or value < least:
        raise ValueError(f"{what} must be a whole number of at least {least}, not {value!r}")


@dataclass(frozen=True, slots=True)
class Finish:
    """A place the hand decided: the player of `seat` finished `place` (players sharing places are
    written in the best of them, as PokerStars writes two players out on one hand with the same
    chips) and won `prize` cents."""

    seat: int
    place: int
    prize: int = 0

    def __post_init__(self) -> None:
        _whole(self.seat, "a seat", 1)
        _whole(self.place, "a place", 1)
        _whole(self.prize, "a prize")


@dataclass(frozen=True, slots=True)
class TournamentHand:
    """A hand's place in its tournament.

    tournament: its number ("Tournament #T"); table: the table's number in it (PokerStars' table
    "T n"); level: from 1; stakes: the level's as PokerStars' header gives them, "(25/50)": the
    blinds, or the small and big bet in limit and stud (pokerstars.header_stakes of the level's
    whole structure: a hand whose small blind is dead still says the level's); buy_in and fee:
    cents in `currency` (both 0: a freeroll); name: the tournament's (PHH's `event`); finishes:
    the places decided at the end of this hand (kept in seat order)."""

    tournament: int
    table: int
    level: int
    stakes: tuple[int, int]
    buy_in: int = 0
    fee: int = 0
    currency: str = PLAY
    name: str = ""
    finishes: tuple[Finish, ...] = ()

    def __post_init__(self) -> None:
        _whole(self.tournament, "a tournament's number", 1)
        _whole(self.table, "a table's number", 1)
        _whole(self.level, "a level", 1)
        if len(self.stakes) != 2:
            raise ValueError(f"stakes are two amounts, not {self.stakes!r}")
        for amount in self.stakes:
            _whole(amount, "a level's stakes", 1)
        _whole(self.buy_in, "a buy-in")
        _whole(self.fee, "a fee")
        if not isinstance(self.name, str):
            raise ValueError(f"a tournament's name is text, not {self.name!r}")
        if len({f.seat for f in self.finishes}) != len(self.finishes):
            raise ValueError("one place a seat")
        # In seat order, whatever order they came in: equal records for equal hands.
        object.__setattr__(self, "finishes", tuple(sorted(self.finishes, key=lambda f: f.seat)))

    @property
    def freeroll(self) -> bool:
        return self.buy_in == 0 and self.fee == 0


def finishes_of(deal: Deal, records: Iterable[Record]) -> tuple[Finish, ...]:
    """The places among `records` (the director's) of the players `deal` dealt in, by seat."""
    seat_of = dict(zip(deal.entries, deal.seats))
    return tuple(Finish(seat_of[r.entry], min(r.shared) if r.shared else r.place, r.prize)
                 for r in records if isinstance(r, Placed) and r.entry in seat_of)


def hand_in_tournament(spec: TournamentSpec, tournament: int, deal: Deal, records: Iterable[Record] = (), *,
                       currency: str = PLAY) -> TournamentHand:
    """The TournamentHand of the hand `deal` dealt; `records`: what its end returned (its places)."""
    level = spec.schedule.levels[deal.level - 1]
    stakes = header_stakes(spec.variant, level.structure(spec.structure_kind, spec.ante_style))
    return TournamentHand(tournament, deal.table, deal.level, stakes, spec.buy_in, spec.fee, currency,
                          spec.name, finishes_of(deal, records))


# ---------------------------------------------------------------------------- the summary's record

@dataclass(frozen=True, slots=True)
class Entrant:
    """One entry: `place` once decided (None: not yet), its `prize` (cents), `entry` the player's
    how-manieth it is (re-entries are 2, 3, ...), `playing` while it is in (has chips and no place)."""

    name: str
    place: int | None = None
    prize: int = 0
    entry: int = 1
    playing: bool = False

    def __post_init__(self) -> None:
        if self.place is not None:
            _whole(self.place, "a place", 1)
        _whole(self.prize, "a prize")
        _whole(self.entry, "an entry", 1)
        if self.playing and self.place is not None:
            raise ValueError("an entry still playing has no place yet")


@dataclass(frozen=True, slots=True)
class TournamentResult:
    """A tournament as its summary tells it: every entry (in the order of the summary's places for
    those not placed yet: the players still in, most chips first), the money in cents of
    `currency`, when it started and (once over) finished. `where` is written where PokerStars
    writes each player's country, which the card room does not know."""

    tournament: int
    game: str                        # a key of engine.variants.VARIANTS
    structure_kind: str
    entrants: tuple[Entrant, ...]
    started: datetime
    finished: datetime | None = None
    buy_in: int = 0
    fee: int = 0
    added: int = 0
    currency: str = PLAY
    name: str = ""
    where: str = "cardroom"

    def __post_init__(self) -> None:
        _whole(self.tournament, "a tournament's number", 1)
        for amount, what in ((self.buy_in, "a buy-in"), (self.fee, "a fee"), (self.added, "added money")):
            _whole(amount, what)
        places = [e.place for e in self.entrants if e.place is not None]
        if len(set(places)) != len(places) or any(p > len(self.entrants) for p in places):
            raise ValueError(f"places {sorted(places)} are not distinct places of {len(self.entrants)} entries")

    @property
    def pool(self) -> int:
        """The prize pool: every entry's buy-in and what the house adds (payouts.pool)."""
        return self.buy_in * len(self.entrants) + self.added

    @property
    def players(self) -> int:
        """Players, not entries: a re-entry is the same player again (as PokerStars counts them)."""
        return len({e.name for e in self.entrants})


def tournament_result(director: Director, tournament: int, placed: Iterable[Placed], *, started: datetime,
                      finished: datetime | None = None, currency: str = PLAY,
                      names: Mapping[Player, str] | None = None, where: str = "cardroom") -> TournamentResult:
    """The result of `director`'s tournament so far. `placed`: every Placed record it gave (the
    director keeps places, not prizes: players sharing places split their prizes); `names`: the
    players' names by the director's player keys (default: the keys as text)."""
    prizes = {r.entry: r.prize for r in placed}
    seen: dict[Player, int] = {}
    entry_of: dict[int, int] = {}
    for number in sorted(director.entries):
        player = director.entries[number].player
        seen[player] = seen.get(player, 0) + 1
        entry_of[number] = seen[player]
    entrants = []
    for row in director.standings():
        if row.place is not None and row.entry not in prizes:
            raise ValueError(f"entry {row.entry} has place {row.place} but no Placed record")
        name = names[row.player] if names is not None else str(row.player)
        entrants.append(Entrant(name, row.place, prizes.get(row.entry, 0), entry_of[row.entry],
                                playing=row.place is None and not director.entries[row.entry].out))
    spec = director.spec
    return TournamentResult(tournament, spec.game, spec.structure_kind, tuple(entrants), started, finished,
                            spec.buy_in, spec.fee, spec.added, currency, spec.name, where)
