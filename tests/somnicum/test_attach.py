"""Attaching the Dream card (rulebook: "Player Turn" 3): extending a row, gaps, deepening the
dream, and taking Meeting cards for the meeting symbol. One test per clause."""

from __future__ import annotations

from dataclasses import replace

import pytest
from somnicum_kit import apply, at_turn, row

from companion.rules import IllegalAction
from companion.somnicum import RULES
from companion.somnicum.attach import open_levels, pyramid_problem

FIELD = tuple(f"space_{n:02d}" for n in range(1, 11))


def taking(card: str, dream=None, **kwargs):
    """A state at the attach step, holding `card` (first card of the field, 1 step taken)."""
    dreams = (dream,) if dream is not None else ()
    state = at_turn((card,) + FIELD[:7], flywheels=(0, 4), dreams=dreams, **kwargs)
    state, _ = apply(state, {"type": "move_flywheel", "flywheel": "black", "steps": 1})
    assert state.phase == "attach" and state.taken == card
    return state


def attached(state, level):
    state, events = apply(state, {"type": "attach", "level": level})
    return state, next(e for e in events if e["type"] == "card_attached"), events


def test_the_first_card_simply_starts_level_1():
    state = taking("fairy_tale_01")
    assert [a["level"] for a in RULES.legal_actions(state) if a["type"] == "attach"] == [1]
    state, event, _ = attached(state, 1)
    assert [c.card for c in state.players[0].dream[0].cards] == ["fairy_tale_01"]
    assert event["position"] == 1 and event["gap"] is False


def test_extending_a_card_goes_on_the_right_continuous_when_they_share_a_particle():
    state = taking("fairy_tale_11", dream=(row("fairy_tale_01"), row(), row()))  # castle+cloud after castle
    bag = len(state.bag)
    state, event, _ = attached(state, 1)
    level = state.players[0].dream[0]
    assert [c.card for c in level.cards] == ["fairy_tale_01", "fairy_tale_11"]
    assert level.gaps == (None,) and not event["gap"] and len(state.bag) == bag


def test_extending_without_a_shared_particle_lays_a_gap_token_from_the_bag():
    state = taking("fairy_tale_02", dream=(row("fairy_tale_01"), row(), row()))  # cloud after castle
    bag = set(state.bag)
    state, event, events = attached(state, 1)
    gap = state.players[0].dream[0].gaps[0]
    assert event["gap"] is True
    assert gap in bag and gap not in state.bag  # a token from the bag, face down between them
    assert "gap_token_laid" in [e["type"] for e in events]
    assert all(gap not in str(e) for e in events)  # its face is never told


def test_nightmare_particles_make_a_continuous_dream():
    state = taking("underwater_11", dream=(row("nightmare_1"), row(), row()))  # octopus on both
    state, event, _ = attached(state, 1)
    assert not event["gap"]


def test_deepening_needs_a_pair_without_a_gap_above():
    gapped = (row("fairy_tale_01", "fairy_tale_02", "fairy_tale_03", gaps="gg"), row(), row())
    state = taking("fairy_tale_05", dream=gapped)
    assert open_levels(state.players[0].dream) == [1]
    with pytest.raises(IllegalAction) as refused:
        RULES.apply(state, {"type": "attach", "level": 2})
    assert refused.value.code == "no_place_on_level"
    assert "no gap between them" in refused.value.message


def test_the_first_card_of_level_2_lies_under_the_leftmost_pair_without_a_gap():
    top = row("fairy_tale_01", "fairy_tale_02", "fairy_tale_11", "fairy_tale_23", gaps="g--")
    state = taking("space_20", dream=(top, row(), row()))
    state, event, _ = attached(state, 2)
    assert event["under"] == 1  # under cards 2 and 3: pair 1 is the leftmost without a gap
    assert state.players[0].dream[1].cards[0].under == 1


def test_a_deepened_card_need_not_match_the_storyline_above():
    top = row("fairy_tale_01", "fairy_tale_21")
    state = taking("underwater_01", dream=(top, row(), row()))
    state, event, _ = attached(state, 2)
    assert event["level"] == 2 and not event["gap"]  # first card of its row: nothing to join


def test_extending_level_2_goes_under_the_next_pair_without_a_gap():
    top = row("fairy_tale_01", "fairy_tale_21", "fairy_tale_05", "fairy_tale_13")
    middle = row("space_01", under=(0,))
    state = taking("space_11", dream=(top, middle, row()))  # rocket+planet after rocket
    state, event, _ = attached(state, 2)
    assert event["under"] == 1 and not event["gap"]


def test_first_available_pair_note_skips_a_pair_with_a_gap_above():
    # Level 1: pairs 0 (no gap), 1 (gap), 2 (no gap). Level 2 has a card under pair 0; the next
    # pair has a gap, so the next card goes under the first available pair: pair 2.
    top = row("fairy_tale_01", "fairy_tale_21", "fairy_tale_02", "fairy_tale_11", gaps="-g-")
    middle = row("space_01", under=(0,))
    state = taking("space_11", dream=(top, middle, row()))
    state, event, _ = attached(state, 2)
    assert event["under"] == 2
    assert pyramid_problem(state.players[0].dream) is None


def test_a_level_is_full_when_every_pair_above_has_a_card_under_it():
    top = row("fairy_tale_01", "fairy_tale_21")
    middle = row("space_01", under=(0,))
    state = taking("space_11", dream=(top, middle, row()))
    assert open_levels(state.players[0].dream) == [1]


def test_level_3_lies_under_a_pair_of_level_2_without_a_gap():
    top = row("fairy_tale_01", "fairy_tale_21", "fairy_tale_05")
    middle = row("space_01", "space_11", under=(0, 1))
    state = taking("underwater_01", dream=(top, middle, row()))
    assert open_levels(state.players[0].dream) == [1, 3]
    state, event, _ = attached(state, 3)
    assert event["under"] == 0


def test_ruling_a_deeper_row_gets_a_gap_when_its_neighbours_share_no_particle():
    top = row("fairy_tale_01", "fairy_tale_21", "fairy_tale_05")
    middle = row("space_01", under=(0,))
    state = taking("underwater_01", dream=(top, middle, row()))  # mermaid after rocket
    state, event, _ = attached(state, 2)
    assert event["gap"] is True and state.players[0].dream[1].gaps[0]


# -- Taking Meeting cards ----------------------------------------------------------------------


def test_a_meeting_symbol_card_on_level_1_brings_one_meeting_card_kept_at_once():
    state = taking("fairy_tale_04")  # the meeting symbol
    state, _, events = attached(state, 1)
    assert len(state.players[0].hand) == 1 and len(state.meeting_deck) == 23
    assert [e["type"] for e in events if "meeting" in e["type"]] == ["meetings_drawn", "meeting_kept"]


def test_a_meeting_symbol_card_brings_as_many_cards_as_its_level_keep_one_discard_the_rest_face_up():
    top = row("fairy_tale_01", "fairy_tale_21")
    state = taking("fairy_tale_04", dream=(top, row(), row()))
    state, _, _ = attached(state, 2)
    assert state.phase == "keep_meeting" and len(state.offered) == 2
    legal = RULES.legal_actions(state)
    assert {a["type"] for a in legal} == {"keep_meeting"}
    keep, other = state.offered if state.offered[0] in [a["card"] for a in legal] else state.offered[::-1]
    state, events = apply(state, {"type": "keep_meeting", "card": keep})
    assert state.players[0].hand == (keep,)
    assert state.meeting_discard == (other,)
    assert events[0]["discarded"][0]["id"] == other


def test_a_kept_meeting_card_is_secret_until_played():
    state = taking("fairy_tale_04")
    state, _, events = attached(state, 1)
    kept = state.players[0].hand[0]
    assert kept not in str(events)
    assert kept not in str(RULES.view(state, None))
    assert kept in str(RULES.view(state, 0))
    assert RULES.view(state, None)["players"][0]["meetings_in_hand"] == 1


def test_ruling_an_empty_meeting_deck_gives_what_is_left_and_discards_are_not_reshuffled():
    top = row("fairy_tale_01", "fairy_tale_21")
    state = taking("fairy_tale_04", dream=(top, row(), row()))
    # One Meeting card left in the deck; the rest lie face up beside it.
    state = replace(state, meeting_deck=state.meeting_deck[:1], meeting_discard=state.meeting_deck[1:])
    left = state.meeting_deck[0]
    state, _, events = attached(state, 2)
    assert state.players[0].hand == (left,) and state.meeting_deck == ()
    assert next(e for e in events if e["type"] == "meetings_drawn")["count"] == 1
