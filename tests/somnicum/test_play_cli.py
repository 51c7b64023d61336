"""``companion somnicum play`` and ``simulate`` as a user runs them: a whole game through the
Table (journal, undo, resume) from the command line, and refusals in plain words."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from companion.cli import main
from companion.journal import Journal
from companion.somnicum import RULES
from companion.somnicum.simulate import Chooser
from companion.table import Table


def random_game(seed: int, players: int = 2) -> tuple[dict, list[dict], object]:
    """The setup and actions of a whole random game, and its final state."""
    setup = {"players": [f"P{n}" for n in range(players)], "seed": seed}
    state = RULES.new_game(setup)
    chooser = Chooser(seed)
    actions = []
    while not RULES.is_over(state):
        action = chooser.pick(RULES.legal_actions(state))
        actions.append(action)
        state, _ = RULES.apply(state, action)
    return setup, actions, state


def run_main(capsys, *args: str) -> tuple[int, list[str], str]:
    status = main(list(args))
    out, err = capsys.readouterr()
    return status, out.splitlines(), err


def test_a_full_game_plays_through_the_table_from_the_command_line(tmp_path: Path):
    setup, actions, final = random_game(seed=5, players=3)
    script = tmp_path / "game.json"
    script.write_text(json.dumps({"setup": setup, "actions": actions}))
    journal_file = tmp_path / "games.sqlite3"
    done = subprocess.run(
        [sys.executable, "-m", "companion", "somnicum", "play", str(script), "--journal", str(journal_file)],
        capture_output=True, text=True, timeout=120,
    )
    assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(lines) == len(actions) + 1
    assert all(line["accepted"] for line in lines[:-1])
    assert [line["seq"] for line in lines[:-1]] == list(range(1, len(actions) + 1))
    assert all(line["text"] for line in lines[:-1])
    assert RULES.state_from_json(lines[-1]) == final  # the last line is the final state...
    assert lines[-1]["result"] == RULES.result(final)  # ...with the scores
    assert lines[-1]["view"] == json.loads(json.dumps(RULES.view(final, None)))  # and the public view
    # The journal holds the game: resuming it gives exactly the final state.
    journal = Journal(journal_file)
    try:
        (summary,) = journal.finished()
        table = Table.resume(journal, summary.id)
        assert table.state == final and table.over
        entries = [e for e in table.log() if e["kind"] == "action"]
        assert [e["action"] for e in entries] == actions
    finally:
        journal.close()


def test_play_refuses_an_illegal_action_with_its_code_and_reason_and_goes_on(tmp_path, capsys):
    script = tmp_path / "s.json"
    script.write_text(json.dumps({"setup": {"players": ["Ana", "Ben"], "seed": 7}, "actions": [
        {"type": "move_flywheel", "flywheel": "black", "steps": 1},
        {"type": "place_flywheels", "gap": 0},
        {"type": "move_flywheel", "flywheel": "black", "steps": 2},
    ]}))
    status, lines, _err = run_main(capsys, "somnicum", "play", str(script), "--public")
    assert status == 0
    first, second, third, final = (json.loads(line) for line in lines)
    assert not first["accepted"] and first["error"]["code"] == "not_now"
    assert "Ben, to the right of the first player, places the flywheels" in first["error"]["message"]
    assert second["accepted"] and third["accepted"]
    assert final["pending"]["phase"] == "attach" and "rng" not in final
    status, _lines, _err = run_main(capsys, "somnicum", "play", str(script), "--strict")
    assert status == 1


def test_an_undo_in_a_script_says_what_to_put_back(tmp_path, capsys):
    script = tmp_path / "s.json"
    script.write_text(json.dumps({"setup": {"players": ["Ana", "Ben"], "seed": 7}, "actions": [
        {"type": "place_flywheels", "gap": 0},
        {"type": "move_flywheel", "flywheel": "black", "steps": 1},
        {"type": "undo", "steps": 1},
    ]}))
    status, lines, _err = run_main(capsys, "somnicum", "play", str(script))
    assert status == 0
    undo = json.loads(lines[2])
    assert undo["put_back"][0] == "Return 2 Sleep Sand tokens to the bag: the ones Ana just drew."
    assert undo["put_back"][1].startswith("Put the Dream card ")
    assert json.loads(lines[3])["phase"] == "turn"


def test_play_shows_a_seats_own_view_with_its_goal(tmp_path, capsys):
    script = tmp_path / "s.json"
    script.write_text(json.dumps({"setup": {"players": 3, "seed": 2}, "actions": []}))
    status, lines, _err = run_main(capsys, "somnicum", "play", str(script), "--seat", "2")
    final = json.loads(lines[-1])
    assert status == 0 and final["players"][2]["goal"]["particles"]
    assert "goal" not in final["players"][0]


@pytest.mark.parametrize(("content", "words"), [
    ("{", "not valid JSON"),
    ('{"game": "chainsomnia", "actions": []}', "not somnicum"),
    ('{"setup": {"players": 7}, "actions": []}', "setup: Somnicum is played by 2 to 4 players"),
    ('{"setup": {}, "actions": {}}', '"actions" must be a list'),
    ('{"setup": {}, "moves": []}', 'unknown field "moves"'),
])
def test_a_bad_script_exits_2_with_one_line_saying_what_is_wrong(tmp_path, capsys, content, words):
    script = tmp_path / "bad.json"
    script.write_text(content)
    status, lines, err = run_main(capsys, "somnicum", "play", str(script))
    assert status == 2 and lines == []
    assert err.count("\n") == 1 and words in err and "Traceback" not in err


def test_simulate_prints_a_json_summary_with_no_invariant_broken(capsys):
    status, lines, _err = run_main(capsys, "somnicum", "simulate", "--games", "6", "--seed", "1", "--json")
    summary = json.loads(lines[0])
    assert status == 0
    assert summary["games"] == 6 and summary["invariant_violations"] == 0
    assert summary["rounds"] == {"mean": 3.0, "min": 3, "max": 3}
    assert set(summary["by_players"]) == {"2", "3", "4"}
    assert sum(summary["round_ends"].values()) == 18


def test_simulate_physical_decks_and_greedy_policy(capsys):
    status, lines, _err = run_main(capsys, "somnicum", "simulate", "--games", "4", "--seed", "2",
                                   "--policy", "greedy", "--decks", "physical", "--players", "3", "--json")
    summary = json.loads(lines[0])
    assert status == 0 and summary["decks"] == "physical" and summary["by_players"]["3"]["games"] == 4


def test_the_greedy_policy_builds_better_dreams_than_random_play():
    from companion.somnicum.simulate import simulate

    greedy = simulate(9, 3, "greedy", check=False)
    random = simulate(9, 3, "random", check=False)
    for count in ("2", "3", "4"):
        assert greedy["by_players"][count]["total"]["mean"] > random["by_players"][count]["total"]["mean"]
