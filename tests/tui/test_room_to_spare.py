"""A big terminal is used: at 120x40 the table spans the width and the chat has the rows below it
(issue 35: the table kept 80 columns and left about 15 rows empty); a wide but short one keeps the
chat at the right, and 80x24 is as it was."""

from __future__ import annotations

import pytest

from cardroom.tui import UIOptions, build_app
from cardroom.tui.widgets.chat import ChatLog, ChatPane
from cardroom.tui.widgets.felt import Felt
from cardroom.tui.widgets.hand import MyHand

from cardroom.tui.widgets.keys import KeyFooter

from .conftest import alices_turn_three_handed, open_table


@pytest.mark.parametrize("size, below", [((120, 40), True), ((160, 50), True), ((120, 30), False),
                                         ((80, 24), True)])
async def test_the_table_uses_the_terminal_it_has(world, size, below):
    w, clients = alices_turn_three_handed(world)
    app = build_app(clients[0], options=UIOptions(sound=False))
    async with app.run_test(size=size) as pilot:
        screen = await open_table(app, pilot)
        await pilot.pause()
        felt, hand = screen.query_one(Felt).region, screen.query_one(MyHand).region
        chat, log = screen.query_one(ChatPane).region, screen.query_one(ChatLog).region
        footer = screen.query_one(KeyFooter).region
        width, height = size
        if below:
            assert felt.width >= width - 4                     # the whole width, not 80 columns
            assert chat.y >= hand.bottom and chat.width >= width - 2
            assert chat.bottom == footer.y                     # every row the table leaves
            assert log.height >= (6 if height < 30 else 10)
        else:
            assert chat.x >= felt.right and chat.height >= height - 4   # wide, short: at the right
