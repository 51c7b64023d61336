"""Playing Meeting cards (rulebook: "Playing Meeting Cards") and the provisional effect
vocabulary (docs/RULINGS.md). One test per clause or ruling."""

from __future__ import annotations

import pytest
from somnicum_kit import apply, at_turn, row

from companion.rules import IllegalAction
from companion.somnicum import RULES

FIELD = tuple(f"space_{n:02d}" for n in range(1, 11))


def holding(*cards, **kwargs):
    return at_turn(FIELD, flywheels=(0, 5), hands=(tuple(cards),), **kwargs)


def test_a_one_time_card_is_discarded_after_use():
    state = holding("sand_owl_1")
    state, events = apply(state, {"type": "play_meeting", "card": "sand_owl_1"})
    assert state.players[0].hand == () and state.meeting_discard == ("sand_owl_1",)
    assert events[0]["kind"] == "one_time"


def test_a_permanent_card_stays_face_up_in_front_of_its_owner():
    state = holding("moon_hare_1")
    state, _ = apply(state, {"type": "play_meeting", "card": "moon_hare_1"})
    assert state.players[0].in_front == ("moon_hare_1",) and state.meeting_discard == ()
    assert RULES.view(state, None)["players"][0]["in_front"][0]["name"] == "Moon Hare"


def test_meeting_cards_are_played_only_during_their_owners_turn():
    state = at_turn(FIELD, flywheels=(0, 5), hands=((), ("sand_owl_1",)))
    with pytest.raises(IllegalAction) as refused:
        RULES.apply(state, {"type": "play_meeting", "card": "sand_owl_1", "seat": 1})
    assert refused.value.code == "not_your_turn"
    with pytest.raises(IllegalAction) as not_held:
        RULES.apply(state, {"type": "play_meeting", "card": "sand_owl_1"})
    assert not_held.value.code == "no_such_meeting"


def test_as_many_meeting_cards_as_you_like_at_any_time_of_your_turn():
    state = holding("sand_owl_1", "sand_owl_2", "golden_lantern_1")
    state, _ = apply(state, {"type": "play_meeting", "card": "sand_owl_1"})
    state, _ = apply(state, {"type": "move_flywheel", "flywheel": "black", "steps": 3})
    state, _ = apply(state, {"type": "play_meeting", "card": "sand_owl_2"})  # before attaching
    state, _ = apply(state, {"type": "attach", "level": 1})
    assert state.phase == "end_turn"  # a card is still in hand: the turn waits
    state, _ = apply(state, {"type": "play_meeting", "card": "golden_lantern_1"})
    state, _ = apply(state, {"type": "end_turn"})
    assert state.turn == 1 and state.phase == "turn"


def test_the_turn_ends_by_itself_after_attaching_when_no_meeting_card_is_held():
    state = at_turn(FIELD, flywheels=(0, 5))
    state, _ = apply(state, {"type": "move_flywheel", "flywheel": "black", "steps": 3},
                     {"type": "attach", "level": 1})
    assert state.turn == 1 and state.phase == "turn"


def test_effect_draw_tokens_draws_from_the_bag():
    state = holding("sand_owl_1")
    state, events = apply(state, {"type": "play_meeting", "card": "sand_owl_1"})
    assert len(state.players[0].supply) == 2 and len(state.bag) == 70
    assert state.phase == "turn"  # the turn goes on where it was


def test_effect_one_time_free_steps_only_before_moving():
    state = holding("night_train_1", supplies=(("rocket_1",),))
    state, _ = apply(state, {"type": "play_meeting", "card": "night_train_1"},
                     {"type": "move_flywheel", "flywheel": "black", "steps": 6})
    assert state.players[0].supply == ("rocket_1",)  # 3 + 3 free steps
    late = holding("night_train_1")
    late, _ = apply(late, {"type": "move_flywheel", "flywheel": "black", "steps": 3})
    with pytest.raises(IllegalAction) as refused:
        RULES.apply(late, {"type": "play_meeting", "card": "night_train_1"})
    assert refused.value.code == "meeting_not_now"


def test_effect_permanent_free_steps_works_on_every_later_move():
    state = at_turn(FIELD, flywheels=(0, 5), in_front=(("moon_hare_1",),), supplies=(("rocket_1",),))
    assert max(a["steps"] for a in RULES.legal_actions(state) if a["type"] == "move_flywheel") == 5
    state, _ = apply(state, {"type": "move_flywheel", "flywheel": "black", "steps": 4})
    assert state.players[0].supply == ("rocket_1",)


def test_effect_extra_particle_allows_a_second_particle_this_turn():
    dream = (row("fairy_tale_01"), row(), row())
    state = holding("dream_weaver_1", supplies=(("dragon_1", "crown_1"),), dreams=(dream,))
    state, _ = apply(state, {"type": "add_particle", "token": "dragon_1", "level": 1},
                     {"type": "play_meeting", "card": "dream_weaver_1"},
                     {"type": "add_particle", "token": "crown_1", "level": 1})
    assert state.players[0].dream[0].cards[0].tokens == ("dragon_1", "crown_1")


def test_effect_single_token_adds_another_storylines_particle_with_one_token():
    dream = (row("fairy_tale_01"), row(), row())
    state = at_turn(FIELD, flywheels=(0, 5), in_front=(("star_prism_1",),), supplies=(("mermaid_1",),),
                    dreams=(dream,))
    state, events = apply(state, {"type": "add_particle", "token": "mermaid_1", "level": 1})
    assert state.players[0].dream[0].cards[0].tokens == ("mermaid_1",)
    assert events[0]["rule"] == "B" and not events[0]["returned"]


def test_effect_continuous_joins_the_card_attached_this_turn_without_a_gap():
    dream = (row("fairy_tale_01"), row(), row())
    state = at_turn(("underwater_01",) + FIELD[:7], flywheels=(0, 4), hands=(("rainbow_bridge_1",),),
                    dreams=(dream,))
    state, _ = apply(state, {"type": "move_flywheel", "flywheel": "black", "steps": 1},
                     {"type": "play_meeting", "card": "rainbow_bridge_1"})
    with pytest.raises(IllegalAction):
        RULES.apply(state, {"type": "play_meeting", "card": "rainbow_bridge_1"})
    state, events = apply(state, {"type": "attach", "level": 1})
    assert state.players[0].dream[0].gaps == (None,)
    assert next(e for e in events if e["type"] == "card_attached")["joined_by_meeting"] is True


def test_unplayed_meeting_cards_score_1_vp_and_played_victory_cards_their_amount():
    state = at_turn(FIELD, flywheels=(0, 5), hands=(("sand_owl_1", "night_train_1"),),
                    in_front=(("crystal_crown_1",),))
    score = RULES.view(state, 0)["players"][0]["score"]["breakdown"]
    assert score["meetings"] == 2 + 3
