"""`python -m benchmarks <name> [options]`: run the benchmark module `benchmarks.<name>`.

A small dispatcher: every module `benchmarks/<name>.py` (not starting with "_") is a subcommand and
must define `main(argv: list[str]) -> int`; the options after <name> are passed to it untouched.
A one-line description can be added to DESCRIPTIONS (the module's docstring is not imported for it).
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from pathlib import Path

DESCRIPTIONS = {
    "evaluation": "hand evaluators: cardroom vs treys, phevaluator, eval7, pokerkit",
    "engine": "whole hands per second vs pokerkit",
    "tableview": "microseconds to build a seat's view of a table (each repaint's)",
    "tournament": "a 1,000-player tournament played by bots, beside cash tables' hands per second",
}


def subcommands() -> list[str]:
    here = [str(Path(__file__).resolve().parent)]
    return sorted(m.name for m in pkgutil.iter_modules(here) if not m.name.startswith("_"))


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="name", metavar="<name>", required=True)
    for name in subcommands():
        sub.add_parser(name, help=DESCRIPTIONS.get(name, f"benchmarks.{name}"), add_help=False)
    args = parser.parse_args(argv[:1])
    module = importlib.import_module(f"benchmarks.{args.name}")
    return module.main(argv[1:])


if __name__ == "__main__":
    raise SystemExit(main())
