"""Helpers of `python -m benchmarks ssh`: the server child process and the load-generating clients.

The server child (`server_main`) runs the real `cardroom.serve` stack on 127.0.0.1:0 in its own
process, so its RSS and CPU are its own. It reports over a pipe (one JSON object a line):

- ``ready``: the port;
- ``turn``: a table's decision moved to a (new) person: table, actor name, phase, whether a check
  is legal. The clients use it only to know WHEN to press a key (a player's bot has no terminal
  emulator); what the key does is decided by the player's own Textual screen;
- ``act``: a player's intent was applied by `Table.act` (``ts`` = CLOCK_MONOTONIC, system wide, so
  comparable with the client process's clock) and the first chat line it produced (the
  narration, e.g. "b0007 checks"), which every screen at that table then draws in its chat pane;
- ``status``: on request, counters (hands finished, timeouts, seats, watchers, and how long each
  hand's end took to be recorded by the store: ``settle_s``).

These hooks wrap `Table` methods in the child only; cardroom itself is not changed.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
import sys
import time
from pathlib import Path

ESCAPES = re.compile(rb"\x1b(\[[0-9;?<>=]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)|[()][0-9A-Za-z]|[=>78])")

GAMES = ("holdem", "holdem", "omaha8", "a5-draw", "holdem", "27-triple")
SEATS = (8, 9, 10, 6, 10, 8)


def plan_tables(n_tables: int, seated: int) -> tuple[list[dict], list[int]]:
    """Table configs and how many players sit at each (round robin, capped by the seats)."""
    tables = []
    for i in range(n_tables):
        game = GAMES[i % len(GAMES)]
        tables.append({"name": f"T{i + 1:02d} {game}", "game": game, "structure": "fixed",
                       "stakes": ["1", "2"], "seats": SEATS[i % len(SEATS)], "rake_percent": 0})
    counts = [0] * n_tables
    left = seated
    while left:
        placed = False
        for i in range(n_tables):
            if left and counts[i] < tables[i]["seats"]:
                counts[i] += 1
                left -= 1
                placed = True
        if not placed:
            raise SystemExit(f"{seated} players do not fit at {n_tables} tables")
    return tables, counts


# ============================================================================ the server child

def server_main() -> None:
    spec = json.loads(sys.argv[1])
    out_fd, in_fd = spec["out_fd"], spec["in_fd"]
    asyncio.run(_serve(spec, out_fd, in_fd))


async def _serve(spec: dict, out_fd: int, in_fd: int) -> None:
    import logging

    from cardroom import serve
    from cardroom.config import config_from_dict
    from cardroom.room.blindprompts import BlindPrompts
    from cardroom.room.decisionclock import DecisionClock
    from cardroom.room.settlement import Settlement
    from cardroom.room.table import Table

    data_dir = Path(spec["data_dir"])
    logging.basicConfig(level=logging.WARNING, filename=str(data_dir / "server.log"),
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    loop = asyncio.get_running_loop()
    out_t, _ = await loop.connect_write_pipe(asyncio.Protocol, os.fdopen(out_fd, "wb", buffering=0))

    def send(obj: dict) -> None:
        out_t.write((json.dumps(obj, separators=(",", ":")) + "\n").encode())

    counters = {"hands": 0, "timeouts": 0, "acts": 0, "refused": 0, "in_to_act": [], "last_in": None,
                "settle_s": []}
    last_turn: dict[str, tuple] = {}

    orig_changed, orig_act = Table.changed, Table.act
    orig_finish, orig_timeout, orig_recorded = Settlement.finish, DecisionClock.timeout, Settlement.recorded

    def changed(self) -> None:
        orig_changed(self)
        hand = self.hand
        if hand is None or hand.over or hand.actor is None:
            return
        key = (self.hand_id, hand.actor, len(hand.events))
        if last_turn.get(self.name) == key:
            return
        last_turn[self.name] = key
        lg = hand.legal()
        send({"e": "turn", "t": self.name, "a": hand.players[hand.actor].name, "ph": lg.phase,
              "ck": bool(lg.check), "k": f"{self.hand_id}/{hand.actor}/{len(hand.events)}"})

    def act(self, account, kind, amount=0, discards=()):
        chat = self.chat
        last = chat[-1] if chat else None
        seat = self.seat_of(account)
        try:
            result = orig_act(self, account, kind, amount, discards)
        except Exception:
            counters["refused"] += 1
            raise
        ts = time.monotonic()
        counters["acts"] += 1
        if counters.get("last_in") is not None and len(counters["in_to_act"]) < 100_000:
            counters["in_to_act"].append(ts - counters["last_in"])
        lines = list(chat)
        start = 0
        for i in range(len(lines) - 1, -1, -1):
            if lines[i] is last:
                start = i + 1
                break
        marker = lines[start].text if start < len(lines) else ""
        send({"e": "act", "t": self.name, "a": seat.name if seat else "", "ts": ts, "m": marker})
        return result

    def finish(self) -> None:
        counters["hands"] += 1
        self.table._bench_finished = time.monotonic()
        orig_finish(self)

    def recorded(self, hand, voided=False) -> None:
        finished = getattr(self.table, "_bench_finished", None)
        if finished is not None and len(counters["settle_s"]) < 100_000:
            counters["settle_s"].append(time.monotonic() - finished)
        orig_recorded(self, hand, voided)

    def timeout(self, hand, p) -> None:
        if hand is self.table.hand and not hand.over and hand.actor == p:
            counters["timeouts"] += 1
        orig_timeout(self, hand, p)

    orig_ask = BlindPrompts.ask

    def ask_for_blinds(self, plan) -> bool:
        # Auto Blind starts off (seed 000): the players are asked for their blinds before a hand,
        # and answer as a person does (Enter on the prompt).
        asking = orig_ask(self, plan)
        if asking:
            table = self.table
            send({"e": "blind", "t": table.name,
                  "a": [s.name for s in table.seats.values() if table.blind_asked(s)]})
        return asking

    Table.changed, Table.act = changed, act
    Settlement.finish, DecisionClock.timeout = finish, timeout
    Settlement.recorded, BlindPrompts.ask = recorded, ask_for_blinds
    _count_repaints(counters)

    tables, _ = plan_tables(spec["tables"], spec["seated"])
    n = spec["sessions"]
    data = {
        "server": {"host": "127.0.0.1", "port": 2222, "max_connections": n + 100,
                   "max_per_ip": n + 100, "login_timeout": 120,
                   "shared_screens": spec.get("shared_screens", True)},
        "room": {"starting_money": "100000"},
        "tables": tables,
    }
    config = config_from_dict(data, data_dir / "config.toml")
    served = await serve.start(config, host="127.0.0.1", port=0, data_dir=data_dir)
    send({"e": "ready", "port": served.server.port, "pid": os.getpid()})

    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader),
                                 os.fdopen(in_fd, "rb", buffering=0))
    try:
        while True:
            line = await reader.readline()
            if not line or line.strip() == b"stop":
                break
            if line.strip() == b"status":
                room = served.room
                hosting = served.server.hosting       # what the sessions' apps share
                pacer, mirrors = hosting.pacer, hosting.mirrors
                send({"e": "status", **counters,
                      "mirror": {"groups": len(mirrors.groups), "following": mirrors.following,
                                 "joins": mirrors.joins, "leaves": mirrors.leaves,
                                 "shared_writes": mirrors.shared} if mirrors is not None else {},
                      "pacer": {"woken": pacer.woken, "waiting": pacer.waiting, "count": pacer.count,
                                "lag_ms": round(1000 * pacer.lag, 1)},
                      "sessions": len(served.server.sessions),
                      "connections": served.server.connection_count,
                      "seated": sum(len(t.seats) for t in room.tables.values()),
                      "sitting_out": sum(1 for t in room.tables.values() for s in t.seats.values() if s.sitting_out),
                      "watchers": sum(len(t.watchers) for t in room.tables.values()),
                      "tables": {name: {"seated": len(t.seats), "watchers": len(t.watchers)}
                                 for name, t in room.tables.items()}})
    finally:
        await serve.shutdown(served)
        send({"e": "bye", **counters})
        await asyncio.sleep(0.1)


def _count_repaints(counters: dict) -> None:
    """Count (and time) Textual's screen repaints and layout passes, and the bytes written."""
    from textual.screen import Screen

    from cardroom.ssh.session import AppSession

    for key in ("paints", "paint_s", "layouts", "layout_s", "writes", "written"):
        counters[key] = 0
    write = AppSession.write
    clock = time.process_time

    def timed(method, count: str, seconds: str):
        def wrapper(self, *a, **kw):
            t = clock()
            try:
                return method(self, *a, **kw)
            finally:
                counters[count] += 1
                counters[seconds] += clock() - t
        return wrapper

    compositor_refresh = timed(Screen._compositor_refresh, "paints", "paint_s")
    refresh_layout = timed(Screen._refresh_layout, "layouts", "layout_s")

    recv = AppSession.data_received
    counters["in_to_write"] = []

    def data_received(self, data, datatype):
        self._bench_t_in = counters["last_in"] = time.monotonic()
        return recv(self, data, datatype)

    def session_write(self, data):
        t_in = getattr(self, "_bench_t_in", None)
        if t_in is not None:
            self._bench_t_in = None
            samples = counters["in_to_write"]
            if len(samples) < 100_000:
                samples.append(time.monotonic() - t_in)
        counters["writes"] += 1
        counters["written"] += len(data)
        return write(self, data)

    Screen._compositor_refresh, Screen._refresh_layout, AppSession.write = \
        compositor_refresh, refresh_layout, session_write
    AppSession.data_received = data_received

    from collections import Counter
    dirty = counters["dirty"] = Counter()
    timer_update = Screen._on_timer_update

    def on_timer_update(self):
        if self.is_current and not self.app._batch_count:
            what = [type(w).__name__ + ("#" + w.id if w.id else "") for w in self._dirty_widgets]
            if self._layout_required:
                what.append("LAYOUT")
            dirty.update(what)
        return timer_update(self)

    Screen._on_timer_update = on_timer_update

    # Who asks for layout passes: the widget of each Layout message a screen receives.
    on_layout = Screen._on_layout

    async def on_layout_counted(self, message):
        w = message.widget
        dirty["LAYOUT<-" + type(w).__name__ + ("#" + w.id if w.id else "")] += 1
        return await on_layout(self, message)

    Screen._on_layout = on_layout_counted

    # Cyclic-GC pauses stop every session at once: count them and their length by generation.
    import gc
    counters["gc"] = {0: [0, 0.0, 0.0], 1: [0, 0.0, 0.0], 2: [0, 0.0, 0.0]}   # n, seconds, max
    started = [0.0]
    gc_total = [0.0]                      # every pause so far: a slow callback's share of GC

    def on_gc(phase, info):
        if phase == "start":
            started[0] = time.perf_counter()
            return
        took = time.perf_counter() - started[0]
        gc_total[0] += took
        entry = counters["gc"][info["generation"]]
        entry[0] += 1
        entry[1] += took
        entry[2] = max(entry[2], took)

    gc.callbacks.append(on_gc)

    # The loop's longest single callbacks (what a keypress may wait behind), by what ran.
    import asyncio.base_events
    import asyncio.events
    slow = counters["slow"] = {}          # description -> [count over 50 ms, longest seconds]
    run = asyncio.events.Handle._run

    # How long one turn of the loop runs callbacks: a key waits for the rest of the turn it
    # arrives in, then for each turn its handling takes (buckets: < 10, 20, 50, 100 ms, more).
    busy = [0.0]
    turns = counters["turns"] = [0, 0, 0, 0, 0]
    edges = (0.01, 0.02, 0.05, 0.1)
    run_once = asyncio.base_events.BaseEventLoop._run_once

    def timed_run_once(self):
        busy[0] = 0.0
        try:
            return run_once(self)
        finally:
            b = busy[0]
            if b > 0.001:
                i = 0
                while i < 4 and b >= edges[i]:
                    i += 1
                turns[i] += 1

    asyncio.base_events.BaseEventLoop._run_once = timed_run_once

    def timed_run(self):
        t = time.perf_counter()
        gc0 = gc_total[0]
        try:
            return run(self)
        finally:
            took = time.perf_counter() - t
            busy[0] += took
            if took > 0.05:
                cb = getattr(self, "_callback", None)
                task = getattr(cb, "__self__", None)
                coro = getattr(task, "get_coro", lambda: None)()
                what = getattr(coro, "__qualname__", None) or getattr(cb, "__qualname__", repr(cb))[:80]
                frame = getattr(coro, "cr_frame", None)         # a Textual Timer: what it runs
                owner = frame.f_locals.get("self") if frame is not None else None
                timer_cb = getattr(owner, "_callback", None) if what.startswith("Timer.") else None
                if timer_cb is not None:
                    what += "->" + getattr(timer_cb, "__qualname__", type(timer_cb).__name__)[:60]
                if gc_total[0] - gc0 > took / 2:
                    what += " (mostly GC)"
                entry = slow.setdefault(what, [0, 0.0])
                entry[0] += 1
                entry[1] = max(entry[1], took)

    asyncio.events.Handle._run = timed_run


# ============================================================================ the clients

def proc_stat(pid: int) -> dict:
    """RSS/HWM (KiB) and CPU seconds (user+system) of a process, from /proc."""
    out = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(("VmRSS:", "VmHWM:")):
                out[line.split(":")[0]] = int(line.split()[1])
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    tick = os.sysconf("SC_CLK_TCK")
    out["cpu"] = (int(fields[11]) + int(fields[12])) / tick
    return out


class Recorder:
    """Latency samples (seconds) of the measured window only."""

    def __init__(self) -> None:
        self.on = False
        self.t0 = float("inf")                # window start: samples that began earlier don't count
        self.own_bytes: list[float] = []      # key -> first output bytes on the same session
        self.other_line_by_role: dict[str, list[float]] = {"player": [], "railbird": []}
        self.holds: list[list[float]] = []    # [start, end] while another process held the database
        self.own_bytes_held: list[float] = []  # the own_bytes of keys sent during a hold
        self.own_line: list[float] = []       # key -> the action's chat line on the same session
        self.other_bytes: list[float] = []    # apply -> first output bytes on another session
        self.other_line: list[float] = []     # apply -> the action's chat line on another session
        self.missed_line = 0
        self.keys = 0
        self.retries = 0


class Session:
    """One SSH connection + PTY session, read by a bare asyncssh client session (no emulator)."""

    def __init__(self, bench, index: int, name: str, role: str, table: str, row: int) -> None:
        self.bench = bench
        self.index = index
        self.name = name
        self.role = role                    # "player" or "railbird"
        self.table = table
        self.row = row                      # the table's row in the lobby
        self.conn = None
        self.chan = None
        self.capture = bytearray()          # raw output while logging in (dropped afterwards)
        self.capturing = True
        self.ready = False
        self.error = ""
        self.bytes = 0
        self.key_ts: float | None = None    # last key sent, waiting for its first output bytes
        self.first_after: list[float] = []  # apply times waiting for the first output bytes
        self.pending: list[tuple[float, bytes, str]] = []   # (since, chat line, "own"/"other")
        self.recent: list[tuple[float, bytes]] = []         # (arrival, text) of the last ~3 s
        self.tail = b""
        self.turn_key = ""                  # the decision we answered last
        self.closed = False

    # ------------------------------------------------------------------ output
    def on_data(self, data: bytes) -> None:
        now = time.monotonic()
        self.bytes += len(data)
        if self.capturing:
            self.capture += data
            return
        rec = self.bench.rec
        if self.key_ts is not None:
            if rec.on and self.key_ts >= rec.t0:
                rec.own_bytes.append(now - self.key_ts)
                if any(start <= self.key_ts <= end for start, end in rec.holds):
                    rec.own_bytes_held.append(now - self.key_ts)
            self.key_ts = None
        if self.first_after:
            if rec.on:
                rec.other_bytes.extend(now - t for t in self.first_after if t >= rec.t0)
            self.first_after.clear()
        text = ESCAPES.sub(b"", self.tail + data)
        self.tail = data[-64:]
        self.recent.append((now, text))
        while self.recent and now - self.recent[0][0] > 3.0:
            self.recent.pop(0)
        if self.pending:
            keep = []
            for since, marker, kind in self.pending:
                if marker in text:
                    if rec.on and since >= rec.t0:
                        self._record_line(kind, now - since)
                elif now - since > 3.0:
                    if rec.on and since >= rec.t0:
                        rec.missed_line += 1
                else:
                    keep.append((since, marker, kind))
            self.pending = keep

    def expect(self, since: float, marker: bytes, kind: str, first_bytes: bool) -> None:
        """An action applied at `since` (or our key sent then): time its chat line on this screen.
        The output may already be here (the pipe and the SSH socket race): look back first."""
        rec = self.bench.rec
        hit = next((t for t, text in self.recent if t >= since and marker in text), None)
        if hit is not None:
            if rec.on and since >= rec.t0:
                self._record_line(kind, hit - since)
        else:
            self.pending.append((since, marker, kind))
        if first_bytes:
            first = next((t for t, _ in self.recent if t >= since), None)
            if first is not None:
                if rec.on and since >= rec.t0:
                    rec.other_bytes.append(first - since)
            else:
                self.first_after.append(since)

    def _record_line(self, kind: str, seconds: float) -> None:
        rec = self.bench.rec
        if kind == "own":
            rec.own_line.append(seconds)
        else:
            rec.other_line.append(seconds)
            rec.other_line_by_role[self.role].append(seconds)   # who waits longest: players or railbirds

    def plain(self) -> bytes:
        return ESCAPES.sub(b"", bytes(self.capture))

    async def wait_for(self, needle: bytes, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        if needle in self.plain():
            return
        # Then only what arrived since (with an overlap for a needle or escape cut in two):
        # stripping the whole capture every 50 ms cost the client more than the server's login.
        seen = len(self.capture)
        while True:
            if self.closed:
                raise ConnectionError(f"{self.name}: closed while waiting for {needle!r}")
            if time.monotonic() > deadline:
                raise TimeoutError(f"{self.name}: {needle!r} not on screen")
            await asyncio.sleep(0.05)
            end = len(self.capture)
            if end != seen:
                if needle in ESCAPES.sub(b"", bytes(self.capture[max(0, seen - 512):end])):
                    return
                seen = end

    def send(self, keys: str) -> None:
        if self.chan is not None and not self.closed:
            self.chan.write(keys.encode())


def make_client_session_class():
    import asyncssh

    class _ClientSession(asyncssh.SSHClientSession):
        def __init__(self, owner: Session) -> None:
            self.owner = owner

        def data_received(self, data, datatype) -> None:
            self.owner.on_data(data)

        def connection_lost(self, exc) -> None:
            self.owner.closed = True

    return _ClientSession


def pick_key(rng: random.Random, phase: str, can_check: bool) -> str:
    """What a player types at its turn: stand pat at a draw (space); else check/call (c), tap
    (space) when a check is free, and fold (f) a fifth of the time when facing a bet."""
    if phase == "draw":
        return " "
    if can_check:
        return rng.choice("c ")
    return "f" if rng.random() < 0.3 else "c"
