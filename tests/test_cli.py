"""The command line: `cardroom hotseat --stakes` reads stakes as config.toml does."""

from __future__ import annotations

import pytest

from cardroom.cli import hotseat_players, hotseat_structure, hotseat_table, main
from cardroom.config import config_from_dict
from cardroom.engine.variants import find_variant

HOLDEM = find_variant("holdem")


@pytest.mark.parametrize("kind,stakes", [("fixed", "2/4"), ("spread", "1/5"), ("pot", "0.25/0.50"), ("no", "1/2")])
def test_hotseat_stakes_mean_what_config_stakes_mean(tmp_path, kind, stakes):
    """Fixed and spread: the small and big bet; pot and no limit: the two blinds ("1/2" no limit is
    $1/$2 blinds, not $0.50/$1 as the hot-seat game used to make it)."""
    lo, hi = stakes.split("/")
    table = config_from_dict({"tables": [{"name": "T", "game": "holdem", "structure": kind, "stakes": [lo, hi]}]},
                             tmp_path / "config.toml").tables[0].structure()
    assert hotseat_structure(HOLDEM, kind, stakes) == table
    assert hotseat_structure(HOLDEM, kind, f"${lo}/${hi}") == table


def test_hotseat_no_limit_1_2_has_blinds_of_1_and_2_dollars():
    s = hotseat_structure(HOLDEM, "no", "1/2")
    assert s.blinds == (100, 200) and s.big_blind == 200


@pytest.mark.parametrize("stakes", ["abc", "2", "2/4/8", "4/2", "0/2", "2.555/5", "-1/2"])
def test_bad_hotseat_stakes_are_refused_with_a_message(stakes, capsys):
    with pytest.raises(ValueError):
        hotseat_structure(HOLDEM, "fixed", stakes)
    assert main(["hotseat", f"--stakes={stakes}", "--players", "a,b"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("cardroom hotseat: ") and "Traceback" not in err


@pytest.mark.parametrize("players, bots, says", [
    ("a,a", 1, "too alike"),                  # it started heads-up against one bot: one account
    ("Ann,ann", 0, "too alike"),
    ("bot1,ann", 1, "too alike"),             # a local player named like the practice bot
    ("a,b,c,d,e,f,g", 3, "at most 8"),        # stud: the tenth player's seat raised SeatTaken
    ("ann", 0, "at least two"),
    ("ann,Dealer", 0, "kept for the house"),
    ("ann,b\x1b[31mob", 0, "may not contain"),
    ("ann,bob", -1, "0 or more"),
    (",", 3, "at least one local player"),   # it said "at least two players" with three bots
])
def test_bad_hotseat_players_are_refused_with_a_message(players, bots, says, capsys):
    assert main(["hotseat", "--game", "stud", "--players", players, "--bots", str(bots)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("cardroom hotseat: ") and says in err and "Traceback" not in err


def test_hotseat_players_are_the_cleaned_names():
    assert hotseat_players(" alice , bob,,", 2, HOLDEM) == ["alice", "bob"]


@pytest.mark.parametrize("argv, says", [(["--game", "nosuch"], "no game called 'nosuch'"),
                                        (["--hands", "0"], "at least 1")])
def test_bad_demo_arguments_are_refused_with_a_message(argv, says, capsys):
    assert main(["demo", *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith("cardroom demo: ") and says in err and "Traceback" not in err


def test_serve_without_a_terminal_on_stdout_keeps_the_console_off(tmp_path):
    """`cardroom serve > serve.log` (or `| tee`) from a terminal: stdin is a terminal but stdout is
    not, and the console panel would write its screen's escape codes into the log. The server says
    the panel is off, serves, and writes plain lines; SIGTERM still stops it cleanly."""
    import os
    import signal
    import subprocess
    import sys
    import time
    from pathlib import Path

    (tmp_path / "config.toml").write_text(
        '[server]\nhost = "127.0.0.1"\nport = 0\n\n'
        '[[tables]]\nname = "T"\ngame = "holdem"\nstructure = "fixed"\nstakes = ["2", "4"]\n')
    root = Path(__file__).resolve().parents[1]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(root), os.environ.get("PYTHONPATH")])))
    terminal, terminal_end = os.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "cardroom", "serve", "--config", str(tmp_path / "config.toml")],
                            cwd=tmp_path, env=env, stdin=terminal_end, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT)
    try:
        out = b""
        deadline = time.monotonic() + 20
        while b"players connect with" not in out and time.monotonic() < deadline and proc.poll() is None:
            out += os.read(proc.stdout.fileno(), 4096)
        time.sleep(1.5)                        # time for a console panel to draw, were it started
        proc.send_signal(signal.SIGTERM)
        out += proc.communicate(timeout=20)[0]
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(terminal)
        os.close(terminal_end)
    text = out.decode()
    assert "players connect with" in text and "console panel is off" in text, text
    assert "\x1b" not in text
    assert proc.returncode == 0, text


def test_the_server_log_rotates_instead_of_growing_without_end(tmp_path, monkeypatch):
    """asyncssh logs a dozen lines a connection: the log must not fill the ledger's disk."""
    import logging

    from cardroom import serve

    handler = serve.log_file(tmp_path / "cardroom.log")
    assert (handler.maxBytes, handler.backupCount) == (10 * 1024 * 1024, 5)
    monkeypatch.setattr(serve, "LOG_BYTES", 4096)
    handler.close()
    handler = serve.log_file(tmp_path / "cardroom.log")
    logger = logging.getLogger("cardroom.test-rotation")
    logger.propagate = False
    logger.addHandler(handler)
    try:
        for i in range(2000):
            logger.warning("connection %d closed", i)
    finally:
        logger.removeHandler(handler)
        handler.close()
    files = sorted(p.name for p in tmp_path.iterdir())
    assert files == ["cardroom.log"] + [f"cardroom.log.{k}" for k in range(1, 6)]
    assert all((tmp_path / f).stat().st_size <= 4096 for f in files)


def test_demo_prints_every_hand_it_plays(capsys):
    """The table keeps only its newest 200 chat lines; the demo counted printed lines by position,
    so after about seven hands it printed nothing more while it went on playing."""
    from cardroom.demo import run_demo

    assert run_demo("holdem", "fixed", 6, 25, seed=21) == 0
    out = capsys.readouterr().out
    begun = [line for line in out.splitlines() if line.endswith(" begins")]
    assert len(begun) == 25 and len(set(begun)) == 25
    assert out.rstrip().endswith("25 hands; money conserved: True")


def test_rule_draw_lo_demo_shows_every_remaining_hand_at_the_showdown(capsys):
    """Seed 000: "the system will declare the winner and show the cards of ALL remaining players".
    The demo's Draw Lo table mucked losing hands ("bot3 mucks")."""
    from cardroom.demo import run_demo

    assert run_demo("a5-draw", "fixed", 4, 10, seed=3) == 0
    out = capsys.readouterr().out
    shows = [line for line in out.splitlines() if " shows " in line]
    assert len(shows) >= 10 and not [line for line in out.splitlines() if line.endswith(" mucks")]


def test_hotseat_tables_follow_the_games_own_page():
    from cardroom.engine.betting import Rules

    lo = find_variant("a5-draw")
    t = hotseat_table("Hot seat", lo, hotseat_structure(lo, "fixed", "2/4"), 6)
    assert t.rules == Rules(show_all=True, burn_before_draw=False, defer_fifth_card=False,
                            reburn_on_reshuffle=False) and t.clock_waits_for_ready
    d27 = find_variant("27-triple")
    assert hotseat_table("Hot seat", d27, hotseat_structure(d27, "fixed", "2/4"), 6).rules == Rules()


def test_version_prints_the_package_version(capsys):
    import tomllib
    from pathlib import Path

    pyproject = tomllib.loads((Path(__file__).resolve().parents[1] / "pyproject.toml").read_text())
    with pytest.raises(SystemExit) as e:
        main(["--version"])
    assert e.value.code == 0
    assert capsys.readouterr().out == f"cardroom {pyproject['project']['version']}\n"


def _serve_until_listening(tmp_path, *options):
    """Run `cardroom serve --headless` with `options` until it listens, then stop it (SIGTERM);
    its stdout and stderr."""
    import os
    import signal
    import subprocess
    import sys
    import time
    from pathlib import Path

    (tmp_path / "config.toml").write_text(
        '[server]\nhost = "127.0.0.1"\nport = 0\n\n'
        '[[tables]]\nname = "T"\ngame = "holdem"\nstructure = "fixed"\nstakes = ["2", "4"]\n')
    root = Path(__file__).resolve().parents[1]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(root), os.environ.get("PYTHONPATH")])))
    proc = subprocess.Popen([sys.executable, "-m", "cardroom", "serve", "--config", str(tmp_path / "config.toml"),
                             "--headless", *options], cwd=tmp_path, env=env, stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        out = b""
        deadline = time.monotonic() + 20
        while b"players connect with" not in out and time.monotonic() < deadline and proc.poll() is None:
            out += os.read(proc.stdout.fileno(), 4096)
        proc.send_signal(signal.SIGTERM)
        more, err = proc.communicate(timeout=20)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, (out + more + err).decode()
    return (out + more).decode(), err.decode()


def test_serve_logs_to_stderr_when_asked_and_to_no_file(tmp_path):
    """--log-stderr: for systemd or a container, the log goes to stderr, not DATA_DIR/cardroom.log."""
    out, err = _serve_until_listening(tmp_path, "--log-stderr", "--log-level", "debug")
    assert "INFO cardroom.serve: cardroom is serving 1 table(s)" in err, err
    assert not (tmp_path / "cardroom.log").exists()
    assert "logging to" not in out


def test_serve_log_level_sets_what_the_log_keeps(tmp_path):
    out, err = _serve_until_listening(tmp_path, "--log-level", "warning")
    assert f"logging to {tmp_path / 'cardroom.log'}" in out
    assert err == "" and (tmp_path / "cardroom.log").read_text() == ""   # the INFO lines are left out
    out, err = _serve_until_listening(tmp_path)
    assert "INFO cardroom.serve: cardroom is serving" in (tmp_path / "cardroom.log").read_text()


def test_bad_log_level_is_refused_with_a_message(capsys):
    with pytest.raises(SystemExit) as e:
        main(["serve", "--log-level", "loud"])
    assert e.value.code == 2 and "invalid choice: 'loud'" in capsys.readouterr().err


def test_serve_logging_to_its_terminal_keeps_the_console_panel_off(tmp_path):
    """--log-stderr on a terminal: log lines would tear the console panel drawn there, so the
    panel stays off and the server says so."""
    import os
    import signal
    import subprocess
    import sys
    import time
    from pathlib import Path

    (tmp_path / "config.toml").write_text(
        '[server]\nhost = "127.0.0.1"\nport = 0\n\n'
        '[[tables]]\nname = "T"\ngame = "holdem"\nstructure = "fixed"\nstakes = ["2", "4"]\n')
    root = Path(__file__).resolve().parents[1]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(root), os.environ.get("PYTHONPATH")])))
    terminal, terminal_end = os.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "cardroom", "serve", "--config", str(tmp_path / "config.toml"),
                             "--log-stderr"], cwd=tmp_path, env=env, stdin=terminal_end, stdout=terminal_end,
                            stderr=terminal_end)
    try:
        out = b""
        deadline = time.monotonic() + 20
        while b"players connect with" not in out and time.monotonic() < deadline and proc.poll() is None:
            out += os.read(terminal, 4096)
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=20)
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(terminal)
        os.close(terminal_end)
    text = out.decode()
    assert "the console panel is off" in text and "INFO cardroom.serve: cardroom is serving" in text, text
    assert "\x1b" not in text
    assert proc.returncode == 0, text


def _stderr_of(*args):
    """Run `args` in a fresh interpreter, with warnings at their default (as a user's shell has
    them); its exit code and stderr."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    env = {k: v for k, v in os.environ.items() if k != "PYTHONWARNINGS"}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(root), os.environ.get("PYTHONPATH")]))
    proc = subprocess.run([sys.executable, *args], env=env, capture_output=True, text=True, timeout=60)
    return proc.returncode, proc.stderr


@pytest.mark.parametrize("args", [["-m", "cardroom", "--version"], ["-m", "cardroom", "serve", "--help"],
                                  ["-c", "import cardroom.ssh.server, cardroom.ssh.extras"]],
                         ids=["version", "serve-help", "import-ssh"])
def test_a_cardroom_command_prints_nothing_on_stderr(args):
    """Issue 33: cryptography 46+ warns that DSA is deprecated when asyncssh is imported (ten lines
    at every start); the room hides that warning, and only it."""
    code, err = _stderr_of(*args)
    assert code == 0 and err == ""


def test_the_dsa_filter_hides_no_other_warning():
    code, err = _stderr_of("-c", "import warnings, cardroom.ssh\n"
                                 "from cryptography.utils import CryptographyDeprecationWarning as W\n"
                                 "warnings.warn('DSA is deprecated', W)\n"
                                 "warnings.warn('something else', W)\n")
    assert code == 0
    assert "something else" in err and "DSA is deprecated" in err   # raised here, not in asyncssh


@pytest.mark.parametrize("game, order, hole, board", [
    ("a5-draw", "ace-to-five", "As 2s 3d 4c 6h", ""),
    ("Draw Lo", "ace-to-five", "As 2s 3d 4c 6h", ""),
    ("27-triple", "deuce-to-seven", "2s 3s 4d 5c 7h", ""),
    ("razz", "ace-to-five", "As 2s 3d 4c 6h Kd Kc", ""),
    ("holdem", "high", "As Ks", "Qs Js Ts"),
    ("omaha", "omaha-high", "As Ks Qd Jc", "Ts 9s 2h"),
])
def test_eval_takes_the_games_names_as_demo_and_hotseat_write_them(game, order, hole, board, capsys):
    """Issue 35: `cardroom eval` wanted ace-to-five where demo, hot-seat and config.toml say a5-draw."""
    board_args = ["--board", board] if board else []
    assert main(["eval", order, hole, *board_args]) == 0
    by_order = capsys.readouterr().out
    assert main(["eval", game, hole, *board_args]) == 0
    assert capsys.readouterr().out == by_order and by_order.strip()


def test_eval_of_a_hi_lo_game_gives_both_halves_as_the_showdown_does(capsys):
    assert main(["eval", "omaha8", "As 2s Kd Kc", "--board", "3h 4h 8c Kh"]) == 0
    assert capsys.readouterr().out == "HI: three of a kind, Kings; LO: 8,4,3,2,A\n"
    assert main(["eval", "stud8", "As 2s Kd Kc 9h 9d Qc"]) == 0
    assert capsys.readouterr().out == "HI: two pair, Kings and Nines\n"          # no low


def test_eval_of_an_unknown_name_lists_orders_and_games(capsys):
    assert main(["eval", "lowball-ish", "As 2s 3d 4c 6h"]) == 2
    err = capsys.readouterr().err
    assert "ace-to-five" in err and "a5-draw" in err and "Traceback" not in err
