"""The one-way imports of DESIGN.md, checked on the source: engine <- room <- tui/store <- ssh/admin
<- cli. A module that imports across the grain fails here, naming the line."""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1] / "cardroom"

# Which cardroom layers each layer may import, and which outside modules it must not.
ALLOWED = {
    "engine": {"engine"},
    "room": {"room", "engine"},
    "store": {"store", "room", "engine"},
    "tui": {"tui", "room", "engine"},
    "ssh": {"ssh", "tui", "room"},
    "admin": {"admin", "room", "store", "engine"},
}
FORBIDDEN = {
    "engine": {"asyncio", "sqlite3", "socket", "time", "random", "textual", "asyncssh", "rich", "threading"},
    "room": {"textual", "asyncssh", "sqlite3"},
    "tui": {"asyncssh", "sqlite3"},
}


def _imports(path: Path):
    tree = ast.parse(path.read_text(), str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            yield node.lineno, node.module


@pytest.mark.parametrize("layer", sorted(ALLOWED))
def test_each_layer_imports_only_what_the_design_allows(layer):
    bad = []
    for path in sorted((ROOT / layer).rglob("*.py")):
        for line, module in _imports(path):
            top, _, rest = module.partition(".")
            if top == "cardroom":
                target = rest.partition(".")[0]
                if target and target not in ALLOWED[layer]:
                    bad.append(f"{path.relative_to(ROOT)}:{line} imports {module}")
            elif top in FORBIDDEN.get(layer, ()):
                bad.append(f"{path.relative_to(ROOT)}:{line} imports {module}")
    assert not bad, "\n".join(bad)
