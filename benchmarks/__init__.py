"""Side-by-side measurements against peer libraries: `python -m benchmarks <name> [options]`.

Never part of the test run. Each benchmark is a module `benchmarks.<name>` with `main(argv) -> int`.
"""

import argparse


def positive(text: str) -> int:
    """argparse type for counts (hands, repetitions, sessions): a whole number of at least 1, so a
    run of nothing is refused up front instead of dividing by zero at the end."""
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {n}")
    return n
