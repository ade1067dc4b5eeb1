"""The codec: every record that travels comes back equal, for views taken from real play."""

from __future__ import annotations

import random
import tempfile
import typing
from dataclasses import MISSING, fields, replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardroom.bus import codec
from cardroom.engine.cards import CARDS, Card
from cardroom.room import actions, api
from tests.bus.play import GAMES, TABLE, random_legal
from tests.rooms import build_room

NAMES = ("ann", "Bö'b $", "cat/7", "dan", "eve")


def _round_trip(view: api.TableView) -> api.TableView:
    return codec.view_from(codec.loads(codec.dumps(codec.view_to(view))))


def play_and_collect(game: str, seed: int, chat: list[str], steps: int = 120) -> list[api.TableView]:
    """Views of every seat and of a railbird, after each step of random play at a real table."""
    rnd = random.Random(seed)
    with tempfile.TemporaryDirectory() as folder:
        room, store, clock = build_room(Path(folder) / "room.sqlite3", GAMES[game](TABLE), seed=seed)
        try:
            players = [room.connect(n) for n in NAMES[:rnd.randint(2, len(NAMES))]]
            for i, p in enumerate(players):
                p.join(TABLE)
                p.set_auto_blind(TABLE, rnd.random() < 0.8)
                if i < 2 or rnd.random() < 0.8:    # now and then a seat with no chips (a buy-in asked)
                    p.buy_in(TABLE, rnd.choice([4_000, 10_000, 20_000]))
            rail = room.connect("railbird")
            rail.watch(TABLE)
            lines = iter(chat)
            views = []
            for _ in range(steps):
                t = room.tables[TABLE]
                acting = [p for p in players if p.view(TABLE).legal is not None]
                r = rnd.random()
                if acting:
                    p = acting[0]
                    v = p.view(TABLE)
                    try:
                        p.act(TABLE, *random_legal(v.legal, v.my_cards, rnd))
                    except api.RoomError:
                        pass
                elif r < 0.1:
                    clock.advance(rnd.choice([1.0, 3.5, 15.0, 30.0]))   # timeouts, countdowns, next hands
                else:
                    clock.advance(0.5)
                if r < 0.15:
                    text = next(lines, None)
                    if text is not None:
                        try:
                            rnd.choice(players).chat(TABLE, text)
                        except api.RoomError:
                            pass
                elif r < 0.18:
                    p = rnd.choice(players)
                    for intent in (p.sit_out, p.sit_in, p.leave):
                        if rnd.random() < 0.3:
                            try:
                                intent(TABLE)
                            except api.RoomError:
                                pass
                for p in players:
                    if rnd.random() < 0.3 and t.seat_of(p.account_id) and p.view(TABLE).blind_prompt:
                        p.post_blind(TABLE, rnd.random() < 0.8)
                views += [p.view(TABLE) for p in players] + [rail.view(TABLE)]
            return views
        finally:
            store.close()


@settings(max_examples=12, deadline=None)
@given(game=st.sampled_from(sorted(GAMES)), seed=st.integers(0, 2**32 - 1),
       chat=st.lists(st.text(min_size=1, max_size=120), max_size=12))
def test_every_view_of_real_play_comes_back_equal(game, seed, chat):
    # (That play reaches decisions, cards and every optional part is the next test's to show.)
    views = play_and_collect(game, seed, chat)
    for v in views:
        assert _round_trip(v) == v


def test_real_play_covers_the_shapes_a_view_can_take():
    """Across games: every optional part of a view is seen filled, so the round trip above is
    a round trip of each of them."""
    views = [v for game in sorted(GAMES) for v in play_and_collect(game, 7, ["hi", "gg wp ♠"], steps=250)]
    optional = ("legal", "board", "my_cards", "pots", "draw_counts", "chat", "railbirds", "buy_in",
                "seconds_left", "countdown", "blind_prompt", "sitting_out", "leaving", "message", "decision")
    assert [n for n in optional if not any(getattr(v, n) for v in views)] == []
    assert any(None in s.cards for v in views for s in v.seats)      # face-down cards
    assert any(True in s.up and False in s.up for v in views for s in v.seats)   # stud
    for v in views:
        assert _round_trip(v) == v


def test_every_table_view_field_has_a_shape_on_the_wire():
    """A field added to TableView must be named in the codec (else it would not travel)."""
    assert set(codec._VIEW_FIELDS) == {f.name for f in fields(api.TableView)}


def test_a_tournament_tables_line_comes_back_equal_and_a_bad_one_is_refused():
    v = play_and_collect("holdem", 3, [], steps=5)[-1]
    line = api.TournamentLine(4, "Sit & Go", 2, 3, "25/50 ante 5", 61.5, None, False, False, True, 17, 45,
                              2647, 9, "hand for hand: waiting for the other tables", 1234.5)
    assert _round_trip(replace(v, tournament=line)).tournament == line
    assert "tournament" not in codec.view_to(v)          # a cash table's: nothing travels
    with pytest.raises(codec.CodecError):
        codec.line_from([4, "Sit & Go"])
    with pytest.raises(codec.CodecError):
        codec.line_from(["4", *codec.line_to(line)[1:]])


def test_a_field_at_its_default_does_not_travel():
    v = play_and_collect("holdem", 3, [], steps=5)[-1]
    d = codec.view_to(replace(v, message="", leaving=False, pending_chips=0))
    assert "message" not in d and "leaving" not in d and "pending_chips" not in d
    assert _round_trip(replace(v, message="you timed out", leaving=True)).leaving


# ---------------------------------------------------------------- action records
def _example(cls) -> actions.Action:
    """A record of `cls` with every field away from its default, made from the field types only."""
    values = {int: 7, str: "x y", bool: True, int | None: 3, tuple[Card, ...]: CARDS[:2]}
    hints = typing.get_type_hints(cls)
    return cls(**{f.name: values[hints[f.name]] for f in fields(cls)})


def test_every_action_record_comes_back_equal():
    """Every record the tables know, whatever its fields, with nothing in the codec naming it."""
    assert len(actions.ACTIONS) >= 16
    for cls in actions.ACTIONS.values():
        for action in (_example(cls), *([cls()] if all(f.default is not MISSING for f in fields(cls)) else [])):
            assert codec.request_from(codec.request_to(7, "g.s", action)) == (7, "g.s", action)
    wire = codec.loads(codec.request_to(1, "s", actions.Act("draw", 0, CARDS[:2], "12/9")))
    assert wire == {"a": 1, "s": "s", "op": "act", "k": {"kind": "draw", "amount": 0, "discards": "2c2d",
                                                         "decision": "12/9"}}


@pytest.mark.parametrize("request_, says", [
    ({"op": "knock", "k": {}}, "not an action: 'knock'"),
    ({"op": "__init__", "k": {}}, "not an action"),
    ({"op": "buy_in", "k": {"cents": True}}, "cents of buy_in: not int: True"),
    ({"op": "buy_in", "k": {"cents": 1.5}}, "cents of buy_in: not int: 1.5"),
    ({"op": "buy_in", "k": {}}, "buy_in (cents is missing)"),
    ({"op": "buy_in", "k": {"cents": 5, "account": 1}}, "not the arguments of buy_in: ['account', 'cents']"),
    ({"op": "join", "k": {"seat": "3"}}, "seat of join: not int or null: '3'"),
    ({"op": "act", "k": {"kind": "draw", "discards": "ZZ"}}, "discards of act: not a card: 'ZZ'"),
    ({"op": "act", "k": {"kind": "fold", "decision": 12}}, "decision of act: not str: 12"),
    ({"op": "chat", "k": []}, "not the arguments of chat"),
])
def test_a_malformed_action_is_a_codec_error_saying_what(request_, says):
    with pytest.raises(codec.CodecError) as e:
        codec.request_from(codec.dumps({"a": 1, "s": "s", **request_}))
    assert says in str(e.value)


def test_cards_travel_as_their_text():
    assert codec.cards_to(CARDS[-1:] + (None,) + CARDS[:1]) == "As??2c"
    assert codec.cards_from("As??2c", face_down=True) == (CARDS[-1], None, CARDS[0])
    with pytest.raises(codec.CodecError):
        codec.cards_from("As??")                 # face down only where a seat's cards may be
    for bad in ("A", "Zz", "as", 5, None, "AsAs?"):
        with pytest.raises(codec.CodecError):
            codec.cards_from(bad)


@given(st.builds(api.TableSummary, name=st.text(), game=st.text(), stakes=st.text(),
                 seats=st.integers(0, 10), players=st.integers(0, 10), waiting=st.integers(0, 99),
                 railbirds=st.integers(0, 10**6), average_pot=st.integers(0, 10**12),
                 seeing_flop=st.integers(0, 100), hands_per_hour=st.integers(0, 999),
                 status=st.sampled_from(["open", "paused", "closed"])))
def test_a_lobby_row_comes_back_equal(row):
    assert codec.summary_from(codec.loads(codec.dumps(codec.summary_to(row)))) == row


@given(st.builds(api.MyMoney, balance=st.integers(0, 10**12),
                 on_tables=st.dictionaries(st.text(), st.integers(0, 10**12))))
def test_my_money_comes_back_equal(money):
    assert codec.money_from(codec.loads(codec.dumps(codec.money_to(money)))) == money


@pytest.mark.parametrize("cls", [api.RoomError, api.NotSeated, api.SeatTaken, api.BadBuyIn,
                                 api.NotAllowedNow, api.ChatRefused, api.TableClosed])
def test_an_error_comes_back_as_its_class_and_message(cls):
    back = codec.error_from(codec.loads(codec.dumps(codec.error_to(cls("no: $5 < $10")))))
    assert type(back) is cls and str(back) == "no: $5 < $10"


def test_an_error_of_another_name_comes_back_as_a_room_error():
    assert type(codec.error_from({"err": "SystemExit", "msg": "x"})) is api.RoomError
    assert str(codec.error_from({"err": 5})) == "the table refused that"


@pytest.mark.parametrize("garbage", [b"", b"\xff\xfe", b"[1,2", b"NaN", b'{"name": 5}', b"[]",
                                     b'{"seats": [[1]]}'])
def test_garbage_is_a_codec_error(garbage):
    with pytest.raises(codec.CodecError):
        try:
            data = codec.loads(garbage)
        except codec.CodecError:
            raise
        codec.view_from(data)


def test_a_view_with_a_wrong_typed_field_is_refused():
    v = codec.view_to(play_and_collect("holdem", 3, [], steps=5)[-1])
    for field, bad in (("my_seat", "1"), ("auto_blind", 1), ("pots", [True]), ("legal", [1, 2]),
                       ("board", "AsAs?"), ("seats", [[1, "a", 0, 0, "active", 1]])):
        with pytest.raises(codec.CodecError):
            codec.view_from({**v, field: bad})


def test_the_size_of_a_typical_seated_view():
    """The figures in codec's docstring: a seated view mid-hand, with a full chat and a short one."""
    views = play_and_collect("holdem", 11, [f"line {i} of the chat, as people type" for i in range(80)],
                             steps=400)
    seated = [v for v in views if v.my_seat is not None and v.my_cards and v.phase == "bet"]
    full = max(seated, key=lambda v: len(v.chat))
    size = len(codec.dumps(codec.view_to(full)))
    short = len(codec.dumps(codec.view_to(replace(full, chat=full.chat[-5:]))))
    print(f"seated view: {size} bytes with {len(full.chat)} chat lines, {short} bytes with 5")
    assert size < 8_000 and short < 1_500


def test_a_view_with_its_shared_parts_spliced_encoded_is_the_same_json():
    encoded = codec.EncodedViews()
    views = play_and_collect("stud8", 5, [f"chat {i} ♣ 'quoted' \"double\"" for i in range(12)], steps=150)
    for v in views:
        assert codec.loads(codec.view_json(v, encoded).encode()) == codec.view_to(v)
        assert codec.view_from(codec.loads(codec.view_json(v, encoded).encode())) == v


def test_the_views_of_one_change_built_together_are_each_seats_own_and_encode_alike():
    """Table.views_for (a table host's every change) shares the rail's parts among the views: each
    is still what view_for gives that account alone, and encodes to the same JSON."""
    rnd = random.Random(3)
    with tempfile.TemporaryDirectory() as folder:
        room, store, clock = build_room(Path(folder) / "room.sqlite3", GAMES["holdem"](TABLE), seed=3)
        try:
            players = [room.connect(n) for n in NAMES]
            for p in players:
                p.join(TABLE)
                p.set_auto_blind(TABLE, True)
                p.buy_in(TABLE, 10_000)
            room.connect("railbird").watch(TABLE)
            t, encoded = room.tables[TABLE], codec.EncodedViews()
            accounts = [None] + [p.account_id for p in players]
            checked = 0
            for _ in range(300):
                together = t.views_for(accounts)
                for account in accounts:
                    alone = t.view_for(account)
                    assert together[account] == alone
                    assert codec.loads(codec.view_json(together[account], encoded).encode()) == codec.view_to(alone)
                    checked += bool(alone.my_cards)
                acting = [p for p in players if p.view(TABLE).legal is not None]
                if acting:
                    v = acting[0].view(TABLE)
                    acting[0].act(TABLE, *random_legal(v.legal, v.my_cards, rnd))
                else:
                    clock.advance(1.0)
            assert checked > 100          # seats with their own cards were among them
        finally:
            store.close()


def test_views_decoded_with_shared_chat_lines_are_equal_and_share_them():
    views = play_and_collect("holdem", 6, [f"chat {i}" for i in range(40)], steps=200)
    for keep in (50_000, 30):         # 30: forgotten (and decoded again) many times over
        chat = codec.DecodedChat(keep=keep)
        back = [codec.view_from(codec.loads(codec.dumps(codec.view_to(v))), chat) for v in views]
        assert back == views
    chat = codec.DecodedChat()
    a, b = (codec.view_from(codec.loads(codec.dumps(codec.view_to(v))), chat) for v in views[-2:])
    assert a.chat and all(x is y for x, y in zip(a.chat, b.chat) if x == y)
    for bad in ([["player", "x", 5, 1.0]], [["player", "x", ["y"], 1.0]], [5], ["abcd"], [["a", "b", "c"]], 7):
        with pytest.raises(codec.CodecError):
            chat.chat(bad)


# ---------------------------------------------------------------- a tournament's lobby
async def test_a_tournament_lobby_round_trips_and_each_account_reads_his_own(tmp_path):
    """Issue 38, several processes: a host sends one lobby per tournament (the railbird's view and
    each entrant's part); decoded, each account's view is exactly the one the room in one process
    gives him, through a real sit & go with players out and tables broken."""
    from cardroom.room.tournaments import views
    from tests.room.tournaments.helpers import Bots, registered, room_with, sit_and_go

    room, store, clock = room_with(tmp_path, sit_and_go(12, table_size=6))
    names = [f"p{i}" for i in range(12)]
    clients, t = await registered(room, names)
    outsider = await room.login("zed")
    bots = Bots(t)

    def check() -> None:
        public = t.view(None)
        data = codec.tournament_to("e1", 3, public, views.parts(t, public), views.newcomer(t))
        _, n, view, mine, newcomer = codec.tournament_from(codec.loads(data))
        assert n == 3 and view == public
        for c in [*clients, outsider]:
            assert codec.personal(view, mine.get(c.account_id), newcomer) == t.view(c.account_id), c.name

    check()
    assert clock.run_until(lambda: bots.done() or len(t.director.alive()) <= 5, limit=30_000, step=1.0)
    assert len(t.tables) == 1 and any(p.place for p in t.view(None).players)
    check()
    assert clock.run_until(bots.done, limit=30_000, step=1.0)
    check()
    store.close()


def test_a_bad_tournament_message_is_refused():
    good = {"e": "e", "n": 1, "v": [], "m": [], "w": ""}
    for bad in ({**good, "n": "1"}, {**good, "m": {}}, good, {**good, "v": [1] * 13}, {**good, "w": None},
                {**good, "m": [[1, 99, None, True, ""]]}):
        with pytest.raises(codec.CodecError):
            codec.tournament_from(bad)


async def test_a_tournaments_entrants_are_woken_for_its_news_not_every_hand(tmp_path):
    """A gateway wakes a tournament's entrants when its lobby shows them news (an entry, a level,
    a pause...), as one process does, not at every hand's end anywhere in it (their own tables'
    views wake them for those): over the bus that was every entrant once a second."""
    from cardroom.bus.tournaments import Lobby as _Tourney
    from cardroom.room.tournaments import views
    from tests.room.tournaments.helpers import Bots, registered, room_with, sit_and_go

    room, store, clock = room_with(tmp_path, sit_and_go(6, table_size=3))
    clients, t = await registered(room, [f"p{i}" for i in range(5)])

    def lobby() -> _Tourney:
        public = t.view(None)
        return _Tourney(codec.loads(codec.tournament_to("e", t.version, public, views.parts(t, public),
                                                        views.newcomer(t))))

    accounts = [c.account_id for c in clients]
    before = lobby()
    assert all(before.wakes(a, None) for a in accounts)
    assert not any(before.wakes(a, before) for a in accounts)
    sixth = (await registered(room, ["p5"], t.number))[0][0]
    started = lobby()                                   # the sixth entry starts it: news for all
    assert all(started.wakes(a, before) for a in accounts + [sixth.account_id])
    bots, hands = Bots(t), t.director.hands
    assert clock.run_until(lambda: bots.done() or t.director.hands >= hands + 4 and
                           t.director.stage(t.now()).level == 0 and len(t.director.alive()) == 6, limit=600)
    played = lobby()
    assert played.summary.players_left == 6 and [p.chips for p in t.view(None).players] != [1500] * 6
    assert not any(played.wakes(a, started) for a in accounts)    # chips and ranks moved: no news
    t.operate(t.director.pause)
    assert all(lobby().wakes(a, played) for a in accounts)
    store.close()
