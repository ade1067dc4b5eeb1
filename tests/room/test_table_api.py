"""Table's collaborators (DecisionClock, SeatHolds, BlindPrompts, Settlement, Floor, Dealing), the
room and every other module reach a table only through its public members (table.py groups the
ones meant for collaborators under "what the collaborators call"): no module but table.py touches
an underscore member of Table. Checked on the source with `ast`, naming the line."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TABLE = ROOT / "cardroom" / "room" / "table.py"
# The names a table goes by outside table.py: `t = self.table`, `table`, `self.table`,
# `self._table`, and the class itself (the benchmark wraps its methods).
TABLE_NAMES = {"t", "table", "Table"}
TABLE_ATTRS = {"table", "_table"}


def table_privates(source: str) -> set[str]:
    """Underscore names Table defines: its `def _x` and its `self._x = ...` (dunders aside)."""
    cls = next(n for n in ast.parse(source).body if isinstance(n, ast.ClassDef) and n.name == "Table")
    names = set()
    for node in ast.walk(cls):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            names.add(node.name)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store) \
                and isinstance(node.value, ast.Name) and node.value.id == "self":
            names.add(node.attr)
    return {n for n in names if n.startswith("_") and not n.startswith("__")}


def is_table(node: ast.expr) -> bool:
    if isinstance(node, ast.Name):
        return node.id in TABLE_NAMES
    return isinstance(node, ast.Attribute) and node.attr in TABLE_ATTRS


def reaches(source: str, privates: set[str]) -> list[tuple[int, str]]:
    """(line, `receiver._name`) for each touch of a Table underscore member through a table name."""
    return sorted((node.lineno, f"{ast.unparse(node.value)}.{node.attr}")
                  for node in ast.walk(ast.parse(source))
                  if isinstance(node, ast.Attribute) and node.attr in privates and is_table(node.value))


def modules() -> list[Path]:
    return sorted(p for d in ("cardroom", "benchmarks") for p in (ROOT / d).rglob("*.py") if p != TABLE)


def test_the_checker_sees_table_privates_and_their_callers():
    privates = table_privates(TABLE.read_text())
    assert {"_apply", "_should_show", "_bot_move"} <= privates
    assert not {"changed", "say", "drive", "act"} & privates
    planted = ("t = self.table\nt._apply(0)\nself.table._bot_move(1)\nself._table._apply()\n"
               "Table._should_show = f\nself._apply()\nother._apply()\nt.changed()\n")
    assert reaches(planted, privates) == [(2, "t._apply"), (3, "self.table._bot_move"),
                                          (4, "self._table._apply"), (5, "Table._should_show")]


def test_no_module_but_table_py_touches_a_table_underscore_member():
    privates = table_privates(TABLE.read_text())
    found = [f"{path.relative_to(ROOT)}:{line}: {what}"
             for path in modules() for line, what in reaches(path.read_text(), privates)]
    assert not found, ("Table's underscore members are table.py's own; call (or add) a member under "
                       "\"what the collaborators call\" instead:\n" + "\n".join(found))
