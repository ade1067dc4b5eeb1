"""Who plays a room's tournaments: accounts. The director names a player by any key
(engine/tournament/records.py: `Player`, str | int); in the room that key is always the
player's account id, and `account_of` says so where the room needs the id back."""

from __future__ import annotations

from cardroom.engine.tournament.records import Player


def account_of(player: Player) -> int:
    """The account id the director's `player` is (the room registers accounts, nothing else)."""
    if not isinstance(player, int):
        raise TypeError(f"a room tournament's player is an account id, not {player!r}")
    return player


__all__ = ["account_of"]
