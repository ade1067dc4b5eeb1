"""The table screen's key table (tui/screens/table_keys.py): every key it lists does something."""

from textual.actions import parse

from cardroom.tui.screens.table import TableScreen
from cardroom.tui.screens.table_keys import KEYS


def test_every_key_of_the_table_has_its_action():
    missing = [k.action for k in KEYS if not callable(getattr(TableScreen, f"action_{parse(k.action)[1]}", None))]
    assert not missing

