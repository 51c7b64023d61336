"""``companion somnicum score`` as a user runs it, and its refusals of bad score sheets."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from companion.cli import main

DATA = Path(__file__).parent.parent / "data"
KARL = (DATA / "karl.json").read_text()


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "companion", *args],
        input=stdin, capture_output=True, text=True, timeout=60,
    )


def test_score_prints_the_json_contract():
    done = run("somnicum", "score", str(DATA / "karl.json"))
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out == {
        "players": [{"name": "Karl", "total": 32, "breakdown": {
            "level1": 7, "level2": 10, "level3": 9, "isolated": 2,
            "meetings": 1, "goal": 4, "nightmares": -1}}],
        "winners": ["Karl"],
    }


def test_dash_reads_standard_input():
    done = run("somnicum", "score", "-", stdin=KARL)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["players"][0]["total"] == 32


def test_explain_prints_each_card_with_its_multiplier_and_why():
    done = run("somnicum", "score", "--explain", "-", stdin=KARL)
    assert done.returncode == 0, done.stderr
    text = done.stdout
    assert "gap on both sides: counts as level 1" in text
    assert "alone in its row" in text
    assert "goal: octopus" in text
    assert text.count("Nightmare") == 1
    assert "= 32" in text
    assert "Winner: Karl" in text


def test_bad_stars_names_player_level_card_and_field():
    sheet = json.loads(KARL)
    sheet["players"][0]["dream"][1][3]["stars"] = "two"  # level 2, the third card (after a gap)
    done = run("somnicum", "score", "-", stdin=json.dumps(sheet))
    assert done.returncode == 2
    assert done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1
    assert 'players[0] "Karl": dream level 2, card 3: "stars" must be a whole number' in lines[0]
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize(
    ("mutate", "expected"),
    [
        (lambda s: "{not json", "not valid JSON"),
        (lambda s: s.replace('"gap",', '"gap", "gap",'), '"gap" twice in a row'),
        (lambda s: s.replace('{"stars": 3, "particles": ["planet", "star"]}', '{"stars": 3, "particles": ["planet", "star"]}, "gap"'), 'a "gap" cannot end a row'),
        (lambda s: s.replace('"stars": 3, "particles": ["planet"', '"particles": ["planet"'), 'dream level 3, card 1: "stars" is missing'),
        (lambda s: s.replace('"sand": 3', '"sand": -1'), '"sand" must not be negative'),
        (lambda s: s.replace('"name": "Karl"', '"name": ""'), '"name" must be a non-empty string'),
        (lambda s: s.replace('"sand": 3', '"sand": 3, "sandd": 1'), 'unknown field "sandd"'),
        (lambda s: s.replace('"nightmare": true', '"nightmare": "yes"'), '"nightmare" must be true or false'),
        (lambda s: s.replace('[{"stars": 3, "particles": ["planet", "star"]}]', '[{"stars": 3, "particles": ["planet"]}, {"stars": 3, "particles": ["star"]}]'), "impossible"),
        (lambda s: '{"players": []}', "at least one player"),
        (lambda s: "[]", '"players" list'),
    ],
    ids=["malformed-json", "gap-twice", "gap-at-end", "missing-stars", "negative-sand",
         "empty-name", "unknown-field", "nightmare-not-bool", "impossible-dream",
         "no-players", "not-an-object"],
)
def test_bad_score_sheets_exit_2_with_one_line(mutate, expected, capsys, tmp_path):
    path = tmp_path / "sheet.json"
    path.write_text(mutate(KARL))
    assert main(["somnicum", "score", str(path)]) == 2
    err = capsys.readouterr().err
    assert expected in err
    assert err.count("\n") == 1


def test_unreadable_file_exits_2(tmp_path, capsys):
    assert main(["somnicum", "score", str(tmp_path / "missing.json")]) == 2
    assert "cannot be read" in capsys.readouterr().err


def test_somnicum_without_subcommand_prints_its_help(capsys):
    assert main(["somnicum"]) == 0
    assert "score" in capsys.readouterr().out
