"""Guards that fail loudly if a Textual upgrade (or a change here) brings the pitfalls back."""

from __future__ import annotations

import asyncio
import gc
import sys

import pytest
import textual.app
from ssh_helpers import FakeTransport, Running, StandInApp, wait_for

from cardroom.ssh.guards import _NoRedirect, install_guards

# Keys that go through every parser path: plain, arrows, modified arrows (the lru_cached
# kitty/extended path), a lone ESC (timer), a paste, mouse, focus.
KEYS = ["a", "\x1b[A", "\x1b[1;5C", "\x1b[3~", "\x1b", "\x1b[200~hi\x1b[201~", "\x1b[<0;3;4M", "\x1b[I", "z"]


def _live_apps() -> list[object]:
    gc.collect()
    return [o for o in gc.get_objects() if isinstance(o, StandInApp)]


async def _session_that_typed() -> None:
    r = Running(StandInApp(), FakeTransport())
    await r.ready()
    for key in KEYS:
        r.driver.feed(key)
    await wait_for(lambda: "z" in r.app.keys)
    await r.stop()


async def _sessions(count: int, concurrent: int) -> None:
    for start in range(0, count, concurrent):
        await asyncio.gather(*(_session_that_typed() for _ in range(min(concurrent, count - start))))


def test_guards_are_installed():
    install_guards()
    assert textual.app.redirect_stdout is _NoRedirect
    assert textual.app.redirect_stderr is _NoRedirect


async def test_no_app_survives_closed_sessions():
    assert _live_apps() == []
    await _sessions(30, concurrent=6)
    await asyncio.sleep(0)
    assert _live_apps() == []


@pytest.mark.deep
async def test_no_app_survives_many_closed_sessions():
    await _sessions(300, concurrent=25)
    await asyncio.sleep(0)
    assert _live_apps() == []


async def test_stdout_stderr_untouched_by_overlapping_apps():
    out, err = sys.stdout, sys.stderr
    first = Running(StandInApp(), FakeTransport())
    await first.ready()
    second = Running(StandInApp(), FakeTransport())
    await second.ready()
    assert sys.stdout is out and sys.stderr is err
    await first.stop()  # exits first, while the second is still running
    assert sys.stdout is out and sys.stderr is err
    third = Running(StandInApp(), FakeTransport())
    await third.ready()
    await second.stop()
    await third.stop()
    assert sys.stdout is out and sys.stderr is err
