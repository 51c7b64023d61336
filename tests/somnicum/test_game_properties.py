"""Whole seeded random games of Somnicum, checked after every action.

300 games with a digital field and bag, and 40 at a physical table (every card and token named
as a chance outcome), 2 to 4 players: the 72 tokens are all somewhere (bag + supplies + on cards
+ gaps), every card is somewhere once, the field and flywheels agree, every dream is a legal
pyramid, every game ends after three rounds, and its scores are those the scoring code gives for
the same dreams entered as a score sheet.
"""

from __future__ import annotations

import json

import pytest

from companion.somnicum import RULES
from companion.somnicum.attach import to_dream
from companion.somnicum.catalog import load_catalog
from companion.somnicum.field import neighbours
from companion.somnicum.invariants import problems, token_places
from companion.somnicum.score_sheet import parse_score_sheet
from companion.somnicum.scoring import final_scores
from companion.somnicum.simulate import Chooser, greedy_policy

CATALOG = load_catalog()


def score_sheet_of(view: dict) -> str:
    """The final public view written as a score sheet for 'companion somnicum score'."""
    players = []
    for player in view["players"]:
        levels = []
        for level in player["dream"]:
            entries: list = []
            for index, card in enumerate(level["cards"]):
                if index and level["gaps"][index - 1]:
                    entries.append("gap")
                entries.append({"stars": card["stars"], "particles": card["particles"],
                                "tokens": card["tokens"], "nightmare": card["nightmare"]})
            levels.append(entries)
        vp = sum(m["amount"] for m in player["in_front"] if m["effect"] == "victory_points")
        players.append({"name": player["name"], "goal": player["goal"]["particles"], "dream": levels,
                        "meetings_unplayed": player["meetings_in_hand"], "meeting_vp": vp,
                        "sand": player["tokens"]})
    return json.dumps({"players": players})


def play_checked(seed: int, players: int, decks: str, greedy: bool = False) -> int:
    state = RULES.new_game({"players": players, "seed": seed, "decks": decks})
    chooser = Chooser(seed)
    rounds_ended = 0
    actions = 0
    while not RULES.is_over(state):
        outcomes = RULES.chance_outcomes(state)
        if outcomes:
            action = chooser.sample(outcomes)
        else:
            legal = RULES.legal_actions(state)
            assert legal, f"seed {seed}: nothing legal in phase {state.phase}"
            action = greedy_policy(CATALOG, state, legal, chooser) if greedy else chooser.pick(legal)
        state, events = RULES.apply(state, action)
        actions += 1
        found = problems(CATALOG, state)
        assert not found, f"seed {seed}, action {actions} {action}: {found}"
        assert sum(token_places(state).values()) == 72
        for event in events:
            if event["type"] == "flywheel_moved":
                # The moved flywheel stands where the card it took lay, between its neighbours.
                gap = state.flywheels[0 if event["flywheel"] == "black" else 1]
                names = [CATALOG.card_name(c) for c in neighbours(state.field, gap)]
                assert names == event["beside"], f"seed {seed}: {event}"
            elif event["type"] == "round_ended":
                rounds_ended += 1
        if actions % 37 == 0:
            assert RULES.state_from_json(json.loads(json.dumps(RULES.state_to_json(state)))) == state
        assert actions < 5000, f"seed {seed}: the game does not end"
    assert rounds_ended == 3 and state.round == 3
    for player in state.players:
        assert to_dream(CATALOG, player.dream).impossible_level() is None
    view = RULES.view(state, None)
    result = RULES.result(state)
    expected = final_scores(parse_score_sheet(score_sheet_of(view))).to_json()
    assert [(p["name"], p["total"], p["breakdown"]) for p in result["players"]] == [
        (p["name"], p["total"], p["breakdown"]) for p in expected["players"]
    ]
    assert result["winners"] == expected["winners"] == view["result"]["winners"]
    return actions


@pytest.mark.parametrize("block", range(6))
def test_300_random_digital_games_keep_every_invariant_and_score_as_the_scoring_code(block):
    for seed in range(block * 50, block * 50 + 50):
        play_checked(seed, 2 + seed % 3, "digital")


def test_40_random_games_at_a_physical_table_keep_every_invariant():
    for seed in range(1000, 1040):
        play_checked(seed, 2 + seed % 3, "physical")


def test_greedy_games_keep_every_invariant():
    for seed in range(2000, 2012):
        play_checked(seed, 2 + seed % 3, "digital", greedy=True)


def test_every_legal_action_is_accepted():
    """At every state of a few games, each listed action is applied without refusal."""
    for seed in range(3):
        state = RULES.new_game({"players": 2 + seed, "seed": seed})
        chooser = Chooser(seed)
        while not RULES.is_over(state):
            legal = RULES.legal_actions(state)
            for action in legal:
                RULES.apply(state, action)
            state, _ = RULES.apply(state, chooser.pick(legal))
