"""The room logs its own events through `logging` (cardroom serve writes them to its log): who
logged in and out, who sat down, bought in and left, and every admin command with its outcome."""

import logging

from tests.admin.conftest import ALICE_FP


def test_the_room_logs_logins_seating_and_admin_actions(admin, caplog):
    caplog.set_level(logging.INFO, logger="cardroom")
    alice = admin.room.connect("alice", ALICE_FP)
    seat = alice.join("T")
    alice.buy_in("T", 10_000)
    alice.leave("T")
    again = admin.room.connect("alice", ALICE_FP)
    again.close()
    assert admin.run("credit alice 5 refund").ok
    assert not admin.run("credit nobody 5 refund").ok
    logged = [(r.name, r.getMessage()) for r in caplog.records]
    assert ("cardroom.room", f"login: alice (account {alice.account_id}, key {ALICE_FP})") in logged
    takes_over = f"login: alice (account {alice.account_id}, key {ALICE_FP}) takes over the session before"
    assert ("cardroom.room", takes_over) in logged
    assert ("cardroom.room", "logout: alice") in logged
    assert ("cardroom.table", f"T: alice sits down in seat {seat}") in logged
    assert ("cardroom.table", "T: alice buys in for $100") in logged
    assert ("cardroom.table", "T: alice leaves the table, cashing out $100") in logged
    admin_lines = [m for n, m in logged if n == "cardroom.admin"]
    assert admin_lines[0] == f"admin {admin.ctx.admin}: 'credit alice 5 refund' done"
    assert admin_lines[1].startswith(f"admin {admin.ctx.admin}: 'credit nobody 5 refund' refused: ")
    assert not admin.run("debit alice 900000 too much").ok         # the store refuses it
    refused = [m for n, m in ((r.name, r.getMessage()) for r in caplog.records) if n == "cardroom.admin"][-1]
    assert "refused: " in refused and "refused: refused:" not in refused    # issue 35: said twice
