"""Types checked (issue 37, point 7): mypy, configured in pyproject.toml [tool.mypy], finds no error
in the package: --strict's flags for the engine and the room, mypy's default checks and the bodies
of unannotated functions everywhere else. `.ci/run` runs it after ruff; this test keeps the suite
itself from passing on a tree it does not pass (about 20 s on a cold cache)."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
STRICT_FLAGS = {"disallow_any_generics", "disallow_subclassing_any", "disallow_untyped_calls",
                "disallow_untyped_defs", "disallow_incomplete_defs", "disallow_untyped_decorators",
                "warn_return_any", "no_implicit_reexport", "extra_checks"}


def _mypy() -> dict:
    return tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]


def _mypy_run(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    # A cache of its own: a stale one from another tree or mypy cannot hide an error.
    return subprocess.run([sys.executable, "-m", "mypy", "--cache-dir", str(tmp_path / "cache"), *args],
                          cwd=REPO, capture_output=True, text=True, timeout=600)


# Deep: `.ci/run` runs mypy on the package itself before the tests (14 s cold here).
@pytest.mark.deep
def test_mypy_finds_no_error_in_the_package(tmp_path):
    run = _mypy_run(tmp_path)
    assert run.returncode == 0, run.stdout + run.stderr


def test_the_engine_and_the_room_are_checked_with_strict_flags():
    config = _mypy()
    assert config["files"] == ["cardroom"] and config["check_untyped_defs"] and config["warn_unused_ignores"]
    strict = [o for o in config["overrides"] if set(o["module"]) == {"cardroom.engine.*", "cardroom.room.*"}]
    assert len(strict) == 1 and all(strict[0].get(flag) is True for flag in STRICT_FLAGS)


def test_no_module_of_the_package_is_left_unchecked():
    """Only third-party modules are let off (ignore_missing_imports: no types shipped), each named;
    no cardroom module has its errors ignored, and no blanket."""
    config = _mypy()
    assert "ignore_missing_imports" not in config and "ignore_errors" not in config
    for override in config["overrides"]:
        modules = override["module"] if isinstance(override["module"], list) else [override["module"]]
        if override.get("ignore_errors"):
            assert not modules, modules
        if override.get("ignore_missing_imports"):
            assert not any(m.startswith("cardroom") for m in modules), modules


def test_every_type_ignore_names_its_error_and_says_why():
    bare = []
    for path in sorted((REPO / "cardroom").rglob("*.py")):
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if "type: ignore" in line and not re.search(r"# type: ignore\[[\w\-, ]+\]\s+#\s*\S", line):
                bare.append(f"{path.relative_to(REPO)}:{n}: {line.strip()}")
    assert not bare, "a `# type: ignore[code]  # why` each:\n" + "\n".join(bare)


def test_the_check_finds_a_wrong_return_type(tmp_path):
    """The run above could fail: the same mypy and settings report a planted error in a room module."""
    planted = tmp_path / "cardroom" / "room"
    planted.mkdir(parents=True)
    (tmp_path / "cardroom" / "__init__.py").write_text("")
    (planted / "__init__.py").write_text("")
    (planted / "wrong.py").write_text("def stack() -> int:\n    return 'ten'\n\n\ndef untyped(x):\n    return x\n")
    run = subprocess.run([sys.executable, "-m", "mypy", "--config-file", str(REPO / "pyproject.toml"),
                          "--cache-dir", str(tmp_path / "cache"), "cardroom"],
                         cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert run.returncode == 1
    assert "[return-value]" in run.stdout and "[no-untyped-def]" in run.stdout, run.stdout
