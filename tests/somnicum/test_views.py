"""What each seat sees, the JSON state, and what the log and undo say: secrets stay secret.

Rulebook: "Each player keeps their Goal card secret until the end of the game", "Hold your Sleep
Sand tokens so that the other players cannot see which dream particles are on them. The number of
Sleep Sand tokens each player has is open information", "A Meeting card is kept secret from the
other players until it is played".
"""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from somnicum_kit import CATALOG, apply, at_turn, row, start

from companion.games import rules_for
from companion.somnicum import RULES
from companion.somnicum.simulate import Chooser

FIELD = tuple(f"space_{n:02d}" for n in range(1, 11))


def test_rules_for_somnicum_is_the_somnicum_rules():
    assert rules_for("somnicum") is RULES and RULES.name == "somnicum"


def test_the_public_view_shows_token_counts_never_faces_or_goal_cards():
    state = start(["Ana", "Ben", "Cy", "Dee"])
    text = json.dumps(RULES.view(state, None))
    for player in state.players:
        assert player.goal not in text
        for token in player.supply:
            assert token not in text
    counts = [p["tokens"] for p in RULES.view(state, None)["players"]]
    assert counts == [0, 1, 2, 3]
    assert all("token_faces" not in p and "hand" not in p for p in RULES.view(state, None)["players"])


def test_a_seats_own_view_shows_its_goal_card_and_token_faces_only():
    state = start(["Ana", "Ben", "Cy", "Dee"])
    mine = RULES.view(state, 3)["players"]
    assert mine[3]["goal"]["id"] == state.players[3].goal
    assert [t["id"] for t in mine[3]["token_faces"]] == list(state.players[3].supply)
    assert len(mine[3]["goal"]["particles"]) == 3
    assert "goal" not in mine[2] and "token_faces" not in mine[2]
    assert state.players[2].goal not in json.dumps(RULES.view(state, 3))


def test_token_backs_are_open_information_faces_are_not():
    state = at_turn(FIELD, flywheels=(0, 5), supplies=(("mermaid_1", "mermaid_4"),))
    public = RULES.view(state, None)["players"][0]
    assert public["backs"] == {"sand": 1, "blank": 1}
    assert "mermaid" not in json.dumps(public)


def test_goal_points_are_hidden_from_the_public_until_the_game_ends():
    dream = (row("fairy_tale_02"), row(), row())  # a cloud
    state = at_turn(FIELD, flywheels=(0, 5), dreams=(dream,))
    other = state.players[0].goal if state.players[1].goal == "goal_1" else state.players[1].goal
    players = (replace(state.players[0], goal="goal_1"), replace(state.players[1], goal=other))  # cloud, octopus, dragon
    state = replace(state, players=players, goal_box=tuple(sorted(set(CATALOG.goals) - {"goal_1", other})))
    public = RULES.view(state, None)["players"][0]["score"]
    own = RULES.view(state, 0)["players"][0]["score"]
    assert public["breakdown"]["goal"] is None and public["goal_hidden"]
    assert own["breakdown"]["goal"] == 1 and own["total"] == public["total"] + 1


def test_the_view_draws_the_field_flywheels_and_each_dream_with_its_gaps_and_tokens():
    dream = (row(("fairy_tale_01", ("mermaid_1",)), "fairy_tale_02", "fairy_tale_11", gaps="g-"),
             row("space_01", under=(1,)), row())
    state = at_turn(FIELD, flywheels=(2, 7), dreams=(dream,))
    view = RULES.view(state, None)
    assert [c["id"] for c in view["field"]] == list(FIELD)
    assert view["field"][0]["storyline"] == "space" and view["field"][0]["stars"] == 3
    assert view["flywheels"]["black"] == {"gap": 2, "position": 2, "between": ["Space 2", "Space 3"]}
    assert view["flywheels"]["white"]["gap"] == 7
    level1, level2, level3 = view["players"][0]["dream"]
    assert [c["id"] for c in level1["cards"]] == ["fairy_tale_01", "fairy_tale_02", "fairy_tale_11"]
    assert level1["gaps"] == [True, False]
    assert level1["cards"][0]["tokens"] == ["mermaid"]
    assert level2["cards"][0]["under"] == 1 and level3["cards"] == []
    assert view["turn"] == 0 and view["first_player"] == 0
    assert view["pending"]["phase"] == "turn" and view["pending"]["player"] == "Player 1"
    assert view["round"] == 1 and view["bag"] == len(state.bag)
    assert view["result"] is None


def test_a_pending_decision_is_described_and_offered_only_to_its_seat():
    top = row("fairy_tale_01", "fairy_tale_21")
    state = at_turn(("fairy_tale_04",) + FIELD[:7], flywheels=(0, 4), dreams=((top, row(), row()),))
    state, _ = apply(state, {"type": "move_flywheel", "flywheel": "black", "steps": 1},
                     {"type": "attach", "level": 2})
    assert state.phase == "keep_meeting"
    public = RULES.view(state, None)["pending"]
    assert public["offered"] == 2 and "offered_cards" not in public
    assert "keeps one of 2 Meeting cards" in public["text"]
    own = RULES.view(state, 0)["pending"]
    assert sorted(c["id"] for c in own["offered_cards"]) == sorted(state.offered)


def test_the_state_json_round_trips_exactly():
    state = start(3, seed=4)
    chooser = Chooser(4)
    for _ in range(120):
        data = json.loads(json.dumps(RULES.state_to_json(state)))
        again = RULES.state_from_json(data)
        assert again == state
        assert RULES.state_to_json(again) == data
        if RULES.is_over(state):
            break
        state, _ = RULES.apply(state, chooser.pick(RULES.legal_actions(state)))


def test_state_from_json_refuses_another_version():
    data = RULES.state_to_json(start())
    data["version"] = 99
    with pytest.raises(ValueError):
        RULES.state_from_json(data)


def test_no_event_or_log_line_names_a_token_face_a_goal_card_or_a_meeting_card_in_hand():
    state = start(["Ana", "Ben", "Cy"], seed=11)
    chooser = Chooser(11)
    secrets_seen = set()
    while not RULES.is_over(state):
        action = chooser.pick(RULES.legal_actions(state))
        state, events = RULES.apply(state, action)
        text = json.dumps(events) + RULES.describe(action, events) + " ".join(RULES.put_back(action, events))
        secret = {p.goal for p in state.players} | {t for p in state.players for t in p.supply}
        secret |= {m for p in state.players for m in p.hand}
        secret |= {g for p in state.players for level in p.dream for g in level.gaps if g}
        leaked = {s for s in secret if f'"{s}"' in text or f" {s}" in text}
        assert not leaked, (action, leaked)
        secrets_seen |= secret
    assert secrets_seen


def test_put_back_after_a_move_says_where_the_card_and_the_flywheel_go():
    state = at_turn(FIELD, flywheels=(2, 7))
    action = {"type": "move_flywheel", "flywheel": "black", "steps": 1}
    state, events = RULES.apply(state, action)
    back = RULES.put_back(action, events)
    assert "Return 2 Sleep Sand tokens to the bag: the ones Player 1 just drew." in back
    assert "Put the Dream card Space 3 back on the field between Space 2 and Space 4." in back
    assert "Move the black flywheel back 1 step, to between Space 2 and Space 3." in back
    assert back.index("Return 2 Sleep Sand tokens to the bag: the ones Player 1 just drew.") == 0


def test_describe_gives_one_line_per_action():
    state = at_turn(FIELD, flywheels=(2, 7), supplies=(("rocket_1", "planet_1"),))
    action = {"type": "move_flywheel", "flywheel": "white", "steps": 4}
    state, events = RULES.apply(state, action)
    line = RULES.describe(action, events)
    assert "\n" not in line
    assert line.startswith("Player 1 moves the white flywheel 4 steps and takes Space 1")
    action = {"type": "pay_token", "token": "planet_1"}
    state, events = RULES.apply(state, action)
    assert RULES.describe(action, events) == "Player 1 pays 1 Sleep Sand token."


def test_chance_outcomes_at_a_physical_table_follow_the_bag():
    state = start(["Ana", "Ben"], decks="physical")
    outcomes = RULES.chance_outcomes(state)
    assert len(outcomes) == 88 and abs(sum(p for _a, p in outcomes) - 1) < 1e-9
    digital = start(["Ana", "Ben"])
    assert RULES.chance_outcomes(digital) == []
    assert {a["type"] for a in RULES.legal_actions(digital)} == {"place_flywheels"}
    assert len(CATALOG.tokens) == 72
