"""What a table shows: the lobby row, the table's rules for the help screen, and one account's view.

Pure functions of a Table's state (read only); `Table.view_for` and friends call them.
"""

from __future__ import annotations

from cardroom.engine.betting import FIXED
from cardroom.engine.views import seat_view
from cardroom.room import api
from cardroom.room.narration import money
from cardroom.room.seating import posts_owed


def summary(table) -> api.TableSummary:
    now = table.clock.now()
    recent = [s for s in table.stats if now - s[0] <= 3600]
    pots = [s[1] for s in table.stats]
    dealt = sum(s[2] for s in table.stats)
    seated_accounts = {s.account for s in table.seats.values()}
    return api.TableSummary(
        name=table.name, game=table.settings.variant.name, stakes=table.settings.structure.describe(),
        seats=table.settings.seats, players=len(table.seats), waiting=len(table.wait_list),
        railbirds=sum(1 for a in table.watchers if a not in seated_accounts),
        average_pot=sum(pots) // len(pots) if pots else 0,
        seeing_flop=100 * sum(s[3] for s in table.stats) // dealt if dealt else 0,
        hands_per_hour=len(recent), status=table.status)

def _missed_posts(table, me) -> tuple[int, int]:
    """What posting my missed blinds costs: (the big blind live, the smaller blinds dead), each 0
    when not owed."""
    if me is None or me.owes != "missed":
        return 0, 0
    return posts_owed(me.owes, me.missed, table.settings.structure.blinds)


def rules_text(table) -> api.TableRules:
    s = table.settings
    r = s.rules
    house = []
    if r.must_raise_to_enter:
        house.append("must raise to enter (no calling the big blind)")
    house.append("every remaining hand is shown" if r.show_all else "losers may muck")
    if r.draw_cap_four:
        house.append("draws limited to four cards")
    if r.no_flop_no_drop:
        house.append("no flop, no drop")
    rake = f"{r.rake_percent}% capped at {money(r.rake_cap)}" if r.rake_percent else "no rake"
    return api.TableRules(
        game=s.variant.name, structure=s.structure.kind, stakes=s.structure.describe(),
        cap=s.structure.cap if s.structure.kind in (FIXED, "spread") else None, rake=rake,
        action_seconds=int(s.action_seconds), sit_out_minutes=int(s.sit_out_limit // 60),
        house=tuple(house), min_buy_in=s.buy_in_min, max_buy_in=s.buy_in_max)

def view_for(table, account: int | None) -> api.TableView:
    me = table.seat_of(account) if account is not None else None
    hand = table.hand
    live = hand is not None and not hand.over
    # The seat's account must be the one dealt in: a player who takes a seat after the hand
    # ended must not inherit the previous occupant's cards.
    viewer = table.player_index(me) if (me and hand is not None and me.number in table.hand_seats
                                  and table.hand_accounts[table.player_index(me)] == me.account) else None
    hv = seat_view(hand, viewer) if hand is not None else None
    seats = []
    for number in range(1, table.settings.seats + 1):
        s = table.seats.get(number)
        if s is None:
            held = table.held.get(number)
            held_name = next((n for a, n in [(held[0], "")] if held), "") if held else ""
            seats.append(api.SeatState(number, "", 0, 0, "empty", held_for="held" if held_name or held else ""))
            continue
        status = "sitting out" if s.sitting_out else "waiting"
        cards, up, shown, bet, acting = (), (), False, 0, False
        stack = s.stack
        if hv is not None and number in table.hand_seats \
                and table.hand_accounts[table.hand_seats.index(number)] == s.account:
            info = hv.seats[table.hand_seats.index(number)]
            cards, up, shown, bet = info.cards, info.up, info.shown, info.bet
            if live:
                # The hand's stack while it is played; after it the seat's own (the final stack
                # plus chips added since, or nothing for a player who left and sat down again).
                stack = info.stack
                status = info.status
                acting = hv.actor == info.player
            elif s.sitting_out:
                status = "sitting out"
            else:
                status = "active"
        seats.append(api.SeatState(number, s.name, stack, bet, status, s.connected, cards, up, shown,
                                   is_button=bool(table.plan and table.plan.button == number and hand),
                                   acting=acting))
    my_cards = tuple(hv.seats[viewer].cards) if (hv is not None and viewer is not None) else ()
    legal = None
    if live and viewer is not None and hand.actor == viewer and me.bot is None:
        legal = hand.legal()
    left = table.seconds_left() if live else None
    countdown = None
    if left is not None and left <= table.settings.countdown_seconds:
        countdown = max(0, int(left + 0.999))
    draw_counts = {table.hand_seats[p]: k for p, k in hand.draw_counts.items()} if live else {}
    seated_accounts = {s.account for s in table.seats.values()}
    buy = None
    if me is not None and me.stack == 0 and not table.in_hand(me) and table.policy.money:
        buy = table.buy_in_limits(me.account)
    return api.TableView(
        name=table.name, game=table.settings.variant.name, stakes=table.settings.structure.describe(),
        status=table.status, seats=tuple(seats), board=tuple(hand.board) if hand else (),
        pots=hv.pots if hv and live else (), hand_id=table.hand_id,
        phase=(hand.phase if live else ("done" if hand else "waiting")),
        street=hv.street if hv else "", my_seat=me.number if me else None, my_cards=my_cards,
        legal=legal, acting_seat=table.hand_seats[hand.actor] if live and hand.actor is not None else None,
        seconds_left=left, countdown=countdown, auto_action=me.auto if me else "ask",
        auto_blind=bool(me and me.auto_blind), sitting_out=bool(me and me.sitting_out),
        draw_counts=draw_counts, chat=tuple(table.chat)[-60:],
        railbirds=tuple(sorted(n for a, n in table.watcher_names.items() if a not in seated_accounts)),
        waiting_list=tuple(n for _, n in table.wait_list), rules=table.rules_text(), buy_in=buy,
        pending_chips=me.pending_chips if me else 0, table_chips=me.table_chips if me else 0,
        missed_blinds=bool(me and me.owes == "missed"), missed_posts=_missed_posts(table, me),
        new_player=bool(me and me.owes == "new" and not table.settings.variant.bring_in),
        message=me.message if me else "", blind_prompt=table.blind_asked(me) if me else 0,
        leaving=bool(me and me.leaving), decision=table.decision_of(me) if me else "",
        tournament=table.policy.line(table, account))
