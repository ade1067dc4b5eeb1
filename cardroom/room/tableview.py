"""What a table shows: the lobby row, the table's rules for the help screen, and one account's view.

Pure functions of a Table's state (read only); `Table.view_for` and friends call them.
"""

from __future__ import annotations

from bisect import bisect_left
from operator import itemgetter
from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from cardroom.engine.betting import FIXED
from cardroom.engine.cards import Card
from cardroom.engine.views import HandView, seat_view, seat_view_from
from cardroom.room import api
from cardroom.room.narration import money
from cardroom.room.seat import Seat
from cardroom.room.seating import posts_owed
from cardroom.room.tablefaces import ViewedTable


def summary(table: ViewedTable) -> api.TableSummary:
    stats = table.stats            # (time, pot, dealt, saw the flop) of the last hands, oldest first
    # Asked at every change of a table host's tables: the last 200 hands summed in one pass, and
    # those of the last hour found by their time (appended as they end).
    pots = dealt = saw = 0
    for _, pot, n, flop in stats:
        pots, dealt, saw = pots + pot, dealt + n, saw + flop
    recent = len(stats) - bisect_left(stats, table.clock.now() - 3600, key=itemgetter(0))
    seated_accounts = {s.account for s in table.seats.values()}
    return api.TableSummary(
        name=table.name, game=table.settings.variant.name, stakes=table.rules_text().stakes,
        seats=table.settings.seats, players=len(table.seats), waiting=len(table.wait_list),
        railbirds=sum(1 for a in table.watchers if a not in seated_accounts),
        average_pot=pots // len(stats) if stats else 0,
        seeing_flop=100 * saw // dealt if dealt else 0,
        hands_per_hour=recent, status=table.status)

def _missed_posts(table: ViewedTable, me: Seat | None) -> tuple[int, int]:
    """What posting my missed blinds costs: (the big blind live, the smaller blinds dead), each 0
    when not owed."""
    if me is None or me.owes != "missed":
        return 0, 0
    return posts_owed(me.owes, me.missed, table.settings.structure.blinds)


def rules_text(table: ViewedTable) -> api.TableRules:
    s = table.settings
    r = s.rules
    assert r is not None   # TableSettings fills in the game's own rules
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

def view_for(table: ViewedTable, account: int | None) -> api.TableView:
    return views_for(table, (account,))[account]


def views_for(table: ViewedTable, accounts: Iterable[int | None]) -> dict[int | None, api.TableView]:
    """`view_for` of each of `accounts` (None: a railbird) at one moment, built together: what
    every viewer sees alike (the rail's view of the hand and seats, the chat, the rules) is built
    once and shared by their views, and each seated viewer's own seat is built on it. A table host
    sends each change to the rail and to every seat at once."""
    hand = table.hand
    playing = hand if hand is not None and not hand.over else None   # the hand in progress
    public = seat_view(hand, None) if hand is not None else None
    dealt = {number: p for p, number in enumerate(table.hand_seats)} if public is not None else {}
    button = table.plan.button if table.plan and hand else None
    live = playing is not None
    seats = tuple(_seat_state(table, number, public, live, dealt, button)
                  for number in range(1, table.settings.seats + 1))
    left = table.seconds_left() if live else None
    rules = table.rules_text()
    # What every viewer sees alike, made once; each view is this with his own seat and cards.
    base = api.TableView(
        name=table.name, game=rules.game, stakes=rules.stakes, status=table.status, seats=seats,
        board=tuple(hand.board) if hand else (), pots=public.pots if public and live else (),
        hand_id=table.hand_id, phase=playing.phase if playing else ("done" if hand else "waiting"),
        street=public.street if public else "", my_cards=(), legal=None,
        acting_seat=table.hand_seats[playing.actor] if playing and playing.actor is not None else None,
        seconds_left=left, countdown=_countdown(left, table.settings.countdown_seconds),
        draw_counts={table.hand_seats[p]: k for p, k in playing.draw_counts.items()} if playing else {},
        chat=tuple(table.chat)[-60:], railbirds=_railbirds(table),
        waiting_list=tuple(n for _, n in table.wait_list), rules=rules, tournament=None, **_NO_SEAT)
    views = {}
    for account in accounts:
        me = table.seat_of(account) if account is not None else None
        viewer = _dealt_index(table, me)
        mine: tuple[Card, ...] = ()
        my_seats = seats
        if me is not None and viewer is not None and public is not None and hand is not None:
            hv = seat_view_from(public, hand, viewer)
            # A dealt viewer's own cards are all shown him (never None): the filter is for the type.
            mine = tuple(c for c in hv.seats[viewer].cards if c is not None)
            i = me.number - 1
            my_seats = seats[:i] + (_seat_state(table, me.number, hv, live, dealt, button),) + seats[i + 1:]
        legal = (playing.legal() if playing and viewer is not None and playing.actor == viewer
                 and me is not None and me.bot is None else None)
        views[account] = replace(base, seats=my_seats, my_cards=mine, legal=legal,
                                 tournament=table.policy.line(table, account),
                                 **(_my_seat(table, me) if me is not None else {}))
    return views


def _dealt_index(table: ViewedTable, me: Seat | None) -> int | None:
    """My player index in the hand, if I was dealt into it. The seat's account must be the one
    dealt in: a player who takes a seat after the hand ended must not inherit the previous
    occupant's cards."""
    if me is None or table.hand is None or me.number not in table.hand_seats:
        return None
    p = table.player_index(me)
    return p if table.hand_accounts[p] == me.account else None


def _seat_state(table: ViewedTable, number: int, hv: HandView | None, live: bool, dealt: dict[int, int],
                button: int | None) -> api.SeatState:
    """Seat `number` as the viewer of `hv` (the hand's view for him, None without a hand) sees it."""
    s = table.seats.get(number)
    if s is None:
        return api.SeatState(number, "", 0, 0, "empty", held_for="held" if table.held.get(number) else "")
    p = dealt.get(number)
    if hv is None or p is None or table.hand_accounts[p] != s.account:
        # Not in the hand (or a new occupant of a seat dealt to someone else).
        return api.SeatState(number, s.name, s.stack, 0, "sitting out" if s.sitting_out else "waiting",
                             s.connected, is_button=button == number)
    info = hv.seats[p]
    if live:
        # The hand's stack while it is played; after it the seat's own (the final stack
        # plus chips added since, or nothing for a player who left and sat down again).
        stack, status, acting = info.stack, info.status, hv.actor == info.player
    else:
        stack, status, acting = s.stack, "sitting out" if s.sitting_out else "active", False
    return api.SeatState(number, s.name, stack, info.bet, status, s.connected, info.cards, info.up,
                         info.shown, is_button=button == number, acting=acting)


def _countdown(left: float | None, countdown_seconds: int) -> int | None:
    """The whole seconds shown in the actor's last `countdown_seconds`, rounded up; else None."""
    if left is not None and left <= countdown_seconds:
        return max(0, int(left + 0.999))
    return None


def _railbirds(table: ViewedTable) -> tuple[str, ...]:
    seated_accounts = {s.account for s in table.seats.values()}
    return tuple(sorted(n for a, n in table.watcher_names.items() if a not in seated_accounts))


# What a viewer without a seat (a railbird) is shown of "my seat".
_NO_SEAT: dict[str, Any] = {"my_seat": None, "auto_action": "ask", "auto_blind": False, "sitting_out": False}


def _my_seat(table: ViewedTable, me: Seat) -> dict[str, Any]:
    """The view's fields about my own seat: its settings, what I may buy in for, what I owe and
    what the table is asking me."""
    return {
        "my_seat": me.number, "auto_action": me.auto, "auto_blind": bool(me.auto_blind),
        "sitting_out": bool(me.sitting_out),
        "buy_in": (table.buy_in_limits(me.account)
                   if me.stack == 0 and not table.in_hand(me) and table.policy.money else None),
        "pending_chips": me.pending_chips, "table_chips": me.table_chips,
        "missed_blinds": me.owes == "missed", "missed_posts": _missed_posts(table, me),
        "new_player": me.owes == "new" and not table.settings.variant.bring_in,
        "message": me.message, "blind_prompt": table.blind_asked(me), "leaving": bool(me.leaving),
        "decision": table.decision_of(me)}
