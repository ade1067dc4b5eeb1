"""One job per function (issue 37, point 6): ruff's McCabe check (C901) at 15 is part of the lint
`.ci/run` runs (pyproject.toml), and no function is over it but in the files the config names."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def _lint() -> dict:
    return tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["ruff"]["lint"]


def test_the_lint_counts_the_paths_through_a_function_up_to_fifteen():
    lint = _lint()
    assert "C901" in lint["select"] and lint["mccabe"]["max-complexity"] == 15


def test_no_function_has_more_than_fifteen_paths():
    run = subprocess.run([sys.executable, "-m", "ruff", "check", "--select", "C901", "--output-format", "concise",
                          "cardroom", "tests", "benchmarks"], cwd=REPO, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr


def test_no_module_of_the_package_is_exempted():
    """Only a test's or a benchmark's helper may wait, exempted by name, for its split."""
    exempt = sorted(path for path, rules in _lint()["per-file-ignores"].items() if "C901" in rules)
    assert [p for p in exempt if not p.startswith(("tests/", "benchmarks/"))] == []
