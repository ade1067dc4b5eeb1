"""A session's display preferences (the Options dialog). Plain data: no Textual here."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(slots=True)
class UIOptions:
    four_colour: bool = False    # Mike Caro's deck: clubs green, diamonds blue, hearts red, spades black
    letters: bool = False        # suits as c d h s instead of symbols
    ascii: bool = False          # ASCII only (implies letters): no box drawing, no symbols
    sound: bool = True           # ring the terminal bell when it is my turn

    @property
    def suit_letters(self) -> bool:
        return self.letters or self.ascii
