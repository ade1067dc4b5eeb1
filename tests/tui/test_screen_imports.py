"""Screens navigate by messages to the app (tui/navigation.py): no screen module imports another
screen module, at the top or inside a function, so the screens form no import ring."""

import ast
from pathlib import Path

import cardroom.tui.screens as screens_pkg

SCREENS = Path(screens_pkg.__file__).parent


def _defines_screen(tree: ast.Module) -> bool:
    return any(isinstance(node, ast.ClassDef)
               and any(getattr(b, "id", getattr(b, "attr", "")).endswith("Screen") for b in node.bases)
               for node in tree.body)


def _imported(tree: ast.Module) -> set[str]:
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
            if node.module == "cardroom.tui.screens":
                names.update(f"cardroom.tui.screens.{a.name}" for a in node.names)
        elif isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
    return names


def test_no_screen_module_imports_another_screen_module():
    trees = {p.stem: ast.parse(p.read_text()) for p in SCREENS.glob("*.py")}
    screen_modules = {f"cardroom.tui.screens.{stem}" for stem, t in trees.items() if _defines_screen(t)}
    assert {"cardroom.tui.screens.lobby", "cardroom.tui.screens.table"} <= screen_modules
    offenders = {stem: sorted(_imported(t) & (screen_modules - {f"cardroom.tui.screens.{stem}"}))
                 for stem, t in trees.items()}
    assert {stem: found for stem, found in offenders.items() if found} == {}


def _screen_classes(trees: dict[str, ast.Module]) -> set[str]:
    return {node.name for t in trees.values() for node in t.body
            if isinstance(node, ast.ClassDef)
            and any(getattr(b, "id", getattr(b, "attr", "")).endswith("Screen") for b in node.bases)}


def test_no_screen_builds_another_screen():
    """Only the app builds screens (CardroomApp.navigate): a screen that wants another says so by
    a message, even to one of its own module (the history pushed the hand, the hand its export)."""
    trees = {p.stem: ast.parse(p.read_text()) for p in SCREENS.glob("*.py")}
    classes = _screen_classes(trees)
    assert {"HistoryScreen", "HandScreen", "ExportScreen", "TableScreen"} <= classes
    built = {stem: sorted({node.func.id for node in ast.walk(t)
                           if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                           and node.func.id in classes})
             for stem, t in trees.items()}
    assert {stem: found for stem, found in built.items() if found} == {}


# What a screen reads of who holds the terminal comes from the device it was given (tui/device.py).
DEVICE_HOOKS = {"table_view", "now", "who", "private_ok", "acted"}


def test_screens_ask_the_device_not_the_app():
    """No screen calls `self.app.table_view/now/who/private_ok/acted`: the table screen (and its
    mixins) read the view, the clock and the player through `self.device`, which hot-seat gives
    its own (the railbird's copy of the view while nobody has taken the device)."""
    found = []
    for path in sorted(SCREENS.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Attribute) and node.attr in DEVICE_HOOKS \
                    and isinstance(node.value, ast.Attribute) and node.value.attr == "app" \
                    and isinstance(node.value.value, ast.Name) and node.value.value.id == "self":
                found.append(f"{path.name}:{node.lineno} self.app.{node.attr}")
    assert found == []


def test_the_app_has_no_device_hooks_left():
    from cardroom.tui.app import CardroomApp
    from cardroom.tui.hotseat import HotSeatApp
    assert {name for name in DEVICE_HOOKS if hasattr(CardroomApp, name) or hasattr(HotSeatApp, name)} == set()
