"""Setup clauses of the Somnicum rulebook ("Setup" 1 to 7), one test each."""

from __future__ import annotations

from dataclasses import replace

import pytest
from somnicum_kit import CATALOG, apply, start

from companion.rules import IllegalAction
from companion.somnicum import RULES


@pytest.mark.parametrize(("players", "size"), [(2, 16), (3, 21), (4, 24)])
def test_setup_1_field_of_16_21_or_24_cards_the_rest_put_aside(players, size):
    state = start(players)
    assert len(state.field) == size
    assert len(set(state.field)) == size
    assert len(state.deck) == len(CATALOG.dream_cards) - size
    assert not set(state.field) & set(state.deck)


def test_setup_1_the_field_is_shuffled_by_the_seed():
    assert start(2, seed=1).field != start(2, seed=2).field
    assert start(2, seed=5).field == start(2, seed=5).field


def test_setup_2_all_sleep_sand_tokens_go_into_the_bag():
    state = start(4)
    in_supplies = sum(len(p.supply) for p in state.players)
    assert len(state.bag) + in_supplies == 72
    assert in_supplies == 0 + 1 + 2 + 3


def test_setup_3_the_meeting_deck_lies_face_down_beside_the_field():
    state = start(3)
    assert len(state.meeting_deck) == 24
    assert all(not p.hand for p in state.players)
    assert RULES.view(state, None)["meeting_deck"] == 24


def test_setup_4_each_player_gets_one_secret_goal_card_the_rest_go_back_to_the_box():
    state = start(3)
    goals = [p.goal for p in state.players]
    assert all(goals) and len(set(goals)) == 3
    assert len(state.goal_box) == 8 - 3
    public = RULES.view(state, None)
    assert all("goal" not in p for p in public["players"])


def test_setup_5_the_first_player_is_chosen_at_the_table():
    state = start(["Ana", "Ben", "Cy"], first_player="Ben")
    assert state.first_player == 1 and state.turn == 1
    with pytest.raises(IllegalAction) as refused:
        start(["Ana", "Ben"], first_player=5)
    assert refused.value.code == "bad_options"


def test_setup_6_starting_tokens_0_1_2_3_clockwise_from_the_first_player():
    state = start(["Ana", "Ben", "Cy", "Dee"], first_player=2)
    counts = {p.name: len(p.supply) for p in state.players}
    assert counts == {"Cy": 0, "Dee": 1, "Ana": 2, "Ben": 3}


def test_setup_7_the_player_right_of_the_first_player_places_the_flywheels():
    state = start(["Ana", "Ben", "Cy"], first_player=0)
    assert state.phase == "place_flywheels"
    assert state.actor == 2  # Cy sits to Ana's right: the last to play before her
    legal = RULES.legal_actions(state)
    assert {a["gap"] for a in legal} == set(range(21))
    assert all(a["seat"] == 2 for a in legal)
    with pytest.raises(IllegalAction) as refused:
        RULES.apply(state, {"type": "place_flywheels", "gap": 3, "seat": 1})
    assert refused.value.code == "not_your_turn"


@pytest.mark.parametrize(("players", "size", "half"), [(2, 16, 8), (3, 21, 10), (4, 24, 12)])
def test_setup_7_the_second_flywheel_goes_directly_opposite_between_cards(players, size, half):
    state = start(players)
    state, events = apply(state, {"type": "place_flywheels", "gap": size - 2})
    assert state.flywheels == (size - 2, (size - 2 + half) % size)
    placed = next(e for e in events if e["type"] == "flywheels_placed")
    assert placed["gaps"] == list(state.flywheels)
    assert state.phase == "turn" and state.turn == state.first_player


def test_setup_refuses_one_or_five_players():
    for players in (1, 5, ["Ana"], ["A", "B", "C", "D", "E"]):
        with pytest.raises(IllegalAction):
            start(players)
    with pytest.raises(IllegalAction) as refused:
        start(["Ana", "Ana"])
    assert "same name" in refused.value.message


def test_setup_refuses_unknown_options():
    with pytest.raises(IllegalAction) as refused:
        RULES.new_game({"players": 2, "colour": "red"})
    assert '"colour"' in refused.value.message


def test_physical_setup_waits_for_each_field_card_goal_and_starting_token():
    state = start(["Ana", "Ben"], decks="physical")
    assert state.phase == "lay_field" and state.field == ()
    assert {a["type"] for a in RULES.legal_actions(state)} == {"lay_card"}
    cards = sorted(CATALOG.dream_cards)[:16]
    for card in cards:
        state, _ = RULES.apply(state, {"type": "lay_card", "card": card})
    assert state.field == tuple(cards)
    assert state.phase == "deal_goals"
    # Each seat enters its own secret Goal card, in any order.
    state, _ = RULES.apply(state, {"type": "enter_goal", "seat": 1, "goal": "goal_3"})
    with pytest.raises(IllegalAction) as taken:
        RULES.apply(state, {"type": "enter_goal", "seat": 0, "goal": "goal_3"})
    assert taken.value.code == "goal_taken"
    state, _ = RULES.apply(state, {"type": "enter_goal", "seat": 0, "goal": "goal_1"})
    # Ben, second in turn order, draws one starting token: the table names it.
    assert state.phase == "draw_tokens" and state.actor == 1 and state.to_draw == 1
    state, events = RULES.apply(state, {"type": "draw_token", "token": "mermaid_4"})
    assert state.players[1].supply == ("mermaid_4",)
    assert events[0]["blank_backs"] == 1
    assert state.phase == "place_flywheels" and state.actor == 1


def test_physical_draw_of_an_indistinguishable_token_takes_any_of_its_kind():
    state = start(["Ana", "Ben"], decks="physical")
    for card in sorted(CATALOG.dream_cards)[:16]:
        state, _ = RULES.apply(state, {"type": "lay_card", "card": card})
    state, _ = apply(state, {"type": "enter_goal", "goal": "goal_1"}, {"type": "enter_goal", "goal": "goal_2"})
    # mermaid_1 is already in Ana's hand; Ben draws "mermaid_1" (he cannot tell the copies apart).
    ana = replace(state.players[0], supply=("mermaid_1",))
    state = replace(state, bag=tuple(t for t in state.bag if t != "mermaid_1"), players=(ana, state.players[1]))
    with pytest.raises(IllegalAction):
        RULES.apply(state, {"type": "draw_token", "token": "unicorn_9"})
    state, _ = RULES.apply(state, {"type": "draw_token", "token": "mermaid_1"})
    assert state.players[1].supply == ("mermaid_2",)  # the same particle and back


def test_ruling_the_goal_cards_offered_to_a_seat_give_nobody_elses_away():
    state = start(["Ana", "Ben", "Cy"], decks="physical")
    for card in sorted(CATALOG.dream_cards)[:21]:
        state, _ = RULES.apply(state, {"type": "lay_card", "card": card})
    state, _ = RULES.apply(state, {"type": "enter_goal", "seat": 0, "goal": "goal_5"})
    offered = RULES.legal_actions(state)
    for seat in (1, 2):
        assert sorted(a["goal"] for a in offered if a["seat"] == seat) == sorted(CATALOG.goals)
    assert all(a["seat"] != 0 for a in offered)
