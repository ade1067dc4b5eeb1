"""Admin commands: pure parsing and operations on the room and the store, no UI.

    ctx = AdminContext(room, store, admin="SHA256:...", shutdown=stop.set)
    await execute(ctx, 'credit alice 12.50 refund for hand 123') -> Result(ok=True, lines=(...))
    complete(ctx, 'kick al')  -> ['kick alice ']           # whole command lines
    explain('credit')         -> 'credit NAME AMOUNT REASON...  -  add money to ...'

Rules every command keeps:

* A bad input (unknown command, missing or extra arguments, a bad amount, an unknown player or
  table, unbalanced quotes, a reason that is empty once cleaned) gives ``ok=False`` with a line
  saying why, and changes nothing. Refusals of the store (``SelfAdjustment``, ``InsufficientFunds``
  ...) are shown the same way.
* Every string that reaches another user's screen (kick and ban reasons, broadcasts, credit
  reasons) is cleaned with `clean_text` first, and so is every user-made string in the admin's
  own output (names, reasons, hand histories): the console log is a victim surface too. Output
  lines are plain text: render them with markup OFF (`rich.text.Text(line)`).
* What a command writes to the store goes through the room's writer (`cardroom.room.writer`),
  so a database held busy by another process stalls this command only, never the room's loop;
  reads are direct (under WAL they never wait for a writer).
* Money typed by an admin is dollars, parsed strictly (`parse_amount`): ``12.50``, ``$12.50``,
  ``7``; never a float, no signs, underscores, commas, spaces, exponents or non-ASCII digits.
* Arguments are shell words (`shlex`): ``kick "Bob Smith" he's stalling`` - the words a command
  needs first, then the rest of the line as free text (quotes in it are kept as typed). A table
  name may be typed raw (``open Planet Hold'em $2/$4``) or quoted.
"""

from __future__ import annotations

import logging
import re
import shlex
from collections.abc import Awaitable
from dataclasses import dataclass
from typing import Callable, TypeVar

from cardroom.admin import tournaments as cups
from cardroom.engine.money import BadMoney, parse_dollars
from cardroom.room.admin import AdminTable, LocalRoomAdmin, RoomAdmin
from cardroom.room.api import RoomError
from cardroom.room.narration import money
from cardroom.room.ports import Account, Refused, StoreError
from cardroom.room.room import span
from cardroom.room.text import clean_text
from cardroom.store.audit import check_store

__all__ = [
    "AdminContext", "Result", "Command", "COMMANDS", "BadAmount", "execute", "complete", "explain",
    "parse_amount", "ADMIN_MAX_CENTS", "REASON_MAX",
]

log = logging.getLogger("cardroom.admin")
T = TypeVar("T")

ADMIN_MAX_CENTS = 100_000_000      # $1,000,000 in one adjustment: more is surely a typo
REASON_MAX = 200                   # characters of a kick/ban/credit reason or a broadcast
NAME_SHOWN = 40                    # characters of a name shown in output
LINE_MAX = 2_000                   # characters of a command line
OUTPUT_LINE_MAX = 500              # characters of an output line
HAND_LINES_MAX = 400               # lines of a hand history shown
COMPLETIONS_MAX = 50

_FINGERPRINT_RE = re.compile(r"SHA256:[A-Za-z0-9+/]{43}", re.ASCII)


# ---------------------------------------------------------------------------------- the records

@dataclass(frozen=True, slots=True)
class Result:
    ok: bool
    lines: tuple[str, ...]


@dataclass
class AdminContext:
    """What a command may touch. ``admin`` is the admin's name or key fingerprint (it is written
    into the ledger and onto bans); ``shutdown`` stops the server. ``authorized``, if given, is
    asked before every command (a revoked admin, or a non-admin key that reached the panel, runs
    nothing)."""

    room: object                      # cardroom.room.room.Room
    store: object                     # cardroom.room.ports.Store
    admin: str
    shutdown: Callable[[], None]
    authorized: Callable[[], bool] | None = None
    # What the commands read of the tables and sessions and do to them; over `room` unless given.
    room_admin: RoomAdmin | None = None

    @property
    def admin_room(self) -> RoomAdmin:
        return self.room_admin if self.room_admin is not None else LocalRoomAdmin(self.room)


@dataclass(frozen=True, slots=True)
class Command:
    name: str
    usage: str
    help: str
    run: Callable[[AdminContext, str], Awaitable[Result]]
    arg: str = ""          # what the first argument completes to: table, player, target,
                           # banned, hand, command, shutdown, or "" for nothing
    more: bool = False     # more arguments follow the first (completion adds a space)


class BadAmount(ValueError):
    """An amount typed by an admin that is not plainly a positive number of dollars."""


class _Bad(Exception):
    """A bad input: the message is for the admin; nothing was changed."""


# ------------------------------------------------------------------------------------- helpers

def parse_amount(text: str) -> int:
    """Dollars typed by a person -> cents, as everywhere (`parse_dollars`): ``12.50``,
    ``$12.50``, ``12``, ``0.05``. Refused (BadAmount) besides: zero, and more than
    `ADMIN_MAX_CENTS`."""
    try:
        cents = parse_dollars(text)
    except BadMoney as e:
        raise BadAmount(str(e)) from None
    if cents <= 0:
        raise BadAmount("the amount must be more than $0")
    if cents > ADMIN_MAX_CENTS:
        raise BadAmount(f"{money(cents)} is more than one adjustment may move "
                        f"({money(ADMIN_MAX_CENTS)})")
    return cents


async def _write(ctx: AdminContext, call: Callable[[], T]) -> T:
    """A store write, on the room's writer (its errors are the store's own, shown by execute)."""
    return await ctx.admin_room.write(call)


def _show(value: object, limit: int = NAME_SHOWN) -> str:
    """A user-made string made safe to show (escape sequences, controls, bidi gone; bounded)."""
    return clean_text(value if isinstance(value, str) else str(value), limit)


def _line(text: str) -> str:
    """Last line of defence for output: only printable characters, bounded."""
    return "".join(ch for ch in text if ch.isprintable())[:OUTPUT_LINE_MAX]


def _ok(*lines: str) -> Result:
    return Result(True, tuple(_line(s) for s in lines))


def _fail(*lines: str) -> Result:
    return Result(False, tuple(_line(s) for s in lines))


def _first(rest: str) -> tuple[str | None, str]:
    """The first shell word of `rest` and the rest of the line as typed (stripped)."""
    lex = shlex.shlex(rest, posix=True)
    lex.whitespace_split = True
    lex.commenters = ""
    try:
        token = lex.get_token()
    except ValueError:
        raise _Bad("unbalanced quotes: close the quote (or quote the whole name)") from None
    return token, lex.instream.read().strip()


def _words(rest: str) -> list[str]:
    try:
        return shlex.split(rest)
    except ValueError:
        raise _Bad("unbalanced quotes: close the quote (or quote the whole name)") from None


def _one_word(rest: str, what: str, usage: str) -> str:
    words = _words(rest)
    if not words:
        raise _Bad(f"which {what}? usage: {usage}")
    if len(words) > 1:
        raise _Bad(f"one {what} only (quote a name with spaces); usage: {usage}")
    return words[0]


def _find_player(ctx: AdminContext, name: str) -> Account | None:
    account = ctx.store.find(name)
    if account is not None:
        return account
    folded = name.casefold()
    matches = [a for a in ctx.store.accounts() if a.name.casefold() == folded]
    return matches[0] if len(matches) == 1 else None


def _player(ctx: AdminContext, name: str | None, usage: str) -> Account:
    if not name:
        raise _Bad(f"which player? usage: {usage}")
    account = _find_player(ctx, name)
    if account is None:
        raise _Bad(f"no player called {_show(name)!r}")
    return account


def _player_arg(ctx: AdminContext, rest: str, usage: str) -> Account:
    """A command whose only argument is a player: typed raw (spaces allowed) or quoted."""
    raw = rest.strip()
    if raw and (account := _find_player(ctx, raw)) is not None:
        return account
    return _player(ctx, _one_word(rest, "player", usage), usage)


def _table(ctx: AdminContext, rest: str, usage: str) -> AdminTable:
    return ctx.admin_room.table(_table_name(ctx, rest, usage))


def _table_name(ctx: AdminContext, rest: str, usage: str) -> str:
    tables = {n: n for n in ctx.admin_room.table_names()}
    raw = rest.strip()
    if not raw:
        raise _Bad(f"which table? usage: {usage}")
    if raw in tables:
        return tables[raw]
    try:
        words = shlex.split(raw)
    except ValueError:
        words = []
    if len(words) == 1 and words[0] in tables:
        return tables[words[0]]
    for wanted in {raw.casefold(), *(w.casefold() for w in words[:1] if len(words) == 1)}:
        matches = [t for name, t in tables.items() if name.casefold() == wanted]
        if len(matches) == 1:
            return matches[0]
    known = ", ".join(_show(n) for n in tables) or "none"
    raise _Bad(f"no table called {_show(raw)!r} (tables: {known})")


def _is_self(ctx: AdminContext, account: Account) -> bool:
    return account.name == ctx.admin or ctx.admin in ctx.store.keys(account.id)


def _seated_at(ctx: AdminContext, account_id: int) -> list[str]:
    return [s.table for s in ctx.admin_room.seats_of(account_id)]


async def _remove_from_tables(ctx: AdminContext, account: Account, reason: str) -> list[str]:
    """Kick `account` from every table and wait list; one output line per table."""
    out = []
    tables = ctx.admin_room
    for table in tables.tables():
        if account.id in table.waiting:
            await tables.leave_wait_list(table.name, account.id)
            out.append(f"removed {_show(account.name)} from the wait list of {_show(table.name)}")
        if not any(s.account == account.id for s in table.seats):
            continue
        if table.tournament:      # nobody leaves a tournament with his chips: away, he is checked or folded for
            out.append(f"{_show(account.name)} stays in tournament #{table.tournament} at {_show(table.name)} "
                       "(away: checked or folded for until he is out)")
            continue
        before = ctx.store.balance(account.id)
        seat = await tables.kick(table.name, account.id, reason)
        if seat is None:
            # What came back, read from the ledger: a kick on the player's turn folds the hand first,
            # so the seat's stack before the kick can include chips already in the pot.
            back = ctx.store.balance(account.id) - before
            out.append(f"removed {_show(account.name)} from {_show(table.name)} "
                       f"({money(back)} back to the balance)")
        elif seat.cashing_out:   # the store's writer has the cash-out: the seat goes when it is done
            out.append(f"removing {_show(account.name)} from {_show(table.name)} "
                       f"({money(seat.stack)} going back to the balance)")
        else:
            out.append(f"{_show(account.name)} leaves {_show(table.name)} after the hand in "
                       "progress (chips back to the balance then)")
    return out


def _end_sessions(ctx: AdminContext, account: Account, why: str) -> list[str]:
    """End every live session of `account`, telling each `why`; the output line, if any."""
    n = ctx.admin_room.end_sessions(account.id, why)
    return [f"closed {n} session(s) of {_show(account.name)}"] if n else []


# ------------------------------------------------------------------------------------ commands

async def _who(ctx: AdminContext, rest: str) -> Result:
    if rest.strip():
        raise _Bad("who takes no arguments")
    muted = ctx.admin_room.muted()
    live = ctx.admin_room.sessions()
    tables = ctx.admin_room.tables()
    people: dict[int, str] = {a: name for a, (name, _) in live.items()}
    for table in tables:
        for seat in table.seats:
            people.setdefault(seat.account, seat.name)
    if not people:
        return _ok("nobody is connected or seated")
    lines = []
    online = 0
    for account_id, name in sorted(people.items(), key=lambda p: p[1].casefold()):
        sessions = live.get(account_id, ("", 0))[1]
        online += bool(sessions)
        state = f"online ({sessions} session{'s' if sessions != 1 else ''})" if sessions \
            else "offline"
        flags = " muted" if account_id in muted else ""
        where = []
        for table in tables:
            for seat in (s for s in table.seats if s.account == account_id):
                bits = [f"seat {seat.number}", money(seat.chips)]
                if seat.sitting_out:
                    bits.append("sitting out")
                if not seat.connected:
                    bits.append("disconnected")
                if seat.leaving:
                    bits.append("leaving")
                where.append(f"{_show(table.name)} ({', '.join(bits)})")
        lines.append(f"{_show(name):<16} {state:<14}{flags}  "
                     + ("; ".join(where) if where else "no table"))
    head = f"{online} online, {len(people) - online} seated but offline"
    return _ok(head, *lines)


async def _tables(ctx: AdminContext, rest: str) -> Result:
    if rest.strip():
        raise _Bad("tables takes no arguments")
    tables = ctx.admin_room.tables()
    if not tables:
        return _ok("no tables")
    lines = []
    for table in tables:
        s = table.summary
        live = table.hand_live
        lines.append(f"{_show(s.name)}: {_show(s.game)} {_show(s.stakes)}, {s.status}, "
                     f"{s.players}/{s.seats} seated, {s.waiting} waiting, {s.railbirds} watching"
                     + (f", hand #{_show(table.hand_id)} in progress" if live else ""))
    return _ok(*lines)


def _set_status(status: str) -> Callable[[AdminContext, str], Awaitable[Result]]:
    usage = f"{_VERBS[status]} TABLE"

    async def run(ctx: AdminContext, rest: str) -> Result:
        if status == "paused" and _is_tournament(ctx, rest):
            return await _operate("pause")(ctx, rest)
        table = _table(ctx, rest, usage)
        if table.tournament:
            raise _Bad(f"{_show(table.name)} is a table of tournament #{table.tournament}: pause, resume or "
                       "cancel the tournament")
        if table.status == status:
            return _ok(f"{_show(table.name)} is already {status}")
        await ctx.admin_room.set_status(table.name, status)
        lines = [f"{_show(table.name)} is now {status}"]
        if status != "open" and table.hand_live:
            lines.append("the hand in progress is played out; no new hand starts")
        if status == "closed" and table.seats:
            lines.append(f"{len(table.seats)} player(s) keep their seats until they leave "
                         "(kick to remove them)")
        return _ok(*lines)

    return run


_VERBS = {"open": "open", "closed": "close", "paused": "pause"}


# ------------------------------------------------------------------------------ tournaments
# (cardroom/admin/tournaments.py reads their names and words their lines)
_PREFER = {"start": ("registering",), "pause": ("running",), "resume": ("running",),
           "cancel": ("running", "registering")}


def _is_tournament(ctx: AdminContext, rest: str) -> bool:
    """Does `pause NAME` name a tournament (else a table)?"""
    text = rest.strip().strip("'\"").casefold()
    return bool(text) and (text.startswith("#") or any(
        v.summary.name.casefold() == text for v in ctx.admin_room.tournaments()))


async def _tournaments(ctx: AdminContext, rest: str) -> Result:
    if rest.strip():
        raise _Bad("tournaments takes no arguments")
    return _ok(*cups.listing(ctx.admin_room.tournaments()))


async def _tournament(ctx: AdminContext, rest: str) -> Result:
    view, extra = cups.named(ctx.admin_room, rest, ("running", "registering"))
    if extra:
        raise _Bad("usage: tournament NAME (or #N)")
    return _ok(*cups.details(view))


def _operate(op: str) -> Callable[[AdminContext, str], Awaitable[Result]]:
    async def run(ctx: AdminContext, rest: str) -> Result:
        view, extra = cups.named(ctx.admin_room, rest, _PREFER[op])
        reason = ""
        if op == "start":
            if extra.lower() != "now":
                raise _Bad("usage: start NAME now (it starts with whoever has registered)")
        elif op == "cancel":
            reason = clean_text(extra, REASON_MAX)
        elif extra:
            raise _Bad(f"usage: {op} NAME (or #N)")
        await ctx.admin_room.operate_tournament(view.summary.number, op, reason)
        after = ctx.admin_room.find_tournament(f"#{view.summary.number}", ())
        return _ok(f"{op}: done", cups.row(after))

    return run


async def _kick(ctx: AdminContext, rest: str) -> Result:
    usage = "kick NAME [REASON...]"
    name, reason_raw = _first(rest)
    account = _player(ctx, name, usage)
    reason = clean_text(reason_raw, REASON_MAX)
    seated = _seated_at(ctx, account.id)
    if not seated:
        raise _Bad(f"{_show(account.name)} is not seated at any table")
    if _is_self(ctx, account):
        raise _Bad("you cannot kick yourself")   # it would end this session too
    lines = await _remove_from_tables(ctx, account, reason)
    lines += _end_sessions(ctx, account, "An admin removed you from " + ", ".join(seated)
                           + (f": {reason}" if reason else ""))
    return _ok(*lines)


async def _ban(ctx: AdminContext, rest: str) -> Result:
    usage = "ban NAME|FINGERPRINT [REASON...]"
    target, reason_raw = _first(rest)
    if not target:
        raise _Bad(f"whom? usage: {usage}")
    reason = clean_text(reason_raw, REASON_MAX)
    store = ctx.store
    account = _find_player(ctx, target)
    if account is not None:
        fingerprints = store.keys(account.id)
        if not fingerprints:
            raise _Bad(f"{_show(account.name)} has no key to ban (an account without a key); "
                       "use kick")
    else:
        account = store.account_for_key(target)
        if account is None and not _FINGERPRINT_RE.fullmatch(target):
            raise _Bad(f"no player or key fingerprint {_show(target)!r} "
                       "(a fingerprint looks like SHA256:...)")
        fingerprints = (target,)
    if ctx.admin in fingerprints or (account is not None and _is_self(ctx, account)):
        raise _Bad("you cannot ban yourself")
    await _write(ctx, lambda: [store.ban(fp, reason, ctx.admin) for fp in fingerprints])
    who = _show(account.name) if account is not None else "no account yet"
    lines = [f"banned {len(fingerprints)} key(s) ({who}): "
             + ", ".join(_show(fp, 60) for fp in fingerprints)]
    if account is not None:
        lines += await _remove_from_tables(ctx, account, reason)
        lines += _end_sessions(ctx, account, "You are banned from the card room"
                               + (f": {reason}" if reason else ""))
    return _ok(*lines)


async def _unban(ctx: AdminContext, rest: str) -> Result:
    usage = "unban FINGERPRINT|NAME"
    target = rest.strip()
    if not (target and (ctx.store.is_banned(target) or _find_player(ctx, target))):
        target = _one_word(rest, "key fingerprint", usage)
    if await _write(ctx, lambda: ctx.store.unban(target)):
        return _ok(f"unbanned {_show(target, 60)}")
    account = _find_player(ctx, target)
    if account is not None:
        keys = ctx.store.keys(account.id)
        lifted = await _write(ctx, lambda: [fp for fp in keys if ctx.store.unban(fp)])
        if lifted:
            return _ok(f"unbanned {len(lifted)} key(s) of {_show(account.name)}: "
                       + ", ".join(_show(fp, 60) for fp in lifted))
        raise _Bad(f"no key of {_show(account.name)} is banned")
    raise _Bad(f"{_show(target, 60)!r} is not banned (see: help unban)")


def _mute(on: bool) -> Callable[[AdminContext, str], Awaitable[Result]]:
    usage = "mute NAME" if on else "unmute NAME"

    async def run(ctx: AdminContext, rest: str) -> Result:
        account = _player_arg(ctx, rest, usage)
        name = _show(account.name)
        if not await ctx.admin_room.set_muted(account.id, on, ctx.admin):
            return _ok(f"{name} is already {'muted' if on else 'not muted'}")
        if on:
            ctx.admin_room.page(account.id, "An admin muted you: your chat is not shown")
        else:
            ctx.admin_room.page(account.id, "An admin unmuted you: you may chat again")
        return _ok(f"{name} is {'muted' if on else 'unmuted'}")

    return run


def _adjust(kind: str) -> Callable[[AdminContext, str], Awaitable[Result]]:
    usage = f"{kind} NAME AMOUNT REASON..."

    async def run(ctx: AdminContext, rest: str) -> Result:
        name, rest2 = _first(rest)
        amount_text, reason_raw = _first(rest2)
        if not name or not amount_text:
            raise _Bad(f"usage: {usage}")
        try:
            cents = parse_amount(amount_text)
        except BadAmount as e:
            raise _Bad(str(e)) from None
        reason = clean_text(reason_raw, REASON_MAX)
        if not reason:
            raise _Bad(f"a reason is required (it goes into the ledger); usage: {usage}")
        account = _player(ctx, name, usage)
        do = ctx.store.credit if kind == "credit" else ctx.store.debit
        entry = await _write(ctx, lambda: do(account.id, cents, reason, ctx.admin))  # Refused -> shown
        balance = ctx.store.balance(account.id)
        verb = "credited" if kind == "credit" else "debited"
        to = "to" if kind == "credit" else "from"
        ctx.admin_room.page(account.id, f"An admin {verb} {money(cents)} {to} your account: {reason}")
        return _ok(f"{verb} {money(cents)} {to} {_show(account.name)}: {reason}",
                   f"balance now {money(balance)} (ledger #{entry.seq}, by "
                   f"{_show(ctx.admin, 60)})")

    return run


async def _broadcast(ctx: AdminContext, rest: str) -> Result:
    text = clean_text(rest, REASON_MAX)
    if not text:
        raise _Bad("nothing to broadcast; usage: broadcast TEXT...")
    ctx.admin_room.broadcast(text)
    sessions = sum(n for _, n in ctx.admin_room.sessions().values())
    return _ok(f"broadcast to {len(ctx.admin_room.table_names())} table(s) and {sessions} session(s): {text}")


def _name_of(ctx: AdminContext, account_id: int) -> str:
    try:
        return _show(ctx.store.get(account_id).name)
    except StoreError:
        return f"account {account_id}"


async def _hand(ctx: AdminContext, rest: str) -> Result:
    usage = "hand ID"
    hand_id = _one_word(rest, "hand id", usage).lstrip("#")
    record = ctx.store.get_hand(hand_id) if hand_id else None
    if record is None:
        raise _Bad(f"no hand {_show(hand_id, 30)!r}")
    if record.history:
        lines = record.history.splitlines()
        shown = [_line(s) for s in lines[:HAND_LINES_MAX]]
        if len(lines) > HAND_LINES_MAX:
            shown.append(f"... {len(lines) - HAND_LINES_MAX} more lines")
        return _ok(*shown)
    lines = [f"Hand #{_show(record.hand_id, 30)} at {_show(record.table)}: {record.status}, "
             f"started {record.started_at:%Y-%m-%d %H:%M:%S}"
             + (f", finished {record.finished_at:%H:%M:%S}" if record.finished_at else "")]
    for s in record.seats:
        end = money(s.end_cents) if s.end_cents is not None else "(not settled)"
        lines.append(f"  seat {s.seat}: {_name_of(ctx, s.account_id)} "
                     f"{money(s.start_cents)} -> {end}")
    lines.append(f"  rake {money(record.rake_cents)}")
    if record.events_json:
        lines.append(f"  {len(record.events_json)} characters of events recorded (no history "
                     "text)")
    return _ok(*lines)


async def _rake(ctx: AdminContext, rest: str) -> Result:
    if rest.strip():
        raise _Bad("rake takes no arguments")
    total = ctx.store.rake_total()
    per_table: dict[str, int] = {}
    hands: dict[str, int] = {}
    before = None
    while True:                          # the whole ledger, a page at a time
        page = ctx.store.ledger(limit=500, before_seq=before)
        if not page:
            break
        for entry in page:
            if entry.kind == "rake":
                table = entry.table or "?"
                per_table[table] = per_table.get(table, 0) + entry.amount_cents
                hands[table] = hands.get(table, 0) + 1
        before = page[-1].seq
    lines = [f"total rake {money(total)}"]
    for table in sorted(per_table, key=lambda t: -per_table[t]):
        lines.append(f"  {_show(table)}: {money(per_table[table])} from {hands[table]} hand(s)")
    if sum(per_table.values()) != total:
        lines.append(f"WARNING: the ledger's rake entries add up to "
                     f"{money(sum(per_table.values()))}, not {money(total)}")
    return _ok(*lines)


async def _audit(ctx: AdminContext, rest: str) -> Result:
    """The check `cardroom serve` made at start, on the live database (a snapshot of its own)."""
    if rest.strip():
        raise _Bad("audit takes no arguments")
    problems = check_store(ctx.store)
    if problems:
        return _fail(f"the ledger does not add up ({len(problems)} problem(s)):",
                     *(f"  {p}" for p in problems))
    return _ok(f"the ledger adds up: {len(ctx.store.accounts())} account(s), the room holds "
               f"{money(ctx.store.total_money())} = starting money + credits - debits, and every "
               "settled hand sums to zero with its rake")


_COUNTDOWN_RE = re.compile(r"([0-9]{1,4})([ms]?)", re.ASCII)
SHUTDOWN_MAX_SECONDS = 24 * 3600
_SHUTDOWN_USAGE = ("shutdown in MINUTES (or in 30s): warn everyone, then stop dealing and stop "
                   "once the hands in progress are settled; shutdown cancel; shutdown now: stop "
                   "at once (hands in progress are void and every chip goes back to its owner)")


async def _shutdown(ctx: AdminContext, rest: str) -> Result:
    words = rest.split()
    what = words[0].lower() if words else ""
    if what == "now" and len(words) == 1:
        ctx.shutdown()
        return _ok("shutting down")
    if what == "cancel" and len(words) == 1:
        if not ctx.admin_room.cancel_shutdown():
            raise _Bad("no shutdown is under way")
        return _ok("shutdown cancelled: the room stays open")
    m = _COUNTDOWN_RE.fullmatch(words[1].lower()) if what == "in" and len(words) == 2 else None
    if m is None:
        pending = ctx.admin_room.shutting_down()
        raise _Bad(("a shutdown is under way; " if pending else "") + "usage: " + _SHUTDOWN_USAGE)
    seconds = int(m.group(1)) * (1 if m.group(2) == "s" else 60)
    if not 0 < seconds <= SHUTDOWN_MAX_SECONDS:
        raise _Bad("the countdown is between 1 second and 24 hours")
    ctx.admin_room.shutdown_in(seconds, ctx.shutdown)
    return _ok(f"the room closes in {span(seconds)}: everyone is warned; then no new hand starts "
               "and the server stops once the hands in progress are settled (shutdown cancel "
               "calls it off)")


async def _help(ctx: AdminContext, rest: str) -> Result:
    words = _words(rest)
    if len(words) > 1:
        raise _Bad("usage: help [COMMAND]")
    if words:
        text = explain(words[0])
        if not text:
            raise _Bad(f"no command {_show(words[0], 20)!r}; type help for the list")
        return _ok(text)
    width = max(len(c.usage) for c in COMMANDS.values())
    return _ok(*(f"{c.usage:<{width}}  {c.help}" for c in COMMANDS.values()))


COMMANDS: dict[str, Command] = {c.name: c for c in (
    Command("who", "who", "connected accounts and seated players, with their tables", _who),
    Command("tables", "tables", "every table: game, stakes, status, players", _tables),
    Command("open", "open TABLE", "open a table: hands are dealt", _set_status("open"), "table"),
    Command("pause", "pause TABLE|TOURNAMENT", "pause a table or a tournament: the hands in progress finish, "
            "no new hand (a tournament's clock stops)", _set_status("paused"), "table"),
    Command("close", "close TABLE", "close a table: no new hands, nobody may sit down",
            _set_status("closed"), "table"),
    Command("kick", "kick NAME [REASON...]",
            "remove a player from every table (chips back to the balance), end his sessions",
            _kick, "player", more=True),
    Command("ban", "ban NAME|FINGERPRINT [REASON...]",
            "ban a player's keys (or one key): kicked, sessions closed, logins refused", _ban,
            "target", more=True),
    Command("unban", "unban FINGERPRINT|NAME", "lift a ban", _unban, "banned"),
    Command("mute", "mute NAME", "stop a player's chat", _mute(True), "player"),
    Command("unmute", "unmute NAME", "let a muted player chat again", _mute(False), "muted"),
    Command("credit", "credit NAME AMOUNT REASON...",
            "add money to a player's balance (dollars, e.g. 12.50; reason required)",
            _adjust("credit"), "player", more=True),
    Command("debit", "debit NAME AMOUNT REASON...",
            "remove money from a player's balance (not below zero; reason required)",
            _adjust("debit"), "player", more=True),
    Command("broadcast", "broadcast TEXT...", "a message to every table and session",
            _broadcast),
    Command("hand", "hand ID", "a stored hand: its PokerStars history or a summary", _hand,
            "hand"),
    Command("rake", "rake", "rake collected: the total and each table's share", _rake),
    Command("audit", "audit", "check the ledger: balances, chips, hands and rake add up", _audit),
    Command("shutdown", "shutdown in MINUTES|now|cancel",
            "close the room after a warning countdown, voiding nothing (now: at once)", _shutdown,
            "shutdown"),
    Command("tournaments", "tournaments", "every tournament: game, buy-in, entries, state", _tournaments),
    Command("tournament", "tournament NAME|#N", "a tournament: its level, payouts, tables, players and chips",
            _tournament, "tournament"),
    Command("start", "start NAME now", "start a tournament now with whoever has registered", _operate("start"),
            "tournament", more=True),
    Command("resume", "resume TOURNAMENT", "resume a paused tournament: its clock and its tables go on",
            _operate("resume"), "tournament"),
    Command("cancel", "cancel TOURNAMENT [REASON...]",
            "cancel a tournament: before its start everyone is refunded; running, places decided keep "
            "their prizes and the rest of the pool is shared by chips", _operate("cancel"), "tournament", more=True),
    Command("help", "help [COMMAND]", "the commands, or one command's usage", _help, "command"),
)}


# ------------------------------------------------------------------------------ the public API

def explain(name: str) -> str:
    """``usage  -  help`` for a command name (any case), or "" for no such command."""
    command = COMMANDS.get(name.strip().lower()) if isinstance(name, str) else None
    return f"{command.usage}  -  {command.help}" if command else ""


async def execute(ctx: AdminContext, line: str) -> Result:
    """Run one command line. Never raises: a refusal or a failure is ``ok=False``. Every line is
    logged with its admin and outcome (the operator's record of who did what)."""
    result = await _execute(ctx, line)
    why = result.lines[0] if result.lines else ""
    log.info("admin %s: %r %s", ctx.admin, _show(str(line), 200),
             "done" if result.ok else why if why.startswith("refused: ") else "refused: " + why)
    return result


async def _execute(ctx: AdminContext, line: str) -> Result:
    if not isinstance(line, str):
        return _fail("a command is a line of text")
    if len(line) > LINE_MAX:
        return _fail(f"that line is too long ({len(line)} characters; at most {LINE_MAX})")
    try:
        if ctx.authorized is not None and not ctx.authorized():
            return _fail("you are not an admin: no command was run")
    except Exception:
        log.exception("admin authorisation check failed")
        return _fail("you are not an admin: no command was run")
    stripped = line.strip()
    if not stripped:
        return _fail("type a command (help lists them)")
    word, _, rest = stripped.partition(" ")
    command = COMMANDS.get(word.lower())
    if command is None:
        return _fail(f"unknown command {_show(word, 20)!r}; type help for the list")
    try:
        return await command.run(ctx, rest)
    except _Bad as e:
        return _fail(str(e))
    except BadAmount as e:
        return _fail(str(e))
    except Refused as e:
        return _fail(f"refused: {_show(str(e), OUTPUT_LINE_MAX)}")
    except RoomError as e:
        return _fail(_show(str(e), OUTPUT_LINE_MAX))
    except StoreError as e:
        log.exception("admin command %r: store error", word)
        return _fail(f"the store failed: {_show(str(e), OUTPUT_LINE_MAX)}")
    except Exception as e:       # a bug must not take the panel (or the server) down
        log.exception("admin command %r failed", word)
        return _fail(f"{command.name} failed: {type(e).__name__}: {_show(str(e), 200)}")


def complete(ctx: AdminContext, text: str) -> list[str]:
    """Whole command lines that complete `text`: the command name first, then its first
    argument (table names, player names, key fingerprints, banned keys, hand ids ...)."""
    if not isinstance(text, str) or len(text) > LINE_MAX:
        return []
    body = text.lstrip()
    if " " not in body:
        word = body.lower()
        return sorted(c.name + " " for c in COMMANDS.values() if c.name.startswith(word))
    word, _, arg = body.partition(" ")
    command = COMMANDS.get(word.lower())
    if command is None or not command.arg:
        return []
    arg = arg.lstrip()
    prefix = arg[1:] if arg[:1] in ("'", '"') else arg
    try:
        candidates = _candidates(ctx, command.arg)
    except Exception:
        log.exception("admin completion failed")
        return []
    fold = prefix.casefold()
    found = sorted({v for v in candidates if v.casefold().startswith(fold) and v.isprintable()},
                   key=lambda v: (v.casefold(), v))
    out = []
    for value in found[:COMPLETIONS_MAX]:
        shown = value if command.arg in ("table", "hand", "command", "shutdown", "tournament") else shlex.quote(value)
        out.append(f"{command.name} {shown}" + (" " if command.more else ""))
    return out


def _candidates(ctx: AdminContext, kind: str) -> list[str]:
    store = ctx.store
    if kind == "table":
        return ctx.admin_room.table_names()
    if kind == "tournament":
        return sorted({v.summary.name for v in ctx.admin_room.tournaments()})
    if kind == "command":
        return list(COMMANDS)
    if kind == "shutdown":
        return ["in", "now", "cancel"]
    if kind == "hand":
        return [t.hand_id for t in ctx.admin_room.tables() if t.hand_id]
    if kind == "banned":
        return [b.fingerprint for b in store.bans()]
    accounts = store.accounts()
    if kind == "muted":
        return [a.name for a in accounts if a.id in ctx.admin_room.muted()]
    names = [a.name for a in accounts]
    if kind == "target":
        for account_id in ctx.admin_room.sessions():
            names += store.keys(account_id)
    return names
