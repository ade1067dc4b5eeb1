"""Each fix of cardroom/textual_adapter.py has its reproduction in this folder: a tiny app on
stock Textual whose stock run is a strict xfail naming Textual's bug (the day Textual fixes it the
XPASS fails, telling the maintainer the fix can go) and whose run with the fix passes. The README
lists every guard as a fix or a speedup, each fix with its reproduction."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

from cardroom import textual_adapter

HERE = Path(__file__).resolve().parent
README = HERE.parents[1] / "README.md"


def _reproduction(fix: str) -> Path:
    return HERE / f"test_{fix.replace('-', '_')}.py"


def _cases(path: Path) -> list[list]:
    """For each test of the module that is parametrized over "guards", its parameter sets."""
    module = importlib.import_module(f"tests.textual_bugs.{path.stem}")
    return [mark.args[1] for name, test in vars(module).items() if name.startswith("test_")
            for mark in getattr(test, "pytestmark", []) if mark.name == "parametrize" and mark.args[0] == "guards"]


@pytest.mark.parametrize("fix", textual_adapter.FIXES)
def test_each_fix_has_a_reproduction_that_fails_on_stock_textual_and_passes_with_it(fix):
    cases = _cases(_reproduction(fix))
    assert cases, f"no test in {_reproduction(fix).name} is parametrized over the guards"
    for params in cases:
        by_id = {p.id: p for p in params}
        stock, fixed = by_id["stock"], by_id["with-the-guard"]
        assert stock.values == ((),)
        [xfail] = [m for m in stock.marks if m.name == "xfail"]
        assert xfail.kwargs.get("strict") is True and xfail.kwargs.get("reason")
        assert fix in fixed.values[0] and not fixed.marks


def test_every_reproduction_is_of_a_fix_the_adapter_has():
    """A fix that is dropped takes its reproduction with it."""
    reproductions = {p for p in HERE.glob("test_*.py") if p.resolve() != Path(__file__).resolve()}
    assert reproductions == {_reproduction(fix) for fix in textual_adapter.FIXES}


def test_the_readme_lists_every_guard_as_the_adapter_has_it():
    listed = dict((name, kind) for kind, name in re.findall(r"^\s*- (fix|speedup) `([a-z-]+)`", README.read_text(),
                                                            re.MULTILINE))
    assert listed == {**{name: "fix" for name in textual_adapter.FIXES},
                      **{name: "speedup" for name in textual_adapter.SPEEDUPS}}


@pytest.mark.parametrize("fix", textual_adapter.FIXES)
def test_the_readme_says_where_each_fix_is_reproduced(fix):
    text = re.sub(r"\s+", " ", README.read_text())
    line = re.search(rf"- fix `{fix}`(.*?)(?= - (?:fix|speedup) `|$)", text)
    assert line, f"the README has no line for the fix {fix}"
    assert f"`tests/textual_bugs/{_reproduction(fix).name}`" in line.group(1)
