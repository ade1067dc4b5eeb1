"""The server side of `python -m benchmarks ssh`: one child process per server role, each running
the real cardroom code, so its RSS and CPU are its own (`server_main`, spec as JSON in argv[1]):

- ``single``: `cardroom.serve` (config -> SQLite -> room -> asyncssh -> one Textual app per PTY);
- ``tables``: a table host (`cardroom.roles.tablehost.TableHostRole`: PostgreSQL, NATS, the tables);
- ``gateway``: an SSH gateway (`cardroom.roles.gateway.GatewayRole`: the sessions, no table state),
  several of them on one port (SO_REUSEPORT), as the README's third section starts them;
- ``floor``: the same SSH server serving a bare Textual app of one line (benchmarks/_floor.py): what
  any Textual app costs there, printed beside the card room's figures.

A child reports over a pipe (one JSON object a line):
- ``ready``: its pid (and the SSH port for a role that listens);
- ``turn``: a table's decision moved to a (new) person: table, actor name, phase, whether a check
  is legal. The clients use it only to know WHEN to press a key (a player's bot has no terminal
  emulator); what the key does is decided by the player's own Textual screen;
- ``blind``: players asked for their blinds (Auto Blind starts off; they answer with Enter);
- ``act``: a player's intent was applied by `Table.act` (``ts`` = CLOCK_MONOTONIC, system wide, so
  comparable with the client process's clock) and the first chat line it produced (the
  narration, e.g. "b0007 checks"), which every screen at that table then draws in its chat pane;
- ``status``: on request, counters: table events where tables are dealt (hands, timeouts, seats,
  how long each hand's end took to be recorded: ``settle_s``), repaints, the pacer and shared
  screens where sessions are served (and a key's time from its arrival to the session's next
  write: ``in_to_write``), intents' round trips on a gateway (``intent_s``), GC pauses and slow
  loop callbacks everywhere. With a ``profile`` folder in the spec, the first status report starts
  cProfile on the loop thread's CPU time and the second (the window's end) writes it there.

The hooks wrap cardroom methods in the child only; cardroom itself is not changed.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import time
from pathlib import Path

from benchmarks._ssh_load import plan_tables


def server_main() -> None:
    spec = json.loads(sys.argv[1])
    asyncio.run(_main(spec))


async def _main(spec: dict) -> None:
    import logging

    data_dir = Path(spec["data_dir"])
    logging.basicConfig(level=logging.WARNING, filename=str(data_dir / f"{spec['role']}-{os.getpid()}.log"),
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    loop = asyncio.get_running_loop()
    out_t, _ = await loop.connect_write_pipe(asyncio.Protocol, os.fdopen(spec["out_fd"], "wb", buffering=0))

    def send(obj: dict) -> None:
        out_t.write((json.dumps(obj, separators=(",", ":")) + "\n").encode())

    counters: dict = {"in_to_act": [], "last_in": None}
    _count_loop(counters)
    role = spec["role"]
    if role in ("single", "tables"):
        _hook_tables(send, counters)
    if role in ("single", "gateway", "floor"):
        _count_repaints(counters)
    if role == "gateway":
        _time_intents(counters)
    started = await START[role](spec, _config(spec, data_dir), data_dir)
    send({"e": "ready", "port": started.port, "pid": os.getpid()})

    profiler = None
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader),
                                 os.fdopen(spec["in_fd"], "rb", buffering=0))
    try:
        while True:
            line = await reader.readline()
            if not line or line.strip() == b"stop":
                break
            if line.strip() == b"status":
                send({"e": "status", **counters, **started.status()})
                if spec.get("profile"):
                    profiler = _profile_window(profiler, Path(spec["profile"]) / f"{role}-{os.getpid()}.prof")
    finally:
        await started.stop()
        send({"e": "bye"})
        await asyncio.sleep(0.1)


def _profile_window(profiler, path: Path):
    """Start profiling the CPU time of this process's loop thread (no profiler yet), or stop and write it to `path`."""
    import cProfile

    if profiler is None:
        profiler = cProfile.Profile(time.thread_time)
        profiler.enable()
        return profiler
    profiler.disable()
    path.parent.mkdir(parents=True, exist_ok=True)
    profiler.dump_stats(str(path))
    return None


def _config(spec: dict, data_dir: Path):
    from cardroom.config import config_from_dict

    tables, _ = plan_tables(spec["tables"], spec["seated"])
    n = spec["sessions"]
    # Every client comes from 127.0.0.1: no per-address bound may hold it back.
    server = {"host": "127.0.0.1", "port": 2222, "max_connections": n + 100,
              "max_per_ip": n + 100, "connect_burst": n + 100, "new_accounts_per_ip": n + 100,
              "login_timeout": 120, "shared_screens": spec.get("shared_screens", True)}
    if spec.get("store"):
        server["store"] = spec["store"]
    if spec.get("nats"):
        server["nats"] = spec["nats"]
    data = {"server": server, "room": {"starting_money": "100000"}, "tables": tables}
    return config_from_dict(data, data_dir / "config.toml")


# ============================================================================ the roles

class _Started:
    """A started role: its SSH port (None for a table host), a status report, a stop."""

    def __init__(self, port, status, stop) -> None:
        self.port, self.status, self.stop = port, status, stop


def _tables_status(room) -> dict:
    tables = room.tables.values()
    return {"seated": sum(len(t.seats) for t in tables),
            "sitting_out": sum(1 for t in tables for s in t.seats.values() if s.sitting_out),
            "watchers": sum(len(t.watchers) for t in tables)}


def _sessions_status(server) -> dict:
    hosting = server.hosting       # what the sessions' apps share
    pacer, mirrors = hosting.pacer, hosting.mirrors
    return {"mirror": {"groups": len(mirrors.groups), "following": mirrors.following,
                       "joins": mirrors.joins, "leaves": mirrors.leaves,
                       "shared_writes": mirrors.shared} if mirrors is not None else {},
            "pacer": {"woken": pacer.woken, "waiting": pacer.waiting, "count": pacer.count,
                      "lag_ms": round(1000 * pacer.lag, 1)},
            "sessions": len(server.sessions), "connections": server.connection_count}


async def _start_single(spec: dict, config, data_dir: Path) -> _Started:
    from cardroom import serve

    served = await serve.start(config, host="127.0.0.1", port=0, data_dir=data_dir)
    return _Started(served.server.port,
                    lambda: {**_tables_status(served.room), **_sessions_status(served.server)},
                    lambda: serve.shutdown(served))


async def _start_tables(spec: dict, config, data_dir: Path) -> _Started:
    from cardroom.roles.tablehost import TableHostRole

    role = TableHostRole(config, config.server.store, config.server.nats)
    await role.start()
    return _Started(None, lambda: _tables_status(role.room), role.shutdown)


async def _start_gateway(spec: dict, config, data_dir: Path) -> _Started:
    from cardroom.roles.gateway import GatewayRole

    role = GatewayRole(config, config.server.store, config.server.nats)
    await role.start("127.0.0.1", spec["port"], Path(spec["host_key"]))
    return _Started(spec["port"], lambda: _sessions_status(role.server), role.shutdown)


async def _start_floor(spec: dict, config, data_dir: Path) -> _Started:
    from benchmarks._floor import floor_app
    from cardroom.ssh import Limits, start_server

    n = spec["sessions"]
    limits = Limits(max_connections=n + 100, max_per_ip=n + 100, login_timeout=120)
    server = await start_server("127.0.0.1", 0, data_dir / "floor_host_key", floor_app, limits=limits,
                                authorize=lambda username, key: True)
    return _Started(server.port, lambda: _sessions_status(server), server.close)


START = {"single": _start_single, "tables": _start_tables, "gateway": _start_gateway, "floor": _start_floor}


# ============================================================================ table events

def _hook_tables(send, counters: dict) -> None:
    """Report decisions, blind prompts and applied actions (see the module's docstring), and count
    hands, timeouts and how long a hand's end takes to be recorded."""
    from cardroom.room.blindprompts import BlindPrompts
    from cardroom.room.decisionclock import DecisionClock
    from cardroom.room.settlement import Settlement
    from cardroom.room.table import Table

    counters.update({"hands": 0, "timeouts": 0, "acts": 0, "refused": 0, "settle_s": []})
    last_turn: dict[str, tuple] = {}

    orig_changed, orig_act = Table.changed, Table.act
    orig_finish, orig_timeout, orig_recorded = Settlement.finish, DecisionClock.timeout, Settlement.recorded
    orig_ask = BlindPrompts.ask

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

    def act(self, seat, kind, amount, discards):
        chat = self.chat
        last = chat[-1] if chat else None
        try:
            result = orig_act(self, seat, kind, amount, discards)
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
        send({"e": "act", "t": self.name, "a": seat.name, "ts": ts, "m": marker})
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


# ============================================================================ sessions' screens

def _count_repaints(counters: dict) -> None:
    """Count (and time) Textual's screen repaints and layout passes, and the bytes written."""
    from collections import Counter

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


def _time_intents(counters: dict) -> None:
    """How long a gateway's intents take to be answered by the table host (NATS request/reply):
    a player's own screen shows his action only once its reply is back."""
    from cardroom.bus.client import RemoteClient

    samples = counters["intent_s"] = []
    ask = RemoteClient._ask

    async def timed_ask(self, table, op, **kw):
        t = time.monotonic()
        try:
            return await ask(self, table, op, **kw)
        finally:
            if len(samples) < 100_000:
                samples.append(time.monotonic() - t)

    RemoteClient._ask = timed_ask


# ============================================================================ the event loop

def _count_loop(counters: dict) -> None:
    """GC pauses by generation, the loop's slow callbacks by what ran, loop turns by busy time."""
    # Cyclic-GC pauses stop every session at once: count them and their length by generation.
    import gc
    # n, seconds, longest, CPU seconds (this thread's: on a busy machine a pause's wall time is
    # mostly waiting for a core), objects collected
    counters["gc"] = {g: [0, 0.0, 0.0, 0.0, 0] for g in (0, 1, 2)}
    started = [0.0, 0.0]
    gc_total = [0.0]                      # every pause so far: a slow callback's share of GC

    def on_gc(phase, info):
        if phase == "start":
            started[:] = time.perf_counter(), time.thread_time()
            return
        took = time.perf_counter() - started[0]
        gc_total[0] += took
        entry = counters["gc"][info["generation"]]
        entry[0] += 1
        entry[1] += took
        entry[2] = max(entry[2], took)
        entry[3] += time.thread_time() - started[1]
        entry[4] += info["collected"]

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
