"""Many SSH sessions on one card room: server RSS per session, keypress and action latencies.

    python -m benchmarks ssh [--sessions 1000] [--seated 200] [--tables 25] [--duration 60]
                             [--think 2.0] [--batch 50] [--size 100x30] [--seed 1]
                             [--topology single|scaled] [--gateways 2] [--capacity 100,200,...]
                             [--no-shared-screens] [--hold-db 5] [--hold-every 15] [--floor 100]
                             [--profile DIR] [--json]

The real server runs in CHILD processes (benchmarks/_topology.py, _ssh_server.py), so their RSS
(/proc/<pid>/status VmRSS) and CPU (/proc/<pid>/stat) are their own:
- `--topology single` (default): one `cardroom serve` process (config -> SQLite -> room ->
  asyncssh -> one Textual app per PTY session);
- `--topology scaled`: a throw-away PostgreSQL cluster, nats-server, one table host and
  `--gateways` SSH gateways sharing one port, each its own process on this machine; CPU is
  reported by role, and the table host's CPU per hand dealt.
The process dealing the tables reports table events over a pipe. This process runs the N
clients: bare asyncssh client sessions with a PTY (xterm-256color, 100x30), no terminal
emulation; a session's output is only timed and, for the chat-line check, stripped of escape
sequences.

`--capacity 100,200,400` runs each count on both topologies (a fifth seated, windows of at least
30 s), climbing until a count misses a target twice (a miss is measured once more), and prints the
most sessions each topology served within both p99 targets (key -> own screen < 100 ms, action ->
others < 1 s, every session in) and their ratio.

The floor (`--floor 100`, first): the same SSH server serving a bare Textual app of one line
(benchmarks/_floor.py); its server CPU per login and per repaint and its RSS per session are
printed beside the card room's, so a target below what any Textual app costs shows as such.

Every session logs in with its own new ed25519 key (which claims the name), presses Enter on the
welcome screen and moves the lobby cursor to its table. `--seated` players press `j` and accept
the offered buy-in (Enter); the others are railbirds (Enter = watch), spread round robin over the
tables. Sessions connect `--batch` at a time, each batch logged in before the next starts.
A player whose turn the server reports waits a think time (uniform 0.5-1.5 x `--think` seconds),
then types: `space` at a draw (stand pat); `c` or `space` when a check is free; facing a bet
`c` (call) or, one time in five, `f`. The screen decides what the key does, as for a person.

Measured during the `--duration` window after every session is in:
- keypress -> own screen: from writing the key to the first output bytes on that session
  (also: to the arrival of the action's chat line, e.g. "b0007 checks", on that session);
- action -> other screens: from the moment `Table.act` applied the action in the server (a
  CLOCK_MONOTONIC timestamp sent over the pipe; the clock is system wide) to the arrival on every
  other session at that table (players and railbirds) of the action's chat line, which the table
  screen's chat pane draws (a content check, so the once-a-second countdown repaint does not
  count); the first output bytes after the action are reported too;
- RSS of the server: idle (started, no session), with all sessions in, and the peak; per session
  = (all - idle) / N;
- hands finished, actions applied, decision timeouts, CPU seconds of the server and the clients;
- the server's cyclic-GC pauses by generation, and its event-loop callbacks that ran over 50 ms
  (by what ran): what a keypress may have waited behind;
- shared railbird screens (`cardroom/ssh/mirror.py`): groups, followers, joins and leaves, and
  writes sent to followers' terminals; `--no-shared-screens` turns sharing off for an A/B;
- `--hold-db S`: a busy database. This process (another process than the server, as an admin's
  sqlite3 shell would be) holds the server's SQLite file in an EXCLUSIVE transaction for S
  seconds, one second into the window and then every `--hold-every` seconds. Every hand that
  ends meanwhile waits on the database to be recorded (the store's writes are off the loop);
  reported: key -> own screen of the keys sent while it was held (the other sessions go on
  playing: p99 < 100 ms is the target), and how long the hands' ends took to be recorded.

`--profile DIR`: every server process runs cProfile on its loop thread's CPU time (time.thread_time) over the
measured window and writes it to DIR/<role>-<pid>.prof (`python -m pstats`); py-spy sees time a
process spends waiting for the CPU inside a system call as its own on a busy machine, this does
not. The profiler slows what it measures: take the figures from a run without it.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import random
import resource
import sys
import tempfile
import time
from pathlib import Path

from benchmarks import positive
from benchmarks._floor import KEYS as FLOOR_KEYS
from benchmarks._ssh_load import Recorder, Session, make_client_session_class, pick_key, plan_tables
from benchmarks._topology import Scaled, topology, window_samples
from cardroom.serve import DB_NAME

TARGET_P99_MS = 100.0              # key -> own screen
TARGET_OTHERS_P99_MS = 1000.0      # action -> the other screens at the table
TARGET_LOGIN_S = 120.0             # every session logged in (scaled, 1,000 sessions)
# What a player costs (issue 36): server CPU per login and per repaint, RSS, the table host's CPU.
TARGET_LOGIN_CPU_S = 0.08
TARGET_PAINT_MS = 0.8
TARGET_MIB_PER_SESSION = 2.5
TARGET_HOST_MS_PER_HAND = 10.0
CAPACITY_MIN_WINDOW_S = 30.0       # each run of a capacity climb


def _cpu_delta(before: dict[str, float], after: dict[str, float]) -> dict[str, float]:
    return {role: after[role] - before.get(role, 0.0) for role in after}


def _args(argv: list[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="python -m benchmarks ssh", description=__doc__.splitlines()[0])
    p.add_argument("--sessions", type=positive, default=1000, help="SSH sessions in all (default 1000)")
    p.add_argument("--seated", type=int, default=200, help="of which seated players (default 200)")
    p.add_argument("--tables", type=int, default=0, help="tables (default max(25, seated/8))")
    p.add_argument("--duration", type=float, default=60.0, help="measured seconds (default 60)")
    p.add_argument("--think", type=float, default=2.0, help="mean think time of a player, s (default 2)")
    p.add_argument("--batch", type=positive, default=50, help="sessions logging in at once (default 50)")
    p.add_argument("--size", default="100x30", help="terminal size WxH (default 100x30)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--no-shared-screens", dest="shared_screens", action="store_false",
                   help="every session draws its own screen (server.shared_screens = false)")
    p.add_argument("--hold-db", type=float, default=0.0,
                   help="hold the database busy for this many seconds at a time (default 0: never)")
    p.add_argument("--hold-every", type=float, default=15.0,
                   help="start a hold this often, s (default 15)")
    p.add_argument("--topology", choices=("single", "scaled"), default="single",
                   help="single: one cardroom serve process; scaled: PostgreSQL, NATS, one table host "
                        "and --gateways SSH gateways, each its own process (default single)")
    p.add_argument("--gateways", type=positive, default=2, help="gateways of the scaled topology (default 2)")
    p.add_argument("--capacity", default="",
                   help="comma-separated session counts (say 100,200,300): run each on both topologies "
                        "(a fifth of them seated, --duration each, at least 30 s), climbing until a p99 "
                        "target is missed twice in a row, and print the most sessions each kept the "
                        "targets with, and the ratio")
    p.add_argument("--floor", type=int, default=100,
                   help="sessions of the floor, a bare Textual app of one line on the same SSH server, "
                        "measured first and printed beside (default 100; 0: none)")
    p.add_argument("--profile", default="", metavar="DIR",
                   help="write each server process's cProfile of the window (CPU time) to DIR")
    p.add_argument("--json", action="store_true", help="print the results as JSON")
    a = p.parse_args(argv)
    if not 0 <= a.seated <= a.sessions or a.sessions < 1:
        p.error("need 1 <= sessions and 0 <= seated <= sessions")
    if a.hold_db and a.topology == "scaled":
        p.error("--hold-db holds the SQLite file of the single topology")
    try:
        a.capacity = sorted({positive(x) for x in a.capacity.split(",") if x.strip()})
    except argparse.ArgumentTypeError as e:
        p.error(f"--capacity: {e}")
    if a.capacity and a.duration < CAPACITY_MIN_WINDOW_S:
        p.error(f"--capacity needs --duration {CAPACITY_MIN_WINDOW_S:.0f} or more: the p99 of a shorter "
                "window is a handful of keys")
    a.profile = str(Path(a.profile).resolve()) if a.profile else ""   # the children run elsewhere
    a.tables_asked = a.tables          # 0: as many as the seated need (a capacity climb's too)
    a.tables = a.tables or max(25, math.ceil(a.seated / 8))
    return a


def source_address(i: int) -> str:
    """Session i's own loopback address (127.1.0.2 on; Linux answers for all of 127/8): players
    come from many addresses, and the server's per-address limits (8 logins in progress, say)
    are meant for one client, not for a benchmark's thousand."""
    return f"127.1.{i // 254 % 256}.{2 + i % 254}"


def _pct(xs: list[float], q: float) -> float | None:
    if not xs:
        return None
    s = sorted(xs)
    return s[min(len(s) - 1, max(0, math.ceil(q / 100 * len(s)) - 1))] * 1000.0


def _raise_nofile(need: int) -> int:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = hard if hard != resource.RLIM_INFINITY else max(soft, need)
    if soft < want:
        resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def _log(args, text: str) -> None:
    print(f"[ssh bench {time.strftime('%H:%M:%S')}] {text}", file=sys.stderr, flush=True)


class Bench:
    def __init__(self, args) -> None:
        self.args = args
        self.rec = Recorder()
        self.rng = random.Random(args.seed)
        self.sessions: list[Session] = []
        self.players: dict[str, Session] = {}
        self.by_table: dict[str, list[Session]] = {}
        self.turn: dict[str, str] = {}          # table -> key of its current decision
        self.blinds: dict[tuple[str, str], Session] = {}   # (table, player) asked for a blind
        self.acts_seen = 0
        self.session_class = make_client_session_class()
        w, h = args.size.lower().split("x")
        self.size = (int(w), int(h))

    # ------------------------------------------------------------------ server events
    def on_event(self, ev: dict) -> None:
        kind = ev["e"]
        if kind == "turn":
            self.turn[ev["t"]] = ev["k"]
            sess = self.players.get(ev["a"])
            if sess is not None:
                delay = self.args.think * (0.5 + self.rng.random())
                key = pick_key(self.rng, ev["ph"], ev["ck"])
                asyncio.get_running_loop().call_later(delay, self._press, sess, ev["t"], ev["k"], key, False)
        elif kind == "blind":
            for name in ev["a"]:
                sess = self.players.get(name)
                if sess is not None:
                    self.blinds[(ev["t"], name)] = sess
                    asyncio.get_running_loop().call_later(0.3 + 0.3 * self.rng.random(), self._post_blind,
                                                          sess, ev["t"])
        elif kind == "act":
            self.acts_seen += 1
            for key in [k for k in self.blinds if k[0] == ev["t"]]:
                del self.blinds[key]        # the hand was dealt: every blind was answered
            marker = ev["m"].encode()
            if not marker:
                return
            actor = self.players.get(ev["a"])
            for s in self.by_table.get(ev["t"], ()):
                if not s.ready or s.closed:
                    continue
                if s is actor:
                    if s.last_key is not None:
                        s.expect(s.last_key, marker, "own", first_bytes=False)
                else:
                    s.expect(ev["ts"], marker, "other", first_bytes=True)

    def _post_blind(self, sess: Session, table: str) -> None:
        """Enter on the blind prompt, again every few seconds until the hand is dealt."""
        if self.blinds.get((table, sess.name)) is not sess or sess.closed:
            return
        if sess.ready:
            sess.send("\r")
        asyncio.get_running_loop().call_later(3.0, self._post_blind, sess, table)

    def _press(self, sess: Session, table: str, k: str, key: str, retry: bool) -> None:
        if self.turn.get(table) != k or sess.closed:
            return                                  # the decision moved on (or timed out)
        loop = asyncio.get_running_loop()
        if not sess.ready:                          # still logging in: try again shortly
            loop.call_later(0.5, self._press, sess, table, k, key, retry)
            return
        now = time.monotonic()
        sess.send(key)
        sess.key_ts = now
        sess.last_key = now
        if self.rec.on:
            self.rec.keys += 1
            if retry:
                self.rec.retries += 1
        # A key the screen could not use yet (its view not refreshed): press again later.
        loop.call_later(4.0, self._press, sess, table, k, key, True)

    async def hold_db(self, path: Path, end: float) -> None:
        """Hold the database in an EXCLUSIVE transaction, as another process would (`--hold-db`);
        the sqlite3 calls, which may wait for the server's write to finish, run off this loop."""
        import sqlite3
        args = self.args
        conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False, timeout=30)
        try:
            await asyncio.sleep(1.0)
            while time.monotonic() + args.hold_db < end:
                await asyncio.to_thread(conn.execute, "BEGIN EXCLUSIVE")
                span = [time.monotonic(), float("inf")]
                self.rec.holds.append(span)
                await asyncio.sleep(args.hold_db)
                await asyncio.to_thread(conn.execute, "ROLLBACK")
                span[1] = time.monotonic()
                await asyncio.sleep(max(0.0, args.hold_every - args.hold_db))
        finally:
            conn.close()

    # ------------------------------------------------------------------ one session
    async def login(self, sess: Session, port: int) -> None:
        import asyncssh
        key = asyncssh.generate_private_key("ssh-ed25519")
        try:
            sess.conn = await asyncssh.connect(
                "127.0.0.1", port, username=sess.name, client_keys=[key], known_hosts=None,
                local_addr=(source_address(sess.index), 0),
                agent_path=None, config=None, keepalive_interval=0, login_timeout=120)
            sess.chan, _ = await sess.conn.create_session(
                lambda: self.session_class(sess), term_type="xterm-256color", term_size=self.size,
                encoding=None)
            await sess.wait_for(f"Welcome, {sess.name}".encode(), 60)
            sess.send("\r")
            await sess.wait_for(b"Tables", 60)
            await asyncio.sleep(0.3)
            sess.capture.clear()
            sess.send("\x1b[B" * sess.row)
            await asyncio.sleep(0.2)
            if sess.role == "player":
                sess.send("j")
                await sess.wait_for(b"Buy in at", 60)     # the dialog: the footer says "Buy in" too
                await asyncio.sleep(0.3)
                sess.send("\r")
                await sess.wait_for(b"(seat ", 60)
            else:
                sess.send("\r")
                await sess.wait_for(b"You are watching", 60)
            if sess.table.encode() not in sess.plain():
                raise RuntimeError(f"{sess.name}: not at {sess.table}")
        except Exception as e:   # counted and reported; the run goes on
            sess.error = f"{type(e).__name__}: {e}"
            return
        sess.capturing = False
        sess.capture = bytearray()
        sess.ready = True

    # ------------------------------------------------------------------ the floor
    async def floor(self) -> dict:
        """The floor (benchmarks/_floor.py): `--floor` sessions log in to a bare Textual app of one
        line over the same SSH server, `--batch` at a time, then each presses a key KEYS times (one
        line repainted each time). Server CPU per login and per key, per repaint, RSS per session."""
        import asyncssh

        args = self.args
        sessions = [Session(self, i, f"f{i:04d}", "floor", "", 0) for i in range(args.floor)]
        tmp = tempfile.TemporaryDirectory(prefix="cardroom-ssh-floor-")
        topo = topology("floor", {"data_dir": tmp.name, "tables": 1, "seated": 0, "sessions": args.floor},
                        lambda ev: None)

        async def login(sess: Session) -> None:
            key = asyncssh.generate_private_key("ssh-ed25519")
            try:
                sess.conn = await asyncssh.connect(
                    "127.0.0.1", topo.port, username=sess.name, client_keys=[key], known_hosts=None,
                    local_addr=(source_address(sess.index), 0), agent_path=None, config=None,
                    keepalive_interval=0, login_timeout=120)
                sess.chan, _ = await sess.conn.create_session(
                    lambda: self.session_class(sess), term_type="xterm-256color", term_size=self.size,
                    encoding=None)
                await sess.wait_for(f"floor {sess.name} 0".encode(), 60)
            except Exception as e:   # counted; the floor goes on without it
                sess.error = f"{type(e).__name__}: {e}"

        async def keys(sess: Session) -> None:
            for k in range(1, FLOOR_KEYS + 1):
                sess.send("x")
                await sess.wait_for(f"floor {sess.name} {k}".encode(), 60)

        try:
            await topo.start()
            await asyncio.sleep(2.0)
            rss0, cpu0 = topo.rss(), topo.cpu_by_role()
            t0 = time.monotonic()
            for start in range(0, len(sessions), args.batch):
                await asyncio.gather(*(login(s) for s in sessions[start:start + args.batch]))
            login_s = time.monotonic() - t0
            cpu1 = topo.cpu_by_role()
            ok = [s for s in sessions if not s.error]
            await asyncio.sleep(1.0)
            rss1, st0, cpu2 = topo.rss(), await topo.status(), topo.cpu_by_role()
            await asyncio.gather(*(keys(s) for s in ok))
            cpu3, st1 = topo.cpu_by_role(), await topo.status()
        finally:
            for s in sessions:
                if s.conn is not None:
                    s.conn.close()
            await asyncio.sleep(1.0)
            await topo.stop()
            tmp.cleanup()
        n = max(1, len(ok))
        paints = st1["paints"] - st0["paints"]
        return {"sessions": len(ok), "login_seconds": round(login_s, 1),
                "login_cpu_s": round(sum(cpu1.values()) - sum(cpu0.values()), 2),
                "cpu_s_per_login": round((sum(cpu1.values()) - sum(cpu0.values())) / n, 4),
                "cpu_ms_per_key": round(1000 * (sum(cpu3.values()) - sum(cpu2.values())) / (n * FLOOR_KEYS), 2),
                "cpu_ms_per_paint": round(1000 * (st1["paint_s"] - st0["paint_s"]) / max(1, paints), 2),
                "paints": paints,
                "rss_per_session_mib": round((rss1["VmRSS"] - rss0["VmRSS"]) / 1024 / n, 3)}

    # ------------------------------------------------------------------ the run
    async def run(self) -> dict:
        args = self.args
        nofile = _raise_nofile(args.sessions * 2 + 200)
        floor = None
        if args.floor:
            _log(args, f"the floor: {args.floor} sessions of a bare Textual app")
            floor = await self.floor()
        tables, counts = plan_tables(args.tables, args.seated)
        names = [t["name"] for t in tables]
        # Who sits where: players by the plan, railbirds round robin.
        roles = []
        for i, c in enumerate(counts):
            roles += [("player", i)] * c
        for j in range(args.sessions - args.seated):
            roles.append(("railbird", j % args.tables))
        for idx, (role, ti) in enumerate(roles):
            name = f"{'p' if role == 'player' else 'r'}{idx:04d}"
            s = Session(self, idx, name, role, names[ti], ti)
            s.last_key = None
            self.sessions.append(s)
            self.by_table.setdefault(names[ti], []).append(s)
            if role == "player":
                self.players[name] = s

        tmp = tempfile.TemporaryDirectory(prefix="cardroom-ssh-bench-")
        spec = {"data_dir": tmp.name, "tables": args.tables, "seated": args.seated,
                "sessions": args.sessions, "shared_screens": args.shared_screens,
                "profile": args.profile}
        topo = topology(args.topology, spec, self.on_event, args.gateways)
        result: dict = {}
        try:
            await topo.start()
            port = topo.port
            _log(args, f"{topo.name} topology ({', '.join(f'{r} {p}' for r, p in topo.pids_by_role().items())})"
                       f" on port {port}: {args.tables} tables, {args.sessions} sessions "
                       f"({args.seated} seated), RLIMIT_NOFILE {nofile}")
            await asyncio.sleep(2.0)
            base = topo.rss()

            t_conn = time.monotonic()
            cpu_conn0 = topo.cpu_by_role()
            for start in range(0, len(self.sessions), args.batch):
                batch = self.sessions[start:start + args.batch]
                await asyncio.gather(*(self.login(s, port) for s in batch))
                bad = [s for s in batch if s.error]
                _log(args, f"{start + len(batch)}/{len(self.sessions)} logged in"
                           + (f", {len(bad)} failed: {bad[0].error}" if bad else "")
                           + f"; sessions' RSS {topo.rss()['VmRSS'] / 1024:.0f} MiB")
            connect_s = time.monotonic() - t_conn
            connect_cpu = _cpu_delta(cpu_conn0, topo.cpu_by_role())
            await asyncio.sleep(3.0)
            st0, parts0 = await topo.status(), topo.parts
            all_in, cpu0 = topo.rss(), topo.cpu_by_role()
            ok = sum(1 for s in self.sessions if s.ready and not s.closed)

            _log(args, f"{ok} sessions in; measuring {args.duration:.0f} s")
            me0 = resource.getrusage(resource.RUSAGE_SELF)
            t0 = time.monotonic()
            bytes0 = sum(s.bytes for s in self.sessions)
            self.rec.t0 = t0      # a key or action from before the window is not a sample of it
            self.rec.on = True
            end = t0 + args.duration
            holder = (asyncio.create_task(self.hold_db(Path(tmp.name) / DB_NAME, end))
                      if args.hold_db > 0 else None)
            while time.monotonic() < end:
                await asyncio.sleep(min(10.0, end - time.monotonic()))
                if time.monotonic() < end - 1:
                    _log(args, f"{time.monotonic() - t0:.0f} s: keys {self.rec.keys}, "
                               f"own p99 {_pct(self.rec.own_bytes, 99) or 0:.1f} ms, "
                               f"others p99 {_pct(self.rec.other_line, 99) or 0:.1f} ms")
            self.rec.on = False
            if holder is not None:
                await holder
            t1 = time.monotonic()
            end_stat, cpu = topo.rss(), _cpu_delta(cpu0, topo.cpu_by_role())
            me1 = resource.getrusage(resource.RUSAGE_SELF)
            bytes1 = sum(s.bytes for s in self.sessions)
            st1, parts1 = await topo.status(), topo.parts
            window = t1 - t0
            in_to_write = window_samples(parts0, parts1, "in_to_write")
            intents = window_samples(parts0, parts1, "intent_s")
            still = sum(1 for s in self.sessions if s.ready and not s.closed)
            rec = self.rec
            errors = [s.error for s in self.sessions if s.error]
            error_kinds: dict[str, int] = {}
            for e in errors:                  # "TimeoutError: r0412: b'Tables' not on screen" -> kind
                kind = e.split(":")[0] + ":" + (e.split("'")[1] if "'" in e else e.split(":")[-1])[:40]
                error_kinds[kind] = error_kinds.get(kind, 0) + 1
            rss_base, rss_all = base["VmRSS"] / 1024, all_in["VmRSS"] / 1024
            per = (rss_all - rss_base) / max(1, ok)
            server_cpu = sum(cpu.values())
            hands = st1["hands"] - st0["hands"]
            client_cpu = (me1.ru_utime + me1.ru_stime) - (me0.ru_utime + me0.ru_stime)
            watching = sum(1 for s in self.sessions if s.role == "railbird" and s.ready)
            result = {
                "topology": topo.name, "gateways": topo.gateways,
                "sessions_requested": args.sessions, "sessions_connected": ok, "sessions_at_end": still,
                "seated_requested": args.seated, "seated_at_tables": st0["seated"],
                "sitting_out_at_end": st1["sitting_out"], "watchers": watching,
                "tables": args.tables, "think_s": args.think, "term_size": args.size,
                "login_errors": len(errors), "first_login_error": errors[0] if errors else "",
                "login_errors_by_kind": error_kinds,
                "shared_screens": args.shared_screens,
                "mirror": {**st1.get("mirror", {}),
                           "shared_writes_per_s": round((st1.get("mirror", {}).get("shared_writes", 0)
                                                         - st0.get("mirror", {}).get("shared_writes", 0)) / window, 1)},
                "pacer": {**st1.get("pacer", {}),
                          "woken_per_s": round((st1.get("pacer", {}).get("woken", 0)
                                                - st0.get("pacer", {}).get("woken", 0)) / window, 1)},
                "connect_seconds": round(connect_s, 1),
                "connect_server_cpu_s": round(sum(connect_cpu.values()), 1),
                "server_cpu_s_per_login": round(sum(connect_cpu.values()) / max(1, ok), 3),
                "floor": floor,
                "connect_cpu_by_role_s": {r: round(v, 1) for r, v in connect_cpu.items()},
                "cpu_by_role_s": {r: round(v, 1) for r, v in cpu.items()},
                "table_host_cpu_ms_per_hand": (round(1000 * cpu["table host"] / hands, 1)
                                               if "table host" in cpu and hands else None),
                "rss_base_mib": round(rss_base, 1), "rss_all_mib": round(rss_all, 1),
                "rss_end_mib": round(end_stat["VmRSS"] / 1024, 1),
                "rss_peak_mib": round(end_stat["VmHWM"] / 1024, 1),
                "rss_per_session_mib": round(per, 3),
                "rss_session_processes": len(topo.session_pids()),
                "own_key_first_bytes_ms": {"p50": _pct(rec.own_bytes, 50), "p99": _pct(rec.own_bytes, 99),
                                           "max": _pct(rec.own_bytes, 100), "n": len(rec.own_bytes)},
                "own_key_chat_line_ms": {"p50": _pct(rec.own_line, 50), "p99": _pct(rec.own_line, 99),
                                         "max": _pct(rec.own_line, 100), "n": len(rec.own_line)},
                "action_to_others_chat_line_ms": {"p50": _pct(rec.other_line, 50), "p99": _pct(rec.other_line, 99),
                                                  "max": _pct(rec.other_line, 100), "n": len(rec.other_line)},
                "action_to_others_chat_line_by_role_ms": {
                    role: {"p50": _pct(xs, 50), "p99": _pct(xs, 99), "n": len(xs)}
                    for role, xs in rec.other_line_by_role.items()},
                "action_to_others_first_bytes_ms": {"p50": _pct(rec.other_bytes, 50),
                                                    "p99": _pct(rec.other_bytes, 99), "n": len(rec.other_bytes)},
                "chat_lines_missed": rec.missed_line,
                "chat_lines_missed_shown_late": {"n": len(rec.missed_late),
                                                 "max_s": round(max(rec.missed_late), 1) if rec.missed_late else None},
                "keys_sent": rec.keys, "key_retries": rec.retries,
                "window_s": round(window, 1),
                "hands": st1["hands"] - st0["hands"], "actions": st1["acts"] - st0["acts"],
                "hands_per_min": round((st1["hands"] - st0["hands"]) * 60 / window, 1),
                "actions_per_s": round((st1["acts"] - st0["acts"]) / window, 2),
                "timeouts": st1["timeouts"] - st0["timeouts"], "refused_acts": st1["refused"] - st0["refused"],
                "server_cpu_s": round(server_cpu, 1), "server_cpu_pct_of_core": round(100 * server_cpu / window, 1),
                "client_cpu_s": round(client_cpu, 1), "client_cpu_pct_of_core": round(100 * client_cpu / window, 1),
                "output_kib_per_s": round((bytes1 - bytes0) / 1024 / window, 1),
                "hands_total": st1["hands"],
                "screen_paints": st1["paints"] - st0["paints"],
                "screen_layouts": st1["layouts"] - st0["layouts"],
                "paints_per_s": round((st1["paints"] - st0["paints"]) / window, 1),
                "layouts_per_s": round((st1["layouts"] - st0["layouts"]) / window, 1),
                "cpu_ms_per_paint": round(1000 * (st1["paint_s"] - st0["paint_s"]) / max(1, st1["paints"] - st0["paints"]), 2),
                "cpu_ms_per_layout": round(1000 * (st1["layout_s"] - st0["layout_s"]) / max(1, st1["layouts"] - st0["layouts"]), 2),
                "paint_layout_cpu_share": round((st1["paint_s"] - st0["paint_s"] + st1["layout_s"] - st0["layout_s"])
                                                / max(1e-9, server_cpu), 3),
                "server_key_to_write_ms": {"p50": _pct(in_to_write, 50), "p99": _pct(in_to_write, 99),
                                           "max": _pct(in_to_write, 100), "n": len(in_to_write)},
                "intent_round_trip_ms": {"p50": _pct(intents, 50), "p99": _pct(intents, 99),
                                         "max": _pct(intents, 100), "n": len(intents)},
                "server_key_to_act_ms": {"p50": _pct(st1["in_to_act"][len(st0["in_to_act"]):], 50),
                                         "p99": _pct(st1["in_to_act"][len(st0["in_to_act"]):], 99)},
                "dirty_widgets_per_s": dict(sorted(
                    ((k, round((v - st0["dirty"].get(k, 0)) / window, 2)) for k, v in st1["dirty"].items()
                     if v - st0["dirty"].get(k, 0)), key=lambda kv: -kv[1])[:20]),
                "gc_pauses": {g: {"n": st1["gc"][g][0] - st0["gc"][g][0],
                                  "total_ms": round(1000 * (st1["gc"][g][1] - st0["gc"][g][1]), 1),
                                  "max_ms_all_run": round(1000 * st1["gc"][g][2], 1),
                                  "cpu_ms": round(1000 * (st1["gc"][g][3] - st0["gc"][g][3]), 1),
                                  "collected": st1["gc"][g][4] - st0["gc"][g][4]} for g in ("0", "1", "2")},
                "loop_turns_busy_ms": dict(zip(("<10", "10-20", "20-50", "50-100", ">=100"),
                                               (b - a for a, b in zip(st0.get("turns", [0] * 5),
                                                                      st1.get("turns", [0] * 5))))),
                "slow_callbacks_over_50ms": dict(sorted(
                    ((k, {"n": v[0] - st0["slow"].get(k, [0])[0], "longest_ms_all_run": round(1000 * v[1], 1)})
                     for k, v in st1["slow"].items() if v[0] - st0["slow"].get(k, [0])[0]),
                    key=lambda kv: -kv[1]["n"])[:8]),
                "db_holds": {"n": len(rec.holds), "seconds_each": args.hold_db},
                "own_key_first_bytes_while_db_held_ms": {
                    "p50": _pct(rec.own_bytes_held, 50), "p99": _pct(rec.own_bytes_held, 99),
                    "max": _pct(rec.own_bytes_held, 100), "n": len(rec.own_bytes_held)},
                "hand_end_recorded_ms": {"p50": _pct(st1["settle_s"][len(st0["settle_s"]):], 50),
                                         "max": _pct(st1["settle_s"][len(st0["settle_s"]):], 100),
                                         "n": len(st1["settle_s"]) - len(st0["settle_s"])},
                "server_writes": st1["writes"] - st0["writes"],
                "server_written_kib": round((st1["written"] - st0["written"]) / 1024, 1),
            }
            p99 = result["own_key_first_bytes_ms"]["p99"]
            others = result["action_to_others_chat_line_ms"]["p99"]
            held_p99 = result["own_key_first_bytes_while_db_held_ms"]["p99"]
            result["ratios"] = {
                "sessions_vs_1000": round(ok / 1000, 3),
                "own_p99_vs_100ms": round(p99 / TARGET_P99_MS, 3) if p99 is not None else None,
                "others_p99_vs_1s": round(others / TARGET_OTHERS_P99_MS, 3) if others is not None else None,
                "login_vs_120s": round(connect_s / TARGET_LOGIN_S, 3),
                "own_p99_db_held_vs_100ms": round(held_p99 / TARGET_P99_MS, 3) if held_p99 is not None else None,
                "rss_per_session_vs_target": round(per / TARGET_MIB_PER_SESSION, 3),
                "cpu_per_login_vs_target": round(result["server_cpu_s_per_login"] / TARGET_LOGIN_CPU_S, 3),
                "cpu_per_paint_vs_target": round(result["cpu_ms_per_paint"] / TARGET_PAINT_MS, 3),
                "host_ms_per_hand_vs_target": (round(result["table_host_cpu_ms_per_hand"] / TARGET_HOST_MS_PER_HAND, 3)
                                               if result["table_host_cpu_ms_per_hand"] is not None else None),
            }
            result["targets_met"] = targets_met(result)
        finally:
            for s in self.sessions:
                if s.conn is not None:
                    s.conn.close()
            await asyncio.sleep(1.0)
            await topo.stop()
            tmp.cleanup()
        return result


def targets_met(r: dict) -> bool:
    """Every session in, key -> own screen p99 < 100 ms and action -> others p99 < 1 s."""
    own, others = r["own_key_first_bytes_ms"]["p99"], r["action_to_others_chat_line_ms"]["p99"]
    return (r["sessions_connected"] == r["sessions_requested"] and own is not None and others is not None
            and own < TARGET_P99_MS and others < TARGET_OTHERS_P99_MS)


def _fmt(v, unit="") -> str:
    if v is None:
        return "-"
    if isinstance(v, float):
        return f"{v:.1f}{unit}"
    return f"{v}{unit}"


def _spread(d: dict) -> str:
    return f"p50 {_fmt(d['p50'], ' ms')}  p99 {_fmt(d['p99'], ' ms')}  max {_fmt(d['max'], ' ms')}  n={d['n']}"


def _table(r: dict) -> str:
    own, ownl = r["own_key_first_bytes_ms"], r["own_key_chat_line_ms"]
    oth, othb = r["action_to_others_chat_line_ms"], r["action_to_others_first_bytes_ms"]
    ratio = r["ratios"]
    held, rec_ = r["own_key_first_bytes_while_db_held_ms"], r["hand_end_recorded_ms"]
    cpu = ", ".join(f"{role} {v} s" for role, v in r["cpu_by_role_s"].items())

    def floor(what) -> str:
        """The floor's figure beside ours (a bare Textual app on the same server, --floor)."""
        f = r.get("floor")
        return f"; floor {what(f)}" if f else ""

    rows = [
        ("topology", r["topology"] + (f", {r['gateways']} gateways" if r["gateways"] else ""), "", ""),
        ("sessions connected", f"{r['sessions_connected']}/{r['sessions_requested']} "
                               f"({r['seated_at_tables']} seated, {r['watchers']} watching, {r['tables']} tables)",
         "1000", _fmt(ratio["sessions_vs_1000"], "x")),
        ("login errors", f"{r['login_errors']}" + (" (" + ", ".join(f"{n}x {k}" for k, n in
                                                   r["login_errors_by_kind"].items()) + ")"
                                                   if r["login_errors"] else ""), "0", ""),
        ("connect phase (all logged in)", f"{r['connect_seconds']} s, server CPU {r['connect_server_cpu_s']} s "
                                          f"({', '.join(f'{k} {v}' for k, v in r['connect_cpu_by_role_s'].items())})",
         "< 120 s", _fmt(ratio["login_vs_120s"], "x")),
        ("server CPU per login", f"{r['server_cpu_s_per_login']} s" + floor(
            lambda f: f"{f['cpu_s_per_login']} s ({f['sessions']} logins in {f['login_seconds']} s)"),
         f"<= {TARGET_LOGIN_CPU_S} s", _fmt(ratio["cpu_per_login_vs_target"], "x")),
        ("sessions' RSS idle", f"{r['rss_base_mib']} MiB", "", ""),
        ("sessions' RSS, all in", f"{r['rss_all_mib']} MiB (end {r['rss_end_mib']}, peak {r['rss_peak_mib']})", "", ""),
        ("RSS per session", f"{r['rss_per_session_mib']:.2f} MiB (over {r['rss_session_processes']} process(es))"
         + floor(lambda f: f"{f['rss_per_session_mib']:.2f} MiB"),
         f"<= {TARGET_MIB_PER_SESSION} MiB", _fmt(ratio["rss_per_session_vs_target"], "x")),
        ("key -> own screen (first bytes)", f"p50 {_fmt(own['p50'], ' ms')}  p99 {_fmt(own['p99'], ' ms')}  "
                                            f"max {_fmt(own['max'], ' ms')}  n={own['n']}",
         "p99 < 100 ms", _fmt(ratio["own_p99_vs_100ms"], "x")),
        ("key -> own screen (chat line)", f"p50 {_fmt(ownl['p50'], ' ms')}  p99 {_fmt(ownl['p99'], ' ms')}  n={ownl['n']}", "", ""),
        ("  of which in the server", _spread(r["server_key_to_write_ms"]) + " (a key's arrival -> its session's next write)",
         "", ""),
        ("  of which the intent's round trip", (_spread(r["intent_round_trip_ms"]) + " (gateway -> table host -> gateway)")
         if r["intent_round_trip_ms"]["n"] else "- (one process)", "", ""),
        ("key -> own screen, database held", (f"p50 {_fmt(held['p50'], ' ms')}  p99 {_fmt(held['p99'], ' ms')}  "
                                              f"max {_fmt(held['max'], ' ms')}  n={held['n']}  "
                                              f"({r['db_holds']['n']} holds of {r['db_holds']['seconds_each']} s)")
         if r["db_holds"]["n"] else "not held (--hold-db)", "p99 < 100 ms", _fmt(ratio["own_p99_db_held_vs_100ms"], "x")),
        ("hand end -> recorded by the store",
         f"p50 {_fmt(rec_['p50'], ' ms')}  max {_fmt(rec_['max'], ' ms')}  n={rec_['n']}", "", ""),
        ("action -> other screens (chat line)", f"p50 {_fmt(oth['p50'], ' ms')}  p99 {_fmt(oth['p99'], ' ms')}  "
                                                f"max {_fmt(oth['max'], ' ms')}  n={oth['n']}",
         "p99 < 1000 ms", _fmt(ratio["others_p99_vs_1s"], "x")),
        ("action -> other screens (first bytes)", f"p50 {_fmt(othb['p50'], ' ms')}  p99 {_fmt(othb['p99'], ' ms')}  n={othb['n']}", "", ""),
        ("hands / actions in window", f"{r['hands']} hands ({r['hands_per_min']}/min), {r['actions']} actions "
                                      f"({r['actions_per_s']}/s) in {r['window_s']} s", "", ""),
        ("targets met (all in, both p99)", "yes" if r["targets_met"] else "no", "", ""),
        ("keys / retries / timeouts", f"{r['keys_sent']} / {r['key_retries']} / {r['timeouts']}; "
                                      f"chat lines missed {r['chat_lines_missed']}" + (
                                          f" ({late['n']} shown later, up to {late['max_s']} s; the rest "
                                          "not within 30 s)" if (late := r["chat_lines_missed_shown_late"])["n"]
                                          else ""), "", ""),
        ("server CPU", f"{r['server_cpu_s']} s = {r['server_cpu_pct_of_core']}% of a core ({cpu})", "", ""),
        ("table host CPU per hand", _fmt(r["table_host_cpu_ms_per_hand"], " ms"),
         f"<= {TARGET_HOST_MS_PER_HAND:.0f} ms", _fmt(ratio["host_ms_per_hand_vs_target"], "x")),
        ("client CPU", f"{r['client_cpu_s']} s = {r['client_cpu_pct_of_core']}% of a core", "", ""),
        ("output to clients", f"{r['output_kib_per_s']} KiB/s", "", ""),
        ("shared railbird screens", (f"{r['mirror'].get('groups', 0)} groups, {r['mirror'].get('following', 0)} "
                                     f"sessions following at the end; {r['mirror'].get('joins', 0)} joins, "
                                     f"leaves {r['mirror'].get('leaves', {})}; "
                                     f"{r['mirror'].get('shared_writes_per_s', 0)} shared writes/s")
         if r.get("shared_screens") else "off (--no-shared-screens)", "", ""),
        ("repaint pacer (server)", f"{r['pacer'].get('woken_per_s', 0)} apps woken/s, "
                                   f"{r['pacer'].get('waiting', '-')} waiting at the end, "
                                   f"loop lag {r['pacer'].get('lag_ms', '-')} ms", "", ""),
        ("screen repaints (server)", f"{r['paints_per_s']}/s at {r['cpu_ms_per_paint']} ms CPU; layouts "
                                     f"{r['layouts_per_s']}/s at {r['cpu_ms_per_layout']} ms"
                                     + floor(lambda f: f"{f['cpu_ms_per_paint']} ms a repaint, "
                                                       f"{f['cpu_ms_per_key']} ms of CPU a key"),
         f"<= {TARGET_PAINT_MS} ms", _fmt(ratio["cpu_per_paint_vs_target"], "x")),
        ("GC pauses (server, window)", "; ".join(
            f"gen{g} {v['n']} x, {v['total_ms']} ms, CPU {v['cpu_ms']} ms, {v['collected']} objects freed "
            f"(longest of the run {v['max_ms_all_run']} ms)"
            for g, v in r["gc_pauses"].items()), "", ""),
        ("loop turns by busy time (window)", ", ".join(f"{k} ms: {v}" for k, v in r["loop_turns_busy_ms"].items()),
         "", ""),
        ("loop callbacks over 50 ms (window)", "; ".join(
            f"{k} {v['n']} x (longest of the run {v['longest_ms_all_run']} ms)"
            for k, v in list(r["slow_callbacks_over_50ms"].items())[:4]) or "none", "", ""),
    ]
    w0 = max(len(a) for a, *_ in rows)
    w1 = max(len(b) for _, b, *_ in rows)
    lines = [f"{'metric':<{w0}}  {'value':<{w1}}  {'target':<12}  ratio", "-" * (w0 + w1 + 24)]
    lines += [f"{a:<{w0}}  {b:<{w1}}  {c:<12}  {d}" for a, b, c, d in rows]
    return "\n".join(lines)


def capacity(args) -> dict:
    """The most sessions each topology served within both p99 targets, from a climb through
    `args.capacity` (a fifth of the sessions seated; see `climb`)."""
    runs, best, skipped = [], {}, {}
    for name in ("single", "scaled"):
        why = Scaled.missing() if name == "scaled" else None
        if why:
            skipped[name] = why
            continue

        def measure(n: int, name: str = name) -> dict:
            seated = max(1, n // 5)
            run = argparse.Namespace(**{**vars(args), "topology": name, "sessions": n, "seated": seated,
                                        "tables": args.tables_asked or capacity_tables(seated), "floor": 0})
            _log(run, f"capacity: {name} with {n} sessions ({seated} seated)")
            r = asyncio.run(Bench(run).run())
            if r:
                _log(run, f"capacity: {_capacity_row(r)}")     # kept in the log should a later run fail
            return r

        best[name], tried = climb(args.capacity, measure)
        runs += tried
    ratio = (round(best["scaled"] / best["single"], 2)
             if best.get("single") and "scaled" in best else None)
    return {"ladder": args.capacity, "capacity": best, "scaled_vs_single": ratio, "skipped": skipped,
            "runs": runs}


def capacity_tables(seated: int) -> int:
    """Tables for a capacity run: 25 or as many as seven players a table need, but at least two
    players a table (a climb's first rungs: one player alone at a table plays no hand, and a
    count measured without a key is a miss)."""
    return max(math.ceil(seated / 7), min(25, seated // 2), 1)


def climb(ladder: list[int], measure) -> tuple[int, list[dict]]:
    """Measure each session count of `ladder` in turn (`measure(n)`: a run's result, or an empty
    one if it could not run) until one misses a target twice: a miss is measured once more before
    the climb stops, since one slow moment in a window of a few hundred keys is its p99 (the
    scaled climb at 300 once stopped on a single key). Returns the most sessions that met the
    targets (0: none) and every run, each marked with its attempt (1, or 2 for the retry)."""
    best, runs = 0, []
    for n in ladder:
        for attempt in (1, 2):
            r = measure(n)
            if not r:
                return best, runs
            r["attempt"] = attempt
            runs.append(r)
            if r["targets_met"]:
                best = n
                break
        else:
            return best, runs
    return best, runs


def _capacity_row(r: dict) -> str:
    own, oth = r["own_key_first_bytes_ms"]["p99"], r["action_to_others_chat_line_ms"]["p99"]
    return (f"{r['topology']:<8}  {r['gateways']:>8}  {r['sessions_connected']:>4}/{r['sessions_requested']:<4}"
            f"{r['seated_at_tables']:>6}  {_fmt(own):>10}  {_fmt(oth):>13}  {r['connect_seconds']:>7}  "
            f"{r['server_cpu_pct_of_core']:>12}  {_fmt(r['table_host_cpu_ms_per_hand']):>12}  "
            f"{'yes' if r['targets_met'] else 'no'}{' (retry)' if r.get('attempt') == 2 else ''}")


def _capacity_table(c: dict) -> str:
    lines = ["topology  gateways  sessions  seated  own p99 ms  others p99 ms  login s  server CPU %  "
             "host ms/hand  met", "-" * 104]
    lines += [_capacity_row(r) for r in c["runs"]]
    for name, why in c["skipped"].items():
        lines.append(f"{name}: skipped, {why}")
    cap = c["capacity"]
    lines.append("")
    lines.append("capacity (most sessions within key -> own p99 < 100 ms and action -> others p99 < 1 s, "
                 f"of {', '.join(map(str, c['ladder']))}): "
                 + ", ".join(f"{k} {v or 'none'}" for k, v in cap.items())
                 + (f"; scaled / single = {c['scaled_vs_single']}x" if c["scaled_vs_single"] else ""))
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    args = _args(argv)
    if args.capacity:
        c = capacity(args)
        print(json.dumps(c, indent=2) if args.json else _capacity_table(c))
        return 0 if c["runs"] else 1
    if args.topology == "scaled" and (why := Scaled.missing()):
        print(f"the scaled topology cannot run here: {why}", file=sys.stderr)
        return 2
    result = asyncio.run(Bench(args).run())
    if not result:
        return 1
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print(_table(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
