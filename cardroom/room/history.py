"""Hand histories: what the store keeps of a finished hand (record_of, public_text), a player's
own view of a stored hand (player_history), and a player's hands in bulk, by day, as trackers read
them (hands_by_day, day_files).

What the store keeps is the whole hand, for the operator. What a player gets (his list of hands,
the History screen and its replay, its PokerStars and PHH exports, the SFTP folder, `hands` over
exec) is made here, on the server, from what he may know of the hand (views.history_events): his
own cards, what was face up, the hands at the showdown (shown or mucked: seed 001), how many cards
each player drew; folded hands, burns, the deck and a draw's discards stay hidden. Nothing a player
is handed holds more, not even in a field his screen does not draw."""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime
from typing import Any, Iterable, Iterator

from cardroom.engine import events as ev
from cardroom.engine import phh
from cardroom.engine.hand import Hand
from cardroom.engine.pokerstars import PLAY, to_pokerstars
from cardroom.engine.tournament.history import TournamentHand
from cardroom.engine.views import history_events
from cardroom.room.api import RoomError
from cardroom.room.ports import HandRecord, SeatStack, Store

log = logging.getLogger("cardroom.history")


def record_of(hand: Hand, *, table: str, hand_id: str, when: datetime, seats: int, currency: str = PLAY,
              tournament: TournamentHand | None = None) -> str:
    """What the store keeps of a hand besides the money: every event, and the whole hand as PHH
    (all cards, like the deck order: private; players get their own view of it), and the currency
    it was played for (exports keep it when the room's setting changes later). A tournament hand's
    TournamentHand (engine.tournament.history) goes into its PHH, and its players' exports are
    tournament hands (player_history reads it back)."""
    try:
        text = phh.export_hand(hand, tournament=tournament,
                               **_phh_meta(table, hand_id, when, seats, currency, tournament))
    except Exception:
        log.exception("PHH export failed for %s", hand_id)
        text = ""
    return json.dumps({"events": ev.to_json_list(hand.events), "phh": text, "when": when.isoformat(),
                       "seats": seats, "currency": currency})


def _phh_meta(table: str, hand_id: str, when: datetime, seats: int, currency: str,
              tournament: TournamentHand | None = None) -> dict[str, Any]:
    """The PHH fields that say where, when and for what a hand was played (play chips: XXX, ISO
    4217's "no currency"). The hand's number is an integer, as the spec would have it, where the
    id is one. A tournament hand's table and currency are its tournament's (phh/tournament.py)."""
    number = int(hand_id) if hand_id.isdigit() and str(int(hand_id)) == hand_id else hand_id
    if tournament is not None:
        return {"hand": number, "when": when, "seat_count": seats}
    return {"table": table, "hand": number, "when": when, "seat_count": seats,
            "currency": phh.NO_CURRENCY if currency == PLAY else currency}


def public_text(hand: Hand, *, table: str, hand_id: str, when: datetime, seats: int, currency: str = PLAY,
                tournament: TournamentHand | None = None) -> str:
    """The public PokerStars text: no hole cards but those that stayed in to the showdown."""
    try:
        return to_pokerstars(hand, hand_id=hand_id, table=table, when=when, max_seats=seats,
                             currency=currency, reveal_mucked=True, tournament=tournament)
    except Exception:
        log.exception("PokerStars export failed for %s", hand_id)
        return ""


@dataclass(frozen=True, slots=True)
class PlayerHand:
    hand_id: str
    table: str
    started_at: datetime
    status: str
    me: int                      # my player index in the hand
    seats: tuple[SeatStack, ...]   # in player order
    events: tuple[ev.Event, ...]   # as my history holds them (views.history_events)
    rake: int
    max_seats: int = 10
    names: tuple[str, ...] = ()  # the players' names, in player order (public at the table)
    currency: str = PLAY         # what the hand was played for (pokerstars.CURRENCIES, or play chips)
    # The exports, made on the server from the stored hand: the whole hand never leaves it.
    pokerstars: str = ""         # PokerStars text, me as the hero
    phh: str = ""                # PHH, others' hidden cards as ??
    unexportable: str = ""       # why there are no exports, when there are none

    def streets(self) -> list[list[ev.Event]]:
        """The events cut into streets. A street opens with its betting round (RoundStarted) or its
        draw (DrawStarted) and holds what follows; the next one starts with the next street's deal
        (the burn and the cards come before its RoundStarted) or the next draw. The blinds, antes
        and first cards belong to the first street."""
        out: list[list[ev.Event]] = [[]]
        opener: ev.Event | None = None
        for e in self.events:
            if opener is not None and (isinstance(e, (ev.RoundStarted, ev.DrawStarted)) or (
                    isinstance(opener, ev.RoundStarted) and isinstance(e, _DEALING))):
                out.append([])
                opener = None
            out[-1].append(e)
            if isinstance(e, (ev.RoundStarted, ev.DrawStarted)):
                opener = e
        return out


_DEALING = (ev.Burned, ev.DealtHole, ev.DealtBoard)


def _document(record: HandRecord) -> dict[str, Any]:
    if not record.events_json:
        return {}
    doc = json.loads(record.events_json)
    return doc if isinstance(doc, dict) else {"events": doc}


def player_history(store: Store, hand_id: str, account: int) -> PlayerHand:
    """Hand `hand_id` as the player of `account` may have it, exports included."""
    record = store.get_hand(hand_id)
    if record is None:
        raise RoomError(f"there is no hand #{hand_id}")
    seats = tuple(sorted(record.seats, key=lambda s: s.seat))
    mine = [i for i, s in enumerate(seats) if s.account_id == account]
    if not mine:
        raise RoomError(f"you did not play hand #{hand_id}")
    me = mine[0]
    doc = _document(record)
    events = ev.from_json_list(doc.get("events", []))
    hand = PlayerHand(record.hand_id, record.table, record.started_at, record.status, me, seats,
                      tuple(history_events(events, me)), record.rake_cents, doc.get("seats", 10),
                      tuple(store.get(s.account_id).name for s in seats), doc.get("currency", PLAY))
    try:
        stars, text = _exports(hand, doc.get("phh", ""))
    except RoomError as e:
        return replace(hand, unexportable=str(e))
    except Exception as e:          # a stored hand the exporter cannot replay
        log.exception("export of hand %s for account %s failed", hand_id, account)
        return replace(hand, unexportable=f"{type(e).__name__}: {e}")
    return replace(hand, pokerstars=stars, phh=text)


def _exports(hand: PlayerHand, whole: str) -> tuple[str, str]:
    """(PokerStars text, PHH) of the hand for its player, from the stored whole-hand PHH. Replaying
    is nearly all of the cost (1.6 of 1.8 ms a hand): both share one replay."""
    if not whole:
        raise RoomError("this hand has no stored history to export")
    replayed = phh.import_hand(whole)
    tournament = phh.tournament_of(whole)          # None for a cash-game hand
    my_seat = hand.seats[hand.me].seat
    me = next(i for i, p in enumerate(replayed.players) if p.seat == my_seat)   # PHH's order
    stars = to_pokerstars(replayed, hand_id=hand.hand_id, table=hand.table, when=hand.started_at,
                          max_seats=hand.max_seats, hero=me, currency=hand.currency, reveal_mucked=True,
                          tournament=tournament)
    text = phh.export_hand(replayed, viewer=me, tournament=tournament,
                           **_phh_meta(hand.table, hand.hand_id, hand.started_at, hand.max_seats, hand.currency,
                                       tournament))
    return stars, text


def export_phh(hand: PlayerHand) -> str:
    """The hand as PHH, as this player may have it (see history_events)."""
    if hand.unexportable:
        raise RoomError(hand.unexportable)
    return hand.phh


def export_pokerstars(hand: PlayerHand) -> str:
    """The hand in PokerStars text with this player as the hero (see history_events)."""
    if hand.unexportable:
        raise RoomError(hand.unexportable)
    return hand.pokerstars


def player_hands(store: Store, account: int, limit: int = 20, offset: int = 0) -> list[HandRecord]:
    """The account's hands, newest first, as his list of hands shows them: without what the store
    keeps for the operator alone (the deck's order and every event, others' hidden cards in both).
    The public text stays: a railbird's history of the hand (seed 001's showdown hands)."""
    return [replace(r, deck="", events_json=None)
            for r in store.hands_for_account(account, limit=limit, offset=offset)]


# ------------------------------------------------------------------ a player's hands in bulk

PAGE = 500                   # hands read from the store at a time (its largest page)


def utc_day(when: datetime) -> date:
    """The day a hand is filed under: its start's date in UTC, the same for every player."""
    return (when.astimezone(UTC) if when.tzinfo is not None else when).date()


def _newest_first(store: Store, account: int) -> Iterator[HandRecord]:
    """The account's hands, newest first, a page at a time: the one place the bulk exports read
    the store (so a store with another way to page is changed here alone)."""
    offset = 0
    while True:
        page = store.hands_for_account(account, limit=PAGE, offset=offset)
        yield from page
        if len(page) < PAGE:
            return
        offset += PAGE


def hands_by_day(store: Store, account: int, since: date | None = None) -> dict[date, list[str]]:
    """The ids of the account's settled hands (void and unfinished ones have no history), by day,
    oldest first, from `since` on."""
    days: dict[date, list[str]] = {}
    seen: set[str] = set()
    for record in _newest_first(store, account):
        day = utc_day(record.started_at)
        if since is not None and day < since:
            break
        # A hand that began while we paged pushes the others down a place: skip the repeat.
        if record.status == "settled" and record.hand_id not in seen:
            seen.add(record.hand_id)
            days.setdefault(day, []).append(record.hand_id)
    return {day: days[day][::-1] for day in sorted(days)}


def day_files(store: Store, account: int, hand_ids: Iterable[str]) -> tuple[str, str]:
    """The hands as this player saw them: (PokerStars text, PHH hands file). A hand whose export
    fails is left out (and logged) rather than costing the player the whole day."""
    stars: list[str] = []
    phhs: list[str] = []
    for hand_id in hand_ids:
        try:
            hand = player_history(store, hand_id, account)
        except Exception:
            log.exception("export of hand %s for account %s failed", hand_id, account)
            continue
        if hand.unexportable:
            log.warning("hand %s is left out of account %s's files: %s", hand_id, account, hand.unexportable)
            continue
        stars.append(hand.pokerstars)
        phhs.append(hand.phh)
    return pokerstars_file(stars), phhs_file(phhs)


def pokerstars_file(texts: list[str]) -> str:
    """Hands in one file as PokerStars writes them: two blank lines between hands (what trackers
    split a file on)."""
    return "\n\n\n".join(t.strip("\n") for t in texts) + "\n" if texts else ""


def phhs_file(texts: list[str]) -> str:
    """Hands in one PHH "hands file" (.phhs): each hand a TOML table named by its place in the file,
    as pokerkit's `HandHistory.dumps_all` writes it and `load_all` reads it."""
    return "\n".join(f"[{i}]\n{t.rstrip()}\n" for i, t in enumerate(texts, 1))
