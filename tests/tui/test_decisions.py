"""A key meant for a decision that has passed does not answer the next one (issue 34, 7): the
screen sends, with each answer, the decision of the view it drew (or that a dialog was opened
on), and the table refuses an answer to a decision that is no longer asked."""

from __future__ import annotations

from dataclasses import replace

from textual import events

from cardroom.tui import build_app

from .conftest import SIZE, notified, open_table, others_until, passive, screen_text, table_settings


async def test_a_key_pressed_for_a_decision_that_timed_out_does_not_answer_the_next(world, textual_fixes):
    """The key reaches the app before the screen has drawn the next decision; as every front end
    runs Textual (ssh and hot-seat install keys-meet-bindings-at-once), it meets its binding in
    the turn it arrives, on the screen as drawn, not after a redraw that overtook it."""
    w = world()
    clients = w.seat("T", ["alice", "bob", "carol"])
    w.room.settings = replace(w.room.settings, timeout_allin_quota=0)    # a timeout checks or folds
    w.clock.advance(0.01)
    while (me := w.actor(clients)).view("T").street == "preflop":
        passive(me)
    app = build_app(me)                  # the first to act on the flop, where checking is free
    async with app.run_test(size=SIZE) as pilot:
        await open_table(app, pilot)
        assert "c Check" in screen_text(app)
        app.post_message(events.Key("c", "c"))      # pressed for the flop's decision ...
        w.clock.advance(w.room.tables["T"].settings.action_seconds + 0.1)   # ... which times out (checked)
        others_until(w, clients, me, lambda v: v.street == "turn")   # and the next came before it was read
        turn = me.view("T")
        await pilot.pause()
        assert me.view("T") == turn and turn.legal is not None      # the turn is still his to decide
        assert "that was for an earlier decision" in notified(app)
        await pilot.press("c")                      # pressed on the turn's screen: it checks
        await pilot.pause()
        assert me.view("T").legal is None and me.view("T").chat[-1].text == f"{me.name} checks"


async def test_a_bet_dialog_answered_after_its_decision_passed_is_refused(world, textual_fixes):
    """A bet typed in a dialog opened on one decision does not go to the next (no limit: the
    same amount would be a legal bet there)."""
    from textual.widgets import Input

    from cardroom.tui.dialogs.amount import AmountDialog
    w = world(table_settings(kind="no", small=200))
    clients = w.seat("T", ["alice", "bob", "carol"])
    w.room.settings = replace(w.room.settings, timeout_allin_quota=0)
    w.clock.advance(0.01)
    while (me := w.actor(clients)).view("T").street == "preflop":
        passive(me)
    app = build_app(me)
    async with app.run_test(size=SIZE) as pilot:
        await open_table(app, pilot)
        await pilot.press("r")
        await pilot.pause()
        assert isinstance(app.screen, AmountDialog)
        w.clock.advance(w.room.tables["T"].settings.action_seconds + 0.1)   # he thinks too long: checked
        others_until(w, clients, me, lambda v: v.street == "turn")
        turn = me.view("T")
        app.screen.query_one("#amount", Input).value = "8"
        await pilot.press("enter")                  # the bet meant for the flop
        await pilot.pause()
        assert me.view("T") == turn and "that was for an earlier decision" in notified(app)
