"""Admin commands against a real room (real SQLite store, fake clock)."""

import asyncio

import pytest

from cardroom.admin.commands import (
    ADMIN_MAX_CENTS, COMMANDS, AdminContext, BadAmount, complete, execute, explain, parse_amount,
)
from cardroom.engine.money import format_cents
from cardroom.room.api import ChatRefused, RoomError, TableClosed
from cardroom.room.ports import HandStart, SeatStack

from tests.admin.conftest import ALICE_FP, ALICE_FP2, BOB_FP, BOSS_FP, SPACED
from tests.rooms import wait_for

HOSTILE = "\x1b[2J\x1b]0;pwned\x07\x9b31m\u202eevil\u202c [bold]x[/] [@click=app.quit]q[/]"


def printable(result):
    return all(line.isprintable() for line in result.lines)


def text(result):
    return "\n".join(result.lines)


def settle(store, table, a, b, *, delta=100, rake=0, history=""):
    """A recorded hand between accounts a and b (a wins `delta`, the house `rake`)."""
    hand_id = store.begin_hand(HandStart(table, (SeatStack(1, a, 1000), SeatStack(2, b, 1000)))).hand_id
    return store.settle_hand(hand_id, {a: delta, b: -delta - rake}, rake, "[]", history)


# -------------------------------------------------------------------------------- amounts

@pytest.mark.parametrize("typed, cents", [
    ("12.50", 1250), ("$12.50", 1250), ("12.5", 1250), ("7", 700), ("0.05", 5), ("$1", 100),
    ("007", 700), (f"{ADMIN_MAX_CENTS // 100}", ADMIN_MAX_CENTS),
])
def test_amounts_parse_to_cents(typed, cents):
    assert parse_amount(typed) == cents


@pytest.mark.parametrize("typed", [
    "1_000", "-5", "+5", "1e3", "12.", ".5", "12.505", "1,000", " 5", "5 ", "$ 5", "$$5",
    "\uff11\uff12", "\u0662", "\u0665.00", "0", "0.00", "$0", "", "nan", "inf", "0x10", "12.5$",
    "5\n", f"{ADMIN_MAX_CENTS // 100 + 1}", "9" * 40,
])
def test_amounts_a_person_did_not_mean_are_refused(typed):
    with pytest.raises(BadAmount):
        parse_amount(typed)


# ---------------------------------------------------------------------------------- who, tables

def test_who_lists_online_and_seated_offline_players(admin):
    alice, bob = admin.players()
    bob.close()
    result = admin.run("who")
    assert result.ok, result
    out = text(result)
    assert "2 online, 1 seated but offline" in out
    alice_line = next(line for line in result.lines if line.startswith("alice"))
    assert "online (1 session)" in alice_line and "T (seat" in alice_line and "$100" in alice_line
    bob_line = next(line for line in result.lines if line.startswith("bob"))
    assert "offline" in bob_line and "disconnected" in bob_line
    assert any(line.startswith("boss") and "no table" in line for line in result.lines)


def test_who_shows_hostile_names_harmlessly(admin):
    name = "\x1b[31mred\x1b[0m\u202e"
    admin.room.connect(name)
    result = admin.run("who")
    assert result.ok and printable(result)
    assert "\x1b" not in text(result) and "\u202e" not in text(result)
    assert "[31mred[0m" in text(result)


def test_tables_lists_every_table(admin):
    admin.players()
    result = admin.run("tables")
    assert result.ok
    assert result.lines[0].startswith("T: ") and "open" in result.lines[0]
    assert "2/6 seated" in result.lines[0]
    assert result.lines[1].startswith(SPACED + ": ")
    assert not admin.run("tables extra").ok


# ---------------------------------------------------------------------------- open, close, pause

@pytest.mark.parametrize("typed", [SPACED, f'"{SPACED}"', "planet hold'em $2/$4"])
def test_close_pause_open_a_table_named_with_spaces_and_quotes(admin, typed):
    table = admin.room.tables[SPACED]
    result = admin.run(f"close {typed}")
    assert result.ok, result
    assert table.status == "closed"
    c = admin.room.connect("carol")
    with pytest.raises(TableClosed):
        c.join(SPACED)
    assert admin.run(f"pause {typed}").ok and table.status == "paused"
    assert admin.run(f"open {typed}").ok and table.status == "open"
    again = admin.run(f"open {typed}")
    assert again.ok and "already open" in text(again)
    assert any("The table is closed" in line.text for line in table.chat)


def test_pausing_a_table_stops_new_hands(admin):
    admin.players()
    assert admin.run("pause T").ok
    admin.clock.advance(30)
    assert admin.room.tables["T"].hand is None
    assert admin.run("open T").ok
    admin.clock.advance(1)
    assert admin.room.tables["T"].hand is not None


@pytest.mark.parametrize("line", [
    "open", "open Nowhere", "close 'T", 'pause "Planet', "open T T", "close \x1b[2J",
])
def test_bad_table_commands_change_nothing(admin, line):
    admin.players()
    before = admin.state()
    result = admin.run(line)
    assert not result.ok and result.lines and printable(result)
    assert admin.state() == before


# ------------------------------------------------------------------------------------------ kick

def test_kick_removes_the_player_and_returns_the_chips(admin):
    alice, bob = admin.players()
    assert alice.my_money().on_tables == {"T": 10_000}
    result = admin.run("kick alice stalling [bold]again[/] \x1b]0;x\x07")
    assert result.ok, result
    table = admin.room.tables["T"]
    assert table.seat_of(alice.account_id) is None
    money = alice.my_money()
    assert money.balance == 100_000 and money.on_tables == {}
    assert "removed alice from T ($100 back to the balance)" in text(result)
    said = [line.text for line in table.chat if "removed by an admin" in line.text]
    assert said == ["alice is removed by an admin: stalling [bold]again[/] ]0;x"]
    assert alice.pages[-1] == "An admin removed you from T: stalling [bold]again[/] ]0;x"
    assert table.seat_of(bob.account_id) is not None
    admin.conserved()


def test_kick_during_a_hand_removes_the_player_when_the_hand_ends(admin):
    alice, bob, carol = admin.players(names=("alice", "bob", "carol"),
                                      keys=(ALICE_FP, BOB_FP, "SHA256:" + "d" * 43))
    admin.clock.advance(0.1)
    table = admin.room.tables["T"]
    assert table.hand is not None and not table.hand.over
    result = admin.run("kick bob")
    assert result.ok and "after the hand in progress" in text(result)
    assert admin.clock.run_until(lambda: table.seat_of(bob.account_id) is None, limit=900)
    assert bob.my_money().on_tables == {}
    assert bob.my_money().total == bob.my_money().balance
    admin.conserved()


def test_kick_on_the_players_turn_reports_what_came_back_not_what_was_in_the_pot(admin):
    """Kicked while it is his turn, the player folds and leaves at once; the blind he posted stays in
    the pot, so what comes back is his stack less that blind (the report said the whole $100)."""
    players = admin.players()
    admin.clock.advance(0.1)
    table = admin.room.tables["T"]
    hand = table.hand
    actor = next(c for c in players if table.hand_seats[hand.actor] == table.seat_of(c.account_id).number)
    posted = hand.totals[hand.actor]
    assert posted > 0
    before = actor.my_money().balance
    result = admin.run(f"kick {actor.name}")
    assert result.ok and table.seat_of(actor.account_id) is None
    back = actor.my_money().balance - before
    assert back == 10_000 - posted
    assert f"removed {actor.name} from T ({format_cents(back)} back to the balance)" in text(result)
    admin.conserved()


@pytest.mark.parametrize("line", ["kick", "kick nobody", "kick boss", 'kick "alice', "kick  "])
def test_bad_kicks_change_nothing(admin, line):
    admin.players()
    before = admin.state()
    result = admin.run(line)
    assert not result.ok and result.lines
    assert admin.state() == before


def test_kick_accepts_quoted_names_with_spaces(admin):
    c = admin.room.connect("Bob Smith")
    c.join("T")
    c.buy_in("T", 5000)
    assert not admin.run("kick Bob Smith").ok          # unquoted: "Bob" is no player
    result = admin.run("kick 'Bob Smith' he's stalling")
    assert result.ok, result
    assert admin.room.tables["T"].seat_of(c.account_id) is None
    assert c.pages[-1].endswith("he's stalling")


# ------------------------------------------------------------------------------------------ ban

def test_ban_by_name_bans_every_key_kicks_and_closes_sessions(admin):
    alice, bob = admin.players()
    admin.store.add_key(alice.account_id, ALICE_FP2)
    alice.watch(SPACED)
    second = admin.room.connect("alice", ALICE_FP)   # a second login takes over from the first
    result = admin.run("ban alice chip dumping")
    assert result.ok, result
    assert admin.store.is_banned(ALICE_FP) and admin.store.is_banned(ALICE_FP2)
    assert not admin.store.is_banned(BOB_FP)
    bans = {b.fingerprint: b for b in admin.store.bans()}
    assert bans[ALICE_FP].reason == "chip dumping" and bans[ALICE_FP].admin == BOSS_FP
    assert alice.closed and second.closed
    assert alice.account_id not in admin.room.clients
    assert admin.room.tables["T"].seat_of(alice.account_id) is None
    assert alice.taken_over
    assert second.pages[-1] == "You are banned from the card room: chip dumping"
    assert alice.my_money().on_tables == {}
    assert "closed 1 session(s) of alice" in text(result)
    with pytest.raises(RoomError, match="banned"):
        admin.room.connect("alice", ALICE_FP)          # the key is refused
    with pytest.raises(RoomError, match="banned"):
        admin.room.connect("alice2", ALICE_FP2)
    for session in (alice, second):      # found by an attack: a banned session took a seat
        with pytest.raises(RoomError, match="closed"):
            session.join(SPACED)
    assert admin.room.tables[SPACED].seat_of(alice.account_id) is None
    assert not bob.closed
    admin.conserved()


def test_kick_and_ban_end_the_players_sessions_saying_why(admin):
    """Over ssh, ending a session hangs it up and writes the reason on the player's terminal."""
    alice, bob = admin.players()
    ended = {alice.name: [], bob.name: []}
    alice.on_end(ended[alice.name].append)
    bob.on_end(ended[bob.name].append)
    assert admin.run("kick alice stalling").ok
    assert alice.closed and ended["alice"] == ["An admin removed you from T: stalling"]
    assert admin.run("ban bob").ok
    assert bob.closed and ended["bob"] == ["You are banned from the card room"]
    assert admin.room.clients.get(alice.account_id) is None
    with pytest.raises(RoomError, match="closed"):
        alice.join("T")
    admin.conserved()


def test_an_admin_cannot_kick_himself(admin):
    admin.boss.join("T")
    admin.boss.buy_in("T", 5_000)
    result = admin.run("kick boss")
    assert not result.ok and "yourself" in text(result)
    assert not admin.boss.closed and admin.room.tables["T"].seat_of(admin.boss.account_id) is not None


def test_ban_by_fingerprint_and_a_key_nobody_used_yet(admin):
    alice, _ = admin.players()
    result = admin.run(f"ban {ALICE_FP}")
    assert result.ok, result
    assert admin.store.is_banned(ALICE_FP) and alice.closed
    stranger = "SHA256:" + "Z" * 43
    assert admin.run(f"ban {stranger} spam bot").ok
    assert admin.store.is_banned(stranger)
    with pytest.raises(RoomError):
        admin.room.connect("newbie", stranger)
    admin.conserved()


@pytest.mark.parametrize("line", [
    "ban", "ban nobody", "ban boss", f"ban {BOSS_FP}", "ban SHA256:short", "ban 'alice",
    "ban keyless",
])
def test_bad_bans_change_nothing(admin, line):
    admin.players()
    admin.room.connect("keyless")
    before = admin.state()
    result = admin.run(line)
    assert not result.ok and result.lines, result
    assert admin.state() == before


def test_unban_by_fingerprint_and_by_name(admin):
    admin.players()
    admin.store.add_key(admin.store.find("alice").id, ALICE_FP2)
    assert admin.run("ban alice").ok
    assert admin.run(f"unban {ALICE_FP}").ok
    assert not admin.store.is_banned(ALICE_FP) and admin.store.is_banned(ALICE_FP2)
    assert admin.run("unban alice").ok
    assert admin.store.bans() == []
    before = admin.state()
    for line in (f"unban {ALICE_FP}", "unban alice", "unban", "unban nobody", "unban a b"):
        assert not admin.run(line).ok, line
    assert admin.state() == before
    admin.room.connect("alice", ALICE_FP)              # welcome back


# ------------------------------------------------------------------------------------ mute

def test_a_mute_outlives_a_restart_of_the_room(admin):
    """Kept in the store like a ban: a new Room over the same database still refuses the chat."""
    from tests.rooms import build_room, table_settings

    alice, _ = admin.players()
    assert admin.run("mute alice").ok
    reopened, _, _ = build_room(None, table_settings("T"), store=admin.store, clock=admin.clock)
    again = reopened.connect("alice", ALICE_FP)
    again.join("T")
    with pytest.raises(ChatRefused, match="muted"):
        again.chat("T", "I'm back")
    assert asyncio.run(reopened.set_muted(again.account_id, False, BOSS_FP))
    again.chat("T", "thanks")


def test_mute_blocks_chat_and_unmute_allows_it(admin):
    alice, bob = admin.players()
    assert admin.run("mute alice").ok
    with pytest.raises(ChatRefused, match="muted"):
        alice.chat("T", "hello")
    assert admin.run("mute alice").ok                  # already muted: says so
    bob.chat("T", "still here")
    assert admin.run("unmute alice").ok
    alice.chat("T", "hello again")
    assert [line.text for line in admin.room.tables["T"].chat if line.kind == "player"] == [
        "still here", "hello again"]
    before = admin.state()
    assert not admin.run("mute").ok and not admin.run("mute ghost").ok
    assert admin.state() == before


# ------------------------------------------------------------------------------ credit, debit

def test_credit_shows_in_my_money_and_the_ledger_names_the_admin(admin):
    alice, _ = admin.players()
    assert alice.my_money().balance == 90_000
    result = admin.run("credit alice $12.50 refund: hand 42 [bold]misdeal[/]")
    assert result.ok, result
    assert alice.my_money().balance == 91_250
    entry = admin.store.ledger(alice.account_id, limit=1)[0]
    assert (entry.kind, entry.amount_cents, entry.admin) == ("credit", 1250, BOSS_FP)
    assert entry.reason == "refund: hand 42 [bold]misdeal[/]"
    assert "credited $12.50 to alice" in result.lines[0]
    assert alice.pages[-1] == "An admin credited $12.50 to your account: refund: hand 42 " \
                              "[bold]misdeal[/]"
    assert admin.run("debit alice 2.5 correction").ok
    assert alice.my_money().balance == 91_000
    assert admin.store.ledger(alice.account_id, limit=1)[0].kind == "debit"
    admin.conserved()


def test_a_credit_reason_is_cleaned_before_the_ledger(admin):
    admin.players()
    assert admin.run(f"credit alice 1 {HOSTILE}").ok
    reason = admin.store.ledger(admin.store.find("alice").id, limit=1)[0].reason
    assert reason.isprintable() and "\x1b" not in reason and "\u202e" not in reason


def test_an_admin_may_not_credit_themselves(admin):
    before = admin.state()
    for line in ("credit boss 100 because", "debit boss 1 because"):
        result = admin.run(line)
        assert not result.ok
        assert "may not adjust their own account" in text(result)
    assert admin.state() == before
    by_name = AdminContext(admin.room, admin.store, "boss", lambda: None)
    assert not admin.run("credit boss 5 me", by_name).ok
    assert admin.state() == before


def test_debit_below_zero_is_refused(admin):
    admin.players()
    before = admin.state()
    result = admin.run("debit alice 900.01 too much")        # balance $900, chips don't count
    assert not result.ok and "refused" in text(result)
    assert "'alice' has $900, $900.01 is needed" in text(result)   # in dollars, not cents
    assert admin.state() == before
    assert admin.run("debit alice 900 all of it").ok
    assert admin.store.balance(admin.store.find("alice").id) == 0
    admin.conserved()


@pytest.mark.parametrize("line", [
    "credit", "credit alice", "credit alice 5", "credit alice 5   ", "credit alice 5 \x1b\x07",
    "credit alice 1_000 x", "credit alice -5 x", "credit alice +5 x", "credit alice 5.001 x",
    "credit alice \uff15 x", "credit alice 0 x", "credit alice 1e3 x", "credit alice 5,00 x",
    "credit ghost 5 x", "credit 'alice 5 x", "debit alice 99999999 x", "credit alice nan x",
    "debit alice 0.00 x", "credit alice 10000000.01 typo",
])
def test_bad_adjustments_change_nothing(admin, line):
    admin.players()
    before = admin.state()
    result = admin.run(line)
    assert not result.ok and result.lines and printable(result), result
    assert admin.state() == before
    admin.conserved()


# ----------------------------------------------------------------------------------- broadcast

def test_broadcast_reaches_every_table_and_session_sanitised(admin):
    alice, _ = admin.players()
    result = admin.run(f"broadcast Server restarts in 5 minutes {HOSTILE}")
    assert result.ok and printable(result)
    said = [line for line in admin.room.tables[SPACED].chat if line.kind == "system"][-1]
    assert said.text.startswith("Server restarts in 5 minutes")
    assert said.text.isprintable() and "\x1b" not in said.text and "\u202e" not in said.text
    assert "[bold]x[/]" in said.text                         # literal: render with markup off
    assert alice.pages[-1] == said.text
    assert len(said.text) <= 200
    before = admin.state()
    assert not admin.run("broadcast").ok
    assert not admin.run("broadcast \x1b\x07 \u200b\x00").ok  # nothing left once cleaned
    assert admin.state() == before


# ---------------------------------------------------------------------------------- hand, rake

def test_hand_shows_the_stored_history_text(admin):
    a, b = (admin.room.connect(n).account_id for n in ("ann", "ben"))
    for acct in (a, b):
        admin.store.buy_in(acct, "T", 1000)
    history = "PokerStars Hand #77: Hold'em Limit ($2/$4)\nSeat 1: ann \x1b[31m($10 in chips)\n" \
              "ann collected $2 from pot"
    hand_id = settle(admin.store, "T", a, b, history=history).hand_id
    result = admin.run(f"hand {hand_id}")
    assert result.ok and printable(result)
    assert result.lines[0] == "PokerStars Hand #77: Hold'em Limit ($2/$4)"
    assert result.lines[1] == "Seat 1: ann [31m($10 in chips)"
    assert admin.run(f"hand #{hand_id}").lines == result.lines


def test_hand_without_history_shows_a_summary(admin):
    a, b = (admin.room.connect(n).account_id for n in ("ann", "ben"))
    for acct in (a, b):
        admin.store.buy_in(acct, "T", 1000)
    hand_id = settle(admin.store, "T", a, b, delta=150, rake=10).hand_id
    result = admin.run(f"hand {hand_id}")
    assert result.ok
    out = text(result)
    assert f"Hand #{hand_id} at T: settled" in out
    assert "seat 1: ann $10 -> $11.50" in out and "seat 2: ben $10 -> $8.40" in out
    assert "rake $0.10" in out
    for line in ("hand", "hand 999", "hand 1 2", "hand '"):
        assert not admin.run(line).ok


def test_a_hand_played_at_a_real_table_can_be_looked_up(admin):
    admin.players()
    table = admin.room.tables["T"]
    admin.clock.advance(0.1)
    hand_id = table.hand_id
    assert admin.clock.run_until(lambda: admin.store.get_hand(hand_id).status == "settled",
                                 limit=900)
    assert f"hand {table.hand_id}" in complete(admin.ctx, "hand ")
    result = admin.run(f"hand {hand_id}")
    assert result.ok and len(result.lines) >= 3 and printable(result)


def test_rake_totals_and_per_table(admin):
    accts = [admin.room.connect(n).account_id for n in ("ann", "ben")]
    for t in ("T", SPACED):
        for acct in accts:
            admin.store.buy_in(acct, t, 2000)
    settle(admin.store, "T", *accts, rake=30)
    settle(admin.store, "T", *accts, rake=20)
    settle(admin.store, SPACED, *accts, rake=300)
    result = admin.run("rake")
    assert result.ok
    assert result.lines == ("total rake $3.50", f"  {SPACED}: $3 from 1 hand(s)",
                            "  T: $0.50 from 2 hand(s)")
    assert not admin.run("rake now").ok


def test_rake_with_nothing_collected(admin):
    assert admin.run("rake").lines == ("total rake $0",)


def test_audit_reports_a_ledger_that_adds_up(admin):
    admin.players()
    settle(admin.store, "T", admin.store.find("alice").id, admin.store.find("bob").id, rake=30)
    result = admin.run("audit")
    assert result.ok
    assert result.lines == (("the ledger adds up: 3 account(s), the room holds $3,000 = starting "
                             "money + credits - debits, and every settled hand sums to zero with its rake"),)
    assert not admin.run("audit now").ok


def test_audit_names_a_balance_changed_by_hand_in_sql(admin):
    import sqlite3

    admin.players()
    conn = sqlite3.connect(admin.store.path)
    with conn:
        conn.execute("UPDATE accounts SET balance_cents = balance_cents - 1250 WHERE name = 'alice'")
    conn.close()
    before = admin.state()
    result = admin.run("audit")
    assert not result.ok
    assert result.lines[:2] == (
        "the ledger does not add up (2 problem(s)):",
        "  'alice' has a balance of $887.50, the ledger gives $900: $12.50 less than the ledger records")
    assert "$12.50 less" in result.lines[2]
    assert admin.state() == before


# ------------------------------------------------------------------------- shutdown, help, misc

def test_shutdown_needs_the_word_now(admin):
    for line in ("shutdown", "shutdown please", "shutdown nowx", "shutdown now please"):
        result = admin.run(line)
        assert not result.ok and "shutdown now" in text(result)
    assert admin.shutdowns == []
    assert admin.run("shutdown now").ok
    assert admin.shutdowns == [1]


def test_shutdown_in_counts_down_warning_everyone_then_stops(admin):
    alice, bob = admin.players()
    result = admin.run("shutdown in 5")
    assert result.ok and "closes in 5 minutes" in text(result)
    assert alice.pages[-1].startswith("The room closes in 5 minutes")
    admin.clock.advance(240)
    assert bob.pages[-1].startswith("The room closes in 1 minute")
    assert admin.shutdowns == []
    admin.clock.run_until(lambda: admin.shutdowns, limit=600)
    assert admin.shutdowns == [1]
    assert all(admin.store.get_hand(t.hand_id).status == "settled"
               for t in admin.room.tables.values() if t.hand_id)
    admin.conserved()


def test_shutdown_in_seconds_and_cancel(admin):
    assert not admin.run("shutdown cancel").ok                 # nothing to cancel
    assert admin.run("shutdown in 30s").ok
    assert admin.room.closing_at == admin.clock.now() + 30
    result = admin.run("shutdown cancel")
    assert result.ok and "stays open" in text(result)
    admin.clock.advance(60)
    assert admin.shutdowns == [] and admin.room.closing_at is None


@pytest.mark.parametrize("line", ["shutdown in", "shutdown in 0", "shutdown in -5", "shutdown in 5h",
                                  "shutdown in 1441", "shutdown in 5 minutes", "shutdown in x",
                                  "shutdown in \uff15", "shutdown cancel now"])
def test_bad_shutdown_countdowns_are_refused_and_change_nothing(admin, line):
    result = admin.run(line)
    assert not result.ok and result.lines
    assert admin.room.closing_at is None and admin.shutdowns == []


def test_help_and_explain(admin):
    result = admin.run("help")
    assert result.ok and len(result.lines) == len(COMMANDS)
    assert all(any(line.startswith(c.usage) for line in result.lines) for c in COMMANDS.values())
    assert admin.run("help credit").lines == (explain("credit"),)
    assert explain("CREDIT").startswith("credit NAME AMOUNT REASON...")
    assert explain("nope") == "" and explain("") == ""
    assert not admin.run("help nope").ok and not admin.run("help a b").ok


@pytest.mark.parametrize("line", [
    "", "   ", "frobnicate", "\x1b[2Jwho", "WHO now", "x" * 5000, "kick 'unterminated",
    "credit \"alice 5 x", "who \x00",
])
def test_bad_lines_change_nothing_and_say_why(admin, line):
    admin.players()
    before = admin.state()
    result = admin.run(line)
    assert not result.ok and result.lines and printable(result)
    assert all(len(s) <= 500 for s in result.lines)
    assert admin.state() == before


def test_commands_are_case_insensitive(admin):
    assert admin.run("WHO").ok and admin.run("Tables").ok


def test_a_context_that_is_not_authorised_runs_nothing(admin):
    admin.players()
    allowed = [False]
    ctx = AdminContext(admin.room, admin.store, "SHA256:" + "n" * 43, lambda: None,
                       authorized=lambda: allowed[0])
    before = admin.state()
    for line in ("credit alice 5 x", "kick alice", "shutdown now", "ban alice", "who"):
        result = admin.run(line, ctx)
        assert not result.ok and "not an admin" in text(result)
    assert admin.state() == before
    allowed[0] = True
    assert admin.run("credit alice 5 ok now", ctx).ok


def test_a_store_failure_is_reported_not_raised(admin):
    admin.players()
    admin.store.close()
    result = admin.run("credit alice 5 x")
    assert not result.ok and result.lines


# ---------------------------------------------------------------------------------- completion

def test_complete_command_names_then_arguments(admin):
    admin.players()
    admin.room.connect("Bob Smith")
    ctx = admin.ctx
    assert complete(ctx, "") == sorted(c + " " for c in COMMANDS)
    assert complete(ctx, "cr") == ["credit "]
    assert complete(ctx, "un") == ["unban ", "unmute "]
    assert complete(ctx, "open ") == ["open " + SPACED, "open T"]
    assert complete(ctx, "open pl") == ["open " + SPACED]
    assert complete(ctx, "kick al") == ["kick alice "]
    assert complete(ctx, "credit bob") == ["credit bob ", "credit 'Bob Smith' "]
    assert complete(ctx, "credit 'Bob S") == ["credit 'Bob Smith' "]
    assert complete(ctx, "credit alice ") == []               # amounts are not guessed
    assert complete(ctx, "help cr") == ["help credit"]
    assert complete(ctx, "shutdown ") == ["shutdown cancel", "shutdown in", "shutdown now"]
    assert complete(ctx, "who ") == [] and complete(ctx, "nope x") == []
    assert complete(ctx, "ban SHA256:a") == [f"ban {ALICE_FP} "]
    assert complete(ctx, "unban ") == []
    admin.run("ban bob")
    assert complete(ctx, "unban ") == [f"unban {BOB_FP}"]
    assert complete(ctx, "unmute ") == []
    admin.run("mute alice")
    assert complete(ctx, "unmute ") == ["unmute alice"]


def test_completion_never_offers_unprintable_names(admin):
    admin.room.connect("\x1b[31mevil")
    assert all(c.isprintable() for c in complete(admin.ctx, "kick "))
    assert complete(admin.ctx, "kick \x1b") == []


class ThreadedRoom:
    """The server's set-up: a room whose store writes run on the StoreWriter thread (real loop)."""

    def __init__(self, tmp_path) -> None:
        from cardroom.room.clock import LoopClock
        from cardroom.room.writer import StoreWriter
        from tests.rooms import build_room, table_settings

        self.writer = StoreWriter()
        self.room, self.store, _ = build_room(tmp_path / "r.sqlite3", table_settings("T"), clock=LoopClock(),
                                              writer=self.writer)
        self.ctx = AdminContext(self.room, self.store, BOSS_FP, lambda: None)

    async def close(self) -> None:
        await self.writer.run(lambda: None)
        self.writer.close()
        self.store.close()


async def test_an_admin_credit_waiting_on_a_busy_database_does_not_stall_the_loop(tmp_path):
    """Issue 19: the admin's store writes ran on the loop, so a database held by another
    process froze every session while the command waited."""
    import sqlite3

    world = ThreadedRoom(tmp_path)
    try:
        alice = await world.room.login("alice", ALICE_FP)
        held = sqlite3.connect(world.store.path, isolation_level=None)
        held.execute("BEGIN EXCLUSIVE")
        try:
            command = asyncio.ensure_future(execute(world.ctx, "credit alice 5 refund"))
            ticks = 0
            while ticks < 20:                 # the loop goes on while the credit waits
                await asyncio.sleep(0)        # one loop turn: turns passing is the point
                ticks += 1
            assert not command.done()
        finally:
            held.execute("ROLLBACK")
            held.close()
        result = await command
        assert result.ok and world.store.balance(alice.account_id) == 100_500
    finally:
        await world.close()


async def test_a_kick_with_the_store_writer_says_the_chips_are_on_their_way_back(tmp_path):
    """With the server's writer thread the cash-out is recorded after the command returns: the
    admin read 'leaves after the hand in progress' for a player who was not in a hand."""
    world = ThreadedRoom(tmp_path)
    room, store = world.room, world.store
    try:
        alice = await room.login("alice", ALICE_FP)
        alice.join("T")
        alice.buy_in("T", 10_000)
        await wait_for(lambda: room.tables["T"].seat_of(alice.account_id).stack != 0, 10,
                       what="alice's buy-in on the table")
        result = await execute(world.ctx, "kick alice stalling")
        assert result.ok and "removing alice from T ($100 going back to the balance)" in result.lines
        await wait_for(lambda: room.tables["T"].seat_of(alice.account_id) is None, 10, what="alice removed")
        assert store.balance(alice.account_id) == 100_000
    finally:
        await world.close()


async def test_preferences_kept_while_the_database_is_busy_do_not_stall_the_loop(tmp_path):
    """Issue 19 (every store write off the loop): keeping a player's options wrote on the loop,
    so a database held by another process froze every session for up to the busy timeout."""
    import sqlite3
    import time

    world = ThreadedRoom(tmp_path)
    try:
        alice = await world.room.login("alice", ALICE_FP)
        held = sqlite3.connect(world.store.path, isolation_level=None)
        held.execute("BEGIN EXCLUSIVE")
        try:
            started = time.monotonic()
            alice.save_preferences({"ascii": "1"})
            assert time.monotonic() - started < 0.5       # handed to the writer, not waited for
            assert alice.preferences() == {}               # not written yet: the writer waits
        finally:
            held.execute("ROLLBACK")
            held.close()
        await world.writer.run(lambda: None)               # the writes given before are done
        assert alice.preferences() == {"ascii": "1"}
    finally:
        await world.close()


def test_hand_is_dated_by_its_start_as_the_players_exports_are(admin):
    """Issue 35: `hand N` dated a hand by its end while a player's exports (SFTP, history) date it
    by its start. Both now give the start the store recorded."""
    from cardroom.room.history import export_pokerstars
    alice, _ = admin.players()
    table = admin.room.tables["T"]
    admin.clock.advance(0.1)
    hand_id = table.hand_id
    admin.clock.advance(40)                      # the hand ends (timeouts) well after it began
    assert admin.clock.run_until(lambda: admin.store.get_hand(hand_id).status == "settled", limit=900)
    header = admin.run(f"hand {hand_id}").lines[0]
    assert header == export_pokerstars(alice.hand(hand_id)).splitlines()[0]
    started = admin.store.get_hand(hand_id).started_at
    assert started.strftime(":%M:%S ET") in header          # written in ET, as PokerStars does
