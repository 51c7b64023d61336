"""``companion chainsomnia play`` and ``simulate`` as the README documents them."""

from __future__ import annotations

import json
import re
from pathlib import Path

from companion.cli import main

README = Path(__file__).resolve().parents[2] / "README.md"
SECTION = "## CHAINsomnia from the command line"


def run_play(tmp_path: Path, script, capsys, *args: str) -> tuple[int, list[dict], str]:
    path = tmp_path / "script.json"
    path.write_text(script if isinstance(script, str) else json.dumps(script))
    status = main(["chainsomnia", "play", str(path), *args])
    captured = capsys.readouterr()
    lines = [json.loads(line) for line in captured.out.splitlines() if line]
    return status, lines, captured.err


def test_play_the_readme_example(tmp_path: Path, capsys):
    text = README.read_text().split(SECTION, 1)[1]
    script = re.search(r"```json\n(.*?)\n```", text, re.S).group(1)
    status, lines, err = run_play(tmp_path, script, capsys)
    actions = json.loads(script)["actions"]
    assert status == 0 and err == ""
    assert len(lines) == len(actions) + 1
    assert [line["seq"] for line in lines[:-1]] == list(range(1, len(actions) + 1))
    refused = [line for line in lines[:-1] if not line["accepted"]]
    assert [r["error"]["code"] for r in refused] == ["bad_dream_there"]
    assert refused[0]["error"]["message"] == "Chloe cannot move into the Library: a Bad Dream is there"
    final = lines[-1]
    assert final["game"] == "chainsomnia" and final["round"] == 2


def test_play_prints_one_line_per_action_then_the_state(tmp_path: Path, capsys):
    script = {"setup": {"players": 2, "seed": 3}, "actions": [{"type": "end_turn"}, {"type": "fly"}]}
    status, lines, _ = run_play(tmp_path, script, capsys, "--public")
    assert status == 0
    assert lines[0]["accepted"] is True and lines[0]["events"][0]["type"] == "turn_ended"
    assert lines[1] == {"seq": 2, "action": {"type": "fly"}, "accepted": False, "error": lines[1]["error"]}
    assert lines[1]["error"]["code"] == "unknown_action"
    assert "rng" not in lines[2] and lines[2]["seat"] is None
    status, _, _ = run_play(tmp_path, script, capsys, "--strict")
    assert status == 1


def test_play_a_bad_script_exits_2_with_one_line_and_no_traceback(tmp_path: Path, capsys):
    cases = [
        ("{not json", "not valid JSON"),
        ("[1, 2]", 'must be a JSON object with "setup" and "actions"'),
        (json.dumps({"actions": []}), '"setup" must be an object'),
        (json.dumps({"setup": {"players": 2}, "actions": [3]}), "actions[0] must be an object"),
        (json.dumps({"setup": {"players": 7}, "actions": []}), 'setup: setup option "players"'),
        (json.dumps({"setup": {"players": 2}, "moves": []}), 'unknown key "moves"'),
    ]
    for script, words in cases:
        status, lines, err = run_play(tmp_path, script, capsys)
        assert status == 2 and lines == []
        assert err.count("\n") == 1 and words in err and "Traceback" not in err
    assert main(["chainsomnia", "play", str(tmp_path / "missing.json")]) == 2
    assert "cannot be read" in capsys.readouterr().err


def test_simulate_reports_win_rate_rounds_defeat_causes_and_no_violations(capsys):
    assert main(["chainsomnia", "simulate", "--games", "8", "--seed", "4", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["games"] == 8 and report["invariant_violations"] == 0
    assert 0.0 <= report["win_rate"] <= 1.0 and report["advertised_escape_rate"] == 0.12
    assert sum(report["defeat_causes"].values()) + report["victories"] == 8
    assert set(report["by_players"]) == {"1", "2", "3", "4"}
    assert main(["chainsomnia", "simulate", "--games", "4", "--policy", "greedy", "--players", "3"]) == 0
    assert "invariant violations: 0" in capsys.readouterr().out
