"""The ledger check: does the money in a cardroom database add up? `cardroom serve` runs it before
it serves a database (one that fails is refused: its balances would be paid out and played with),
and the admin command `audit` runs it again on the live room.

On one consistent snapshot that never waits for or holds up the server's writes (the store's
read transaction: its read-only connection under WAL in SQLite, REPEATABLE READ, READ ONLY in
PostgreSQL):

* every account's balance, and its chips on each table, is what its ledger entries make it: a
  balance changed by hand in SQL is named with the amount it is off by;
* the house's rake is the sum of its rake entries, and each hand's escrow (the stacks it took)
  is back to nothing once the hand is settled or void;
* total money (balances, table chips, stacks in the hands in progress, the rake) is the starting
  money plus credits minus debits;
* every settled hand sums to zero with its rake: what its seats won and lost, plus the rake;
* every tournament: its prize pool and the house's fees of it are what its ledger rows make
  them; the buy-ins taken are its buy-in for each paid entry; and the buy-ins (with the money the
  house added) are the prize pool, which is the prizes paid plus the pool still held for the
  places to decide (nothing once it is finished or cancelled). Its hands move no money (their
  stacks are chips), but they sum to zero too.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Protocol

from cardroom.engine.money import format_cents
from cardroom.room.ports import ConservationError

__all__ = ["EXPECTED_SQL", "TOTAL_SQL", "check_store", "ledger_problems", "require_balanced"]

NAME_SHOWN = 40

# All the money the room holds, and what the ledger says came in (both dialects: sums cast to
# BIGINT). A tournament's hands hold chips, not money: no escrow.
TOTAL_SQL = """
    SELECT CAST((SELECT COALESCE(SUM(balance_cents), 0) FROM accounts)
         + (SELECT COALESCE(SUM(chips_cents), 0) FROM table_chips)
         + (SELECT COALESCE(SUM(s.start_cents), 0) FROM hand_seats s JOIN hands h ON h.seq = s.hand_seq
              WHERE h.status = 'in_progress' AND h.tournament_id IS NULL)
         + (SELECT rake_cents FROM house WHERE id = 1)
         + (SELECT COALESCE(SUM(pool_cents + fees_cents), 0) FROM tournaments) AS BIGINT)
"""
EXPECTED_SQL = """
    SELECT CAST(COALESCE(SUM(CASE WHEN kind IN ('open', 'credit', 'tournament_added') THEN amount_cents
                                  WHEN kind = 'debit' THEN -amount_cents ELSE 0 END), 0) AS BIGINT)
    FROM ledger
"""

# How each tournament kind moves money: (its sign on the balance, on the prize pool, on the fees).
_TOURNAMENT_MOVES = {
    "tournament_buy_in": (-1, 1, 0), "tournament_fee": (-1, 0, 1), "tournament_refund": (1, -1, 0),
    "tournament_fee_refund": (1, 0, -1), "tournament_prize": (1, -1, 0), "tournament_share": (1, -1, 0),
    "tournament_added": (0, 1, 0),
}


def _shown(text: str) -> str:
    """A name from the database, quoted: repr escapes control and bidi characters, so a name
    planted in the file cannot write to the terminal that shows the problem."""
    return repr(text[:NAME_SHOWN])


def _off(have: int, want: int) -> str:
    d = have - want
    return f"{format_cents(abs(d))} {'more' if d > 0 else 'less'} than the ledger records"


def ledger_problems(c) -> list[str]:
    """Every way the money in the database fails to add up, in words (none: it adds up). `c` is a
    store's connection in a transaction (`cardroom.store.sql.Connection`): the SQL runs on both
    dialects (sums cast to BIGINT, as PostgreSQL's SUM of BIGINTs is NUMERIC)."""
    names = {a: _shown(n) for a, n in c.execute("SELECT id, name FROM accounts")}

    def who(account: int) -> str:
        return names.get(account, f"account #{account} (no such account)")

    balances: dict[int, int] = defaultdict(int)
    chips: dict[tuple[int, str], int] = defaultdict(int)
    escrow: dict[str, int] = defaultdict(int)
    house = 0
    pools: dict[int, int] = defaultdict(int)
    fees: dict[int, int] = defaultdict(int)
    taken: dict[tuple[int, str], int] = defaultdict(int)   # (tournament, kind) -> cents
    for kind, account, table, amount, hand, tournament in c.execute(
            "SELECT kind, account_id, table_name, amount_cents, hand_id, tournament_id FROM ledger ORDER BY seq"):
        if kind in _TOURNAMENT_MOVES:
            on_balance, on_pool, on_fees = _TOURNAMENT_MOVES[kind]
            if account is not None:
                balances[account] += on_balance * amount
            pools[tournament] += on_pool * amount
            fees[tournament] += on_fees * amount
            taken[tournament, kind] += amount
        elif kind in ("open", "credit"):
            balances[account] += amount
        elif kind == "debit":
            balances[account] -= amount
        elif kind == "buy_in":
            balances[account] -= amount
            chips[account, table] += amount
        elif kind == "cash_out":
            balances[account] += amount
            chips[account, table] -= amount
        elif kind == "hand_start":
            chips[account, table] -= amount
            escrow[hand] += amount
        elif kind in ("hand_end", "hand_void"):
            chips[account, table] += amount
            escrow[hand] -= amount
        elif kind == "rake":
            escrow[hand] -= amount
            house += amount

    problems = []
    for account, balance in c.execute("SELECT id, balance_cents FROM accounts ORDER BY id"):
        want = balances.pop(account, 0)
        if balance != want:
            problems.append(f"{who(account)} has a balance of {format_cents(balance)}, the ledger "
                            f"gives {format_cents(want)}: {_off(balance, want)}")
    problems += [f"the ledger moves {format_cents(v)} for {who(a)}" for a, v in balances.items() if v]
    for account, table, have in c.execute(
            "SELECT account_id, table_name, chips_cents FROM table_chips ORDER BY account_id, table_name"):
        want = chips.pop((account, table), 0)
        if have != want:
            problems.append(f"{who(account)} has {format_cents(have)} of chips on "
                            f"{_shown(table)}, the ledger gives "
                            f"{format_cents(want)}: {_off(have, want)}")
    problems += [f"{who(a)} should have {format_cents(v)} of chips on {_shown(t)}, "
                 "and has none" for (a, t), v in chips.items() if v]

    live = dict(c.execute("SELECT h.id, CAST(SUM(s.start_cents) AS BIGINT) FROM hands h JOIN hand_seats s"
                          " ON s.hand_seq = h.seq WHERE h.status = 'in_progress' AND h.tournament_id IS NULL"
                          " GROUP BY h.id"))
    for hand in sorted(set(escrow) | set(live)):
        if escrow.get(hand, 0) != live.get(hand, 0):
            problems.append(f"hand {_shown(hand)} holds {format_cents(live.get(hand, 0))} "
                            f"of stacks, the ledger gives {format_cents(escrow.get(hand, 0))}")
    for hand, result in c.execute(
            "SELECT h.id, CAST(SUM(s.end_cents - s.start_cents) + h.rake_cents AS BIGINT) FROM hands h"
            " JOIN hand_seats s ON s.hand_seq = h.seq WHERE h.status = 'settled'"
            " GROUP BY h.seq ORDER BY h.seq"):
        if result != 0:
            problems.append(f"settled hand {_shown(hand)} does not sum to zero with "
                            f"its rake: {format_cents(abs(result))} "
                            f"{'created' if result > 0 else 'lost'}")

    rake = c.execute("SELECT rake_cents FROM house WHERE id = 1").fetchone()[0]
    if rake != house:
        problems.append(f"the house holds {format_cents(rake)} of rake, the ledger gives "
                        f"{format_cents(house)}: {_off(rake, house)}")
    problems += _tournament_problems(c, pools, fees, taken)
    total = c.execute(TOTAL_SQL).fetchone()[0]
    expected = c.execute(EXPECTED_SQL).fetchone()[0]
    if total != expected:
        problems.append(f"the room holds {format_cents(total)} in all, but starting money + credits "
                        f"- debits is {format_cents(expected)}: {_off(total, expected)}")
    return problems


def _tournament_problems(c, pools: dict[int, int], fees: dict[int, int],
                         taken: dict[tuple[int, str], int]) -> list[str]:
    """Each tournament's money against its ledger rows and its entries (module docstring)."""
    problems = []
    entries = {t: (n, prizes) for t, n, prizes in c.execute(
        "SELECT tournament_id, CAST(SUM(CASE WHEN status = 'in' THEN 1 ELSE 0 END) AS BIGINT),"
        " CAST(SUM(prize_cents) AS BIGINT) FROM tournament_entries GROUP BY tournament_id")}
    rows = c.execute("SELECT id, name, state, buy_in_cents, pool_cents, fees_cents FROM tournaments ORDER BY id")
    for tid, name, state, buy_in, pool, fee_total in rows.fetchall():
        who = f"tournament #{tid} {_shown(name)}"
        want = pools.pop(tid, 0)
        if pool != want:
            problems.append(f"{who} holds {format_cents(pool)} of prize pool, the ledger gives "
                            f"{format_cents(want)}: {_off(pool, want)}")
        want = fees.pop(tid, 0)
        if fee_total != want:
            problems.append(f"{who} holds {format_cents(fee_total)} of fees, the ledger gives "
                            f"{format_cents(want)}: {_off(fee_total, want)}")
        paid_in, prizes = entries.get(tid, (0, 0))
        buy_ins = taken[tid, "tournament_buy_in"] - taken[tid, "tournament_refund"]
        if buy_ins != buy_in * paid_in:
            problems.append(f"{who} took {format_cents(buy_ins)} of buy-ins for {paid_in} entries of "
                            f"{format_cents(buy_in)}")
        paid = taken[tid, "tournament_prize"] + taken[tid, "tournament_share"]
        if paid != prizes:
            problems.append(f"{who} paid {format_cents(paid)} of prizes, its entries won {format_cents(prizes)}")
        pool_in = buy_ins + taken[tid, "tournament_added"]
        if pool_in != paid + pool:
            problems.append(f"{who}: buy-ins and added money {format_cents(pool_in)} are not the prizes "
                            f"paid {format_cents(paid)} and the pool held {format_cents(pool)}")
        if state in ("finished", "cancelled") and pool:
            problems.append(f"{who} is {state} and still holds {format_cents(pool)} of prize pool")
    problems += [f"the ledger moves {format_cents(v)} of prize pool for tournament #{t}, which does not exist"
                 for t, v in pools.items() if v]
    return problems


class Audited(Protocol):
    """A store whose ledger can be checked: `SqlStore` (named here by what the check uses of it,
    as that module imports this one)."""

    where: str

    def ledger_problems(self) -> list[str]: ...


def check_store(store: Audited) -> list[str]:
    """`ledger_problems` of the store's database, on one read snapshot (`SqlStore.ledger_problems`)."""
    return store.ledger_problems()


def require_balanced(store: Audited) -> None:
    """Raise ConservationError, naming every problem, unless the store's ledger adds up."""
    problems = check_store(store)
    if problems:
        raise ConservationError(f"the ledger of {store.where} does not add up:\n  " + "\n  ".join(problems))
