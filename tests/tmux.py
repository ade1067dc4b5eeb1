"""A real terminal for tests: tmux panes running the OpenSSH client, keys typed with
`tmux send-keys`, the screen read with `tmux capture-pane -p`."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
from pathlib import Path

MISSING = [tool for tool in ("tmux", "ssh", "ssh-keygen") if shutil.which(tool) is None]
EXIT_MARK = "CARDROOM-SSH-EXIT="


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def keygen(path: Path) -> str:
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "smoke", "-f", str(path)],
                   check=True, capture_output=True)
    out = subprocess.run(["ssh-keygen", "-lf", f"{path}.pub"], check=True, capture_output=True,
                         text=True).stdout
    return out.split()[1]          # "256 SHA256:... smoke (ED25519)"


class Tmux:
    def __init__(self) -> None:
        self.base = ["tmux", "-L", f"cardroom-test-{os.getpid()}", "-f", "/dev/null"]

    def __call__(self, *args: str) -> str:
        return subprocess.run([*self.base, *args], check=True, capture_output=True, text=True,
                              timeout=10).stdout

    def screen(self, target: str) -> str:
        return self("capture-pane", "-p", "-t", target)

    def keys(self, target: str, *keys: str) -> None:
        for key in keys:
            self("send-keys", "-t", target, key)
            time.sleep(0.05)    # deliberate: keys apart, as a person types them, one packet each

    def wait(self, target: str, *texts: str, timeout: float = 10.0) -> str:
        """The pane's text once it shows every one of `texts`."""
        deadline = time.monotonic() + timeout
        while True:
            text = self.screen(target)
            if all(t in text for t in texts):
                return text
            if time.monotonic() > deadline:
                raise AssertionError(f"{target}: never showed {texts!r}; the pane:\n{text}")
            time.sleep(0.15)

    def kill(self) -> None:
        """Stop this test's tmux server and remove its socket file (kill-server leaves it)."""
        path = subprocess.run([*self.base, "display", "-p", "#{socket_path}"], capture_output=True,
                              text=True, timeout=10).stdout.strip()
        subprocess.run([*self.base, "kill-server"], capture_output=True, timeout=10)
        if path:
            Path(path).unlink(missing_ok=True)


def ssh_command(port: int, key: Path, name: str) -> str:
    """The OpenSSH client logging in as `name` with `key`; when it exits, its exit code is printed
    (EXIT_MARK) and the pane stays open to be read."""
    return (f"ssh -F /dev/null -p {port} -i {key} -o StrictHostKeyChecking=no "
            f"-o UserKnownHostsFile=/dev/null -o IdentitiesOnly=yes -o BatchMode=yes -o LogLevel=ERROR "
            f"{name}@127.0.0.1; echo {EXIT_MARK}$?; sleep 60")
