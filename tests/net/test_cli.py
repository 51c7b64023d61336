"""``companion serve`` as a process: it follows the journal, serves, and stops on a signal."""

from __future__ import annotations

import json
import logging
import os
import signal
import subprocess
import sys
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from companion.config import default_database_path
from companion.journal import Journal
from companion.table import Table

# The child registers the test game from this folder's conftest, then runs the real command.
BOOTSTRAP = """
import importlib.util, sys
spec = importlib.util.spec_from_file_location("mirror_conftest", {conftest!r})
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
from companion import games
games.register(module.SecretsGame())
from companion.cli import main
sys.exit(main(sys.argv[1:]))
"""


def start_serve(*args: str) -> subprocess.Popen[str]:
    conftest = str(Path(__file__).with_name("conftest.py"))
    return subprocess.Popen(
        [sys.executable, "-c", BOOTSTRAP.format(conftest=conftest), "serve", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=dict(os.environ),
    )


def first_line(process: subprocess.Popen[str]) -> dict[str, Any]:
    assert process.stdout is not None
    line = process.stdout.readline()
    if not line:
        raise AssertionError(f"serve printed nothing; stderr: {process.stderr.read() if process.stderr else ''}")
    return json.loads(line)


def get_state(url: str) -> dict[str, Any]:
    with urllib.request.urlopen(f"{url}api/state", timeout=5) as reply:
        return json.loads(reply.read())


def stop(process: subprocess.Popen[str], sig: signal.Signals) -> tuple[int, str]:
    process.send_signal(sig)
    try:
        _, err = process.communicate(timeout=15)
    except subprocess.TimeoutExpired:
        process.kill()
        process.communicate()
        raise AssertionError(f"serve did not stop on {sig.name}") from None
    return process.returncode, err


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_serve_follows_the_game_being_played_and_stops_on_a_signal(sig, secrets_game, until):
    process = start_serve("--interface", "127.0.0.1", "--port", "0")
    try:
        ready = first_line(process)
        assert ready["url"] == f"http://127.0.0.1:{ready['port']}/" and ready["game"] is None
        assert ready["local_url"].endswith(f".local:{ready['port']}/")
        assert get_state(ready["url"])["status"] == "idle"
        # a game is started elsewhere (here: this test process) and played in the shared journal
        journal = Journal(default_database_path())
        table = Table.new(journal, "mirrortest", {"players": ["Ann", "Ben"]})
        table.submit({"type": "advance"})
        shown = until(lambda: (s := get_state(ready["url"]))["status"] == "playing" and s["view"]["moves"] == 1 and s)
        assert shown["game_id"] == table.game_id
        assert [line["text"] for line in shown["log"]][-1] == "Move 1."
        # a newer game starts: the mirror moves to it
        newer = Table.new(journal, "mirrortest", {"players": ["Cleo", "Dan"]})
        until(lambda: get_state(ready["url"])["game_id"] == newer.game_id)
        table.close()
        newer.close()
        journal.close()
    finally:
        code, err = stop(process, sig)
    assert code == 0, err
    assert "Traceback" not in err
    assert f"{sig.name} received, stopping" in err


def test_serve_shows_the_game_asked_for(secrets_game, until):
    journal = Journal(default_database_path())
    first = Table.new(journal, "mirrortest", {"players": ["Ann", "Ben"]})
    later = Table.new(journal, "mirrortest", {"players": ["Cleo", "Dan"]})
    process = start_serve("--interface", "127.0.0.1", "--port", "0", "--game", str(first.game_id))
    try:
        ready = first_line(process)
        assert ready["game"] == first.game_id
        state = get_state(ready["url"])
        assert state["game_id"] == first.game_id and state["view"]["players"][0]["name"] == "Ann"
        later.submit({"type": "advance"})  # another game moving does not take the mirror away
        first.submit({"type": "advance"})
        until(lambda: get_state(ready["url"])["view"]["moves"] == 1)
        assert get_state(ready["url"])["game_id"] == first.game_id
    finally:
        stop(process, signal.SIGTERM)
        first.close()
        later.close()
        journal.close()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--game", "99"], "--game 99: "),
        (["--port", "70000"], "--port 70000: must be between 0 and 65535"),
        (["--interface", "wlan0"], "'wlan0' is not an IP address"),
    ],
)
def test_serve_refuses_bad_arguments_in_words(args, message, capsys):
    from companion.cli import main

    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    try:
        assert main(["serve", *args]) == 2
    finally:  # main() points logging at this test's captured stderr: put it back
        root.handlers[:] = handlers
        root.setLevel(level)
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
