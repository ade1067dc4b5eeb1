"""Who may log in under which name, asked by the SSH server of `cardroom serve` and of every
gateway: the first key to use a name claims it, later logins need one of its keys; a new name
kept for the house, or a look-alike of a player's, is refused."""

from __future__ import annotations

import weakref

from cardroom.room.ports import Store
from cardroom.room.text import BadName, clean_name, is_reserved, name_skeleton

# How far below the highest account id seen the skeletons are read again: an account created
# by another process may be committed after one with a higher id (PostgreSQL hands ids out before
# the commit), and this many are never in flight at once.
IN_FLIGHT = 64


class _Skeletons:
    """The skeletons (room/text.name_skeleton) of every account's name, for the look-alike check
    of each new name: read from the store once, then only the accounts created since (names
    never change, accounts are never removed). Reading them all for every new name made a storm
    of new players' logins quadratic."""

    def __init__(self) -> None:
        self.by_id: dict[int, str] = {}
        self.skeletons: set[str] = set()
        self.highest = 0

    def taken(self, store: Store, skeleton: str) -> bool:
        for a in store.accounts(after=max(0, self.highest - IN_FLIGHT)):
            if a.id not in self.by_id:
                self.by_id[a.id] = name_skeleton(a.name)
                self.skeletons.add(self.by_id[a.id])
            self.highest = max(self.highest, a.id)
        return skeleton in self.skeletons


_SKELETONS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()   # store -> its _Skeletons


def _new_name_refusal(store: Store, name: str) -> str | None:
    """Why a name nobody has yet may not be taken (kept for the house, or a look-alike of a
    player's), or None."""
    if is_reserved(name):
        return f"the name {name!r} is kept for the house: log in with another name"
    skeletons = _SKELETONS.get(store)
    if skeletons is None:
        skeletons = _SKELETONS.setdefault(store, _Skeletons())
    if skeletons.taken(store, name_skeleton(name)):
        return f"the name {name!r} looks like another player's: log in with another name"
    return None


def _may_use_name(store: Store, name: str) -> bool:
    """A name no key has claimed yet, and for a new name: not reserved, not a look-alike."""
    existing = store.find(name)
    if existing is not None:
        return not store.keys(existing.id)
    return _new_name_refusal(store, name) is None


def make_authorize(store: Store):
    """Public-key auth: the first key to use a name claims it; later logins need one of its keys.
    A banned key is refused saying so (KeyRefused: the client shows it before "Permission denied")."""
    from cardroom.roles import frontdoor
    from cardroom.ssh import KeyRefused

    def authorize(username: str, key) -> bool:
        try:
            name = clean_name(username)
        except BadName:
            return False
        fingerprint = key.get_fingerprint("sha256")
        if store.is_banned(fingerprint):
            raise KeyRefused(frontdoor.ban_message(store, fingerprint))
        owner = store.account_for_key(fingerprint)
        if owner is not None:
            return owner.name == name
        return _may_use_name(store, name)

    return authorize


def make_name_refused(store: Store):
    """Why a login name can never be used (said before any key is tried), or None. Only new
    names: an account that exists is decided by its keys."""

    def refused(username: str) -> str | None:
        try:
            name = clean_name(username)
        except BadName as e:
            return f"{username!r} cannot be a player's name: {e}"
        return None if store.find(name) is not None else _new_name_refusal(store, name)

    return refused


def make_guest(store: Store):
    """Guest/demo mode (config: guest_passwords): any password, for names no key has claimed."""

    def guest(username: str) -> bool:
        try:
            return _may_use_name(store, clean_name(username))
        except BadName:
            return False

    return guest


__all__ = ["make_authorize", "make_guest", "make_name_refused"]
