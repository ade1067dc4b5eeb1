"""Tournaments in the room (issue 38; DESIGN.md "Tournaments"): the engine's director
(cardroom/engine/tournament) decides, and the room carries it out with real tables.

- `lobby.py`: `Tournaments`, the room's instances of config.toml's tournaments: made, restored
  after a restart, listed; the players' Register and Unregister;
- `actor.py`: `Tournament`, one instance: its director, its tables, its clock, its records
  (each change and the director's snapshot in one store transaction);
- `policy.py`: what a tournament table does differently from a cash table (room/table.py's
  `TablePolicy`): dealt by the director, settled by the tournament, no buying in or leaving,
  an away player dealt in and checked or folded for;
- `views.py`: the client API's records of it (room/api.py: TournamentSummary, TournamentView,
  TournamentLine).
"""

from cardroom.room.tournaments.actor import Tournament
from cardroom.room.tournaments.lobby import Tournaments

__all__ = ["Tournament", "Tournaments"]
