"""What goes wrong reading a PHH file: every error is a PHHError whose message is one clear line."""

from __future__ import annotations


class PHHError(ValueError):
    """A PHH text that cannot be replayed; the message is one clear line."""


class PHHFormatError(PHHError):
    """Not TOML, not PHH, a field of the wrong type or value, an action that does not parse."""


class UnsupportedPHH(PHHError):
    """Valid PHH that this card room cannot play (badugi, short deck, non-uniform antes...)."""


class PHHRuleError(PHHError):
    """An action the rules do not allow at that point; names the action number and the rule."""
