"""The felt keeps each seat's drawing until that seat changes: what it shows must always equal a
drawing made from nothing."""

from __future__ import annotations

from cardroom.tui import build_app

from tests.rooms import table_settings
from .conftest import SIZE, open_table, passive


def drawn(felt) -> list:
    """The felt's lines as drawn now (through its block cache), as (text, style) segments."""
    width, height = felt.size
    strips = felt.build_strips(width, height, felt.visual_style.rich_style)
    return [[(seg.text, seg.style) for seg in strip] for strip in strips]


def drawn_afresh(felt) -> list:
    felt.restyle()                      # forgets every block
    return drawn(felt)


async def test_the_felt_redraws_exactly_the_seats_that_changed(world):
    w = world(table_settings(seats=6))
    clients = w.seat("T", ["alice", "bob", "carol", "dave"])
    app = build_app(clients[0])
    async with app.run_test(size=SIZE) as pilot:
        await open_table(app, pilot)
        felt = app.screen.query_one("#felt")
        seen = set()
        for _ in range(24):                 # blinds, calls, checks, the flop, a new hand ...
            actor = w.actor(clients)
            if actor is None:
                w.clock.advance(1.0)
            else:
                passive(actor)
            await pilot.pause()
            cached = drawn(felt)
            assert cached == drawn_afresh(felt)
            seen.add(tuple(map(str, cached)))
        assert len(seen) > 10               # the felt really changed along the way


async def test_new_display_options_redraw_every_seat(world):
    w = world(table_settings(seats=6))
    clients = w.seat("T", ["alice", "bob"])
    app = build_app(clients[0])
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_table(app, pilot)
        felt = screen.query_one("#felt")
        before = drawn(felt)
        app.options.ascii = True
        screen.restyle()
        await pilot.pause()
        after = drawn(felt)
        assert after != before
        assert "\u256d" not in str(after) and "+" in str(after)      # boxes drawn in ASCII now


async def test_a_heads_up_table_draws_each_seat_in_the_middle_not_at_the_left_edge(world):
    """A row with one seat (both rows of a 2-seat table) puts it in the middle third: it was
    stretched from the left edge, so a heads-up table looked lopsided. Clicks find the seat there
    and nothing in the blank thirds."""
    w = world(table_settings(seats=2))
    clients = w.seat("T", ["alice", "bob"])
    app = build_app(clients[0])
    async with app.run_test(size=SIZE) as pilot:
        await open_table(app, pilot)
        felt = app.screen.query_one("#felt")
        width = felt.size.width
        lines = ["".join(text for text, _ in line) for line in drawn(felt)]
        for name in ("alice", "bob"):
            row = next(line for line in lines if name in line)
            assert width // 3 <= row.index(name) < 2 * width // 3
        top = felt.seat_offset(1)
        assert top is not None and width // 3 <= top[0] < 2 * width // 3
        assert felt.seat_at(top[0], top[1]) == 1
        assert felt.seat_at(1, top[1]) is None and felt.seat_at(width - 2, top[1]) is None
        assert drawn(felt) == drawn_afresh(felt)


def test_the_street_is_named_as_players_say_it_for_every_game():
    """Every street of every game, in each phase it has: the label a player reads under the pot."""
    from cardroom.engine.variants import VARIANTS
    from cardroom.tui.render import street_label

    labels = {street_label(s.name, "draw" if s.draw else "bet") for v in VARIANTS.values() for s in v.streets}
    labels |= {street_label(s.name, "bet") for v in VARIANTS.values() for s in v.streets if s.draw}
    assert {"preflop", "flop", "turn", "river", "third street", "sixth street",
            "before the draw", "the draw", "after the draw", "the first draw", "after the third draw"} <= labels
    assert not any(" - " in label or label.endswith("bet") for label in labels)
    assert street_label("river", "showdown") == "showdown"


async def test_an_all_in_with_seven_stud_cards_still_says_all_in_at_80_columns(world):
    """Seven up and down cards fill a seat at 80 columns: "ALL-IN" written after them was cut
    off. It is written on the stack's line instead (in place of "$0")."""
    from .conftest import screen_text

    w = world(table_settings(game="stud", seats=8, min_buy_in=100))
    clients = w.seat("T", ["alice", "bob"], stack=10_000) + w.seat("T", ["carol"], stack=300)
    carol = clients[2]
    app = build_app(clients[0])
    async with app.run_test(size=(80, 24)) as pilot:
        await open_table(app, pilot)
        w.clock.advance(0.01)
        for _ in range(60):
            seat = next(s for s in carol.view("T").seats if s.name == "carol")
            if seat.status == "all-in" and len(seat.cards) == 7:
                break
            actor = w.actor(clients)
            if actor is None:
                w.clock.advance(0.5)
            elif actor is clients[0] and actor.view("T").legal.min_to and not actor.view("T").legal.bring_in:
                actor.act("T", "bet", actor.view("T").legal.min_to)     # alice bets whenever she may
            else:
                passive(actor)
        else:
            raise AssertionError("carol never reached seventh street all-in")
        await pilot.pause()
        lines = screen_text(app).splitlines()
        i = next(k for k, line in enumerate(lines) if "carol" in line)
        assert "ALL-IN" in lines[i + 1], lines[i:i + 3]
