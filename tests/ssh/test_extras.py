"""Hand histories out in bulk and admin commands over exec, with the stock OpenSSH clients (sftp,
scp, ssh) against the real `cardroom serve` stack on 127.0.0.1:0. The hands are played first on the
same SQLite file (a fake clock puts them on two days), then the server opens it."""

from __future__ import annotations

import asyncio
import json
import re
import shutil
import tomllib
from datetime import UTC, datetime, timedelta
from pathlib import Path

import asyncssh
import pytest

from cardroom import serve
from cardroom.config import config_from_dict
from cardroom.room.history import day_files, hands_by_day
from cardroom.ssh.extras import HandsSFTPServer
from tests.rooms import build_room

MISSING = [tool for tool in ("ssh", "sftp", "scp") if shutil.which(tool) is None]
pytestmark = pytest.mark.skipif(bool(MISSING), reason=f"needs the OpenSSH clients ({', '.join(MISSING)})")

TABLE = "Test Hold'em"
DAY1, DAY2 = "2026-11-30", "2026-12-01"


def _config(tmp_path, admins=(), game="holdem"):
    return config_from_dict({
        "server": {"host": "127.0.0.1", "port": 2222, "max_per_ip": 20, "admins": list(admins)},
        "room": {"starting_money": "500"},
        "tables": [{"name": TABLE if game == "holdem" else f"Test {game}", "game": game, "structure": "fixed",
                    "stakes": ["2", "4"], "seats": 6, "rake_percent": 0}],
    }, tmp_path / "config.toml")


def _play(config, data_dir: Path, players: dict[str, str], per_day: int = 4, folder: str = "bob") -> None:
    """`per_day` hands on each of DAY1 and DAY2 for `players` (name -> key fingerprint): everyone
    checks or calls and throws his first three cards at a draw, except `folder`, who folds whenever
    checking is not free (his cards stay hidden)."""
    table = config.tables[0].name
    now = [datetime(2026, 11, 30, 20, 0, tzinfo=UTC)]
    room, store, clock = build_room(data_dir / serve.DB_NAME,
                                    *[serve.table_settings(config, t) for t in config.tables],
                                    seed=5, settings=serve.room_settings(config),
                                    store_options={"clock": lambda: now[0]})
    clients = []
    for name, fingerprint in players.items():
        client = room.connect(name, fingerprint)
        client.join(table)
        client.set_auto_blind(table, True)      # Auto Blind starts off (seed 000): no prompts here
        client.buy_in(table, 100_00)
        clients.append(client)
    alice = store.find(next(iter(players))).id
    for day in (0, 1):
        now[0] = datetime(2026, 11, 30, 22, 0, tzinfo=UTC) + timedelta(days=day)
        for _ in range(100_000):        # bounded: a table that stops dealing fails, not spins
            if len(hands_by_day(store, alice).get(now[0].date(), ())) >= per_day:
                break
            actor = next((c for c in clients if c.view(table).legal is not None), None)
            if actor is None:           # between hands: the next one starts two minutes later
                clock.advance(0.5)
                now[0] += timedelta(minutes=2)
            elif actor.view(table).legal.phase == "draw":
                actor.act(table, "draw", discards=actor.view(table).my_cards[:3])
            elif actor.view(table).legal.check:
                actor.act(table, "check")
            else:
                actor.act(table, "fold" if actor.name == folder else "call")
        else:
            raise AssertionError(f"the table dealt fewer than {per_day} hands on day {day + 1}")
    store.close()


def _key_file(tmp_path: Path, name: str) -> tuple[asyncssh.SSHKey, Path]:
    key = asyncssh.generate_private_key("ssh-ed25519")
    path = tmp_path / f"{name}_ed25519"
    path.write_bytes(key.export_private_key())
    path.chmod(0o600)
    return key, path


class Room_:
    """A served room with played hands and the OpenSSH clients pointed at it."""

    def __init__(self, tmp_path: Path, served, keys: dict[str, tuple[asyncssh.SSHKey, Path]]) -> None:
        self.tmp = tmp_path
        self.served = served
        self.keys = keys

    def _options(self, name: str) -> list[str]:
        return ["-i", str(self.keys[name][1]), "-F", "/dev/null", "-o", "IdentitiesOnly=yes",
                "-o", "IdentityAgent=none", "-o", "BatchMode=yes", "-o", "StrictHostKeyChecking=no",
                "-o", "UserKnownHostsFile=/dev/null", "-o", "LogLevel=ERROR"]

    async def _run(self, *argv: str, stdin: bytes = b"") -> tuple[int, str, str]:
        proc = await asyncio.create_subprocess_exec(
            *argv, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE, cwd=self.tmp)
        out, err = await asyncio.wait_for(proc.communicate(stdin), 60)
        return proc.returncode, out.decode(), err.decode()

    def connect(self, name: str):
        """An asyncssh client: it shows the reasons the server gives, where OpenSSH's show codes."""
        return asyncssh.connect("127.0.0.1", self.served.server.port, username=name, client_keys=[self.keys[name][0]],
                                known_hosts=None, agent_path=None, config=None)

    async def ssh(self, name: str, *command: str, tty: bool = False) -> tuple[int, str, str]:
        return await self._run("ssh", *self._options(name), *(["-tt"] if tty else []),
                               "-p", str(self.served.server.port), f"{name}@127.0.0.1", *command)

    async def sftp(self, name: str, batch: str) -> tuple[int, str, str]:
        script = self.tmp / "batch"
        script.write_text(batch)
        return await self._run("sftp", *self._options(name), "-b", str(script),
                               "-P", str(self.served.server.port), f"{name}@127.0.0.1")

    async def scp(self, name: str, *args: str) -> tuple[int, str, str]:
        return await self._run("scp", *self._options(name), "-P", str(self.served.server.port), *args)

    def expected(self, name: str, day: str | None = None) -> tuple[str, str]:
        """What the room's own history export gives `name` for `day`: (PokerStars, PHH)."""
        store = self.served.store
        account = store.find(name).id
        days = hands_by_day(store, account)
        return day_files(store, account, [h for d, ids in days.items() if day in (None, d.isoformat())
                                          for h in ids])


@pytest.fixture
async def room(tmp_path):
    started = []

    async def start(admins: tuple[str, ...] = (), game: str = "holdem", folder: str = "bob") -> Room_:
        keys = {name: _key_file(tmp_path, name) for name in ("alice", "bob", "carol", "boss")}
        fingerprints = {name: key.get_fingerprint() for name, (key, _) in keys.items()}
        config = _config(tmp_path, [fingerprints[a] for a in admins], game)
        _play(config, tmp_path, {n: fingerprints[n] for n in ("alice", "bob", "carol")}, folder=folder)
        served = await serve.start(config, host="127.0.0.1", port=0, data_dir=tmp_path)
        started.append(served)
        return Room_(tmp_path, served, keys)

    yield start
    for served in started:
        await serve.shutdown(served)


def _hands(text: str) -> list[str]:
    """A PokerStars file cut into hands the way trackers cut it (fpdb: two or more newlines)."""
    return [h for h in re.split(r"(?:\s?\n){2,}", text.strip()) if h]


# -------------------------------------------------------------------------------------- sftp

async def test_sftp_lists_the_days_and_gets_a_days_pokerstars_and_phh_files(room):
    r = await room()
    status, out, err = await r.sftp("alice", f"ls -l /\ncd {DAY2}\nls -l\nget pokerstars.txt\nget hands.phhs\n")
    assert status == 0, err
    assert DAY1 in out and DAY2 in out and "pokerstars.txt" in out and "hands.phhs" in out
    stars, phhs = r.expected("alice", DAY2)
    got = (r.tmp / "pokerstars.txt").read_text()
    assert got == stars and (r.tmp / "hands.phhs").read_text() == phhs
    hands = _hands(got)
    assert len(hands) >= 4 and all(h.startswith("PokerStars Hand #") for h in hands)
    assert all("2026/12/01" in h.splitlines()[0] for h in hands)
    # Only alice's own cards: PokerStars text deals cards to the hero alone.
    assert got.count("Dealt to alice") == len(hands)
    assert "Dealt to bob" not in got and "Dealt to carol" not in got


async def test_sftp_phh_file_loads_in_pokerkit_with_others_cards_only_at_the_showdown(room):
    pokerkit = pytest.importorskip("pokerkit")
    r = await room()
    status, _, err = await r.sftp("alice", f"get /{DAY1}/hands.phhs\n")
    assert status == 0, err
    text = (r.tmp / "hands.phhs").read_text()
    loaded = list(pokerkit.HandHistory.loads_all(text))
    assert len(loaded) == text.count("\n[") + 1 >= 4
    folded = 0
    for hand in loaded:
        bob = f"p{hand.players.index('bob') + 1}"
        dealt = next(a for a in hand.actions if a.startswith(f"d dh {bob} "))
        shown = [a for a in hand.actions if a.startswith(f"{bob} sm")]
        if f"{bob} f" in hand.actions:
            folded += 1
            assert dealt == f"d dh {bob} ????" and shown == []   # folded: his cards never appear
        else:
            # Stayed to the showdown: his cards are in everyone's history (seed 001).
            assert "?" not in dealt and len(shown) == 1 and "?" not in shown[0]
    assert folded


async def test_sftp_phh_of_a_draw_game_holds_no_card_alice_never_saw(room):
    """Issue 34: alice folded before the draw, yet her hands.phhs held carol's dealt hand and
    discards. A player who shows down shows the hand he holds; his deal, his discards and which
    cards he drew were never shown, and are not in alice's file (only how many he threw). The
    file still loads in pokerkit and replays to its finishing stacks (triple draw 2-7 is a
    standard PHH game)."""
    import warnings

    from cardroom.engine import events as ev
    from cardroom.room.history import player_history
    from tests.engine.test_history_leaks import phh_cards
    pokerkit = pytest.importorskip("pokerkit")
    r = await room(game="27-triple", folder="alice")
    status, _, err = await r.sftp("alice", f"get /{DAY1}/hands.phhs\n")
    assert status == 0, err
    text = (r.tmp / "hands.phhs").read_text()
    assert text == r.expected("alice", DAY1)[1]
    store = r.served.store
    alice = store.find("alice").id
    folded = 0
    parsed = tomllib.loads(text)
    for i, (hand_id, part) in enumerate(zip(hands_by_day(store, alice)[datetime(2026, 11, 30).date()],
                                            text.split("\n["))):
        whole = ev.from_json_list(json.loads(store.get_hand(hand_id).events_json)["events"])
        mine = player_history(store, hand_id, alice)
        if not any(isinstance(e, ev.Folded) and e.player == mine.me for e in whole):
            continue
        folded += 1
        seen = {c for e in whole if isinstance(e, ev.DealtHole) and e.player == mine.me for c in e.cards}
        shown = {c for e in whole if isinstance(e, (ev.Shown, ev.Mucked)) for c in e.cards}
        held = {}
        for e in whole:
            if isinstance(e, ev.DealtHole):
                held[e.player] = list(e.cards)
            elif isinstance(e, ev.Drew):
                held[e.player] = [c for c in held[e.player] if c not in e.discards] + list(e.cards)
            elif isinstance(e, ev.Mucked):
                shown |= set(held[e.player])                    # seed 001: mucked, still there
        hidden = {c for e in whole if isinstance(e, (ev.DealtHole, ev.Drew)) for c in e.cards
                  + getattr(e, "discards", ())} - seen - shown
        assert hidden and not hidden & phh_cards(part), part
        assert any(isinstance(e, ev.Drew) and e.discards and e.player != mine.me for e in whole)
        data = parsed[str(i + 1)]
        me = f"p{data['players'].index('alice') + 1}"
        for action in data["actions"]:
            words = action.split()
            if me not in words[:3] and (words[:2] == ["d", "dh"] or words[1:2] == ["sd"]) and len(words) > 2:
                assert set(words[-1]) == {"?"}, action           # others' deals and discards: ??
        assert any(re.fullmatch(r"p\d sm ([2-9TJQKA][cdhs]){5}", a) for a in data["actions"])   # as shown
    assert folded
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for hh in pokerkit.HandHistory.loads_all(text):
            assert [float(x) for x in list(hh)[-1].stacks] == [float(x) for x in hh.finishing_stacks]


async def test_sftp_refuses_every_write_with_permission_denied(room):
    r = await room()
    (r.tmp / "mine.txt").write_text("not a hand history\n")
    commands = [f"put mine.txt /{DAY1}/mine.txt", f"put mine.txt /{DAY1}/pokerstars.txt",
                f"rm /{DAY1}/pokerstars.txt", "mkdir /new", f"rmdir /{DAY1}",
                f"rename /{DAY1}/pokerstars.txt /{DAY1}/x.txt", f"ln -s /{DAY1}/pokerstars.txt /l",
                f"chmod 777 /{DAY1}/pokerstars.txt"]
    for command in commands:
        status, _, err = await r.sftp("alice", command + "\n")
        assert status != 0 and "Permission denied" in err, (command, err)
    status, _, err = await r.sftp("alice", f"get /{DAY1}/pokerstars.txt\n")     # all still there
    assert status == 0 and (r.tmp / "pokerstars.txt").read_text() == r.expected("alice", DAY1)[0]


async def test_sftp_refuses_paths_out_of_the_folder_and_other_players_paths(room):
    r = await room()
    status, _, err = await r.sftp("alice", "cd ..\n")
    assert status != 0 and "'..' leads out of your folder" in err, err
    # OpenSSH's get says "not found" for whatever its stat is refused; what it stats is refused.
    for path in (f"../bob/{DAY1}/pokerstars.txt", f"/{DAY1}/../../etc/passwd", f"/bob/{DAY1}/pokerstars.txt",
                 "/etc/passwd", f"{DAY1}/../../../cardroom.sqlite3", "/cardroom.sqlite3", "/host_keys/x"):
        status, _, err = await r.sftp("alice", f"get {path}\n")
        assert status != 0 and "not found" in err, (path, err)
    assert not (r.tmp / "passwd").exists()
    # Inside the folder, '..' climbs back as it would anywhere.
    status, out, err = await r.sftp("alice", f"cd /{DAY1}\ncd ..\npwd\n")
    assert status == 0 and "Remote working directory: /\n" in out, err
    # What the server says, as a client that shows the server's reasons (asyncssh's) gets it.
    async with r.connect("alice") as conn, conn.start_sftp_client() as sftp:
        with pytest.raises(asyncssh.SFTPPermissionDenied, match="'..' leads out of your folder"):
            await sftp.stat(f"/{DAY1}/../../etc/passwd")
        with pytest.raises(asyncssh.SFTPNoSuchFile, match="a folder for each day you played"):
            await sftp.stat(f"/bob/{DAY1}/pokerstars.txt")
        with pytest.raises(asyncssh.SFTPPermissionDenied, match="read-only"):
            await sftp.remove(f"/{DAY1}/pokerstars.txt")
        assert await sftp.listdir("/") == [".", "..", DAY1, DAY2]


async def test_sftp_shows_each_player_only_his_own_hands(room):
    r = await room()
    status, _, err = await r.sftp("bob", f"get /{DAY1}/pokerstars.txt\n")
    assert status == 0, err
    bobs = (r.tmp / "pokerstars.txt").read_text()
    assert bobs == r.expected("bob", DAY1)[0] != r.expected("alice", DAY1)[0]
    assert "Dealt to bob" in bobs and "Dealt to alice" not in bobs


# --------------------------------------------------------------------------------------- scp

async def test_scp_gets_a_day_and_refuses_an_upload_both_protocols(room):
    r = await room()
    stars, phhs = r.expected("alice", DAY2)
    for protocol in ([], ["-O"]):               # SFTP (OpenSSH 9's default) and the old scp protocol
        target = r.tmp / ("got" + "".join(protocol))
        status, _, err = await r.scp("alice", *protocol, "-r", f"alice@127.0.0.1:/{DAY2}", str(target))
        assert status == 0, (protocol, err)
        assert (target / "pokerstars.txt").read_text() == stars
        assert (target / "hands.phhs").read_text() == phhs
        status, _, err = await r.scp("alice", *protocol, str(target / "hands.phhs"), f"alice@127.0.0.1:/{DAY2}/up.phhs")
        assert status != 0 and ("Permission denied" in err or "read-only" in err), (protocol, err)


# --------------------------------------------------------------------------------- ssh hands

async def test_hands_since_a_day_prints_the_same_pokerstars_text(room):
    r = await room()
    status, out, err = await r.ssh("alice", "hands", "--since", DAY2)
    assert status == 0, err
    assert out == r.expected("alice", DAY2)[0]
    status, out, err = await r.ssh("alice", "hands", "--since", DAY1)
    assert status == 0 and _hands(out) == _hands(r.expected("alice")[0])
    assert len(_hands(out)) > len(_hands(r.expected("alice", DAY2)[0]))
    status, out, err = await r.ssh("alice", "hands", "--since=2027-01-01")
    assert status == 0 and out == "" and "no hands since 2027-01-01" in err


async def test_hands_with_a_bad_date_says_how_to_write_one_and_fails(room):
    r = await room()
    for args in (["--since", "2026-13-01"], ["--since", "yesterday"], ["--since"], ["--everything"]):
        status, out, err = await r.ssh("alice", "hands", *args)
        assert status != 0 and out == "", args
        assert "YYYY-MM-DD" in err, (args, err)
    status, out, err = await r.ssh("alice", "hands", "--since", "2026-02-30")
    assert status == 2 and "'2026-02-30' is not a day: write it as YYYY-MM-DD" in err


async def test_hands_over_a_terminal_ends_lines_for_the_terminal(room):
    r = await room()
    status, out, _ = await r.ssh("alice", "hands", "--since", DAY2, tty=True)
    assert status == 0 and "PokerStars Hand #" in out
    assert out.replace("\r\n", "\n") == r.expected("alice", DAY2)[0]


async def test_other_commands_shells_and_subsystems_stay_refused(room):
    r = await room()
    status, out, err = await r.ssh("alice", "ls", "-la")
    assert status == 1 and out == "" and "'ls' is not a command here" in err and "hands" in err
    status, out, err = await r.ssh("alice", "help")
    assert status == 0 and "hands [--since YYYY-MM-DD]" in out
    status, out, err = await r.ssh("alice", "sh", "-c", "cat /etc/passwd")
    assert status == 1 and "root:" not in out
    status, out, _ = await r.ssh("alice")                # a shell without a terminal: the help line
    assert status == 1 and "ssh -t" in out
    async with r.connect("alice") as conn:
        with pytest.raises(asyncssh.ChannelOpenError):
            await conn.create_process(subsystem="netconf")
    async with r.connect("alice") as conn:
        with pytest.raises(asyncssh.ChannelOpenError):
            await conn.create_connection(asyncssh.SSHTCPSession, "127.0.0.1", 80)
    assert r.served.server.sessions == frozenset()     # none of that opened the card room's screen


# -------------------------------------------------------------------------------- admin exec

async def test_admin_key_credits_over_exec_with_the_panels_ledger_row(room):
    r = await room(admins=("boss",))
    store = r.served.store
    bob = store.find("bob")
    # As typed in a shell: ssh -p PORT boss@HOST credit bob 100 "refund for hand 12"
    status, out, err = await r.ssh("boss", "credit", "bob", "100", "refund for hand 12")
    assert status == 0 and err == "", err
    assert "credited $100 to bob: refund for hand 12" in out
    assert store.balance(bob.id) == bob.balance_cents + 100_00
    entry = store.ledger(bob.id, limit=1)[0]
    assert (entry.kind, entry.amount_cents, entry.reason, entry.admin) == (
        "credit", 100_00, "refund for hand 12", r.keys["boss"][0].get_fingerprint())
    status, out, err = await r.ssh("boss", "tables")
    assert status == 0 and TABLE in out


async def test_admin_exec_errors_go_to_stderr_with_a_failing_status_and_change_nothing(room):
    r = await room(admins=("boss",))
    store = r.served.store
    before = store.ledger(limit=1)[0].seq
    for command, said in [(("credit", "bob", "-5", "x"), "is not an amount"), (("credit", "nobody", "5", "x"), "no player"),
                          (("credit", "bob", "5"), "a reason is required"), (("frobnicate",), "not a command here")]:
        status, out, err = await r.ssh("boss", *command)
        assert status == 1 and out == "" and said in err, (command, err)
    assert store.ledger(limit=1)[0].seq == before


async def test_a_players_key_cannot_run_admin_commands(room):
    r = await room(admins=("boss",))
    store = r.served.store
    before = store.balance(store.find("alice").id)
    for command in (("credit", "alice", "100", "free money"), ("shutdown", "now"), ("ban", "bob")):
        status, out, err = await r.ssh("alice", *command)
        assert status == 1 and out == "", command
        assert f"{command[0]} is an admin command, and this key is not an admin's: nothing was run" in err
    assert store.balance(store.find("alice").id) == before
    assert not r.served.stop.is_set() and not store.is_banned(r.keys["bob"][0].get_fingerprint())


def test_the_folder_answers_every_call_asyncssh_makes_itself():
    """asyncssh's SFTPServer works on the server's disk: every method of it that a client can reach
    is overridden, so no request ever falls through to a real path (an asyncssh upgrade that adds
    one fails here)."""
    harmless = {"channel", "connection", "env", "logger", "convert_attrs", "format_user", "format_group",
                "format_longname", "map_path", "reverse_map_path"}
    reachable = {name for name in vars(asyncssh.SFTPServer) if not name.startswith("_")} - harmless
    assert reachable and all(name in vars(HandsSFTPServer) for name in reachable), \
        sorted(n for n in reachable if n not in vars(HandsSFTPServer))
