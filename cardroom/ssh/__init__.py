"""SSH transport: one Textual app per PTY session, all in one process.

Public API for the composition root (serve.py):
    start_server(host, port, host_key_path, app_factory, *, limits=None, authorize, ...) -> CardroomSSHServer
    ensure_host_key(path) -> "SHA256:..."
    SessionInfo (its `hosting`: what hosts the session's app, ssh/hosting.py), ColorDepth, Limits
    SessionRefused: what an app factory raises to end a session with a reason instead of an app
"""

from cardroom.ssh.limits import Limits
from cardroom.ssh.server import CardroomSSHServer, ensure_host_key, start_server
from cardroom.ssh.session import SessionRefused
from cardroom.ssh.terminal import ColorDepth, SessionInfo

__all__ = [
    "CardroomSSHServer",
    "ColorDepth",
    "Limits",
    "SessionInfo",
    "SessionRefused",
    "ensure_host_key",
    "start_server",
]
