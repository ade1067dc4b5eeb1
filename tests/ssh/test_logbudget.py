"""The per-connection log budget on its own, with a clock the test moves."""

from __future__ import annotations

import logging

from cardroom.ssh.logbudget import ConnectionLogBudget


def _record(msg: str) -> logging.LogRecord:
    return logging.LogRecord("asyncssh", logging.INFO, __file__, 1, msg, ("80", "24"), None)


def test_a_connection_gets_a_burst_then_a_trickle_and_is_told_what_was_dropped():
    now = [0.0]
    budget = ConnectionLogBudget(burst=5, per_second=1.0, clock=lambda: now[0])
    passed = [r for r in (_record("[conn=7, chan=0] Received window change: %sx%s") for _ in range(50))
              if budget.filter(r)]
    assert len(passed) == 6          # the burst, and one line saying so (in place of the sixth)
    assert passed[-1].getMessage() == "[conn=7] logging too fast: its lines are dropped for now"
    assert budget.filter(_record("[conn=8] Accepted SSH client connection"))   # others unaffected
    assert all(budget.filter(_record("no connection: %s %s")) for _ in range(50))
    now[0] += 2.0                                            # two lines' worth later
    later = [r for r in (_record("[conn=7, chan=0] Received window change: %sx%s") for _ in range(5))
             if budget.filter(r)]
    assert [r.getMessage() for r in later] == [
        "[conn=7, chan=0] Received window change: 80x24 (after 45 lines of this connection were dropped)",
        "[conn=7, chan=0] Received window change: 80x24",
        "[conn=7] logging too fast: its lines are dropped for now"]
