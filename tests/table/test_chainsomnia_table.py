"""Real games of CHAINsomnia through the Table: resume, undo across the Daemon's turn, same draws."""

from __future__ import annotations

import json
import random

import pytest

from companion.chainsomnia import RULES
from companion.cli import main
from companion.journal import Journal
from companion.table import Table, replay_script

SETUP = {"players": 2, "seed": 3, "dice": "virtual", "decks": "digital"}


def state_json(table: Table) -> dict:
    return RULES.state_to_json(table.state)


def play_until(table: Table, rng: random.Random, found, limit: int = 600):
    """Plays random legal actions until `found(outcome)` is true; returns that outcome."""
    for _ in range(limit):
        assert not table.over, "the game ended first"
        outcome = table.submit(rng.choice(table.legal_actions()))
        assert outcome.accepted, outcome.error
        if found(outcome):
            return outcome
    raise AssertionError("never happened")


def has_event(kind: str):
    return lambda outcome: any(e["type"] == kind for e in outcome.events)


@pytest.mark.parametrize("seed", [3, 11])
def test_whole_games_resume_exactly_at_any_point_and_end_in_the_history(db_path, seed):
    rng = random.Random(seed)
    with Journal(db_path, snapshot_every=10) as journal:
        table = Table.new(journal, "chainsomnia", {**SETUP, "seed": seed})
        ends = []
        table.subscribe(lambda update: ends.append(update.text) if update.kind == "end" else None)
        while not table.over:
            assert table.submit(rng.choice(table.legal_actions())).accepted
            if rng.random() < 0.1:
                resumed = Table.resume(journal, table.game_id)
                assert RULES.state_to_json(resumed.state) == state_json(table)
                assert resumed.legal_actions() == table.legal_actions()
        (summary,) = journal.finished()
        result = table.result()
        assert summary.escaped is (result["result"] == "victory")
        assert summary.cause == result["cause"] and summary.rounds == result["round"]
        assert summary.players == [c["name"] for c in table.view()["characters"]]
        assert RULES.state_to_json(replay_script(table.export(), RULES)) == state_json(table)
        table.close()  # lets the subscriber hear the end
        assert ends == [result["text"]]
        assert "players lose" in ends[0] or "players escape" in ends[0]
        assert result["cause"] not in ends[0]  # words, not the cause's id


def test_undo_across_the_daemons_turn(journal):
    table = Table.new(journal, "chainsomnia", SETUP)
    rng = random.Random(1)
    for _ in range(600):  # play until an end of turn starts the Daemon's turn
        if {"type": "end_turn"} in table.legal_actions():
            before, seq_before = state_json(table), table.seq
            outcome = table.submit({"type": "end_turn"})
            if has_event("daemon_turn")(outcome):
                break
            continue
        assert table.submit(rng.choice(table.legal_actions())).accepted
    else:
        raise AssertionError("no Daemon's turn")
    daemon_events = outcome.events
    # answer what the Daemon's turn asks (frightened characters flee...) until the players' turn
    while table.view()["phase"] == "daemon" and not table.over:
        assert table.submit(rng.choice(table.legal_actions())).accepted
    undone = table.undo_to(seq_before)
    assert undone.accepted and undone.put_back
    assert state_json(table) == before
    # the Event deck was not reshuffled by the undo: the Daemon draws the same cards again
    assert table.submit({"type": "end_turn"}).events == daemon_events


def test_undoing_a_tile_draw_and_exploring_again_gives_the_same_tile(journal):
    table = Table.new(journal, "chainsomnia", SETUP)
    explored = play_until(table, random.Random(2), has_event("tile_drawn"))
    action = table.log()[-1]["action"]
    undone = table.undo()
    assert any("back on top of the Castle deck" in line for line in undone.put_back)
    assert table.submit(action).events == explored.events


def test_undoing_a_virtual_roll_and_rolling_again_gives_the_same_dice(journal):
    table = Table.new(journal, "chainsomnia", SETUP)
    rolled = play_until(table, random.Random(4), has_event("dice"))
    action = table.log()[-1]["action"]
    table.undo()
    assert table.submit(action).events == rolled.events


def test_undo_after_resume_in_the_middle_of_the_daemons_turn(db_path):
    rng = random.Random(5)
    with Journal(db_path) as journal:
        table = Table.new(journal, "chainsomnia", SETUP)
        for _ in range(600):
            outcome = table.submit(rng.choice(table.legal_actions()))
            assert outcome.accepted
            if table.view()["phase"] == "daemon":
                break
        else:
            raise AssertionError("no Daemon's turn waiting for the players")
        last, live = table.log()[-1], state_json(table)
    with Journal(db_path) as journal:
        resumed = Table.resume(journal, table.game_id)
        assert state_json(resumed) == live
        undone = resumed.undo()
        assert undone.accepted and undone.put_back == RULES.put_back(last["action"], last["events"])
        assert resumed.submit(last["action"]).events == last["events"]
        assert state_json(resumed) == live


def test_export_replays_through_companion_chainsomnia_play(db_path, tmp_path, capsys):
    rng = random.Random(8)
    config = tmp_path / "config.toml"
    config.write_text(f'[data]\ndatabase = "{db_path}"\n')
    with Journal(db_path) as journal:
        table = Table.new(journal, "chainsomnia", SETUP)
        for n in range(120):
            if table.over:
                break
            if n % 15 == 14:
                assert table.undo(2).accepted
            else:
                assert table.submit(rng.choice(table.legal_actions())).accepted
        live = json.loads(json.dumps(state_json(table)))
        game_id = table.game_id
    script = tmp_path / "game.json"
    assert main(["--config", str(config), "games", "export", str(game_id), "-o", str(script)]) == 0
    capsys.readouterr()
    assert main(["chainsomnia", "play", "--strict", str(script)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == len(json.loads(script.read_text())["actions"]) + 1
    assert json.loads(lines[-1]) == live
