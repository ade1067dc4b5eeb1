"""What a connection may open besides the card room's screen (DESIGN, "Rules of the house"): a
player's own hand histories, read-only, over SFTP (so `sftp` and `scp` work) and as `hands` over
exec; and for an admin's key, the admin commands over exec. Nothing else: no shell, no other
command, no writes, no path of the server's disk.

The player's folder is built in memory from the store, and holds only his own hands, each as his
history may show it (others' cards only as his screen showed them, and the hands at the showdown:
room/history.py):

    /2026-12-01/pokerstars.txt   that day's hands (days are UTC), PokerStars text, the player as hero
    /2026-12-01/hands.phhs       the same hands as one PHH hands file (pokerkit's `load_all` reads it)
    /2026-12-01/tournament-42.txt  his summary of each tournament that started that day (PokerStars'
                                   "PokerStars Tournament #42" file: buy-in, entrants, places, his own)

One file a day per format, not one per hand: a tracker imports a file or a folder of them, and
PokerStars itself keeps hands in files that grow through the day; PHH's multi-hand file is the
standard's own (.phhs). A year of play is a few hundred files, not tens of thousands.

    ssh -p PORT NAME@HOST hands --since 2026-12-01     the same PokerStars text, on stdout
    ssh -p PORT boss@HOST credit bob 100 refund         an admin command (admin keys only)
"""

from __future__ import annotations

import asyncio
import logging
import re
import shlex
import stat
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time
from typing import Any

import asyncssh
from asyncssh.stream import SSHServerStreamSession

from cardroom.room.history import day_files, hands_by_day

log = logging.getLogger("cardroom.ssh")

# (ok, output lines) for one admin command line, awaited (a command may wait for the store's
# writer); built by the composition root.
AdminRunner = Callable[[str], "Awaitable[tuple[bool, Sequence[str]]]"]

FILES = ("pokerstars.txt", "hands.phhs")
CACHED_DAYS = 2         # a day's files stay built while a client lists, stats and reads them

READ_ONLY = "read-only: these are your hand histories, nothing here can be changed"
OUTSIDE = "'..' leads out of your folder: your hand histories are all there is"
NOT_FOUND = ("no such file: your folder has a folder for each day you played (like 2026-12-01), "
             "each with pokerstars.txt and hands.phhs")
NO_KEY = "hand histories are for players who log in with an SSH key"
USAGE = ("usage: hands [--since YYYY-MM-DD]   your hands (since that day, UTC) as PokerStars text\n"
         "       sftp -P PORT NAME@HOST        your folder of hand histories by day (PokerStars, PHH)")

# Open flags that would write or create (SFTP v3; v5 and v6 ask with access bits).
_WRITE_FLAGS = asyncssh.FXF_WRITE | asyncssh.FXF_APPEND | asyncssh.FXF_CREAT | asyncssh.FXF_TRUNC | asyncssh.FXF_EXCL
_WRITE_ACCESS = asyncssh.ACE4_WRITE_DATA | asyncssh.ACE4_APPEND_DATA | asyncssh.ACE4_WRITE_ATTRIBUTES
_DAY = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", re.ASCII)


class UsageError(ValueError):
    """A command typed wrong: the message says how to type it."""


def parse_day(text: str) -> date:
    """'2026-12-01' -> date; anything else -> UsageError saying how to write a day."""
    try:
        if _DAY.fullmatch(text):
            return date.fromisoformat(text)
    except ValueError:
        pass
    raise UsageError(f"{text[:40]!r} is not a day: write it as YYYY-MM-DD, like 2026-12-01")


def parse_hands(words: Sequence[str]) -> date | None:
    """The arguments of `hands`: nothing (every hand) or --since DAY."""
    if len(words) == 1 and words[0].startswith("--since="):
        return parse_day(words[0].partition("=")[2])
    if len(words) == 2 and words[0] == "--since":
        return parse_day(words[1])
    if not words:
        return None
    raise UsageError(USAGE)


@dataclass(frozen=True, eq=False)
class Extras:
    """What the composition root wires in: the room's store (hand histories are read from it) and,
    for admin keys, a runner of admin command lines."""

    store: Any
    admin: Callable[[str], AdminRunner | None] = lambda fingerprint: None
    admin_commands: frozenset[str] = frozenset()     # their names: others are told they are refused
    # (store, account) -> {day: {file name: text}}: the player's tournament summaries, by the day
    # each started (room/tournaments/summaries.py, with the room's tournaments); run on a thread.
    summaries: Callable[[Any, int], dict] = lambda store, account: {}
    # Exports replay every hand (about 2 ms each): one at a time for the whole server, on a worker
    # thread, so a player fetching a year of hands slows the tables by a share of the CPU and
    # never stops the loop, however many fetch at once.
    _one_at_a_time: asyncio.Semaphore = field(default_factory=asyncio.Semaphore, init=False)

    async def read(self, fn: Callable[..., Any], *args: Any) -> Any:
        """Every store read and export made for the extras goes through here."""
        async with self._one_at_a_time:
            return await asyncio.to_thread(fn, self.store, *args)

    def session(self, username: str, fingerprint: str | None, open_app: Callable[[], Any]) -> SessionRouter:
        return SessionRouter(self, username, fingerprint, open_app)


class Folder:
    """One player's folder as of the moment it is first looked at (reconnect to see newer hands)."""

    def __init__(self, extras: Extras, fingerprint: str | None) -> None:
        self._extras = extras
        self._fingerprint = fingerprint
        self._account: int | None = None
        self._days: dict[date, list[str]] | None = None
        self._summaries: dict[date, dict[str, str]] = {}
        self._files: OrderedDict[date, dict[str, bytes]] = OrderedDict()
        self.opened = datetime.now(UTC)

    async def account(self) -> int | None:
        if self._account is None and self._fingerprint is not None:
            owner = await self._extras.read(lambda store, fp: store.account_for_key(fp), self._fingerprint)
            self._account = owner.id if owner is not None else None
        return self._account

    async def days(self) -> dict[date, list[str]]:
        """Each day he played: its hands' ids (none, a day with only a tournament's summary)."""
        if self._days is None:
            account = await self.account()
            if account is None:
                self._days, self._summaries = {}, {}
            else:
                hands = await self._extras.read(hands_by_day, account)
                self._summaries = await self._extras.read(self._extras.summaries, account)
                self._days = {day: hands.get(day, []) for day in sorted({*hands, *self._summaries})}
        return self._days

    async def files(self, day: date) -> dict[str, bytes]:
        if day in self._files:
            self._files.move_to_end(day)
            return self._files[day]
        ids = (await self.days())[day]
        built = {}
        if ids:
            stars, phhs = await self._extras.read(day_files, await self.account(), ids)
            built = {FILES[0]: stars.encode("utf-8"), FILES[1]: phhs.encode("utf-8")}
        built |= {name: text.encode("utf-8") for name, text in sorted(self._summaries.get(day, {}).items())}
        self._files[day] = built
        while len(self._files) > CACHED_DAYS:
            self._files.popitem(last=False)
        return built


def _parts(path: bytes) -> tuple[str, ...]:
    """A client's path as names from the folder's root; '..' may climb back, never out."""
    try:
        text = path.decode("utf-8")
    except UnicodeDecodeError:
        raise asyncssh.SFTPNoSuchFile(NOT_FOUND) from None
    parts: list[str] = []
    for name in text.split("/"):
        if name in ("", "."):
            continue
        if name == "..":
            if not parts:
                raise asyncssh.SFTPPermissionDenied(OUTSIDE)
            parts.pop()
        else:
            parts.append(name)
    return tuple(parts)


def _stamp(when: datetime) -> int:
    return int(when.timestamp())


# The modes a downloaded copy gets (sftp and scp give the copy the remote mode): the player's own,
# to keep and tidy. That the folder is read-only is said by refusing every write.
def _dir_attrs(mtime: int) -> asyncssh.SFTPAttrs:
    return asyncssh.SFTPAttrs(type=asyncssh.FILEXFER_TYPE_DIRECTORY, permissions=stat.S_IFDIR | 0o755,
                              size=0, atime=mtime, mtime=mtime, nlink=2)


def _file_attrs(size: int, mtime: int) -> asyncssh.SFTPAttrs:
    return asyncssh.SFTPAttrs(type=asyncssh.FILEXFER_TYPE_REGULAR, permissions=stat.S_IFREG | 0o644,
                              size=size, atime=mtime, mtime=mtime, nlink=1)


@dataclass(frozen=True)
class _Open:
    data: bytes
    attrs: asyncssh.SFTPAttrs


class HandsSFTPServer(asyncssh.SFTPServer):
    """The player's folder over SFTP. Every method asyncssh may call is here: none reaches the
    base class, whose versions work on the server's own disk."""

    def __init__(self, chan: Any, folder: Folder) -> None:
        super().__init__(chan)          # no chroot: nothing here is a path on the server's disk
        self._folder = folder

    async def _day(self, name: str) -> date:
        try:
            day = parse_day(name)
        except UsageError:
            raise asyncssh.SFTPNoSuchFile(NOT_FOUND) from None
        if day not in await self._folder.days():
            raise asyncssh.SFTPNoSuchFile(NOT_FOUND)
        return day

    async def _lookup(self, path: bytes) -> asyncssh.SFTPAttrs | _Open:
        """A folder's attributes, or a file's bytes and attributes."""
        parts = _parts(path)
        if not parts:
            await self._folder.days()
            return _dir_attrs(_stamp(self._folder.opened))
        day = await self._day(parts[0])
        midnight = _stamp(datetime.combine(day, time(), UTC))
        if len(parts) == 1:
            return _dir_attrs(midnight)
        files = await self._folder.files(day) if len(parts) == 2 else {}
        if parts[-1] not in files:
            raise asyncssh.SFTPNoSuchFile(NOT_FOUND)
        data = files[parts[1]]
        return _Open(data, _file_attrs(len(data), midnight))

    # -- reading -------------------------------------------------------------------------------
    async def realpath(self, path: bytes) -> bytes:
        return ("/" + "/".join(_parts(path))).encode("utf-8")

    async def stat(self, path: bytes) -> asyncssh.SFTPAttrs:
        found = await self._lookup(path)
        return found.attrs if isinstance(found, _Open) else found

    lstat = stat          # there are no links

    def fstat(self, file_obj: _Open) -> asyncssh.SFTPAttrs:
        return file_obj.attrs

    async def open(self, path: bytes, pflags: int, attrs: asyncssh.SFTPAttrs) -> _Open:
        if pflags & _WRITE_FLAGS:
            raise asyncssh.SFTPPermissionDenied(READ_ONLY)
        found = await self._lookup(path)
        if not isinstance(found, _Open):
            raise asyncssh.SFTPFailure("that is a folder: open one of the files in it")
        return found

    async def open56(self, path: bytes, desired_access: int, flags: int, attrs: asyncssh.SFTPAttrs) -> _Open:
        if desired_access & _WRITE_ACCESS or flags & asyncssh.FXF_ACCESS_DISPOSITION != asyncssh.FXF_OPEN_EXISTING:
            raise asyncssh.SFTPPermissionDenied(READ_ONLY)
        return await self.open(path, asyncssh.FXF_READ, attrs)

    def read(self, file_obj: _Open, offset: int, size: int) -> bytes:
        return file_obj.data[offset:offset + size]

    def close(self, file_obj: _Open) -> None:
        return None

    async def scandir(self, path: bytes):
        found = await self._lookup(path)
        if isinstance(found, _Open):
            raise asyncssh.SFTPNotADirectory("that is a file, not a folder")
        yield asyncssh.SFTPName(b".", attrs=found)
        yield asyncssh.SFTPName(b"..", attrs=found)
        parts = _parts(path)
        if not parts:
            for day in await self._folder.days():
                yield asyncssh.SFTPName(day.isoformat().encode("ascii"),
                                        attrs=_dir_attrs(_stamp(datetime.combine(day, time(), UTC))))
            return
        for name in await self._folder.files(await self._day(parts[0])):
            found = await self._lookup(f"/{parts[0]}/{name}".encode())
            yield asyncssh.SFTPName(name.encode("ascii"), attrs=found.attrs)

    async def readlink(self, path: bytes) -> bytes:
        await self._lookup(path)
        raise asyncssh.SFTPFailure("not a link: there are no links in your folder")

    def fsync(self, file_obj: _Open) -> None:
        return None       # nothing was written

    def exit(self) -> None:
        # asyncssh ends an SFTP session without an exit status, and OpenSSH's scp (which speaks
        # SFTP since 9.0) then fails a copy that worked: "Exit status -1", status 1.
        self.channel.exit(0)

    # -- everything that would change something ------------------------------------------------
    def _read_only(self, *args: Any) -> None:
        raise asyncssh.SFTPPermissionDenied(READ_ONLY)

    write = setstat = lsetstat = fsetstat = remove = mkdir = rmdir = _read_only
    rename = posix_rename = symlink = link = _read_only

    def _unsupported(self, *args: Any) -> None:
        raise asyncssh.SFTPOpUnsupported("not offered here")

    statvfs = fstatvfs = lock = unlock = _unsupported


class SessionRouter(asyncssh.SSHServerSession):  # type: ignore[type-arg]
    """One session channel. It is the card room's screen (an AppSession, which it forwards to)
    unless its request turns out to be exec or the sftp subsystem: then the AppSession, never
    started, gives back its place and an asyncssh stream session serves the request."""

    def __init__(self, extras: Extras, username: str, fingerprint: str | None,
                 open_app: Callable[[], Any]) -> None:
        self._extras = extras
        self._username = username
        self._fingerprint = fingerprint
        self._target: Any = open_app()
        self._chan: Any = None

    def _switch(self) -> Any:
        app = self._target
        # SFTP version 3: what OpenSSH speaks (asyncssh's server default; 0 here would offer none).
        self._target = SSHServerStreamSession(self._run, self._sftp, 3, allow_scp=True)
        app.connection_lost(None)
        self._target.connection_made(self._chan)
        return self._target

    def _sftp(self, chan: Any) -> HandsSFTPServer:
        return HandsSFTPServer(chan, Folder(self._extras, self._fingerprint))

    # -- the requests that decide -----------------------------------------------------------------
    def shell_requested(self) -> bool:
        return self._target.shell_requested()

    def exec_requested(self, command: str) -> bool:
        # Every command is accepted, to say what it did or why not: a refused request shows the
        # client only "exec request failed". scp's (always a download: uploads are refused by the
        # read-only folder) goes to the folder, the rest to _run.
        return self._switch().exec_requested(command)

    def subsystem_requested(self, subsystem: str) -> bool:
        if subsystem != "sftp":
            return False
        return self._switch().subsystem_requested(subsystem)

    # -- forwarded ------------------------------------------------------------------------------
    def connection_made(self, chan: Any) -> None:
        self._chan = chan
        self._target.connection_made(chan)

    def connection_lost(self, exc: Exception | None) -> None:
        self._target.connection_lost(exc)

    def session_started(self) -> None:
        self._target.session_started()

    def data_received(self, data: Any, datatype: Any) -> None:
        self._target.data_received(data, datatype)

    def eof_received(self) -> bool:
        return self._target.eof_received()

    def pause_writing(self) -> None:
        self._target.pause_writing()

    def resume_writing(self) -> None:
        self._target.resume_writing()

    def pty_requested(self, term_type: str, term_size: Any, term_modes: Any) -> bool:
        return self._target.pty_requested(term_type, term_size, term_modes)

    def terminal_size_changed(self, width: int, height: int, pixwidth: int, pixheight: int) -> None:
        self._target.terminal_size_changed(width, height, pixwidth, pixheight)

    def break_received(self, msec: int) -> bool:
        return self._target.break_received(msec)

    def signal_received(self, signal: str) -> None:
        self._target.signal_received(signal)

    def soft_eof_received(self) -> None:
        self._target.soft_eof_received()

    # -- exec -----------------------------------------------------------------------------------
    async def _run(self, stdin: Any, stdout: Any, stderr: Any) -> None:
        chan = stdout.channel
        # With `ssh -t` the client's terminal wants CR LF: nothing here turns LF into it.
        newline = "\r\n" if chan.get_terminal_type() else "\n"

        async def say(stream: Any, text: str) -> None:
            stream.write(text.replace("\n", newline))
            await stream.drain()

        try:
            status = await self._command(chan.get_command() or "", say, stdout, stderr)
        except (BrokenPipeError, ConnectionError, asyncssh.Error):
            return                              # the client went away
        except Exception:
            log.exception("ssh command of %s failed", self._username)
            await say(stderr, "cardroom: that failed on the server, sorry\n")
            status = 1
        chan.exit(status)

    async def _command(self, command: str, say: Callable[..., Any], out: Any, err: Any) -> int:
        """Run one exec command; its exit status. Errors go to stderr, never anything else."""
        try:
            words = shlex.split(command)
        except ValueError:
            await say(err, "cardroom: unbalanced quotes\n")
            return 2
        word = words[0] if words else ""
        admin = self._extras.admin(self._fingerprint) if self._fingerprint else None
        if word == "hands":
            return await self._hands(words[1:], say, out, err)
        if not word or (admin is None and word in ("help", "--help", "-h")):
            await say(out if word else err, USAGE + "\n")
            return 0 if word else 2
        if word.lower() in self._extras.admin_commands:
            if admin is None:
                log.warning("%s (not an admin's key) tried the admin command %r over ssh", self._username, word)
                await say(err, f"cardroom: {word} is an admin command, and this key is not an admin's: "
                               "nothing was run\n")
                return 1
            log.info("admin %s over ssh: %s", self._fingerprint, command)
            ok, lines = await admin(command)
            await say(out if ok else err, "".join(line + "\n" for line in lines))
            return 0 if ok else 1
        more = "; and, with your admin key, the admin commands (help lists them)" if admin else ""
        await say(err, f"cardroom: {word[:40]!r} is not a command here. Over ssh this room runs only "
                       f"`hands [--since YYYY-MM-DD]`{more}; sftp and scp read your folder of hand "
                       "histories.\n")
        return 1

    async def _hands(self, args: Sequence[str], say: Callable[..., Any], out: Any, err: Any) -> int:
        try:
            since = parse_hands(args)
        except UsageError as e:
            await say(err, f"hands: {e}\n")
            return 2
        if self._fingerprint is None:
            await say(err, f"hands: {NO_KEY}\n")
            return 1
        folder = Folder(self._extras, self._fingerprint)
        account = await folder.account()
        days = {} if account is None else await self._extras.read(hands_by_day, account, since)
        first = True
        for ids in days.values():           # a day at a time: a year of hands is never one string
            stars, _ = await self._extras.read(day_files, account, ids)
            if stars:
                await say(out, ("" if first else "\n\n") + stars)
                first = False
        if first:
            await say(err, "hands: no hands" + (f" since {since.isoformat()}" if since else "") + "\n")
        return 0
