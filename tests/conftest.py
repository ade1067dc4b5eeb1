"""Shared test set-up: the --deep flag and the path to the third-party samples."""

from pathlib import Path

import pytest

SHARED = Path(__file__).resolve().parents[1].parent / "shared"
SAMPLES = SHARED / "samples"


def pytest_addoption(parser):
    parser.addoption("--deep", action="store_true", help="run the exhaustive and high-volume tests")


def pytest_collection_modifyitems(config, items):
    if config.getoption("--deep"):
        return
    skip = pytest.mark.skip(reason="deep run: pass --deep")
    for item in items:
        if "deep" in item.keywords:
            item.add_marker(skip)


@pytest.fixture
def samples():
    """The shared third-party hand histories; skipped where ../shared/samples is absent."""
    if not SAMPLES.is_dir():
        pytest.skip(f"third-party samples not found at {SAMPLES} (a clone without ../shared)")
    return SAMPLES
