"""Widgets: each gets its data as attributes from its screen and reports clicks as messages."""
