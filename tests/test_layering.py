"""The one-way imports of DESIGN.md, checked on the source of every module: engine <- room <-
tui/store <- ssh/admin/bus <- serve <- cli, with Textual's internals in one adapter below the TUI and
the SSH layer, and NATS only in the bus. A module that imports across the grain fails here, naming the line."""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1] / "cardroom"

# The layer of each top-level name under cardroom/ (a package, or a module of its own).
LAYER_OF = {
    "engine": "engine", "room": "room", "store": "store", "tui": "tui", "ssh": "ssh", "admin": "admin",
    "bus": "bus",
    "textual_adapter": "adapter", "config": "config", "config_tournaments": "config", "datadir": "datadir",
    "demo": "demo",
    "serve": "serve", "roles": "serve", "cli": "cli", "__main__": "main", "__init__": "package",
}
# Which cardroom layers each layer may import (its own included), and which outside modules it must not.
ALLOWED = {
    "engine": {"engine"},
    "room": {"room", "engine"},
    "store": {"store", "room", "engine"},
    "adapter": {"adapter"},
    "tui": {"tui", "room", "engine", "adapter"},
    "ssh": {"ssh", "tui", "room", "adapter"},
    "admin": {"admin", "room", "store", "engine"},
    "bus": {"bus", "room", "engine", "store"},
    "config": {"config", "engine", "room"},
    "datadir": {"datadir"},
    "demo": {"demo", "engine", "room", "store"},
    "serve": {"serve", "config", "datadir", "engine", "room", "store", "tui", "ssh", "admin", "adapter", "bus"},
    "cli": {"cli", "serve", "config", "datadir", "demo", "engine", "room", "store", "tui", "ssh", "admin",
            "adapter", "package", "bus"},
    "main": {"main", "cli"},
    "package": {"package"},
}
FORBIDDEN = {
    "engine": {"asyncio", "sqlite3", "socket", "time", "random", "textual", "asyncssh", "rich", "threading"},
    "room": {"textual", "asyncssh", "sqlite3"},
    "tui": {"asyncssh", "sqlite3"},
    "adapter": {"asyncssh", "sqlite3"},
    "config": {"textual", "asyncssh", "sqlite3"},
    "bus": {"textual", "asyncssh", "sqlite3", "psycopg", "rich"},
}
# NATS is the bus's own: no other layer knows how the room is spread over processes.
BUS_ONLY = {"nats"}
MODULES = sorted(ROOT.rglob("*.py"))


def _layer(path: Path) -> str | None:
    top = path.relative_to(ROOT).parts[0].removesuffix(".py")
    return LAYER_OF.get(top)


def _imports(path: Path, text: str | None = None):
    """(line, absolute module name) for each import in the file, function-level ones included;
    `from cardroom import x` yields cardroom.x, and relative imports are resolved."""
    tree = ast.parse(path.read_text() if text is None else text, str(path))
    package = ["cardroom", *path.relative_to(ROOT).parent.parts]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package[: len(package) - node.level + 1] + ([base] if base else []))
            if base == "cardroom":
                for alias in node.names:     # a module of the package, or a name of its __init__
                    module = alias.name if (ROOT / alias.name).is_dir() or (ROOT / f"{alias.name}.py").exists() \
                        else "__init__"
                    yield node.lineno, f"cardroom.{module}"
            else:
                yield node.lineno, base


def _violations(path: Path, text: str | None = None) -> list[str]:
    layer = _layer(path)
    bad = []
    for line, module in _imports(path, text):
        top, _, rest = module.partition(".")
        if top == "cardroom":
            if rest and LAYER_OF.get(rest.partition(".")[0]) not in ALLOWED[layer]:
                bad.append(f"{path.relative_to(ROOT)}:{line} imports {module}")
        elif top in FORBIDDEN.get(layer, ()):
            bad.append(f"{path.relative_to(ROOT)}:{line} imports {module}")
    return bad


def _unlayered(paths) -> list[str]:
    return [str(p.relative_to(ROOT)) for p in paths if _layer(p) is None]


def test_every_module_has_a_layer():
    assert not _unlayered(MODULES)


@pytest.mark.parametrize("new", ["scheduler.py", "metrics/__init__.py", "metrics/export.py"])
def test_a_new_top_level_module_without_a_layer_fails(new):
    """A module or package added under cardroom/ must be given a layer in LAYER_OF before it passes."""
    assert _unlayered([*MODULES, ROOT / new]) == [new]


@pytest.mark.parametrize("layer", sorted(ALLOWED))
def test_each_layer_imports_only_what_the_design_allows(layer):
    bad = [line for p in MODULES if _layer(p) == layer for line in _violations(p)]
    assert not bad, "\n".join(bad)


def test_only_the_bus_imports_nats():
    bad = [f"{p.relative_to(ROOT)}:{line} imports {module}" for p in MODULES if _layer(p) != "bus"
           for line, module in _imports(p) if module.partition(".")[0] in BUS_ONLY]
    assert not bad, "\n".join(bad)


def test_nothing_below_serve_imports_the_bus():
    assert [layer for layer, allowed in ALLOWED.items() if "bus" in allowed] == ["bus", "serve", "cli"]


def test_the_tui_may_import_neither_ssh_nor_the_bus():
    assert not {"ssh", "bus", "serve", "cli", "admin", "store"} & ALLOWED["tui"]


def test_the_tui_imports_nothing_of_the_hosting_layer():
    """The TUI runs the same at a local terminal (hot-seat) and over ssh: it takes nothing from
    cardroom/ssh, and what it needs of Textual's internals comes from the adapter."""
    assert "ssh" not in ALLOWED["tui"]
    assert not [f"{p.relative_to(ROOT)}:{line}" for p in MODULES if _layer(p) == "tui"
                for line, module in _imports(p) if module.startswith("cardroom.ssh")]


@pytest.mark.parametrize("source", ["def leak():\n    from ...ssh import driver\n", "from cardroom import ssh\n",
                                    "import cardroom.ssh.guards\n", "from cardroom.serve import start\n",
                                    "from cardroom.bus import codec\n", "from ...bus.client import BusClient\n",
                                    "import cardroom.bus\n", "from cardroom.ssh.hosting import Hosting\n",
                                    "from ...ssh import pacing\n", "def f():\n    import cardroom.ssh.pacing\n",
                                    "from cardroom.ssh import hosting\n"])
def test_an_import_across_the_grain_is_caught_however_written(source):
    assert _violations(ROOT / "tui" / "screens" / "table.py", source)
