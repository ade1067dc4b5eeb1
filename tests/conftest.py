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


# Textual as each test runs it: plain, unless the test asks for the guards of
# cardroom/textual_adapter.py through one of these fixtures (or starts a server, which installs
# what its configuration says). Whatever a test installed is taken back after it.

@pytest.fixture(autouse=True)
def _textual_guards_taken_back():
    yield
    import sys
    adapter = sys.modules.get("cardroom.textual_adapter")
    if adapter is not None:
        adapter.uninstall()


@pytest.fixture
def textual_fixes():
    """Textual with the fixes a server always installs, and none of the speedups."""
    from cardroom import textual_adapter as adapter
    adapter.install(adapter.FIXES)
    return adapter


@pytest.fixture
def textual_speedups():
    """Textual as a server runs it by default: the fixes and the speedups."""
    from cardroom import textual_adapter as adapter
    adapter.install(adapter.server_guards(speedups=True))
    return adapter


@pytest.fixture(scope="session")
def pg_cluster():
    """A throw-away PostgreSQL cluster for the session (`tests.pgcluster`): skipped with the
    reason where the server is not installed, failed in CI. `new_database()` gives a URL."""
    from tests.pgcluster import Cluster, missing, pg_bin

    try:
        import psycopg
    except ImportError:
        missing("psycopg is not installed (pip install 'cardroom[pg]')")
    bindir = pg_bin()
    if bindir is None:
        missing("its server binaries (initdb, pg_ctl) are not installed")
    cluster = Cluster(bindir)
    admin = psycopg.connect(cluster.url(), autocommit=True)
    made = iter(range(1, 10**9))

    def new_database(template: str = "template1") -> str:
        name = f"t{next(made)}"
        admin.execute(f'CREATE DATABASE {name} TEMPLATE "{template}"')
        return cluster.url(name)

    cluster.new_database = new_database
    try:
        yield cluster
    finally:
        admin.close()
        cluster.stop()
