"""The games of the rule pages as records, a registry and `find_variant`.

A variant says what is dealt on each street, how hands are valued and when the big bet starts;
the betting structure (fixed, spread, pot, no limit) is chosen per table, so any game can be
played with any structure (see betting.py).
"""

from __future__ import annotations

from dataclasses import dataclass


class UnknownVariant(ValueError):
    pass


@dataclass(frozen=True, slots=True)
class Street:
    """What happens before one betting round.

    hole: for each card dealt to every player on this street, True if face up (stud).
    board: community cards dealt. draw: a draw precedes the betting.
    """

    hole: tuple[bool, ...] = ()
    board: int = 0
    draw: bool = False
    name: str = ""


@dataclass(frozen=True, slots=True)
class Variant:
    key: str                 # registry key, also used in config.toml ("holdem", "a5-draw" ...)
    name: str                # what a player reads ("Texas Hold'em")
    pokerstars_name: str     # the game's words in a PokerStars header ("Hold'em", "5 Card Draw")
    phh_base: str            # PHH variant code without the structure letter ("NT" = N + "T")
    streets: tuple[Street, ...]
    high: str                # evaluation order for the high hand (or the only hand)
    low: str | None = None   # order for the low half of a split pot (eight-or-better games)
    big_bet_from: int = 2    # first betting round (0-based) at the big bet in fixed limit
    max_seats: int = 10
    bring_in: bool = False   # stud: forced bring-in instead of blinds, no button
    aliases: tuple[str, ...] = ()
    lowball: bool = False    # the lowest hand wins (draw lowball, razz): descriptions declare pairs
    short_name: str = ""     # for narrow places, the lobby's game column ("2-7 Single Draw")
    # What the game's own page sets (betting.Rules.of_game; a table may choose otherwise): how a
    # draw is dealt (a key of betting.DRAW_DEALINGS) and whether the showdown shows every hand.
    draw_dealing: str = "lowball"
    show_all: bool = False

    @property
    def kind(self) -> str:
        if self.bring_in:
            return "stud"
        if any(s.draw for s in self.streets):
            return "draw"
        return "board"

    @property
    def is_split(self) -> bool:
        return self.low is not None

    @property
    def draws(self) -> int:
        return sum(1 for s in self.streets if s.draw)

    @property
    def hole_count(self) -> int:
        return sum(len(s.hole) for s in self.streets)

    @property
    def omaha(self) -> bool:
        return self.high == "omaha-high"


_HOLDEM_STREETS = (
    Street(hole=(False, False), name="preflop"),
    Street(board=3, name="flop"),
    Street(board=1, name="turn"),
    Street(board=1, name="river"),
)
_OMAHA_STREETS = (Street(hole=(False,) * 4, name="preflop"),) + _HOLDEM_STREETS[1:]
_STUD_STREETS = (
    Street(hole=(False, False, True), name="third"),
    Street(hole=(True,), name="fourth"),
    Street(hole=(True,), name="fifth"),
    Street(hole=(True,), name="sixth"),
    Street(hole=(False,), name="river"),
)
_DEAL5 = Street(hole=(False,) * 5, name="predraw")
_SINGLE = (_DEAL5, Street(draw=True, name="draw"))
_TRIPLE = (_DEAL5, Street(draw=True, name="first draw"), Street(draw=True, name="second draw"),
           Street(draw=True, name="third draw"))

VARIANTS: dict[str, Variant] = {}


def _register(v: Variant) -> Variant:
    VARIANTS[v.key] = v
    return v


HOLDEM = _register(Variant("holdem", "Texas Hold'em", "Hold'em", "T", _HOLDEM_STREETS, "high",
                           aliases=("hold'em", "holdem", "texas hold'em", "th", "nlhe", "lhe", "flhe", "nlh"),
                           short_name="Hold'em"))
OMAHA = _register(Variant("omaha", "Omaha", "Omaha", "O", _OMAHA_STREETS, "omaha-high",
                          aliases=("plo", "omaha high", "po"), short_name="Omaha"))
OMAHA8 = _register(Variant("omaha8", "Omaha Hi/Lo", "Omaha Hi/Lo", "O/8", _OMAHA_STREETS, "omaha-high",
                           low="omaha-eight-or-better",
                           aliases=("plo8", "o8", "omaha hi-lo", "omaha hi/lo", "omaha/8", "fo/8"),
                           short_name="Omaha Hi/Lo"))
STUD = _register(Variant("stud", "7-Card Stud", "7 Card Stud", "7S", _STUD_STREETS, "high",
                         bring_in=True, max_seats=8, aliases=("7 card stud", "seven card stud", "f7s"),
                         short_name="7 Stud"))
STUD8 = _register(Variant("stud8", "7-Card Stud Hi/Lo", "7 Card Stud Hi/Lo", "7S/8", _STUD_STREETS, "high",
                          low="eight-or-better", bring_in=True, max_seats=8,
                          aliases=("stud hi-lo", "7 card stud hi/lo", "stud/8", "f7s/8"), short_name="7 Stud Hi/Lo"))
RAZZ = _register(Variant("razz", "Razz", "Razz", "R", _STUD_STREETS, "ace-to-five", bring_in=True,
                         max_seats=8, lowball=True, aliases=("fr",), short_name="Razz"))
DRAW = _register(Variant("draw", "5-Card Draw", "5 Card Draw", "5D", _SINGLE, "high", big_bet_from=1,
                         max_seats=8, aliases=("5 card draw", "five card draw", "f5d"), short_name="5-Card Draw"))
A5_DRAW = _register(Variant("a5-draw", "Draw Lo (Ace-to-Five Single Draw)", "Single Draw A-5 Lowball", "A5L1D",
                            _SINGLE, "ace-to-five", big_bet_from=1, max_seats=8, lowball=True,
                            aliases=("draw lo", "ace-to-five single draw", "a5 single draw", "fa5l1d",
                                     "california lowball"), short_name="Draw Lo (A-5)",
                            draw_dealing="planet", show_all=True))   # seed 000 is Draw Lo's page
A5_TRIPLE = _register(Variant("a5-triple", "Ace-to-Five Triple Draw", "Triple Draw A-5 Lowball", "A5L3D", _TRIPLE,
                              "ace-to-five", max_seats=8, lowball=True,
                              aliases=("a5 triple draw", "ace-to-five triple draw", "fa5l3d"),
                              short_name="A-5 Triple Draw"))
D27_DRAW = _register(Variant("27-draw", "Deuce-to-Seven Single Draw", "Single Draw 2-7 Lowball", "2L1D", _SINGLE,
                             "deuce-to-seven", big_bet_from=1, max_seats=8, lowball=True,
                             aliases=("2-7 single draw", "2-7 draw", "kansas city lowball", "n2l1d", "f2l1d"),
                             short_name="2-7 Single Draw"))
D27_TRIPLE = _register(Variant("27-triple", "Deuce-to-Seven Triple Draw", "Triple Draw 2-7 Lowball", "2L3D",
                               _TRIPLE, "deuce-to-seven", max_seats=8, lowball=True,
                               aliases=("2-7 triple draw", "27 triple draw", "f2l3d"), short_name="2-7 Triple Draw"))


def _norm(name: str) -> str:
    return " ".join(name.strip().lower().replace("_", " ").split())


_INDEX: dict[str, Variant] = {}
for _v in VARIANTS.values():
    for _name in (_v.key, _v.name, _v.pokerstars_name, _v.phh_base, *_v.aliases):
        _INDEX.setdefault(_norm(_name), _v)


def find_variant(name: str) -> Variant:
    """'PLO8', 'holdem', 'Draw Lo', '2-7 triple draw' ... -> the Variant; UnknownVariant otherwise."""
    v = _INDEX.get(_norm(name))
    if v is None:
        raise UnknownVariant(f"no game called {name!r}; games: {', '.join(sorted(VARIANTS))}")
    return v
