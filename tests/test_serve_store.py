"""`cardroom serve` on PostgreSQL: chosen by `[server] store` or `--store`, a hand cut off by a
crash voided at start, and a database whose ledger does not add up refused before anything is
dealt or paid from it. A real throw-away cluster (`pg_cluster`), a real room."""

import asyncio

import pytest

from cardroom.admin.commands import AdminContext, execute
from cardroom.cli import main as cli_main
from cardroom.config import ConfigError, load_config
from cardroom.room.clock import LoopClock
from cardroom.room.ports import ConservationError, HandStart, SeatStack
from cardroom.serve import build_room
from cardroom.store import open_store
from cardroom.store.postgres import PostgresStore

TABLE = '[[tables]]\nname = "T"\ngame = "holdem"\nstructure = "fixed"\nstakes = ["2", "4"]\n'


def config_file(tmp_path, server=""):
    path = tmp_path / "config.toml"
    path.write_text(f'[server]\nhost = "127.0.0.1"\nport = 0\n{server}\n{TABLE}')
    return path


def test_the_store_url_is_read_from_the_config_and_a_path_refused(tmp_path):
    url = "postgresql://cardroom@db.example:5432/cardroom"
    assert load_config(config_file(tmp_path, f'store = "{url}"')).server.store == url
    assert load_config(config_file(tmp_path)).server.store is None     # the SQLite file
    with pytest.raises(ConfigError, match="not a postgresql:// URL"):
        load_config(config_file(tmp_path, 'store = "room.sqlite3"'))


def test_serve_opens_the_postgresql_store_and_voids_a_hand_cut_off_by_a_crash(tmp_path, pg_cluster):
    url = pg_cluster.new_database()
    with open_store(url) as s:                        # the last run, killed mid-hand
        ann, bob = s.get_or_create("ann", 10_000), s.get_or_create("bob", 10_000)
        for p in (ann, bob):
            s.buy_in(p.id, "T", 2_000)
        s.begin_hand(HandStart("T", (SeatStack(1, ann.id, 2_000), SeatStack(2, bob.id, 2_000))))
    config = load_config(config_file(tmp_path, f'store = "{url}"'))
    room, store = build_room(config, tmp_path, LoopClock())
    try:
        assert type(store) is PostgresStore
        assert store.get_hand("1").status == "void"
        assert store.balance(ann.id) == store.balance(bob.id) == 10_000   # chips back home
        store.audit()
    finally:
        room.writer.close()
        store.close()


def tampered(pg_cluster):
    """A PostgreSQL room whose balance was raised by hand in SQL, behind the ledger's back."""
    url = pg_cluster.new_database()
    with open_store(url) as s:
        ann = s.get_or_create("ann", 10_000)
        with s.db.transaction() as c:
            c.execute("UPDATE accounts SET balance_cents = balance_cents + 500 WHERE id = ?",
                      (ann.id,))
    return url


def test_serve_refuses_an_unbalanced_postgresql_database(tmp_path, pg_cluster):
    url = tampered(pg_cluster)
    config = load_config(config_file(tmp_path, f'store = "{url}"'))
    with pytest.raises(ConservationError):
        build_room(config, tmp_path, LoopClock())
    with open_store(url) as s:                        # nothing was paid or voided from it
        assert s.balance(s.find("ann").id) == 10_500


def test_the_admin_audit_checks_a_postgresql_room(tmp_path, pg_cluster):
    url = pg_cluster.new_database()
    room, store = build_room(load_config(config_file(tmp_path, f'store = "{url}"')), tmp_path,
                             LoopClock())
    try:
        ann = store.get_or_create("ann", 10_000)
        ctx = AdminContext(room, store, "boss", lambda: None)
        assert asyncio.run(execute(ctx, "audit")).ok
        with store.db.transaction() as c:                        # behind the ledger's back
            c.execute("UPDATE accounts SET balance_cents = balance_cents + 500 WHERE id = ?",
                      (ann.id,))
        result = asyncio.run(execute(ctx, "audit"))
        assert not result.ok
        assert result.lines[1] == ("  'ann' has a balance of $105, the ledger gives $100: "
                                   "$5 more than the ledger records")
    finally:
        room.writer.close()
        store.close()


def test_cardroom_serve_store_flag_refuses_an_unbalanced_database_and_says_why(tmp_path, pg_cluster,
                                                                              capsys):
    url = tampered(pg_cluster)
    argv = ["serve", "--config", str(config_file(tmp_path)), "--headless", "--store", url]
    assert cli_main(argv) == 1
    err = capsys.readouterr().err
    assert "the ledger of the PostgreSQL database" in err and "does not add up" in err
    assert "'ann' has a balance of $105" in err and "Nothing was served." in err


def test_cardroom_serve_store_flag_must_be_a_url(tmp_path, capsys):
    argv = ["serve", "--config", str(config_file(tmp_path)), "--headless", "--store", "x.sqlite3"]
    assert cli_main(argv) == 2
    assert "not a postgresql:// URL" in capsys.readouterr().err


def test_the_nats_url_is_read_from_the_config_and_a_bad_one_refused(tmp_path):
    url = "nats://10.0.0.5:4222"
    assert load_config(config_file(tmp_path, f'nats = "{url}"')).server.nats == url
    assert load_config(config_file(tmp_path)).server.nats is None       # --nats, or the local default
    with pytest.raises(ConfigError, match="not a nats:// URL"):
        load_config(config_file(tmp_path, 'nats = "10.0.0.5:4222"'))
