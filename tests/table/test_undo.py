"""Undo: one step or back to a chosen entry, journalled, with what to put back on the table.

Chance already revealed stays revealed: the generator lives in the state, so undoing a draw or a
virtual roll and doing it again gives the same card or dice.
"""

from __future__ import annotations

import random

import dicecards
import pytest

from companion.journal import Journal
from companion.table import Table

RULES = dicecards.RULES
OPTIONS = {"players": ["Ann", "Ben"], "seed": 7, "target": 15}


def state_json(table: Table) -> dict:
    return RULES.state_to_json(table.state)


def play(table: Table, *actions: dict) -> None:
    for action in actions:
        outcome = table.submit(action)
        assert outcome.accepted, (action, outcome.error)


def top_card(table: Table) -> int:
    return state_json(table)["deck"][0]


# Each kind of Action, from a position where it is legal; put-back sentences for the last one.
CASES = {
    "draw": ([], {"type": "draw"}, ["Put the {card} card from Ann's hand back on top of the deck."]),
    "play": (
        [{"type": "draw"}],
        {"type": "play", "card": "{hand0}"},
        ["Take the {hand0} card from the discard pile back into Ann's hand and {hand0} points off Ann."],
    ),
    "roll": ([], {"type": "roll"}, ["Put the dice down: Ann has not rolled yet."]),
    "typed dice": (
        [{"type": "roll"}],
        {"type": "dice", "values": [2, 5]},
        ["Pick up the dice showing 2 and 5: Ann gives the dice again."],
    ),
    "virtual dice": (
        [{"type": "roll"}],
        {"type": "dice", "virtual": True},
        ["Pick up the dice showing {d0} and {d1}: Ann gives the dice again."],
    ),
    "keep": (
        [{"type": "roll"}, {"type": "dice", "values": [2, 5]}],
        {"type": "keep", "die": 1},
        ["Take 5 points off Ann."],
    ),
    "end_turn": ([{"type": "draw"}], {"type": "end_turn"}, ["Give the turn back to Ann."]),
}


@pytest.mark.parametrize("kind", CASES)
def test_undo_of_each_kind_of_action_restores_the_state_and_says_what_to_put_back(journal, kind):
    setup, action, sentences = CASES[kind]
    table = Table.new(journal, "dicecards", OPTIONS)
    play(table, *setup)
    before, log_length = state_json(table), len(table.log())
    facts = {"card": top_card(table), "hand0": (table.view(0)["hand"] or [None])[0]}
    if action.get("card") == "{hand0}":
        action = {**action, "card": facts["hand0"]}
    done = table.submit(action)
    assert done.accepted
    rolled = [e for e in done.events if e["type"] == "dice_rolled"]
    if rolled:
        facts["d0"], facts["d1"] = rolled[0]["values"]

    undone = table.undo()

    assert undone.accepted and undone.seq == done.seq + 1
    assert undone.put_back == [s.format(**facts) for s in sentences]
    assert state_json(table) == before
    log = table.log()
    assert len(log) == log_length + 2
    assert log[-2]["seq"] == done.seq and log[-2]["undone"] is True
    assert log[-1]["kind"] == "undo" and log[-1]["action"] == {"type": "undo", "steps": 1}
    assert log[-1]["events"] == [{"type": "undone", "seq": done.seq, "text": done.text}]
    assert log[-1]["text"] == "Undone: " + done.text
    # the undo is in the journal: a resume gives the same state
    assert RULES.state_to_json(Table.resume(journal, table.game_id).state) == before


def test_undoing_a_draw_and_drawing_again_gives_the_same_card(table):
    first = table.submit({"type": "draw"}).events
    table.undo()
    assert table.submit({"type": "draw"}).events == first


def test_undoing_a_draw_that_reshuffled_gives_the_same_new_deck(journal):
    table = Table.new(journal, "dicecards", {**OPTIONS, "players": ["Ann"]})
    # empty the deck through Ann's hand into the discards
    for _ in range(12):
        if len(table.view(0)["hand"]) == 3:
            play(table, {"type": "play", "card": table.view(0)["hand"][0]})
        play(table, {"type": "draw"})
    for card in list(table.view(0)["hand"]):
        play(table, {"type": "play", "card": card})
    assert table.view()["deck_size"] == 0
    reshuffle = table.submit({"type": "draw"})
    assert reshuffle.events[0]["type"] == "reshuffled"
    after = state_json(table)
    undone = table.undo()
    assert undone.put_back == [
        f"Put the {reshuffle.events[1]['card']} card from Ann's hand back on top of the deck.",
        "Turn the deck back into the discard pile: it had just been reshuffled.",
    ]
    assert table.view()["deck_size"] == 0
    assert table.submit({"type": "draw"}).events == reshuffle.events
    assert state_json(table) == after


def test_undoing_a_virtual_roll_and_rolling_again_gives_the_same_dice(table):
    play(table, {"type": "roll"})
    first = table.submit({"type": "dice", "virtual": True}).events
    table.undo()
    assert table.submit({"type": "dice", "virtual": True}).events == first
    # and across the chance node: undo back past the roll request, roll again
    table.undo(steps=2)
    play(table, {"type": "roll"})
    assert table.submit({"type": "dice", "virtual": True}).events == first


def test_a_misread_roll_is_corrected_by_undoing_it_and_entering_the_dice_again(table):
    play(table, {"type": "roll"}, {"type": "dice", "values": [1, 1]})
    table.undo()
    play(table, {"type": "dice", "values": [6, 4]}, {"type": "keep", "die": 0})
    assert table.view()["players"][0]["score"] == 6


def test_undo_several_steps_across_the_other_players_turn(table):
    play(table, {"type": "draw"}, {"type": "end_turn"}, {"type": "roll"}, {"type": "dice", "values": [3, 4]})
    undone = table.undo(steps=3)
    assert undone.put_back == [
        "Pick up the dice showing 3 and 4: Ben gives the dice again.",
        "Put the dice down: Ben has not rolled yet.",
        "Give the turn back to Ann.",
    ]
    assert table.view()["turn"] == "Ann" and table.view()["pending"] is None
    assert [e["undone"] for e in table.log()] == [False, False, True, True, True, False]


def test_undo_to_a_chosen_entry(table):
    states = [state_json(table)]
    for action in ({"type": "draw"}, {"type": "draw"}, {"type": "roll"}, {"type": "dice", "values": [6, 6]}):
        play(table, action)
        states.append(state_json(table))
    outcome = table.undo_to(2)
    assert outcome.accepted and len(outcome.put_back) == 2
    assert state_json(table) == states[2]
    assert table.log()[-1]["action"] == {"type": "undo", "to": 2}
    assert table.undo_to(0).accepted
    assert state_json(table) == states[0]
    assert table.undo_to(0).error.code == "nothing_to_undo"


def test_undo_to_an_entry_already_undone_takes_back_what_stands_after_it(table):
    play(table, {"type": "draw"}, {"type": "draw"})  # 1, 2
    table.undo()  # 3 takes back 2
    play(table, {"type": "roll"})  # 4
    outcome = table.undo_to(2)  # 2 is undone already: only 4 stands after it
    assert [e["seq"] for e in outcome.events] == [4]
    assert table.view(0)["hand"] and len(table.view(0)["hand"]) == 1


def test_undo_sent_as_an_action(table):
    play(table, {"type": "draw"}, {"type": "roll"})
    assert table.submit({"type": "undo"}).put_back == ["Put the dice down: Ann has not rolled yet."]
    assert table.submit('{"type": "undo", "to": 0}').accepted
    assert table.view(0)["hand"] == []


def test_nothing_to_undo_is_refused_and_not_journalled(table):
    assert table.undo().error.code == "nothing_to_undo"
    play(table, {"type": "draw"})
    assert table.undo(steps=2).error.message == "Only 1 action(s) can be undone, not 2."
    assert table.undo(steps=0).error.code == "bad_undo"
    assert table.undo_to(5).error.code == "bad_undo"
    assert table.undo_to(-1).error.code == "bad_undo"
    assert table.seq == 1 and len(table.log()) == 2


def test_undoing_the_last_action_of_a_finished_game_reopens_it(journal):
    table = Table.new(journal, "dicecards", {**OPTIONS, "target": 1})
    play(table, {"type": "roll"}, {"type": "dice", "values": [6, 2]}, {"type": "keep", "die": 0},
         {"type": "end_turn"}, {"type": "end_turn"})
    assert table.over and [g.id for g in journal.finished()] == [table.game_id]
    assert table.undo().accepted
    assert not table.over and table.result() is None
    assert journal.finished() == [] and [g.id for g in journal.unfinished()] == [table.game_id]
    assert table.submit({"type": "end_turn"}).accepted and table.over


def test_undo_after_resume(db_path):
    with Journal(db_path) as journal:
        table = Table.new(journal, "dicecards", OPTIONS)
        play(table, {"type": "draw"}, {"type": "roll"}, {"type": "dice", "virtual": True})
        before_dice = table.log()[-1]
        table.close()
    with Journal(db_path) as journal:
        table = Table.resume(journal, journal.unfinished()[0].id)
        undone = table.undo()
        values = before_dice["events"][0]["values"]
        assert undone.put_back == [f"Pick up the dice showing {values[0]} and {values[1]}: Ann gives the dice again."]
        assert table.submit({"type": "dice", "virtual": True}).events == before_dice["events"]


@pytest.mark.parametrize("seed", range(6))
def test_random_play_with_undos_always_equals_a_clean_replay(seed):
    """After any mix of actions and undos, live state == resume == the standing actions replayed."""
    rng = random.Random(seed)
    journal = Journal(":memory:", snapshot_every=rng.choice([1, 3, 8]))
    table = Table.new(journal, "dicecards", {**OPTIONS, "seed": seed, "target": 40})
    for _ in range(150):
        if table.over:
            break
        if rng.random() < 0.15 and table.seq > 0:
            if rng.random() < 0.5:
                table.undo(rng.randint(1, 4))
            else:
                table.undo_to(rng.randint(0, table.seq))
        else:
            play(table, rng.choice(table.legal_actions()))
        if rng.random() < 0.2:
            script = table.export()
            replayed = RULES.new_game(script["setup"])
            for action in script["actions"]:
                replayed, _ = RULES.apply(replayed, action)
            assert RULES.state_to_json(replayed) == state_json(table)
            assert RULES.state_to_json(Table.resume(journal, table.game_id).state) == state_json(table)
