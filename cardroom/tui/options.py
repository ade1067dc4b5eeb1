"""A session's display preferences (the Options dialog). Plain data: no Textual here.

What a player changes is kept for his next logins (the room's `save_preferences`), as text:
"1"/"0" for a tick. Only what he changed is kept, so a default he never touched (ASCII, which a
session turns on for a terminal that is not UTF-8) is still decided afresh at every login.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

TICKS = ("four_colour", "letters", "ascii", "sound")


@dataclass(slots=True)
class UIOptions:
    four_colour: bool = False    # Mike Caro's deck: clubs green, diamonds blue, hearts red, spades black
    letters: bool = False        # suits as c d h s instead of symbols
    ascii: bool = False          # ASCII only (implies letters): no box drawing, no symbols
    sound: bool = True           # ring the terminal bell when it is my turn

    @property
    def suit_letters(self) -> bool:
        return self.letters or self.ascii

    def apply_kept(self, kept: Mapping[str, str]) -> None:
        """Take the ticks a player kept (anything else in `kept` is not ours, or not valid)."""
        for name in TICKS:
            if kept.get(name) in ("0", "1"):
                setattr(self, name, kept[name] == "1")

    def change(self, values: Mapping[str, object]) -> dict[str, str]:
        """Apply the dialog's ticks; returns those that changed, as they are kept."""
        changed = {}
        for name in TICKS:
            value = values.get(name)
            if isinstance(value, bool) and value != getattr(self, name):
                setattr(self, name, value)
                changed[name] = "1" if value else "0"
        return changed
