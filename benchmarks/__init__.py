"""Side-by-side measurements against peer libraries: `python -m benchmarks <name> [options]`.

Never part of the test run. Each benchmark is a module `benchmarks.<name>` with `main(argv) -> int`.
"""
