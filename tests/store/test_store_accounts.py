"""Accounts, names and keys."""

import pytest

from cardroom.room.ports import (
    Account, InvalidAmount, KeyInUse, NameTaken, Refused, Store, UnknownAccount,
)


def test_the_store_satisfies_the_rooms_protocol(store):
    assert isinstance(store, Store)


def test_get_or_create_opens_an_account_once_with_an_open_ledger_entry(store):
    a = store.get_or_create("ann", 2500)
    assert isinstance(a, Account)
    assert (a.name, a.balance_cents, a.starting_cents, a.is_admin) == ("ann", 2500, 2500, False)
    again = store.get_or_create("ann", 999_999)         # existing: starting money ignored
    assert again == a
    [entry] = store.ledger(a.id)
    assert (entry.kind, entry.amount_cents, entry.account_id) == ("open", 2500, a.id)
    assert store.expected_money() == store.total_money() == 2500
    assert store.get(a.id) == a and store.find("ann") == a and store.find("bob") is None
    assert store.accounts() == [a]


@pytest.mark.parametrize("name", [
    "x'); DROP TABLE accounts; --",
    "Robert\x00Tables",
    "\u202eevil\u202c",
    "\x1b[31mred\x1b[0m",
    "",
    "名前" * 50,
])
def test_names_are_stored_exactly_as_given_with_bound_parameters(store, open_store, db, name):
    if "\x00" in name and db.name == "postgresql":    # its text cannot hold NUL: a refusal
        with pytest.raises(Refused, match="NUL"):
            store.get_or_create(name, 100)
        assert store.accounts() == []
        return
    a = store.get_or_create(name, 100)
    assert store.find(name).name == name
    with open_store() as other:
        assert other.get(a.id).name == name
    assert len(store.accounts()) == 1                   # the table is still there
    store.audit()


@pytest.mark.parametrize("bad", [1.0, True, "100", -1, 10**13, None])
def test_bad_starting_money_is_refused(store, bad):
    with pytest.raises(InvalidAmount):
        store.get_or_create("ann", bad)
    assert store.accounts() == []


def test_unknown_accounts(store):
    with pytest.raises(UnknownAccount):
        store.get(42)
    with pytest.raises(UnknownAccount):
        store.get("1")


def test_the_first_key_claims_a_name(store):
    a = store.claim("ann", "SHA256:aaa", 1000)
    assert store.keys(a.id) == ("SHA256:aaa",)
    assert store.claim("ann", "SHA256:aaa", 1000) == a          # same key: same account
    with pytest.raises(NameTaken):
        store.claim("ann", "SHA256:mallory", 1000)                # another key: refused
    assert store.account_for_key("SHA256:aaa") == a
    assert store.account_for_key("SHA256:mallory") is None
    with pytest.raises(KeyInUse):
        store.claim("bob", "SHA256:aaa", 1000)                    # a key is one account's
    assert store.find("bob") is None                             # ...and nothing was created


def test_an_account_without_keys_is_claimed_by_the_first_key(store):
    hot_seat = store.get_or_create("carl", 500)
    assert store.claim("carl", "SHA256:c1", 1000) == hot_seat
    with pytest.raises(NameTaken):
        store.claim("carl", "SHA256:c2", 1000)


def test_adding_and_removing_keys(store):
    a = store.claim("ann", "k1", 100)
    b = store.claim("bob", "k2", 100)
    store.add_key(a.id, "k3")
    store.add_key(a.id, "k3")                                     # idempotent
    assert set(store.keys(a.id)) == {"k1", "k3"}
    assert store.claim("ann", "k3", 0) == a
    with pytest.raises(KeyInUse):
        store.add_key(a.id, "k2")
    with pytest.raises(Refused):
        store.add_key(a.id, "")
    assert store.remove_key(a.id, "k1") is True
    assert store.remove_key(a.id, "k1") is False
    assert store.remove_key(a.id, "k2") is False                  # not ann's key
    assert store.keys(a.id) == ("k3",) and store.keys(b.id) == ("k2",)


def test_set_admin(store):
    a = store.get_or_create("ann", 0)
    assert store.set_admin(a.id, True).is_admin is True
    assert store.get(a.id).is_admin is True
    assert store.set_admin(a.id, False).is_admin is False
    with pytest.raises(Refused):
        store.set_admin(a.id, 1)


def test_preferences_are_kept_per_account_and_replaced_by_name(store, open_store):
    ann, bob = store.get_or_create("ann", 1_000), store.get_or_create("bob", 1_000)
    assert store.preferences(ann.id) == {}
    store.set_preferences(ann.id, {"ascii": "1", "theme": "nord"})
    store.set_preferences(ann.id, {"ascii": "0"})          # replaces one, keeps the other
    assert open_store().preferences(ann.id) == {"ascii": "0", "theme": "nord"}
    assert store.preferences(bob.id) == {}


def test_preferences_the_schema_refuses_change_nothing(store):
    ann = store.get_or_create("ann", 1_000)
    store.set_preferences(ann.id, {"theme": "nord"})
    with pytest.raises(Refused):                           # the second row breaks a CHECK
        store.set_preferences(ann.id, {"theme": "dark", "x" * 33: "1"})
    with pytest.raises(UnknownAccount):
        store.set_preferences(ann.id + 99, {"theme": "dark"})
    assert store.preferences(ann.id) == {"theme": "nord"}
