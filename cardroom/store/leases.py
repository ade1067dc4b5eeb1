"""Which table host deals each table: leases in PostgreSQL (`table_leases`, pgschema v4).

A room of several processes (`cardroom serve --role tables`, docs: /work/plan/SCALEOUT.md) has
each table dealt by exactly one table host, the only writer of its state. A host holds a table by
a lease: a row naming the owner (the host's id), a token, and when the lease expires. The host
renews its leases every second or so; a host that dies stops renewing, its leases expire, and
another host claims its tables.

    leases = Leases(store)                        # a PostgresStore
    token = leases.claim("host-a", "T1", ttl=10)  # None: another host holds it
    mine = leases.renew("host-a", ttl=10)         # the tables still mine; any other is lost
    leases.release("host-a", "T1")                # stepping down: free for anyone at once
    leases.owners()                               # {"T1": Lease("host-a", 7, 9.8), ...}

Each call is one transaction on the store's writing connection (SERIALIZABLE, run again when it
loses a race, as every write of the store); `owners` is a read and never waits.

Tokens: every new tenure of a table -- a claim of a free table, of one expired, or of one
released -- draws the next number of the sequence `lease_tokens`, so a table's token increases on
every change of owner, and a claim by the holder of a live lease keeps its token. Two claims
racing for a table conflict on its row: one commits, the other runs again and sees it; a claim
that commits drew its number after every earlier tenure's claim committed.

Why the times are the database's
--------------------------------
Every comparison with a time -- is this lease expired (claim), is it still live (renew, and the
fence below), how long is left (owners) -- is made by PostgreSQL with its `now()`, inside the
transaction that acts on the answer; no caller ever sends a time. The hosts' clocks are not one
clock: they drift, NTP steps them, a virtual machine paused and resumed is minutes behind. A
lease compared with each host's own clock would let a host whose clock runs late believe it still
holds a table another host (whose clock runs on time) has just claimed. With one clock there is
one answer to "who holds T now", whatever the hosts' clocks say. What a host measures itself are
durations only, on its monotonic clock (`time.monotonic`, which no clock step moves): how long
ago it sent its last successful renewal.

Why a host that stops in time never overlaps the next owner
-----------------------------------------------------------
A host stops dealing every table (self-fence) once its last successful renewal is `ttl - margin`
seconds old, counted from the moment it *sent* that renewal. The renewal's transaction began
after it was sent, so the database's `now()` in it was no earlier than that moment, and it set
`expires_at = now() + ttl`: the lease runs at least `ttl` seconds past the sending. No other host
can claim the table before `expires_at` (claim takes only an expired lease), and its owner stops
at most `ttl - margin` seconds after the sending, by its clock. So the two never deal the table at
once as long as `margin` covers what the host's measure can fall short by: how often it checks
(every second), how long stopping its tables takes, and the drift of its clock's rate against the
database's over `ttl` seconds (parts per million: microseconds). Defaults (config.py, from
[server] database_outage_seconds): ttl 16 s, margin 3 s, a renewal every second.

That argument needs the host to keep time: a process frozen (a long GC pause, SIGSTOP, a VM
suspended) can wake after its lease expired and another host claimed the table, before its
own self-fence check has run. So the database fences too. A store opened for a table host
(`PostgresStore(url, lease_owner=host_id)`) refuses (`LeaseLost`: "this table host no longer
holds table T") every buy-in, cash-out and begin/settle/void of a hand unless, in that write's own
SERIALIZABLE transaction, the table's lease is this host's and live at that transaction's `now()`.
The check reads the lease row FOR SHARE, which orders the write against any claim of the table:

* a claim that committed before the write's snapshot is seen, and the write is refused;
* a claim that committed after the snapshot but before the row lock makes the lock fail to
  serialize: the write runs again from the start, sees the claim, and is refused;
* a claim that comes while the write holds the lock waits for the write to commit; the new owner's
  transactions (voiding the table's unfinished hand, reading `table_holdings`) begin after its
  claim committed, so they see the write.

Either way every write of the old owner commits before the new owner's claim, and none after: a
host that lost its table can never write to it, even racing the claim. A store without a
`lease_owner` (a single `cardroom serve`, a gateway, the admin tools) is not fenced at all; on a
room of table hosts, writes to a table's money belong to its host alone.

Owner ids must be unique per process (`--host-id` defaults to hostname-pid-random): two live
processes under one id would be one owner to the database, and fencing could not tell them apart.
"""

from __future__ import annotations

import math
from typing import NamedTuple

from cardroom.room.ports import Refused, StoreUnavailable
from cardroom.store.postgres import PostgresStore
from cardroom.store.database import writes

__all__ = ["Lease", "Leases"]


class Lease(NamedTuple):
    """Who holds a table: the owner, the token of its tenure, and the seconds until it expires
    (negative: expired that long ago, and not yet claimed by anyone)."""

    owner: str
    token: int
    seconds_left: float


def _name(value: object, what: str) -> str:
    if not isinstance(value, str) or not value:
        raise Refused(f"{what} must be a name (non-empty text), not {value!r}")
    return value


def _seconds(value: object, what: str, *, allow_zero: bool = False) -> float:
    if (isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value)
            or value < 0 or (value == 0 and not allow_zero)):
        raise Refused(f"{what} must be a number of seconds {'>= 0' if allow_zero else '> 0'},"
                      f" not {value!r}")
    return float(value)


_CLAIM = """
    INSERT INTO table_leases (table_name, owner, token, expires_at)
    VALUES (?, ?, nextval('lease_tokens'), now() + make_interval(secs => ?))
    ON CONFLICT (table_name) DO UPDATE
    SET owner = excluded.owner,
        expires_at = excluded.expires_at,
        token = CASE WHEN table_leases.owner = excluded.owner AND table_leases.expires_at > now()
                     THEN table_leases.token ELSE excluded.token END
    WHERE table_leases.owner = excluded.owner
       OR table_leases.expires_at <= now() - make_interval(secs => ?)
    RETURNING token
"""


class Leases:
    """The table hosts' leases in the store's database. See the module docstring."""

    def __init__(self, store: PostgresStore) -> None:
        if not isinstance(store, PostgresStore):
            raise StoreUnavailable("table leases need a PostgreSQL store: a SQLite room is one"
                                   " process, which deals every table itself")
        self.db = store.db

    @writes
    def renew(self, owner: str, ttl: float) -> set[str]:
        """Extend every live lease of `owner` to `ttl` seconds from now; the tables renewed. A
        table of this owner's that is not in the set is lost: another host claimed it, or its
        lease expired (its tenure is over: claim it again, as a new tenure, to deal it)."""
        _name(owner, "the owner")
        ttl = _seconds(ttl, "the lease's time to live")
        with self.db.transaction() as c:
            return {t for (t,) in c.execute(
                "UPDATE table_leases SET expires_at = now() + make_interval(secs => ?)"
                " WHERE owner = ? AND expires_at > now() RETURNING table_name", (ttl, owner))}

    @writes
    def claim(self, owner: str, table: str, ttl: float, *, after_expiry: float = 0.0) -> int | None:
        """Take `table` for `owner` for `ttl` seconds if it is free, released, already this
        owner's, or expired for at least `after_expiry` seconds (a host takes another's table
        only once its owner had time to renew: an orphan of a dead host). The lease's token, or
        None (another holds it). A claim of the owner's own live lease extends it, same token."""
        _name(owner, "the owner")
        _name(table, "the table")
        ttl = _seconds(ttl, "the lease's time to live")
        after_expiry = _seconds(after_expiry, "the wait after expiry", allow_zero=True)
        with self.db.transaction() as c:
            row = c.execute(_CLAIM, (table, owner, ttl, after_expiry)).fetchone()
            return None if row is None else row[0]

    @writes
    def release(self, owner: str, table: str) -> bool:
        """Give up `owner`'s lease of `table` (a host stopping): anyone may claim it at once.
        False if `owner` did not hold it (nothing changed)."""
        _name(owner, "the owner")
        _name(table, "the table")
        with self.db.transaction() as c:
            return c.execute("DELETE FROM table_leases WHERE table_name = ? AND owner = ?",
                             (table, owner)).rowcount > 0

    def owners(self) -> dict[str, Lease]:
        """Every table's lease, live or expired (released ones are gone), as of one moment."""
        with self.db.transaction(write=False) as c:
            return {t: Lease(o, token, float(left)) for t, o, token, left in c.execute(
                "SELECT table_name, owner, token,"
                " CAST(EXTRACT(EPOCH FROM expires_at - now()) AS DOUBLE PRECISION)"
                " FROM table_leases ORDER BY table_name")}
