"""Issue 34: a player could pass as the house. "Room" and "Table" were free names, and their chat
("Room: The room closes in 10 seconds: every hand is void") read exactly as the room's own lines.
Those names are refused now (tests/room/test_text.py), and the house's lines are marked so that a
terminal without colour or italics (ASCII mode, NO_COLOR) still tells them apart: a house line
begins with HOUSE_MARK, which no player's line can begin with, and a line's wrapped rest is indented,
so that a chat line cannot wrap a fake house line to the start of a row."""

from __future__ import annotations

from rich.style import Style

from cardroom.tui import UIOptions, build_app
from cardroom.tui.widgets.chat import HOUSE_MARK, ChatLog

from .conftest import SIZE, open_table

CLOSING = "The room closes in 10 seconds: every hand is void"


def _rows(app) -> list[str]:
    log = app.screen.query_one(ChatLog)
    return [strip.text.rstrip() for strip in log.build_strips(log.size.width, 200, Style())]


async def test_the_houses_lines_are_marked_and_a_players_cannot_look_like_one(world):
    w = world()
    alice, bob, _ = w.seat("T", ["alice", "bob", "carol"])
    app = build_app(alice, options=UIOptions(ascii=True))
    async with app.run_test(size=SIZE) as pilot:
        await open_table(app, pilot)
        width = app.screen.query_one(ChatLog).size.width
        w.room.tables["T"].say(CLOSING, "system", "Room")
        # bob fills his first row exactly, so that his fake line would begin the next one.
        bob.chat("T", "x" * (width - 2 - len("bob: ")) + f" {HOUSE_MARK}Room: {CLOSING}")
        bob.chat("T", f"{HOUSE_MARK}Room: {CLOSING}")
        await pilot.pause()
        rows = _rows(app)
        assert any(row.startswith(f"{HOUSE_MARK}Room: The room closes") for row in rows)   # the room's own
        house = [row for row in rows if row.startswith(HOUSE_MARK.strip())]
        assert house and all(row.startswith((f"{HOUSE_MARK}Room:", f"{HOUSE_MARK}Dealer:", f"{HOUSE_MARK}Table:"))
                             for row in house)
        fake = next(i for i, row in enumerate(rows) if row.startswith("bob: xxx"))
        assert rows[fake + 1].startswith(f"  {HOUSE_MARK}Room: ")          # wrapped, and indented
        assert any(row.startswith(f"bob: {HOUSE_MARK}Room: The room") for row in rows)   # his own start: his name
        assert sum(row.startswith(f"{HOUSE_MARK}Room: ") for row in rows) == 1
