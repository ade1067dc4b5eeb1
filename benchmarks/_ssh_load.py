"""The load-generating side of `python -m benchmarks ssh`: the tables' plan, the N client sessions
(bare asyncssh sessions with a PTY, no terminal emulator: output is only timed and stripped of
escape sequences for the chat-line check), what a player's bot types, and /proc readings of the
server's processes. The server side is `benchmarks/_ssh_server.py`.
"""

from __future__ import annotations

import asyncio
import os
import random
import re
import time

TAIL = 512       # bytes of a session's output searched again with the next write (see on_data)
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
        self.missed_late: list[float] = []    # seconds after its action a missed line showed at last
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
        self.missed: list[tuple[float, bytes]] = []         # lines not shown in 3 s: shown later?
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
        # A line may be cut between two writes, with a player's name in one and the rest in the
        # next, and escape sequences between them (a truecolor style is some 40 bytes): what is
        # searched starts with the end of the last write, escape sequences and all.
        text = ESCAPES.sub(b"", self.tail + data)
        self.tail = (self.tail + data)[-TAIL:]
        self.recent.append((now, text))
        while self.recent and now - self.recent[0][0] > 3.0:
            self.recent.pop(0)
        if self.missed:
            self.missed = [(since, marker) for since, marker in self.missed
                           if not self._shown_late(since, marker, text, now)]
        if self.pending:
            keep = []
            for since, marker, kind in self.pending:
                if marker in text:
                    if rec.on and since >= rec.t0:
                        self._record_line(kind, now - since)
                elif now - since > 3.0:
                    if rec.on and since >= rec.t0:
                        rec.missed_line += 1
                        self.missed.append((since, marker))
                else:
                    keep.append((since, marker, kind))
            self.pending = keep

    def _shown_late(self, since: float, marker: bytes, text: bytes, now: float) -> bool:
        """A line counted missed (not on this screen 3 s after its action) that shows now (its
        lateness is kept), or that will not be looked for any more (30 s on)."""
        if marker in text:
            self.bench.rec.missed_late.append(now - since)
            return True
        return now - since > 30.0

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
