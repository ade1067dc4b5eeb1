"""The one-way imports of DESIGN.md, checked on the source of every module: engine <- room <-
tui/store <- ssh/admin/bus <- roles <- serve <- cli, with Textual's internals in one adapter below the TUI
and the SSH layer, and NATS only in the bus. A module that imports across the grain fails here, naming the
line; so does an import cycle between modules (function-level imports included)."""

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1] / "cardroom"

# The layer of each top-level name under cardroom/ (a package, or a module of its own).
LAYER_OF = {
    "engine": "engine", "room": "room", "store": "store", "tui": "tui", "ssh": "ssh", "admin": "admin",
    "bus": "bus",
    "textual_adapter": "adapter", "config": "config", "config_tournaments": "config", "config_keys": "config", "datadir": "datadir",
    "demo": "demo", "demo_tournament": "demo",
    "serve": "serve", "roles": "roles", "cli": "cli", "__main__": "main", "__init__": "package",
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
    # The roles of a room spread over processes, and what every way of serving shares (settings, logins).
    "roles": {"roles", "config", "datadir", "engine", "room", "store", "tui", "ssh", "admin", "adapter", "bus"},
    "serve": {"serve", "roles", "config", "datadir", "engine", "room", "store", "tui", "ssh", "admin", "adapter",
              "bus"},
    "cli": {"cli", "serve", "roles", "config", "datadir", "demo", "engine", "room", "store", "tui", "ssh", "admin",
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


def test_nothing_below_the_roles_imports_the_bus():
    assert [layer for layer, allowed in ALLOWED.items() if "bus" in allowed] == ["bus", "roles", "serve", "cli"]


def test_the_roles_never_import_serve():
    """serve runs a role (`--role`); a role takes what it shares with serve from cardroom/roles."""
    assert "serve" not in ALLOWED["roles"] and "roles" in ALLOWED["serve"]


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


# ------------------------------------------------------------------------------- import cycles
# Two modules that import each other, however late (a function-level import is still run), are one
# unit that cannot be read, tested or replaced apart: none may exist. Imports under `if TYPE_CHECKING:`
# never run; cycles through them are counted only with `type_checking=True`.


def _module_name(path: Path) -> str:
    parts = ["cardroom", *path.relative_to(ROOT).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULE_PATHS = {_module_name(p): p for p in MODULES}


def _only_for_type_checkers(tree: ast.AST) -> set[int]:
    """The ids of the import statements under `if TYPE_CHECKING:` (or `typing.TYPE_CHECKING`)."""
    hidden = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and ast.unparse(node.test) in ("TYPE_CHECKING", "typing.TYPE_CHECKING"):
            hidden |= {id(n) for stmt in node.body for n in ast.walk(stmt)}
    return hidden


def _known(name: str) -> str | None:
    """The cardroom module `name` is, or is in (`cardroom.store.sql.SqlStore` -> cardroom.store.sql)."""
    while name and name not in MODULE_PATHS:
        name = name.rpartition(".")[0]
    return name or None


def _module_imports(name: str, text: str, *, type_checking: bool) -> list[tuple[int, str]]:
    """(line, module) for each cardroom module that module `name` imports: `from p import m` is the module
    p.m when there is one, else p."""
    tree = ast.parse(text, name)
    hidden = set() if type_checking else _only_for_type_checkers(tree)
    package = name.split(".") if MODULE_PATHS[name].name == "__init__.py" else name.split(".")[:-1]
    found = []
    for node in ast.walk(tree):
        if id(node) in hidden:
            continue
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package[: len(package) - node.level + 1] + ([base] if base else []))
            found += [(node.lineno, f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULE_PATHS else base)
                      for alias in node.names]
    return [(line, known) for line, module in found if (known := _known(module)) and known != name]


def _graph(*, type_checking: bool, sources: dict[str, str] | None) -> dict[str, list[tuple[int, str]]]:
    """module -> (line, module) of each cardroom module it imports. `sources`: module name -> source text to
    check instead of the file's (the tests plant cycles with it)."""
    texts = {name: path.read_text() for name, path in MODULE_PATHS.items()} | (sources or {})
    return {name: _module_imports(name, text, type_checking=type_checking) for name, text in texts.items()}


def _components(edges) -> list[set[str]]:
    """Tarjan's strongly connected components of several modules: each holds at least one cycle."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    components = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for _, w in edges[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = set()
            while True:
                w = stack.pop()
                component.add(w)
                if w == v:
                    break
            if len(component) > 1:
                components.append(component)

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return components


def import_cycles(*, type_checking: bool = False, sources: dict[str, str] | None = None) -> list[str]:
    """Every group of cardroom modules that import each other, one line each: a cycle through it, with the
    line of each import ("a:3 -> b:12 -> a"), and the group's other modules."""
    edges = _graph(type_checking=type_checking, sources=sources)
    out = []
    for c in _components(edges):
        cycle = _one_cycle(min(c), c, edges)
        others = sorted(c - {step.rpartition(":")[0] for step in cycle.split(" -> ")})
        out.append(cycle + (f" (and with them: {', '.join(others)})" if others else ""))
    return out


def _one_cycle(start: str, component: set[str], edges) -> str:
    """The shortest way from `start` back to itself inside its component, with the import's line at each step."""
    paths = {start: [start]}
    queue = [start]
    while queue:
        v = queue.pop(0)
        for _, w in edges[v]:
            if w == start:
                steps = paths[v] + [start]
                lines = [next(n for n, m in edges[a] if m == b) for a, b in zip(steps, steps[1:])]
                return " -> ".join(f"{a}:{n}" for a, n in zip(steps, lines)) + f" -> {start}"
            if w in component and w not in paths:
                paths[w] = paths[v] + [w]
                queue.append(w)
    raise AssertionError(f"no cycle through {start}")   # pragma: no cover - a component has one


def test_no_import_cycle_at_run_time():
    cycles = import_cycles()
    assert not cycles, "modules that import each other (move what both need below both):\n" + "\n".join(cycles)


def test_no_import_cycle_for_type_checkers_either():
    """Nor through `if TYPE_CHECKING:` imports (issue 37, point 2): a collaborator names the narrow
    face of what it uses (room/tablefaces.py, ssh/mirror.Terminal, ssh/hosting.HostedDriver), never
    the module that builds it."""
    cycles = import_cycles(type_checking=True)
    assert not cycles, "modules that import each other for type checkers:\n" + "\n".join(cycles)


def test_the_cycle_check_sees_a_function_level_import_and_a_type_checking_one_when_asked():
    source = MODULE_PATHS["cardroom.room.api"].read_text()
    late = source + "\n\ndef _late():\n    from cardroom.room import table\n"
    cycles = import_cycles(sources={"cardroom.room.api": late})
    assert any(c.startswith("cardroom.room.api:") and "cardroom.room.table:" in c for c in cycles), cycles
    typed = source + "\n\nif TYPE_CHECKING:\n    from cardroom.room.table import Table\n"
    assert import_cycles(sources={"cardroom.room.api": typed}) == []
    assert any("cardroom.room.api:" in c for c in import_cycles(type_checking=True,
                                                                 sources={"cardroom.room.api": typed}))


# ------------------------------------------------------------------------------- the README's map
README = ROOT.parent / "README.md"


def _readme_layers() -> dict[str, set[str]]:
    """Each layer the README's "Layout" lists, with the layers its line says it imports."""
    text = README.read_text()
    section = " ".join(text[text.index("- Layout:"):text.index("- Where each rule")].split())
    lines = re.findall(r"- `(\w+)` \(`[^)]*\): .*? Imports (.*?)\.(?= - `|$)", section)
    return {layer: set(re.findall(r"`(\w+)`", imports)) for layer, imports in lines}


def test_the_readme_draws_every_layer_with_what_it_may_import():
    """The README's map of the house is this test's: every layer of LAYER_OF, each importing what
    ALLOWED lets it, so the two cannot drift apart."""
    listed = _readme_layers()
    assert set(listed) == set(LAYER_OF.values()) == set(ALLOWED)
    assert listed == {layer: allowed - {layer} for layer, allowed in ALLOWED.items()}
