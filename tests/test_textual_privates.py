"""Textual's private API, and the three other libraries' privates the server needs, are used only in
cardroom/textual_adapter.py: the rest of cardroom and every test reach them through the adapter's
functions, so a Textual upgrade has one file to re-read. Checked on the source (ast) of cardroom/ and
tests/: an import of a `textual._x` module, or an attribute access to one of the private names the
adapter uses, anywhere else fails here naming the line."""

import ast
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
ADAPTER = REPO / "cardroom" / "textual_adapter.py"
# The privates of other libraries, each named in the adapter's docstring with why it is used.
NON_TEXTUAL = {"_ready": "asyncio", "_process_env_request": "asyncssh", "_color_system": "Rich",
               "_inpbuf": "asyncssh", "_transport": "asyncssh", "_process_x11_req_request": "asyncssh",
               "_process_auth_agent_req_at_openssh_dot_com_request": "asyncssh"}


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__") and not name.startswith("_cardroom")


def _attributes(tree: ast.AST):
    """(node, name) of each attribute access: `x.name`, and getattr/setattr/hasattr(x, "name")."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute):
            yield node, node.attr
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                and node.func.id in ("getattr", "setattr", "hasattr", "delattr") and len(node.args) > 1 \
                and isinstance(node.args[1], ast.Constant) and isinstance(node.args[1].value, str):
            yield node, node.args[1].value


def _own(tree: ast.AST) -> set[str]:
    """The attribute names a file gives its own objects (`self._x = ...`): a class's own `_closed`
    is not Textual's."""
    return {target.attr for node in ast.walk(tree) if isinstance(node, (ast.Assign, ast.AnnAssign))
            for target in (node.targets if isinstance(node, ast.Assign) else [node.target])
            if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and target.value.id == "self"}


def _adapter_privates() -> set[str]:
    """Every private attribute name the adapter reads, writes or patches: those of Textual's objects
    (found by reading the adapter), and the non-Textual ones; not those of the adapter's own classes."""
    tree = ast.parse(ADAPTER.read_text())
    own = {name for cls in ast.walk(tree) if isinstance(cls, ast.ClassDef) for name in _own(cls)}
    names = {name for _, name in _attributes(tree) if _private(name) and name not in own}
    for node in ast.walk(tree):            # ("Class", "_name", patch) triples name patched attributes too
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and ":" in node.value \
                and node.value.startswith("textual"):
            names |= {part for part in node.value.partition(":")[2].split(".") if _private(part)}
    return names


PRIVATES = _adapter_privates()


def _uses(text: str, filename: str = "<source>") -> list[str]:
    """(line: what) for each Textual private module import and each adapter private name used."""
    tree = ast.parse(text, filename)
    own = _own(tree)
    found = [f"{node.lineno}: .{name}" for node, name in _attributes(tree) if name in PRIVATES - own]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [f"{node.lineno}: import {a.name}" for a in node.names if a.name.startswith("textual._")]
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("textual._"):
            found.append(f"{node.lineno}: from {node.module}")
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("textual") \
                and any(a.name.startswith("_") for a in node.names):
            found.append(f"{node.lineno}: from {node.module} import a private name")
    return found


def _sources():
    here = Path(__file__).resolve()
    for path in sorted([*(REPO / "cardroom").rglob("*.py"), *(REPO / "tests").rglob("*.py")]):
        if path not in (ADAPTER, here):
            yield path


def test_the_adapter_names_the_privates_it_uses():
    """The scan below is only as good as this list: it holds the Textual internals the guards rely
    on and the non-Textual ones."""
    assert {"_compositor", "_dirty_regions", "_get_renders", "_screen_stack", "_check_bindings"} <= PRIVATES
    assert set(NON_TEXTUAL) <= PRIVATES


@pytest.mark.parametrize("name,library", sorted(NON_TEXTUAL.items()))
def test_each_non_textual_private_is_named_in_the_adapter_with_why(name, library):
    doc = ast.get_docstring(ast.parse(ADAPTER.read_text()))
    line = next((x for x in doc.splitlines() if f"._{name.lstrip('_')}" in x or name in x), "")
    assert library in line and "):" in line, f"the adapter's docstring does not say why it uses {name}"


def test_no_private_of_textual_outside_the_adapter():
    bad = [f"{p.relative_to(REPO)}:{use}" for p in _sources() for use in _uses(p.read_text(), str(p))]
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("source", ["from textual._compositor import Compositor\n",
                                    "import textual._dispatch_key\n",
                                    "def f(screen):\n    return screen._compositor\n",
                                    "def f(loop):\n    return getattr(loop, '_ready')\n",
                                    "def f(chan):\n    chan._process_env_request = None\n",
                                    "def f(console):\n    return console._color_system\n"])
def test_a_private_use_is_caught_however_written(source):
    assert _uses(source)
