"""cardroom: a terminal multiplayer poker card room."""

__version__ = "0.1.0"
