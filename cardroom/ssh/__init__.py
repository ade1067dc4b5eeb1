"""SSH transport: one Textual app per PTY session, all in one process.

Public API for the composition root (serve.py):
    start_server(host, port, host_key_path, app_factory, *, limits=None, authorize, ...) -> CardroomSSHServer
    ensure_host_key(path) -> "SHA256:..."
    SessionInfo (its `hosting`: what hosts the session's app, ssh/hosting.py), ColorDepth, Limits
    SessionRefused: what an app factory raises to end a session with a reason instead of an app
    KeyRefused: what `authorize` raises to refuse a key saying why (a banned key)
    source_of(ip): what the per-source limits count as one source (an IPv4 address, an IPv6 /64)
"""

import warnings


def _quiet_asyncssh_dsa_warnings() -> None:
    """cryptography 46+ deprecates DSA and warns when asyncssh's modules name its DSA types at
    import: ten lines on stderr at every `cardroom` start that say nothing to an operator (the room
    never offers ssh-dss). Only that warning, only from asyncssh's modules; every other warning
    still shows. Runs before the first import of asyncssh below."""
    try:
        from cryptography.utils import CryptographyDeprecationWarning
    except ImportError:                 # an older cryptography has no such warning to hide
        return
    warnings.filterwarnings("ignore", message=r"DSA is deprecated", category=CryptographyDeprecationWarning,
                            module=r"asyncssh(\.|$)")


_quiet_asyncssh_dsa_warnings()

from cardroom.ssh.limits import Limits  # noqa: E402  (after the filter above)
from cardroom.ssh.server import CardroomSSHServer, KeyRefused, ensure_host_key, source_of, start_server  # noqa: E402
from cardroom.ssh.session import SessionRefused  # noqa: E402
from cardroom.ssh.terminal import ColorDepth, SessionInfo  # noqa: E402

__all__ = [
    "CardroomSSHServer",
    "ColorDepth",
    "KeyRefused",
    "Limits",
    "SessionInfo",
    "SessionRefused",
    "ensure_host_key",
    "source_of",
    "start_server",
]
