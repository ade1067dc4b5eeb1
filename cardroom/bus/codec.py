"""The records that travel on the bus, as compact JSON: what a table host sends and a gateway reads.

Exact round trip: `view_from(view_to(v)) == v` for every TableView a table can build (property
test over real play in tests/bus/test_codec.py), and the same for TableSummary, MyMoney, Legal
and the errors. The shapes:

- a Card is its text, "As"; a row of cards one string, "AsKd??" ("??" face down to this viewer);
- small records that come many to a message are arrays in field order, trailing defaults left
  out: SeatState `[3,"bob",9600,400,"active",true,"????","00"]` (`up` as "1"/"0" per card),
  ChatLine `["dealer","Dealer","bob calls $4",1234.5]`, Legal (a NamedTuple) all its fields,
  TableSummary, TableRules;
- a TableView is an object keyed by field name, fields at their default left out (readable in
  `nats sub 'cr.>'`, and a field added to TableView with a default travels as soon as the codec
  names its shape, see _VIEW_FIELDS: the test of every field fails until it does);
- an intent is its action record (room/actions.py) by verb, its fields by name:
  `{"a": 7, "s": "<session>", "op": "act", "k": {"kind": "draw", "amount": 0, "discards": "As7d",
  "decision": "123/17"}}`, read from the record classes (nothing here names one);
- an error is `{"err": "BadBuyIn", "msg": "..."}`, read back as that RoomError class (another
  name, RoomError itself).

Size (tests/bus/test_codec.py measures it): a seated player's view at a six-seat hold'em table
(five players) on the river, with the 60 chat lines a view carries at most, is 3.7 kB, of which
the chat is 2.9 kB (about 48 bytes a line); the same view with no chat is 0.8 kB, with five lines
1.0 kB. The public view is the same size less the seat's own fields. Encoding: about 13 µs a view
with what a change's views share encoded once (EncodedViews: the chat line by line, the rail's
seats, the rules...); decoding about 100 µs with the gateway's chat lines decoded once
(DecodedChat), 135 µs without.

Everything decoded from the wire is checked for shape (`CodecError`): a host reads requests
from anyone on the bus.
"""

from __future__ import annotations

import json
import operator
import types
import typing
from typing import Any
from dataclasses import MISSING, fields, is_dataclass, replace
from datetime import datetime

from cardroom.engine.cards import CARDS, Card
from cardroom.engine.legality import Legal
from cardroom.room import actions, api


class CodecError(ValueError):
    """Bytes that are not a message of this shape."""


# ---------------------------------------------------------------- bytes
_dumps = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), check_circular=False,
                          allow_nan=False).encode


def dumps(obj) -> bytes:
    return _dumps(obj).encode("utf-8")


def loads(data: bytes):
    try:
        return json.loads(data)
    except (ValueError, UnicodeDecodeError, TypeError) as e:
        raise CodecError(f"not JSON: {e}") from None


# ---------------------------------------------------------------- cards
_TEXT = {c: repr(c) for c in CARDS}
_CARD = {t: c for c, t in _TEXT.items()}
_DOWN = "??"


def cards_to(cards) -> str:
    return "".join(_DOWN if c is None else _TEXT[c] for c in cards)


def cards_from(text, face_down: bool = False) -> tuple:
    """A row of cards; `face_down` allows "??" (None) in it."""
    if not isinstance(text, str) or len(text) % 2:
        raise CodecError(f"not a row of cards: {text!r}"[:80])
    out: list[Card | None] = []
    for i in range(0, len(text), 2):
        t = text[i:i + 2]
        if t == _DOWN and face_down:
            out.append(None)
        elif t in _CARD:
            out.append(_CARD[t])
        else:
            raise CodecError(f"not a card: {t!r}")
    return tuple(out)


# ---------------------------------------------------------------- small records (arrays)
def _defaults(cls: Any) -> tuple:
    """Each field's default of the dataclass `cls`: its default, or made by its factory, or MISSING."""
    return tuple(f.default if f.default is not MISSING else
                 f.default_factory() if callable(f.default_factory) else MISSING for f in fields(cls))


_SEAT_DEFAULTS = _defaults(api.SeatState)


def _trim(values: list, defaults: tuple) -> list:
    n = len(values)
    while n and values[n - 1] == defaults[n - 1]:
        n -= 1
    return values[:n]


def seat_to(s: api.SeatState) -> list:
    raw = [s.number, s.name, s.stack, s.bet, s.status, s.connected, s.cards, s.up, s.shown,
           s.is_button, s.acting, s.held_for]
    out = _trim(raw, _SEAT_DEFAULTS)
    if len(out) > 6:
        out[6] = cards_to(s.cards)
    if len(out) > 7:
        out[7] = "".join("1" if u else "0" for u in s.up)
    return out


def seat_from(a) -> api.SeatState:
    _need(isinstance(a, list) and 5 <= len(a) <= len(_SEAT_DEFAULTS), "a seat", a)
    values = list(a)
    if len(values) > 6:
        values[6] = cards_from(values[6], face_down=True)
    if len(values) > 7:
        _need(isinstance(values[7], str) and set(values[7]) <= {"0", "1"}, "a seat's face-up marks", a)
        values[7] = tuple(u == "1" for u in values[7])
    _types(values, (int, str, int, int, str, bool, tuple, tuple, bool, bool, bool, str), "a seat")
    return api.SeatState(*values)


def chat_to(c: api.ChatLine) -> list:
    return [c.kind, c.name, c.text, c.at]


def chat_from(a) -> api.ChatLine:
    # Written out: a view carries up to 60 of these, and this is most of its decoding.
    if type(a) is not list or len(a) != 4:
        raise CodecError(f"not a chat line: {a!r}"[:120])
    kind, name, text, at = a
    if type(kind) is not str or type(name) is not str or type(text) is not str or type(at) not in (float, int):
        raise CodecError(f"not a chat line: {a!r}"[:120])
    return api.ChatLine(kind, name, text, at)


def legal_to(lg: Legal | None) -> list | None:
    return None if lg is None else list(lg)


_LEGAL_TYPES = (int, str, bool, bool, int, bool, int, int, str, int, int, bool, bool)


def legal_from(a) -> Legal | None:
    if a is None:
        return None
    _need(isinstance(a, list) and len(a) == len(Legal._fields), "a decision", a)
    _types(a, _LEGAL_TYPES, "a decision")
    return Legal(*a)


def rules_to(r: api.TableRules | None) -> list | None:
    if r is None:
        return None
    return [r.game, r.structure, r.stakes, r.cap, r.rake, r.action_seconds, r.sit_out_minutes,
            list(r.house), r.min_buy_in, r.max_buy_in]


def rules_from(a) -> api.TableRules | None:
    if a is None:
        return None
    _need(isinstance(a, list) and len(a) == 10, "table rules", a)
    values = list(a)
    values[7] = _strings(values[7], "the house rules")
    _types(values, (str, str, str, (int, type(None)), str, int, int, tuple, int, (int, type(None))), "table rules")
    return api.TableRules(*values)


def summary_to(s: api.TableSummary) -> list:
    return [s.name, s.game, s.stakes, s.seats, s.players, s.waiting, s.railbirds, s.average_pot,
            s.seeing_flop, s.hands_per_hour, s.status]


def summary_from(a) -> api.TableSummary:
    _need(isinstance(a, list) and len(a) == 11, "a lobby row", a)
    _types(a, (str, str, str, int, int, int, int, int, int, int, str), "a lobby row")
    return api.TableSummary(*a)


def money_to(m: api.MyMoney) -> dict:
    return {"balance": m.balance, "on_tables": dict(m.on_tables)}


def money_from(d) -> api.MyMoney:
    _need(isinstance(d, dict) and isinstance(d.get("balance"), int) and isinstance(d.get("on_tables"), dict),
          "money", d)
    _need(all(type(v) is int for v in d["on_tables"].values()), "money on tables", d)
    return api.MyMoney(d["balance"], dict(d["on_tables"]))


# ---------------------------------------------------------------- the view (an object)
def _tuple(a):
    _need(isinstance(a, list), "a list", a)
    return tuple(a)


def _ints(a, what="numbers"):
    t = _tuple(a)
    _need(all(type(x) is int for x in t), what, a)
    return t


def _strings(a, what="names"):
    t = _tuple(a)
    _need(all(isinstance(x, str) for x in t), what, a)
    return t


def _pairs_to(d: dict) -> list:
    return [[k, v] for k, v in d.items()]


def _pairs_from(a) -> dict:
    _need(isinstance(a, list) and all(isinstance(p, list) and len(p) == 2 and type(p[0]) is int
                                      and type(p[1]) is int for p in a), "draw counts", a)
    return {k: v for k, v in a}


def _buy_in_from(a):
    if a is None:
        return None
    _need(isinstance(a, list) and len(a) == 3 and type(a[0]) is int and type(a[2]) is int
          and (a[1] is None or type(a[1]) is int), "buy-in limits", a)
    return tuple(a)


def _plain(*types):
    def check(a):
        _need(isinstance(a, types) and not (bool not in types and isinstance(a, bool)), "a value", a)
        return a
    return check


_STR, _INT, _BOOL = _plain(str), _plain(int), _plain(bool)
_OPT_INT, _OPT_NUM = _plain(int, type(None)), _plain(int, float, type(None))

# A tournament table's line (api.TournamentLine): its fields in order, each checked by its kind.
_LINE_CHECKS = {"number": _INT, "name": _STR, "table": _INT, "level": _INT, "stakes": _STR,
                "next_level_in": _OPT_NUM, "next_break_in": _OPT_NUM, "on_break": _BOOL, "paused": _BOOL,
                "hand_for_hand": _BOOL, "players_left": _INT, "entrants": _INT, "average_stack": _INT,
                "my_rank": _OPT_INT, "hold": _STR, "at": _plain(int, float)}


def line_to(line: api.TournamentLine | None) -> list | None:
    return None if line is None else [getattr(line, name) for name in _LINE_CHECKS]


def line_from(a) -> api.TournamentLine | None:
    if a is None:
        return None
    a = _tuple(a)
    _need(len(a) == len(_LINE_CHECKS), "a tournament line", a)
    return api.TournamentLine(*(check(v) for check, v in zip(_LINE_CHECKS.values(), a)))


# Every TableView field: (to wire, from wire). A field added to TableView must be named here.
_VIEW_FIELDS = {
    "name": (None, _STR), "game": (None, _STR), "stakes": (None, _STR), "status": (None, _STR),
    "seats": (lambda t: [seat_to(s) for s in t], lambda a: tuple(seat_from(x) for x in _tuple(a))),
    "board": (cards_to, cards_from),
    "pots": (list, _ints),
    "hand_id": (None, _STR), "phase": (None, _STR), "street": (None, _STR),
    "my_seat": (None, _OPT_INT),
    "my_cards": (cards_to, cards_from),
    "legal": (legal_to, legal_from),
    "acting_seat": (None, _OPT_INT), "seconds_left": (None, _OPT_NUM), "countdown": (None, _OPT_INT),
    "auto_action": (None, _STR), "auto_blind": (None, _BOOL), "sitting_out": (None, _BOOL),
    "draw_counts": (_pairs_to, _pairs_from),
    "chat": (lambda t: [chat_to(c) for c in t], lambda a: tuple(chat_from(x) for x in _tuple(a))),
    "railbirds": (list, _strings), "waiting_list": (list, _strings),
    "rules": (rules_to, rules_from),
    "buy_in": (lambda b: None if b is None else list(b), _buy_in_from),
    "pending_chips": (None, _INT), "table_chips": (None, _INT), "missed_blinds": (None, _BOOL),
    "missed_posts": (list, lambda a: _ints(a, "missed posts")),
    "new_player": (None, _BOOL), "message": (None, _STR), "blind_prompt": (None, _INT),
    "leaving": (None, _BOOL), "decision": (None, _STR),
    "tournament": (line_to, line_from),
}
_VIEW_DEFAULTS = {f.name: d for f, d in zip(fields(api.TableView), _defaults(api.TableView))}
_VIEW_REQUIRED = frozenset(n for n, d in _VIEW_DEFAULTS.items() if d is MISSING)


def view_to(v: api.TableView) -> dict:
    out = {}
    for name, (to, _) in _VIEW_FIELDS.items():
        value = getattr(v, name)
        default = _VIEW_DEFAULTS[name]
        if default is not MISSING and value == default:
            continue
        out[name] = value if to is None else to(value)
    return out


class EncodedChat:
    """A table's chat, encoded once: every view a table builds holds the same ChatLine objects
    (its chat deque's, appended to and never changed), so the host that sends one change's views
    to each seat and to the rail encodes the chat once for all of them, and each line once for
    its life (the chat is most of a view's bytes). One per table."""

    def __init__(self) -> None:
        self._by_id: dict[int, tuple[api.ChatLine, str]] = {}
        self._last: tuple = (None, None, 0, "[]")

    def text(self, chat) -> str:
        first, last, n, text = self._last
        if len(chat) == n and n and chat[0] is first and chat[-1] is last:
            return text              # the same window of the same append-only chat
        by_id, out = self._by_id, []
        for line in chat:
            hit = by_id.get(id(line))
            if hit is None or hit[0] is not line:      # the line itself is kept: its id is not reused
                hit = by_id[id(line)] = (line, _dumps(chat_to(line)))
            out.append(hit[1])
        if len(by_id) > 4 * len(chat) + 64:
            self._by_id = {id(line): by_id[id(line)] for line in chat}
        text = "[" + ",".join(out) + "]"
        self._last = (chat[0], chat[-1], len(chat), text) if chat else (None, None, 0, "[]")
        return text


class EncodedViews:
    """A table's views, encoded with what they share encoded once. The views of one change (the
    rail's and each seat's: Table.views_for) hold the same objects where they show the same
    thing (the chat, the board, the rules, every seat but the viewer's own), so each of those is
    encoded once for all of them: kept by identity (the object itself is kept, so its id is not
    reused), the chat line by line (EncodedChat), the seats seat by seat. One per table."""

    def __init__(self) -> None:
        self.chat = EncodedChat()
        self._last: dict[str, tuple[object, str]] = {}      # field -> (its last value, its text)
        self._seats: dict[int, tuple[api.SeatState, str]] = {}

    def text(self, v: api.TableView) -> str:
        # The plain fields: those not at their default, in one JSON object.
        out = {name: value if to is None else to(value)
               for (name, default, to), value in zip(_PLAIN, _plain_values(v))
               if default is MISSING or value != default}
        last, pieces = self._last, []
        for name, default, to in _SHARED:
            value = getattr(v, name)
            if value == default:
                continue
            hit = last.get(name)
            if hit is None or hit[0] is not value:
                hit = last[name] = (value, f',"{name}":{_dumps(value if to is None else to(value))}')
            pieces.append(hit[1])
        seats, texts = self._seats, []
        for s in v.seats:
            hit = seats.get(id(s))
            if hit is None or hit[0] is not s:
                hit = seats[id(s)] = (s, _dumps(seat_to(s)))
            texts.append(hit[1])
        if len(seats) > 8 * len(v.seats) + 64:
            self._seats = {id(s): seats[id(s)] for s in v.seats}
        pieces.append(',"seats":[' + ",".join(texts) + "]")
        if v.chat:
            pieces.append(',"chat":' + self.chat.text(v.chat))
        # The plain fields hold the required ones, so that object is never empty.
        return _dumps(out)[:-1] + "".join(pieces) + "}"


_SPLICED = ("board", "pots", "draw_counts", "railbirds", "waiting_list", "rules", "seats", "chat")
_PLAIN = tuple((k, _VIEW_DEFAULTS[k], to) for k, (to, _) in _VIEW_FIELDS.items() if k not in _SPLICED)
_plain_values = operator.attrgetter(*(k for k, _, _ in _PLAIN))
_SHARED = tuple((k, _VIEW_DEFAULTS[k], _VIEW_FIELDS[k][0]) for k in _SPLICED[:6])


def view_json(v: api.TableView, views: EncodedViews | None = None) -> str:
    """`view_to` as JSON text; with `views` (the table's), what the table's views share is spliced
    in already encoded."""
    return _dumps(view_to(v)) if views is None else views.text(v)


class DecodedChat:
    """Chat lines already decoded, shared: a gateway reads the same lines in every view of a
    table it receives (60 of them, most of a view's decoding) and in every seat's view of it, so
    it decodes each once and every view it holds shares the same ChatLine objects. One per
    gateway; forgotten all at once when it holds `keep` (then decoded again as they come)."""

    def __init__(self, keep: int = 50_000) -> None:
        self._keep = keep
        self._lines: dict[tuple, api.ChatLine] = {}

    def chat(self, a) -> tuple[api.ChatLine, ...]:
        lines, out = self._lines, []
        for x in _tuple(a):
            try:
                key = tuple(x)
                line = lines.get(key)
            except TypeError:           # not a list, or one holding a list: chat_from says why
                line = None
            if line is None:
                line = chat_from(x)     # checked; only a real line is remembered
                if len(lines) >= self._keep:
                    lines.clear()
                lines[key] = line
            out.append(line)
        return tuple(out)


def view_from(d, chat: DecodedChat | None = None) -> api.TableView:
    _need(isinstance(d, dict), "a table view", d)
    unknown = d.keys() - _VIEW_FIELDS.keys()
    _need(not unknown, "a table view's fields", sorted(unknown))
    _need(_VIEW_REQUIRED <= d.keys(), "a table view's fields", sorted(_VIEW_REQUIRED - d.keys()))
    if chat is None or "chat" not in d:
        return api.TableView(**{k: _VIEW_FIELDS[k][1](a) for k, a in d.items()})
    return api.TableView(**{k: _VIEW_FIELDS[k][1](a) for k, a in d.items() if k != "chat"},
                         chat=chat.chat(d["chat"]))


# ---------------------------------------------------------------- messages
# A view as it travels: stamped with its host's epoch (a random id per host process) and the
# table's change count there, so a client keeps the newest of the views that reach it by
# different ways (an intent's reply, its seat's subject, the table's public subject).
def stamped(epoch: str, n: int, view_text: str) -> str:
    return f'{{"e":{_dumps(epoch)},"n":{int(n)},"v":{view_text}}}'


def stamped_from(d, chat: DecodedChat | None = None) -> tuple[str, int, api.TableView]:
    _need(isinstance(d, dict) and isinstance(d.get("e"), str) and type(d.get("n")) is int, "a stamped view", d)
    return d["e"], d["n"], view_from(d.get("v"), chat)


# ---------------------------------------------------------------- intents (action records)
# A request is `{"a": account, "s": remote session, "op": verb, "k": {field: value}}`: an action
# record of room/actions.py by its verb, its fields by name (cards as their text), each checked
# against the field's type on decoding. Read from the records themselves: an action added there
# travels with nothing added here, and nothing but a known record, checked, reaches a table.
def _field_codec(hint) -> tuple:
    """(to wire, from wire: the value or CodecError) for a field of this type."""
    if hint == tuple[Card, ...]:
        return cards_to, cards_from
    if hint in (int, str, bool, int | None, str | None):
        allowed = typing.get_args(hint) or (hint,)

        what = " or ".join("null" if t is type(None) else t.__name__ for t in allowed)

        def check(v):
            _need(type(v) in allowed, what, v)
            return v
        return None, check
    raise TypeError(f"the bus has no codec for an action field of type {hint}")


_SPECS: dict[type, tuple] = {}      # action record class -> its _action_spec, made once


def _action_spec(cls: type[actions.Action] | type[actions.RoomAction]) -> tuple:
    """(name, to wire, from wire, default) for each field of an action record."""
    spec = _SPECS.get(cls)
    if spec is None:
        hints = typing.get_type_hints(cls)
        record: Any = cls      # a dataclass (every action record is one; type[Action] does not say so)
        spec = _SPECS[cls] = tuple((f.name, *_field_codec(hints[f.name]), default)
                                   for f, default in zip(fields(record), _defaults(cls)))
    return spec


def action_to(action: actions.Action | actions.RoomAction) -> dict:
    return {name: getattr(action, name) if to is None else to(getattr(action, name))
            for name, to, _, _ in _action_spec(type(action))}


def action_from(op, given, known: dict | None = None) -> actions.Action:
    """The record `op` names in `known` (the table actions; the room actions for a tournament's
    host), from its fields `given`, every one checked; CodecError if not."""
    known = actions.ACTIONS if known is None else known
    _need(isinstance(op, str) and op in known, "an action", op)
    cls = known[op]
    spec = _action_spec(cls)
    _need(isinstance(given, dict), "the arguments of " + op, given)
    _need(given.keys() <= {name for name, _, _, _ in spec}, "the arguments of " + op, sorted(given))
    kw = {}
    for name, _, read, default in spec:
        if name in given:
            try:
                kw[name] = read(given[name])
            except CodecError as e:
                raise CodecError(f"{name} of {op}: {e}"[:120]) from None
        else:
            _need(default is not MISSING, f"the arguments of {op} ({name} is missing)", sorted(given))
    return cls(**kw)


def request_to(account: int, session: str, action: actions.Action | actions.RoomAction) -> bytes:
    return dumps({"a": account, "s": session, "op": action.verb, "k": action_to(action)})


def request_from(data: bytes, known: dict | None = None) -> tuple[int, str, actions.Action]:
    """(account, remote session, the action record), every one checked; CodecError if not.
    `known`: the records it may be (the table actions unless said)."""
    d = loads(data)
    _need(isinstance(d, dict) and type(d.get("a")) is int and isinstance(d.get("s"), str), "a request", d)
    return d["a"], d["s"], action_from(d.get("op"), d.get("k", {}), known)


def reply_ok(result, view_text: str | None, key: str = "view") -> bytes:
    """An answer and, under `key`, the caller's view right after it (a table's, or a
    tournament's message under "tv")."""
    _need(result is None or type(result) in (int, str), "a result", result)
    text = '{"ok":true,"r":' + _dumps(result) + (f',"{key}":' + view_text if view_text else "") + "}"
    return text.encode("utf-8")


def reply_error(e: api.RoomError) -> bytes:
    return dumps({"ok": False, **error_to(e)})


# ---------------------------------------------------------------- records, generically
# A tournament's records (api.TournamentSummary, TournamentView and the records they hold) travel
# as arrays in field order, each value encoded and checked by its field's type, read from the
# record classes: int, float, str, bool, a datetime (ISO text), None in a union, a tuple of one
# kind, another record. A field added to one travels with nothing added here.
def _scalar(kind):
    def check(v):
        ok = type(v) is kind or (kind is float and type(v) is int)
        _need(ok, kind.__name__, v)
        return v
    return check


def _datetime_from(v):
    _need(isinstance(v, str), "a date and time", v)
    try:
        return datetime.fromisoformat(v)
    except ValueError:
        raise CodecError(f"not a date and time: {v!r}"[:120]) from None


def _value_codec(hint) -> tuple:
    """(to wire, from wire) for a value of type `hint` (the value, or CodecError)."""
    if isinstance(hint, type) and is_dataclass(hint):
        return record_to, lambda a: record_from(hint, a)
    if hint is datetime:
        return datetime.isoformat, _datetime_from
    if hint in (int, float, str, bool):
        return None, _scalar(hint)
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        to, read = _value_codec(args[0])
        return ((list if to is None else lambda t: [to(x) for x in t]),
                lambda a: tuple(read(x) for x in _tuple(a)))
    if origin in (typing.Union, types.UnionType) and len(args) == 2 and type(None) in args:
        to, read = _value_codec(next(a for a in args if a is not type(None)))
        return ((None if to is None else lambda v: None if v is None else to(v)),
                lambda a: None if a is None else read(a))
    raise TypeError(f"the bus has no codec for a record field of type {hint}")


_RECORDS: dict[type, tuple] = {}     # record class -> (name, to wire, from wire) per field, made once


def _record_spec(cls: type) -> tuple:
    spec = _RECORDS.get(cls)
    if spec is None:
        hints = typing.get_type_hints(cls)
        spec = _RECORDS[cls] = tuple((f.name, *_value_codec(hints[f.name])) for f in fields(cls))
    return spec


def record_to(record) -> list:
    return [getattr(record, name) if to is None else to(getattr(record, name))
            for name, to, _ in _record_spec(type(record))]


def record_from(cls, a):
    """A record of class `cls` from its array, every field checked; CodecError if not."""
    spec = _record_spec(cls)
    _need(isinstance(a, list) and len(a) == len(spec), f"a {cls.__name__}", a)
    return cls(*(read(v) for (_, _, read), v in zip(spec, a)))


# A tournament's lobby as its host sends it: the view a railbird has (`v`, for account None),
# for each account with an entry what differs for him: [his latest entry's index in the players
# (-1: none), his rank, registered, why he may not register ("" if he may)], and why an account
# with no entry may not register (`w`). The gateway makes each account's view from these
# (`personal`): one message for every reader.
def tournament_to(epoch: str, n: int, view: api.TournamentView, mine: list[list], newcomer: str) -> bytes:
    return dumps({"e": epoch, "n": int(n), "v": record_to(view), "m": mine, "w": newcomer})


def tournament_from(d) -> tuple[str, int, api.TournamentView, dict[int, tuple], str]:
    _need(isinstance(d, dict) and isinstance(d.get("e"), str) and type(d.get("n")) is int
          and isinstance(d.get("m"), list) and isinstance(d.get("w"), str), "a tournament message", d)
    view = record_from(api.TournamentView, d.get("v"))
    mine = {}
    for row in d["m"]:
        _need(isinstance(row, list) and len(row) == 5, "an account's part of a tournament", row)
        _types(row, (int, int, (int, type(None)), bool, str), "an account's part of a tournament")
        _need(-1 <= row[1] < len(view.players), "an entry's index", row)
        mine[row[0]] = tuple(row[1:])
    return d["e"], d["n"], view, mine, d["w"]


def personal(view: api.TournamentView, part: tuple | None, newcomer: str) -> api.TournamentView:
    """The railbird's `view` as an account sees it: his `part`, or (None: no entry) a newcomer's."""
    if part is None:
        return view if view.may_register == newcomer else replace(view, may_register=newcomer)
    index, rank, registered, why = part
    return replace(view, me=view.players[index] if index >= 0 else None, my_rank=rank, registered=registered,
                   may_register=why)


# ---------------------------------------------------------------- errors
_ERRORS = {cls.__name__: cls for cls in (api.RoomError, api.NotSeated, api.SeatTaken, api.BadBuyIn,
                                         api.NotAllowedNow, api.ChatRefused, api.TableClosed)}


def error_to(e: api.RoomError) -> dict:
    name = type(e).__name__
    return {"err": name if name in _ERRORS else "RoomError", "msg": str(e)}


def error_from(d) -> api.RoomError:
    name = d.get("err") if isinstance(d, dict) else None
    cls = _ERRORS.get(name, api.RoomError) if isinstance(name, str) else api.RoomError
    msg = d.get("msg") if isinstance(d, dict) else None
    return cls(msg if isinstance(msg, str) else "the table refused that")


# ---------------------------------------------------------------- checks
def _need(ok: bool, what: str, got) -> None:
    if not ok:
        raise CodecError(f"not {what}: {got!r}"[:120])


def _types(values, types, what: str) -> None:
    for v, t in zip(values, types):
        if isinstance(v, bool) and (t is int or (isinstance(t, tuple) and bool not in t and int in t)):
            raise CodecError(f"not {what}: {values!r}"[:120])
        if not isinstance(v, t):
            raise CodecError(f"not {what}: {values!r}"[:120])
