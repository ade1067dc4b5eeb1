"""Fixtures for the SSH bridge tests (helpers live in ssh_helpers.py)."""

from __future__ import annotations

from typing import Any

import pytest
from ssh_helpers import FakeTransport, Running, StandInApp
from textual.app import App


@pytest.fixture
def run_app():
    started: list[Running] = []

    def start(app: App[Any] | None = None, **transport_kwargs: Any) -> Running:
        running = Running(app or StandInApp(), FakeTransport(**transport_kwargs))
        started.append(running)
        return running

    yield start
    for running in started:
        if not running.task.done():
            running.task.cancel()
