"""NATS subject names of the card room.

    cr.t.<tok>.i              a table's intents: request/reply, served by the host that owns it
    cr.t.<tok>.v              the table's public view (what every railbird sees), after each change
    cr.t.<tok>.s.<account>    one seated account's own view of it; nobody else's cards go here
    cr.lobby                  lobby rows from the table hosts (changed rows, and all every 2 s)
    cr.a.<account>            the account's events: pages, and the end of its session
    cr.presence               a remote session online / offline (gateway -> table hosts)
    cr.presence.ask           a table host that just came asks every gateway to say who is online
    cr.gateway.hb             a gateway's heartbeat; cr.host.hb a table host's (bus/liveness.py)
    cr.tn.<N>.i               tournament #N's room actions (Register ...): request/reply, served by
                              the table host that owns it (bus/tournaments.py)
    cr.tn.<N>.adm             an operator's act on tournament #N (start, pause, resume, cancel)
    cr.tn.<N>.v               tournament #N's lobby, after its changes (at most once a second)
    cr.tn.list                each table host's tournaments, every second (those gone are gone)
    cr.tn.ask                 a gateway that just came asks every host for its tournaments' lobbies

A table's name may hold spaces, apostrophes, `$`, `/`, dots and any letter; a subject token may
not hold a dot, a space or a wildcard. `<tok>` is a readable slug of the name plus a short hash
of the whole name, so two names with the same slug stay apart: "Planet Hold'em $2/$4" ->
"planet-hold-em-2-4-06d5458e".
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from functools import lru_cache

PREFIX = "cr"
LOBBY = f"{PREFIX}.lobby"
PRESENCE = f"{PREFIX}.presence"
PRESENCE_ASK = f"{PREFIX}.presence.ask"
GATEWAY_HB = f"{PREFIX}.gateway.hb"
HOST_HB = f"{PREFIX}.host.hb"
TOURNAMENT_VIEWS = f"{PREFIX}.tn.*.v"
TOURNAMENT_LIST = f"{PREFIX}.tn.list"
TOURNAMENT_ASK = f"{PREFIX}.tn.ask"
EVERYTHING = f"{PREFIX}.>"
_SLUG_MAX = 24


@lru_cache(maxsize=4096)
def table_token(name: str) -> str:
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    slug = re.sub(r"[^a-z0-9]+", "-", ascii_name.lower()).strip("-")[:_SLUG_MAX].strip("-") or "t"
    return f"{slug}-{hashlib.sha256(name.encode('utf-8', 'surrogatepass')).hexdigest()[:8]}"


def intents(table: str) -> str:
    return f"{PREFIX}.t.{table_token(table)}.i"


def public_view(table: str) -> str:
    return f"{PREFIX}.t.{table_token(table)}.v"


def seat_view(table: str, account: int) -> str:
    return f"{PREFIX}.t.{table_token(table)}.s.{int(account)}"


def my_seats(account: int) -> str:
    """Every table's view for this account: one subscription, wherever it is seated."""
    return f"{PREFIX}.t.*.s.{int(account)}"


def account_events(account: int) -> str:
    return f"{PREFIX}.a.{int(account)}"


def tournament_intents(number: int) -> str:
    return f"{PREFIX}.tn.{int(number)}.i"


def tournament_admin(number: int) -> str:
    return f"{PREFIX}.tn.{int(number)}.adm"


def tournament_view(number: int) -> str:
    return f"{PREFIX}.tn.{int(number)}.v"
