"""The print-redirect fix (cardroom/textual_adapter.py), reproduced on stock Textual.

Textual's App runs inside `contextlib.redirect_stdout(capture)` / `redirect_stderr(capture)`, which
set the process globals sys.stdout and sys.stderr and, on exit, put back what they found on entry.
Two apps in one process whose runs overlap (as sessions do on the ssh server) exit in any order:
when the first to start exits first, it puts back the original streams while the second still
runs, and the second then puts back the first app's capture, so after both have ended every print
and traceback of the process goes to a dead app (which it also keeps alive). The fix takes the
redirect out of Textual's app module; the server logs and never prints.
"""

from __future__ import annotations

import asyncio
import sys

import pytest
from textual.app import App

from cardroom import textual_adapter

BUG = ("Textual 8.2.8: an App's run sets sys.stdout/sys.stderr with contextlib.redirect_stdout/stderr, "
       "so apps whose runs overlap leave them pointing at an exited app's capture")


class Tiny(App[None]):
    def __init__(self) -> None:
        super().__init__()
        self.mounted = asyncio.Event()

    def on_mount(self) -> None:
        self.mounted.set()


async def start(app: App) -> asyncio.Task:
    task = asyncio.create_task(app.run_async(headless=True, size=(20, 5)))
    await app.mounted.wait()
    return task


async def stop(app: App, task: asyncio.Task) -> None:
    app.exit()
    await task


@pytest.mark.parametrize("guards", [
    pytest.param((), id="stock", marks=pytest.mark.xfail(strict=True, raises=AssertionError, reason=BUG)),
    pytest.param(("print-redirect",), id="with-the-guard"),
])
async def test_apps_that_overlap_leave_sys_stdout_and_stderr_as_they_found_them(guards):
    textual_adapter.install(guards)
    assert textual_adapter.installed() == guards
    out, err = sys.stdout, sys.stderr
    try:
        first = Tiny()
        first_run = await start(first)
        second = Tiny()
        second_run = await start(second)
        await stop(first, first_run)            # the first to start ends first, the second runs on
        await stop(second, second_run)
        assert (sys.stdout, sys.stderr) == (out, err), f"left to {type(sys.stdout).__name__}"
    finally:
        sys.stdout, sys.stderr = out, err       # stock Textual left them to the first app
