"""`python -m benchmarks <name> [options]`: run the benchmark module `benchmarks.<name>`.

A small dispatcher: each subcommand is a module in this package with `main(argv: list[str]) -> int`;
to add one, write the module and add a line to SUBCOMMANDS.
"""

from __future__ import annotations

import argparse
import importlib
import sys

SUBCOMMANDS = {
    "evaluation": "hand evaluators: cardroom vs treys, phevaluator, eval7, pokerkit",
}


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    parser = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="name", metavar="<name>", required=True)
    for name, help_text in SUBCOMMANDS.items():
        sub.add_parser(name, help=help_text, add_help=False)
    args, rest = parser.parse_known_args(argv[:1])
    module = importlib.import_module(f"benchmarks.{args.name}")
    return module.main(argv[1:] + rest)


if __name__ == "__main__":
    raise SystemExit(main())
