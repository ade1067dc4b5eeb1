"""The tournament screens' words (tui/tournament_text.py), as pure functions of the room's records:
the table's line in each state a tournament can be in, the lobby's row, a finish."""

from __future__ import annotations

from datetime import datetime, timezone

from cardroom.room.api import TournamentLine, TournamentSummary
from cardroom.tui.tournament_text import clock, finish_words, lobby_row, starts, table_line


def line(**kw) -> TournamentLine:
    values = dict(number=3, name="Nine", table=2, level=4, stakes="50/100 ante 10", next_level_in=125.0,
                  next_break_in=725.0, on_break=False, paused=False, hand_for_hand=False, players_left=12,
                  entrants=45, average_stack=5_625, my_rank=3, hold="")
    values.update(kw)
    return TournamentLine(**values)


def summary(**kw) -> TournamentSummary:
    values = dict(number=7, name="Hourly PLO", game="Omaha", structure="Pot Limit", kind="scheduled", buy_in=1_000,
                  fee=100, entries=12, max_entries=180, state="registering", starts_in=1_500.0,
                  starts_at=datetime(2026, 12, 6, 20, 0, tzinfo=timezone.utc), players_left=0, prize_pool=12_000)
    values.update(kw)
    return TournamentSummary(**values)


def test_the_line_says_the_level_the_clocks_the_field_and_my_rank():
    assert table_line(line(), 0.0, narrow=False).plain == \
        "Level 4: 50/100 ante 10  next 2:05  break in 12:05  12/45 left  avg 5,625  you 3rd"
    # Counted down from when the view was read; at 80 columns a little shorter.
    assert table_line(line(), 6.0, narrow=True).plain == \
        "Lvl 4: 50/100 ante 10  next 1:59  break 11:59  12/45 left  avg 5,625  you 3rd"


def test_the_line_on_break_paused_and_hand_for_hand():
    on_break = table_line(line(on_break=True, next_level_in=65.0, next_break_in=None), 0.0, narrow=False).plain
    assert on_break.startswith("On break, 1:05  then level 4: 50/100 ante 10  12/45 left")
    paused = table_line(line(paused=True, next_level_in=None, next_break_in=None), 0.0, narrow=False).plain
    assert paused == "Level 4: 50/100 ante 10  paused  12/45 left  avg 5,625  you 3rd"
    bubble = table_line(line(hand_for_hand=True, my_rank=None), 0.0, narrow=False).plain
    assert "hand for hand" in bubble and "you" not in bubble       # a railbird has no rank


def test_the_lobby_row_of_a_scheduled_tournament_and_a_sit_and_go():
    wide = [c.plain for c in lobby_row(summary(), narrow=False)]
    assert wide == ["#7", "Hourly PLO", "PL Omaha", "$10 + $1", "12/180", "registering", "20:00 UTC, in 25m"]
    narrow = [c.plain.strip() for c in lobby_row(summary(state="late registration", players_left=9), narrow=True)]
    assert narrow == ["#7", "Hourly PLO", "PL Omaha", "$10+$1", "12/180", "late reg", "9 left"]
    sng = summary(kind="sit-and-go", starts_in=None, starts_at=None, buy_in=0, fee=0, max_entries=None)
    assert [c.plain for c in lobby_row(sng, narrow=False)][3:] == ["Freeroll", "12", "registering", "when full"]
    assert starts(summary(state="finished"), narrow=False) == ""


def test_finish_words_and_clock():
    assert finish_words(7, 45, 120) == "You finished 7th of 45 and won $1.20"
    assert finish_words(2, 2, 0) == "You finished 2nd of 2: no prize"
    assert finish_words(11, 45, 0).startswith("You finished 11th") and finish_words(22, 45, 0).startswith("You finished 22nd")
    assert [clock(s) for s in (0.0, 0.2, 59.5, 3_725.0)] == ["0:00", "0:01", "1:00", "1:02:05"]
