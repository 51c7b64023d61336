"""Real games of Somnicum through the Table: resume, undo of bag draws, history with scores."""

from __future__ import annotations

import json
import random

import pytest

from companion.cli import main
from companion.journal import Journal
from companion.somnicum import RULES
from companion.table import Table, replay_script

SETUP = {"players": ["Ana", "Ben", "Cy"], "seed": 2, "decks": "digital"}


def state_json(table: Table) -> dict:
    return RULES.state_to_json(table.state)


def play_until(table: Table, rng: random.Random, kind: str, limit: int = 1000):
    for _ in range(limit):
        assert not table.over, "the game ended first"
        outcome = table.submit(rng.choice(table.legal_actions()))
        assert outcome.accepted, outcome.error
        if any(e["type"] == kind for e in outcome.events):
            return outcome
    raise AssertionError(f"no {kind} event")


@pytest.mark.parametrize("seed", [2, 9])
def test_whole_games_resume_exactly_and_end_in_the_history(db_path, seed):
    rng = random.Random(seed)
    with Journal(db_path, snapshot_every=10) as journal:
        table = Table.new(journal, "somnicum", {**SETUP, "seed": seed})
        while not table.over:
            if rng.random() < 0.05 and table.seq > 2:
                assert table.undo(rng.randint(1, 2)).accepted
            else:
                assert table.submit(rng.choice(table.legal_actions())).accepted
            if rng.random() < 0.1:
                resumed = Table.resume(journal, table.game_id)
                assert RULES.state_to_json(resumed.state) == state_json(table)
        (summary,) = journal.finished()
        result = table.result()
        assert summary.players == ["Ana", "Ben", "Cy"]
        assert summary.winners == result["winners"]
        assert summary.scores == {p["name"]: p["total"] for p in result["players"]}
        assert summary.escaped is None and summary.rounds == table.view()["round"]
        assert RULES.state_to_json(replay_script(table.export(), RULES)) == state_json(table)


def test_undoing_a_bag_draw_and_playing_again_draws_the_same_tokens(journal):
    table = Table.new(journal, "somnicum", SETUP)
    drawn = play_until(table, random.Random(3), "tokens_drawn")
    action = table.log()[-1]["action"]
    undone = table.undo()
    assert undone.put_back == RULES.put_back(action, drawn.events)
    assert any("to the bag" in line for line in undone.put_back)
    assert table.submit(action).events == drawn.events


def test_undo_after_resume(db_path):
    with Journal(db_path) as journal:
        table = Table.new(journal, "somnicum", SETUP)
        play_until(table, random.Random(4), "meetings_drawn")
        last = table.log()[-1]
        table.undo()
        before = state_json(table)
        assert table.submit(last["action"]).accepted
        live = state_json(table)
    with Journal(db_path) as journal:
        resumed = Table.resume(journal, journal.unfinished()[0].id)
        assert state_json(resumed) == live
        assert resumed.undo().put_back == RULES.put_back(last["action"], last["events"])
        assert state_json(resumed) == before
        assert resumed.submit(last["action"]).events == last["events"]


def test_export_replays_through_companion_somnicum_play(db_path, tmp_path, capsys):
    rng = random.Random(6)
    config = tmp_path / "config.toml"
    config.write_text(f'[data]\ndatabase = "{db_path}"\n')
    with Journal(db_path) as journal:
        table = Table.new(journal, "somnicum", {"players": ["Ana", "Ben"], "decks": "digital"})  # a random seed
        for n in range(90):
            if table.over:
                break
            if n % 20 == 19:
                assert table.undo(2).accepted
            else:
                assert table.submit(rng.choice(table.legal_actions())).accepted
        view, result, game_id = table.view(), table.result(), table.game_id
    script = tmp_path / "game.json"
    assert main(["--config", str(config), "games", "export", str(game_id), "-o", str(script)]) == 0
    capsys.readouterr()
    assert main(["somnicum", "play", str(script)]) == 0
    final = json.loads(capsys.readouterr().out.splitlines()[-1])
    assert final["view"] == json.loads(json.dumps(view))
    assert final["result"] == result
