"""PHH (Poker Hand History, the uoftcprg/phh-std TOML format): export any hand, replay any file.

    text = export_hand(hand, table="Alpha", hand=42)   # PHH TOML of a finished or running hand
    hand = replay(text)                                # a Hand rebuilt and replayed by the engine
    replay_file("x.phh")                               # {"file", "finishing_stacks"} or {"file", "error"}
    replay_each("hands.phhs")                          # the same for each hand of a hands file

Conventions (see also the reference at the end of this docstring):

- Player order. PHH lists players clockwise from the first one dealt to: in button games p1 is the
  player left of the button (the small blind) and the last player has the button; heads-up p1 is
  the big blind and p2 the button, which posts the small blind (the spec's "forced bets are
  reversed heads-up": `blinds_or_straddles = [1, 2]` means p1 posts 2). In stud games p1 is the
  engine's first player (seat order, the first dealt). `seats` keeps our seat numbers.
- Amounts. A PHH amount is in the file's units (dollars, or chips) and the engine's integers are
  the file's smallest chip: amount x chips per unit. The unit is the one the file names (our
  `_cardroom_cents_per_unit`, which export always writes, or the minor unit of its `currency`:
  USD 100, JPY 1); failing that, 100 (cents) in a file with our own `_cardroom_` fields; failing
  that, 1 when every amount is a whole number (one unit is one indivisible chip, as pokerkit reads
  it, so a pot of 1083 splits 542 + 541); otherwise 100. Export writes whole units as integers and
  other amounts as decimals (0.25); `export_hand(..., cents_per_unit=1)` writes integer cents
  instead. On import every amount must be an exact whole number of chips after scaling: 0.255
  dollars is rejected, never rounded.
- Antes. The same for everyone, or one player's: the big blind's (`antes = [0, 3, 0]`; with three
  blinds the largest's, `[0, 0, 3, 0]`) or the button's (`[0, 0, 10]`); heads-up they are
  reverse-assigned as the blinds are (`[0, 3]` is the big blind's, `[10, 0]` the button's). Other
  patterns are refused as unsupported.
- Variant codes: a structure letter (F fixed, S spread, P pot, N no limit) + the game's code:
  T, O, O/8, 7S, 7S/8, R, 5D, A5L1D, A5L3D, 2L1D, 2L3D. The standard's FT, NT, PO, FO/8, F7S, F7S/8,
  FR, N2L1D, F2L3D come out exactly (pokerkit's `HandHistory` replays them); the rest (FA5L1D,
  FA5L3D, F2L1D, F5D, PT, NO, SO/8, ...) follow the same pattern, as the spec asks of a new code,
  and say so: the file's second line is a comment naming the code as not the standard's, and
  `_cardroom_game` names the game in words (pokerkit loads such a file, and stops with a KeyError
  naming the code as soon as it is replayed). F/S use small_bet + big_bet (spread: the minimum and
  maximum bet), P/N min_bet (= the big blind); stud games add bring_in.
- Time, currency, seats: `export_hand(..., when=start, currency="USD", seat_count=9)` writes the
  spec's time, time_zone ("UTC"), day, month, year, currency (+ currency_symbol) and seat_count.
  Play chips are currency "XXX" (NO_CURRENCY: ISO 4217's "no currency").
- Tournament hands: `export_hand(..., tournament=th)` (tournament.history.TournamentHand) writes the
  standard's `event`, `level` and `table`, currency XXX and whole chips, and the rest in
  `_cardroom_` fields (phh/tournament.py); `tournament_of(text)` reads them back.
- Table rules that change the outcome travel in user-defined `_cardroom_...` fields (cap, rake,
  show_all, must_raise_to_enter, draw rules). A file without them is played with no rake, a cap of
  four bets and the house defaults otherwise. The spec has no rake field: `_cardroom_rake` is the
  rake taken (the `winnings` and `finishing_stacks` are after it, as the spec asks), and
  `_cardroom_rake_percent`, `_cardroom_rake_cap`, `_cardroom_no_flop_no_drop` the rule: 5% of each
  pot rounded down to the chip, at most the cap a hand. Pokerkit takes a rake as a function
  (`HandHistory.loads(text, rake=...)`); without one it replays the stacks before the rake.
- Actions: `d dh pN cards` (hole cards, also up cards and draw replacements), `d db cards`,
  `pN f`, `pN cc`, `pN cbr TO` (bet/raise/complete to a round total), `pN pb` (bring-in),
  `pN sd [discards]`, `pN sm [cards]` (no cards = muck). In a draw every player's `sd` is written
  first and then the replacement cards, as the spec's dealer does. A timed-out player's protected
  all-in has no PHH action; it is written as the standalone commentary
  `# cardroom: pN protected all-in`, which other readers take as a no-op.

Replay builds the hand with a deck that deals exactly the file's cards (unknown `??` cards and
burns get arbitrary unused cards) and applies every action through the engine, so a file that
breaks a rule raises `PHHRuleError` naming the action number and the rule. A file of ours (with
`_cardroom_` fields) must end at its `finishing_stacks`, or it was dealt under other rules and is
refused: the release before three blinds were settled wrote hands that cannot be dealt again (a
big-blind ante by the middle of three blinds, heads-up the two smaller blinds under the largest;
tests/engine/test_phh_old_files.py), and those refusals say so.
"""

from cardroom.engine.phh.errors import PHHError, PHHFormatError, PHHRuleError, UnsupportedPHH
from cardroom.engine.phh.export import export_hand, player_order
from cardroom.engine.phh.fields import (  # noqa: F401 - PREFIX, STRUCTURE_LETTERS: public names of the old module
    NO_CURRENCY, PREFIX, STANDARD_CODES, STRUCTURE_LETTERS, parse_variant_code, variant_code,
)
from cardroom.engine.phh.replay import finishing_stacks, import_hand, replay, replay_each, replay_file
from cardroom.engine.phh.tournament import tournament_of

__all__ = [
    "PHHError", "PHHFormatError", "PHHRuleError", "UnsupportedPHH",
    "NO_CURRENCY", "STANDARD_CODES", "export_hand", "import_hand", "player_order", "finishing_stacks",
    "replay", "replay_each", "replay_file", "variant_code", "parse_variant_code", "tournament_of",
]
