"""A player's turn (rulebook: "Player Turn" 1 and 2): adding a particle, moving a flywheel,
paying for steps, drawing tokens and taking the card. One test per clause."""

from __future__ import annotations

import pytest
from somnicum_kit import ALL_TOKENS, apply, at_turn, row

from companion.rules import IllegalAction
from companion.somnicum import RULES
from companion.somnicum.field import landing, take

FIELD = tuple(f"space_{n:02d}" for n in range(1, 11))  # ten cards clockwise


def test_flywheel_first_step_moves_to_the_nearest_card_clockwise():
    state = at_turn(FIELD, flywheels=(3, 8))
    state, events = apply(state, {"type": "move_flywheel", "flywheel": "black", "steps": 1})
    assert events[0]["card"] == FIELD[3]  # gap 3 lies just before the fourth card
    assert state.taken == FIELD[3]


def test_flywheel_each_further_step_moves_from_card_to_card():
    state = at_turn(FIELD, flywheels=(8, 3))
    state, events = apply(state, {"type": "move_flywheel", "flywheel": "black", "steps": 3})
    assert events[0]["card"] == FIELD[0]  # 8 -> card 8, 9, then round the circle to card 0


def test_either_flywheel_may_be_moved():
    state = at_turn(FIELD, flywheels=(0, 5))
    state, events = apply(state, {"type": "move_flywheel", "flywheel": "white", "steps": 2})
    assert events[0]["card"] == FIELD[6] and events[0]["flywheel"] == "white"


def test_flywheel_must_move_at_least_one_step():
    state = at_turn(FIELD, flywheels=(0, 5))
    with pytest.raises(IllegalAction) as refused:
        RULES.apply(state, {"type": "move_flywheel", "flywheel": "black", "steps": 0})
    assert refused.value.code == "too_few_steps"
    assert all(a["steps"] >= 1 for a in RULES.legal_actions(state) if a["type"] == "move_flywheel")


def test_the_first_three_steps_cost_nothing():
    state = at_turn(FIELD, flywheels=(0, 5), supplies=(("rocket_1",),))
    state, _ = apply(state, {"type": "move_flywheel", "flywheel": "black", "steps": 3})
    assert state.players[0].supply == ("rocket_1",)
    assert state.phase == "attach"


def test_each_step_beyond_three_costs_a_token_returned_to_the_bag():
    state = at_turn(FIELD, flywheels=(0, 5), supplies=(("rocket_1", "planet_2", "star_3"),))
    bag = len(state.bag)
    state, _ = apply(state, {"type": "move_flywheel", "flywheel": "black", "steps": 5})
    # Two tokens to pay, three to choose from: the player chooses, and only that is legal.
    assert state.phase == "pay" and state.owed == 2
    assert {a["type"] for a in RULES.legal_actions(state)} == {"pay_token"}
    state, _ = apply(state, {"type": "pay_token", "token": "planet_2"}, {"type": "pay_token", "token": "star_3"})
    assert state.players[0].supply == ("rocket_1",)
    assert "planet_2" in state.bag and "star_3" in state.bag and len(state.bag) == bag + 2
    assert state.phase == "attach" and state.taken == FIELD[4]


def test_when_every_token_must_be_paid_they_are_paid_without_asking():
    state = at_turn(FIELD, flywheels=(0, 5), supplies=(("rocket_1",),))
    state, events = apply(state, {"type": "move_flywheel", "flywheel": "black", "steps": 4})
    assert state.players[0].supply == () and state.phase == "attach"
    assert [e["type"] for e in events].count("token_paid") == 1


def test_if_you_cannot_pay_you_cannot_move_the_flywheel_further():
    state = at_turn(FIELD, flywheels=(0, 5), supplies=(("rocket_1",),))
    with pytest.raises(IllegalAction) as refused:
        RULES.apply(state, {"type": "move_flywheel", "flywheel": "black", "steps": 5})
    assert refused.value.code == "cannot_pay"
    assert "at most 4 steps" in refused.value.message
    steps = {a["steps"] for a in RULES.legal_actions(state) if a["type"] == "move_flywheel"}
    assert steps == {1, 2, 3, 4}


def test_ruling_a_flywheel_moves_at_most_once_around_the_field():
    supplies = (tuple(f"rocket_{n}" for n in range(1, 5)) + tuple(f"planet_{n}" for n in range(1, 5)),)
    state = at_turn(FIELD, flywheels=(0, 5), supplies=supplies)
    with pytest.raises(IllegalAction) as refused:
        RULES.apply(state, {"type": "move_flywheel", "flywheel": "black", "steps": 11})
    assert refused.value.code == "too_many_steps"
    assert max(a["steps"] for a in RULES.legal_actions(state) if a["type"] == "move_flywheel") == 10


@pytest.mark.parametrize(("steps", "drawn"), [(1, 2), (2, 1), (3, 0)])
def test_moved_1_step_draws_2_tokens_2_steps_draw_1_3_steps_draw_none(steps, drawn):
    state = at_turn(FIELD, flywheels=(0, 5))
    state, events = apply(state, {"type": "move_flywheel", "flywheel": "black", "steps": steps})
    assert len(state.players[0].supply) == drawn
    assert len(state.bag) == 72 - drawn
    assert sum(e["count"] for e in events if e["type"] == "tokens_drawn") == drawn


def test_the_dream_card_where_the_flywheel_stopped_is_taken_off_the_field():
    state = at_turn(FIELD, flywheels=(2, 7))
    state, events = apply(state, {"type": "move_flywheel", "flywheel": "black", "steps": 3})
    assert FIELD[4] not in state.field and len(state.field) == 9
    # The flywheel now stands where the card was, between its two neighbours.
    black = state.flywheels[0]
    assert (state.field[black - 1], state.field[black]) == (FIELD[3], FIELD[5])
    assert events[0]["beside"] == ["Space 4", "Space 6"]


def test_field_geometry_taking_a_card_merges_the_gaps_on_both_sides():
    field = ("a", "b", "c", "d")
    assert landing(4, 3, 2) == 0
    assert take(field, (1, 2), 1, moved=0) == (("a", "c", "d"), (1, 1))  # the flywheels meet
    assert take(field, (2, 0), 3, moved=0) == (("a", "b", "c"), (0, 0))  # across the circle's seam
    assert take(field, (0, 2), 0, moved=0) == (("b", "c", "d"), (0, 1))
    assert take(field, (2, 0), 2, moved=1) == (("a", "b", "d"), (2, 2))  # white passed black


# -- 1. Adding a dream particle ---------------------------------------------------------------


def test_particle_a_a_token_of_the_cards_storyline_goes_on_a_rightmost_card():
    dream = (row("fairy_tale_01", "fairy_tale_11"), row(), row())
    state = at_turn(FIELD, flywheels=(0, 5), supplies=(("dragon_1",),), dreams=(dream,))
    state, events = apply(state, {"type": "add_particle", "token": "dragon_1", "level": 1})
    cards = state.players[0].dream[0].cards
    assert cards[-1].tokens == ("dragon_1",) and cards[0].tokens == ()
    assert state.players[0].supply == ()
    assert events[0]["rule"] == "A" and not events[0]["returned"]


def test_particle_a_refuses_a_level_with_no_card():
    dream = (row("fairy_tale_01"), row(), row())
    state = at_turn(FIELD, flywheels=(0, 5), supplies=(("dragon_1",),), dreams=(dream,))
    with pytest.raises(IllegalAction) as refused:
        RULES.apply(state, {"type": "add_particle", "token": "dragon_1", "level": 2})
    assert refused.value.code == "no_such_card"


def test_particle_b_another_storyline_needs_two_identical_tokens_one_back_to_the_bag():
    dream = (row("fairy_tale_01"), row(), row())
    state = at_turn(FIELD, flywheels=(0, 5), supplies=(("mermaid_1", "mermaid_4"),), dreams=(dream,))
    state, events = apply(state, {"type": "add_particle", "token": "mermaid_1", "level": 1, "return": "mermaid_4"})
    assert state.players[0].dream[0].cards[0].tokens == ("mermaid_1",)
    assert state.players[0].supply == ()
    assert "mermaid_4" in state.bag
    assert events[0]["rule"] == "B" and events[0]["returned"]


def test_particle_b_with_a_single_token_is_refused():
    dream = (row("fairy_tale_01"), row(), row())
    state = at_turn(FIELD, flywheels=(0, 5), supplies=(("mermaid_1", "octopus_1"),), dreams=(dream,))
    with pytest.raises(IllegalAction) as alone:
        RULES.apply(state, {"type": "add_particle", "token": "mermaid_1", "level": 1})
    assert alone.value.code == "pair_needed"
    with pytest.raises(IllegalAction) as different:
        RULES.apply(state, {"type": "add_particle", "token": "mermaid_1", "level": 1, "return": "octopus_1"})
    assert different.value.code == "pair_needed"
    assert not [a for a in RULES.legal_actions(state) if a["type"] == "add_particle"]


def test_particle_a_nightmare_counts_as_every_storyline_and_takes_any_token():
    dream = (row("nightmare_1"), row(), row())
    state = at_turn(FIELD, flywheels=(0, 5), supplies=(("mermaid_1", "rocket_2"),), dreams=(dream,))
    state, _ = apply(state, {"type": "add_particle", "token": "rocket_2", "level": 1})
    assert state.players[0].dream[0].cards[0].tokens == ("rocket_2",)


def test_particle_is_added_at_most_once_and_only_before_moving():
    dream = (row("fairy_tale_01"), row(), row())
    state = at_turn(FIELD, flywheels=(0, 5), supplies=(("dragon_1", "dragon_2"),), dreams=(dream,))
    once, _ = apply(state, {"type": "add_particle", "token": "dragon_1", "level": 1})
    with pytest.raises(IllegalAction) as twice:
        RULES.apply(once, {"type": "add_particle", "token": "dragon_2", "level": 1})
    assert twice.value.code == "particle_already_added"
    moved, _ = apply(state, {"type": "move_flywheel", "flywheel": "black", "steps": 3})
    with pytest.raises(IllegalAction) as late:
        RULES.apply(moved, {"type": "add_particle", "token": "dragon_1", "level": 1})
    assert late.value.code == "not_now"


def test_a_placed_token_counts_as_a_particle_of_the_card_when_attaching():
    # fairy_tale_01 shows a castle; a mermaid token on it lets an Underwater card join without a gap.
    dream = (row(("fairy_tale_01", ("mermaid_1",))), row(), row())
    field = ("underwater_01",) + FIELD[:7]
    state = at_turn(field, flywheels=(0, 4), dreams=(dream,))
    state, events = apply(state, {"type": "move_flywheel", "flywheel": "black", "steps": 1})
    state, events = apply(state, {"type": "attach", "level": 1})
    assert state.players[0].dream[0].gaps == (None,)
    assert next(e for e in events if e["type"] == "card_attached")["gap"] is False


def test_only_the_player_whose_turn_it_is_may_act():
    state = at_turn(FIELD, flywheels=(0, 5))
    with pytest.raises(IllegalAction) as refused:
        RULES.apply(state, {"type": "move_flywheel", "flywheel": "black", "steps": 1, "seat": 1})
    assert refused.value.code == "not_your_turn"
    assert "Player 2 cannot act now" in refused.value.message


def test_an_action_with_a_bad_field_is_refused_in_plain_words():
    state = at_turn(FIELD, flywheels=(0, 5))
    for action, words in [
        ({"type": "move_flywheel", "flywheel": "black"}, 'needs "steps"'),
        ({"type": "move_flywheel", "flywheel": "black", "steps": "2"}, "whole number"),
        ({"type": "move_flywheel", "flywheel": "grey", "steps": 1}, "no 'grey' flywheel"),
        ({"type": "move_flywheel", "flywheel": "black", "steps": 1, "speed": 2}, 'no field "speed"'),
        ({"type": "fly"}, "no action 'fly'"),
    ]:
        with pytest.raises(IllegalAction) as refused:
            RULES.apply(state, action)
        assert words in refused.value.message


def test_ruling_rule_b_is_not_for_a_token_of_the_cards_own_storyline():
    dream = (row("fairy_tale_01"), row(), row())
    state = at_turn(FIELD, flywheels=(0, 5), supplies=(("dragon_1", "dragon_2"),), dreams=(dream,))
    with pytest.raises(IllegalAction) as refused:
        RULES.apply(state, {"type": "add_particle", "token": "dragon_1", "level": 1, "return": "dragon_2"})
    assert refused.value.code == "no_pair_needed"


def test_ruling_an_empty_bag_gives_no_tokens_and_a_gap_still_counts_without_one():
    # Ben holds every token: the bag is empty.
    dream = (row("fairy_tale_01"), row(), row())
    state = at_turn(("underwater_01",) + FIELD[:7], flywheels=(0, 4), supplies=((), ALL_TOKENS), dreams=(dream,))
    state, events = apply(state, {"type": "move_flywheel", "flywheel": "black", "steps": 1})
    assert state.players[0].supply == () and "tokens_drawn" not in [e["type"] for e in events]
    state, events = apply(state, {"type": "attach", "level": 1})
    assert state.players[0].dream[0].gaps == ("",)  # a gap, marked without a token
    assert "gap_without_token" in [e["type"] for e in events]
    assert RULES.view(state, None)["players"][0]["dream"][0]["gaps"] == [True]
