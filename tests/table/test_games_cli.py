"""``companion games list/show/export/delete`` and ``companion history`` over a real journal file."""

from __future__ import annotations

import json
import subprocess
import sys

import dicecards
import pytest

from companion.cli import main
from companion.journal import Journal
from companion.table import Table, replay_script

RULES = dicecards.RULES
OPTIONS = {"players": ["Ann", "Ben"], "seed": 7, "target": 1}


@pytest.fixture
def config(tmp_path, db_path):
    path = tmp_path / "config.toml"
    path.write_text(f'[data]\ndatabase = "{db_path}"\n')
    return path


def run(config, *argv: str) -> int:
    return main(["--config", str(config), *argv])


def json_out(capsys, config, *argv: str) -> dict:
    assert run(config, *argv) == 0
    return json.loads(capsys.readouterr().out)


@pytest.fixture
def saved(db_path):
    """Two games: one finished (Ann won with a 5), one in progress with an undone draw."""
    with Journal(db_path) as journal:
        done = Table.new(journal, "dicecards", OPTIONS)
        for action in ({"type": "draw"}, {"type": "roll"}, {"type": "dice", "values": [2, 5]},
                       {"type": "keep", "die": 1}, {"type": "end_turn"}, {"type": "end_turn"}):
            assert done.submit(action).accepted
        playing = Table.new(journal, "dicecards", {**OPTIONS, "target": 50})
        for action in ({"type": "draw"}, {"type": "draw"}, {"type": "end_turn"}):
            playing.submit(action)
        playing.undo()
        playing.submit({"type": "roll"})
        states = {t.game_id: RULES.state_to_json(t.state) for t in (done, playing)}
        publics = {t.game_id: t.view() for t in (done, playing)}
    return {"done": done.game_id, "playing": playing.game_id, "states": states, "publics": publics}


def test_reading_commands_never_create_the_journal(capsys, config, db_path):
    assert json_out(capsys, config, "games", "list", "--json")["games"] == []
    assert run(config, "history") == 0
    assert "No finished games yet" in capsys.readouterr().out
    assert run(config, "games", "show", "1") == 1
    assert "there is no game 1" in capsys.readouterr().err
    assert not db_path.exists()


def test_list(capsys, config, saved):
    listing = json_out(capsys, config, "games", "list", "--json")
    by_id = {g["id"]: g for g in listing["games"]}
    assert list(by_id) == [saved["playing"], saved["done"]]  # most recently played first
    playing, done = by_id[saved["playing"]], by_id[saved["done"]]
    assert playing["status"] == "playing" and playing["players"] == ["Ann", "Ben"]
    assert playing["seq"] == 5 and playing["round"] == 1 and "winners" not in playing
    assert done["status"] == "finished" and done["winners"] == ["Ann"] and done["scores"] == {"Ann": 5, "Ben": 0}
    assert done["rounds"] == 1 and done["duration"] >= 0 and done["escaped"] is None
    only = json_out(capsys, config, "games", "list", "--json", "--status", "finished")
    assert [g["id"] for g in only["games"]] == [saved["done"]]
    assert run(config, "games", "list") == 0
    text = capsys.readouterr().out
    assert text.splitlines()[0].split() == ["ID", "GAME", "STATUS", "PLAYERS", "ROUND", "LOG", "STARTED", "LAST", "PLAYED"]
    assert text.splitlines()[1].split()[:5] == [str(saved["playing"]), "dicecards", "playing", "Ann,", "Ben"]


def test_show(capsys, config, saved):
    shown = json_out(capsys, config, "games", "show", str(saved["playing"]), "--json")
    assert shown["error"] is None and shown["result"] is None
    assert shown["view"] == saved["publics"][saved["playing"]]
    assert [(e["seq"], e["kind"], e["undone"]) for e in shown["log"]] == [
        (0, "start", False), (1, "action", False), (2, "action", False), (3, "action", True),
        (4, "undo", False), (5, "action", False),
    ]
    assert run(config, "games", "show", str(saved["playing"])) == 0
    text = capsys.readouterr().out
    assert "Ann passed the turn to Ben.  (undone)" in text
    assert "Undone: Ann passed the turn to Ben." in text
    done = json_out(capsys, config, "games", "show", str(saved["done"]), "--json")
    assert done["result"] == {"winners": ["Ann"], "scores": {"Ann": 5, "Ben": 0}, "rounds": 1}


def test_export_replays_to_the_same_final_state(capsys, config, saved, tmp_path):
    for game_id, state in saved["states"].items():
        script = json_out(capsys, config, "games", "export", str(game_id))
        assert set(script) == {"setup", "actions"} and script["setup"]["seed"] == 7
        assert RULES.state_to_json(replay_script(script, RULES)) == state
    script = tmp_path / "game.json"
    assert run(config, "games", "export", str(saved["playing"]), "-o", str(script)) == 0
    assert "3 actions" in capsys.readouterr().out
    assert [a["type"] for a in json.loads(script.read_text())["actions"]] == ["draw", "draw", "roll"]


def test_delete(capsys, config, saved):
    assert run(config, "games", "delete", str(saved["done"])) == 0
    assert capsys.readouterr().out == f"Deleted game {saved['done']} (dicecards, Ann, Ben; 7 log entries).\n"
    assert [g["id"] for g in json_out(capsys, config, "games", "list", "--json")["games"]] == [saved["playing"]]
    assert run(config, "games", "delete", str(saved["done"])) == 1
    assert f"there is no game {saved['done']}" in capsys.readouterr().err


def test_history(capsys, config, saved):
    history = json_out(capsys, config, "history", "--json")
    assert history["games"]["dicecards"]["plays"] == 1
    assert history["games"]["dicecards"]["wins"] == {"Ann": 1}
    assert history["games"]["dicecards"]["best_score"] == 5
    assert [p["id"] for p in history["plays"]] == [saved["done"]]
    assert run(config, "history") == 0
    text = capsys.readouterr().out
    assert text.startswith("dicecards: 1 play; wins: Ann 1; best score 5, average 2.5")
    assert "won by Ann (5)" in text


def test_an_unusable_journal_is_one_line_naming_the_file(capsys, config, db_path):
    db_path.write_text("not a journal")
    for argv in (["games", "list"], ["games", "show", "1"], ["games", "export", "1"], ["history"]):
        assert run(config, *argv) == 2
        err = capsys.readouterr().err
        assert err.startswith(f"companion {' '.join(argv[:2]) if argv[0] == 'games' else 'history'}: {db_path}: ")
        assert "Traceback" not in err and err.count("\n") == 1
    assert db_path.read_text() == "not a journal"


def test_the_real_command_shows_the_log_even_without_the_game_rules(config, saved, env_without_config):
    # a separate process has no Dice & Cards: the state cannot be rebuilt, the log still shows
    completed = subprocess.run(
        [sys.executable, "-m", "companion", "--config", str(config), "games", "show", str(saved["done"]), "--json"],
        capture_output=True, text=True, env=env_without_config, timeout=60,
    )
    assert completed.returncode == 0, completed.stderr
    shown = json.loads(completed.stdout)
    assert shown["view"] is None and "'dicecards' is not a game Dreamtable knows" in shown["error"]
    assert [e["kind"] for e in shown["log"]] == ["start"] + ["action"] * 6
