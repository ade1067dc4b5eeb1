"""How the tournament screens look, at 80x24 (usable) and 120x40 (comfortable): the lobby's
tournaments page, a running tournament's lobby, a tournament table with its line, and the dialog
of a finish. Deterministic: a seeded deck and seat draw, hands from #1001, a FakeClock.
Regenerate after a deliberate change with `pytest tests/tui --snapshot-update`."""

from __future__ import annotations

import pytest

from cardroom.tui import UIOptions, build_app
from cardroom.tui.dialogs.finished import Finished
from cardroom.tui.tournament_text import finish_words

from .tournaments import TournamentWorld, sit_and_go

SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((120, 40), id="120x40")]


@pytest.fixture
def running(tmp_path):
    """Two sit & goes listed: a twelve-player one on two tables under way (erin in it, bob's name
    with markup in it), and a Draw Lo one with two registered."""
    w = TournamentWorld(tmp_path / "room.sqlite3", sit_and_go(12, 6, name="Hold'em Twelve"),
                        sit_and_go(6, 6, game="a5-draw", structure="fixed", name="Draw Lo Six", buy_in=500, fee=50))
    erin = w.player("erin")
    names = ["alice", "[bold]bob[/]", "carol", "dave", "fred", "gina", "hal", "ivy", "jo", "kim", "lee"]
    w.register([*w.players(*names), erin], w.number("Hold'em Twelve"))
    w.register(w.players("alice", "carol"), w.number("Draw Lo Six"))
    w.clock.advance(0.5)
    yield w, erin
    w.close()


def app_for(client):
    return build_app(client, options=UIOptions(sound=False))


@pytest.mark.parametrize("size", SIZES)
def test_lobby_tournaments(snap_compare, running, size):
    w, erin = running
    assert snap_compare(app_for(erin), terminal_size=size, press=["enter", "t"])


@pytest.mark.parametrize("size", SIZES)
def test_tournament_lobby_running(snap_compare, running, size):
    w, erin = running
    assert snap_compare(app_for(erin), terminal_size=size, press=["enter", "t", "enter"])


@pytest.mark.parametrize("size", SIZES)
def test_tournament_table(snap_compare, running, size):
    w, erin = running
    assert snap_compare(app_for(erin), terminal_size=size, press=["enter", "right_square_bracket"])


def test_finished_dialog(snap_compare, running):
    w, erin = running

    async def finished(pilot):
        await pilot.press("enter", "right_square_bracket")
        pilot.app.push_screen(Finished("Hold'em Twelve #1", finish_words(7, 45, 120)))
        await pilot.pause()

    assert snap_compare(app_for(erin), terminal_size=(80, 24), run_before=finished)
