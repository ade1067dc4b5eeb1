"""The async life of a card room: tables, seats, timers, accounts service; ports it needs from storage.

Imports no textual, asyncssh or sqlite3 (see DESIGN.md).
"""
