"""No module of cardroom reads another module's underscore members: what one module uses of another
is that module's public names, so a module's privates can change without reading any other file.
Checked on the source (ast) of every module under cardroom/, naming the line.

Allowed, and why:
* `self._x` and `cls._x`: a class's own members, wherever the class (or one of its mixins) defines
  them. Splitting a class's state over mixins is issue 37's point 2, a step of its own.
* `x._y` where this module itself defines `_y` (a function, a class, a name it assigns, an
  attribute it sets): its own objects' privates, e.g. a session's `_page` called by the room that
  made it. Judged by the name alone: a module that defines `_y` for itself could still read another
  module's `_y`; the names of the modules below show none does today.
* namedtuple's `_replace`, `_fields`, `_asdict`, `_make`: public API, underscored only so that they
  cannot clash with a field's name.
* cardroom/textual_adapter.py: the one module allowed Textual's, asyncssh's, Rich's and asyncio's
  privates, checked by tests/test_textual_privates.py.
Tests and benchmarks are not checked: a test may look inside what it tests.
"""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1] / "cardroom"
EXEMPT = {ROOT / "textual_adapter.py"}
NAMEDTUPLE_API = {"_replace", "_fields", "_asdict", "_make", "_field_defaults"}


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def _defined(tree: ast.AST) -> set[str]:
    """Every name the module defines: functions, classes, assigned names and attributes, arguments."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            names.add(node.attr)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
    return names


def _reads(tree: ast.AST):
    """(line, receiver, name) of each attribute read, getattr/setattr/hasattr(x, "name") included."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute):
            yield node.lineno, node.value, node.attr
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                and node.func.id in ("getattr", "setattr", "hasattr", "delattr") and len(node.args) > 1 \
                and isinstance(node.args[1], ast.Constant) and isinstance(node.args[1].value, str):
            yield node.lineno, node.args[0], node.args[1].value


def others_privates(source: str) -> list[str]:
    """(line: what) for each underscore member of another module this source reads or imports."""
    tree = ast.parse(source)
    own = _defined(tree)
    found = []
    for line, receiver, name in _reads(tree):
        if not _private(name) or name in own or name in NAMEDTUPLE_API:
            continue
        if isinstance(receiver, ast.Name) and receiver.id in ("self", "cls"):
            continue
        found.append(f"{line}: {ast.unparse(receiver)}.{name}")
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            found += [f"{node.lineno}: from {node.module} import {a.name}" for a in node.names if _private(a.name)]
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            modules = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
            found += [f"{node.lineno}: import of {m}" for m in modules
                      if any(_private(part) for part in m.split("."))]
    return found


def test_the_checker_sees_reads_of_another_modules_privates_and_lets_a_modules_own_pass():
    planted = ("from cardroom.store.postgres import _retried\n"
               "import cardroom._hidden\n"
               "def f(store, hand, event):\n"
               "    store._tx()\n"
               "    getattr(hand, '_values')(0)\n"
               "    self._mine()\n"
               "    event._replace(a=1)\n"
               "    _helper(hand)\n"
               "    hand._ours\n"
               "def _helper(x):\n"
               "    x._ours = 1\n")
    assert others_privates(planted) == ["4: store._tx", "5: hand._values", "1: from cardroom.store.postgres import _retried",
                                        "2: import of cardroom._hidden"]


@pytest.mark.parametrize("path", [p for p in sorted(ROOT.rglob("*.py")) if p not in EXEMPT],
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_no_module_reads_another_modules_privates(path):
    found = others_privates(path.read_text())
    assert not found, (f"{path.relative_to(ROOT)} reads other modules' underscore members; give the owner a "
                       "public member (or move the code to it):\n" + "\n".join(found))
