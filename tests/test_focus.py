"""The focus model: menus over the legal actions, driven by next/previous/confirm/back."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
import pytest

from companion.focus import CONTROLS, Focus, route_to, seat_names_from_view

MOVES = [
    {"type": "move", "character": "chloe", "to": [1, 0]},
    {"type": "move", "character": "chloe", "to": [0, 1]},
    {"type": "explore", "character": "chloe", "side": "north"},
    {"type": "ability", "character": "ryan", "target": "chloe", "to": [2, 2]},
    {"type": "ability", "character": "ryan", "target": "isaac", "to": [2, 2]},
    {"type": "ability", "character": "ryan", "target": "isaac", "to": [0, 0]},
    {"type": "end_turn"},
]


def labels(focus: Focus) -> list[str]:
    return [option.label for option in focus.menu()]


def press_all(focus: Focus, presses: list[str]):
    effect = None
    for control in presses:
        focus, effect = focus.press(control)
    return focus, effect


def test_top_menu_lists_action_types_in_the_rules_order():
    focus = Focus.of(MOVES)
    assert labels(focus) == ["Move", "Explore", "Ability", "End turn"]
    assert focus.highlighted().label == "Move"


def test_a_kind_with_one_action_is_sent_by_one_confirm():
    focus = Focus.of(MOVES)
    focus, _ = press_all(focus, ["next"])
    focus, effect = focus.press("confirm")
    assert effect.kind == "submit"
    assert effect.action == {"type": "explore", "character": "chloe", "side": "north"}


def test_second_menu_splits_only_on_the_field_that_differs():
    focus, effect = Focus.of(MOVES).press("confirm")
    assert effect.kind == "opened"
    # every move is Chloe's, so the menu asks only where to
    assert labels(focus) == ["to: 1, 0", "to: 0, 1"]
    assert [o.key for o in focus.menu()] == ["to", "to"]


def test_deeper_menus_follow_each_differing_field_in_order():
    focus, _ = press_all(Focus.of(MOVES), ["next", "next", "confirm"])
    assert labels(focus) == ["target: chloe", "target: isaac"]
    focus, _ = press_all(focus, ["next", "confirm"])
    assert labels(focus) == ["to: 2, 2", "to: 0, 0"]
    assert focus.breadcrumb() == ["Ability", "target: isaac"]
    focus, effect = press_all(focus, ["previous", "confirm"])
    assert effect.action == {"type": "ability", "character": "ryan", "target": "isaac",
                             "to": [0, 0]}


def test_next_and_previous_wrap_around():
    focus = Focus.of(MOVES)
    focus, effect = focus.press("previous")
    assert effect.kind == "moved" and focus.highlighted().label == "End turn"
    focus, _ = focus.press("next")
    assert focus.highlighted().label == "Move"


def test_back_cancels_a_half_made_choice_and_keeps_the_highlight_on_it():
    focus, _ = press_all(Focus.of(MOVES), ["next", "next", "confirm", "next", "confirm"])
    assert focus.breadcrumb() == ["Ability", "target: isaac"]
    focus, effect = focus.press("back")
    assert effect.kind == "cancelled"
    assert focus.highlighted().label == "target: isaac"
    focus, _ = focus.press("back")
    assert focus.path == () and focus.highlighted().label == "Ability"
    focus, effect = focus.press("back")
    assert effect.kind == "refused" and effect.note == "Nothing to cancel"


def test_submitting_returns_to_the_top_menu_on_the_same_kind():
    focus, effect = press_all(Focus.of(MOVES), ["confirm", "next", "confirm"])
    assert effect.action == {"type": "move", "character": "chloe", "to": [0, 1]}
    assert focus.path == () and focus.highlighted().label == "Move"


def test_new_state_keeps_the_kind_of_action_highlighted_when_still_legal():
    focus, _ = press_all(Focus.of(MOVES), ["next", "next"])
    moved = focus.with_actions([{"type": "end_turn"}, *MOVES[3:6]])
    assert moved.path == () and moved.highlighted().label == "Ability"
    gone = focus.with_actions([{"type": "end_turn"}, {"type": "move", "to": [3, 3]}])
    assert gone.index == 0


def test_same_actions_keep_the_half_made_choice():
    focus, _ = Focus.of(MOVES).press("confirm")
    assert focus.with_actions([dict(a) for a in MOVES]) is focus


def test_undo_is_passed_to_the_app_and_changes_nothing():
    focus = Focus.of(MOVES)
    after, effect = focus.press("undo")
    assert effect.kind == "undo" and after == focus


def test_end_turn_shortcut_sends_the_end_of_turn_from_anywhere():
    focus, _ = press_all(Focus.of(MOVES), ["next", "next", "confirm"])
    focus, effect = focus.press("end_turn")
    assert effect.kind == "submit" and effect.action == {"type": "end_turn"}


def test_shortcut_with_nothing_to_reach_is_refused_with_a_reason():
    focus = Focus.of(MOVES[:2])
    after, effect = focus.press("end_turn")
    assert (effect.kind, effect.note) == ("refused", "There is no turn to end")
    after, effect = focus.press("roll")
    assert (effect.kind, effect.note) == ("refused", "There is nothing to roll now")
    assert after == focus


def test_roll_shortcut_opens_the_dice_menu_when_the_roll_is_typed_in():
    dice = [{"type": "dice", "values": [a, b]} for a in (1, 2) for b in (1, 2)]
    focus, effect = Focus.of([MOVES[0], *dice]).press("roll")
    assert effect.kind == "opened"
    assert labels(focus) == ["values: 1, 1", "values: 1, 2", "values: 2, 1", "values: 2, 2"]


def test_seat_button_jumps_to_the_option_naming_that_seat():
    focus, _ = press_all(Focus.of(MOVES, seat_names={"chloe": 0, "isaac": 2}),
                         ["next", "next", "confirm"])
    focus, effect = focus.press("seat", seat=2)
    assert effect.kind == "moved" and focus.highlighted().label == "target: isaac"
    focus, effect = focus.press("seat", seat=0)
    assert focus.highlighted().label == "target: chloe"
    _, effect = focus.press("seat", seat=3)
    assert (effect.kind, effect.note) == ("refused", "Nothing here for seat 4")


def test_seat_fields_name_their_seat_without_a_name_table():
    focus = Focus.of([{"type": "give", "seat": 0}, {"type": "give", "seat": 1}])
    focus, _ = focus.press("confirm")
    focus, effect = focus.press("seat", seat=1)
    assert focus.highlighted().action == {"type": "give", "seat": 1}


def test_no_legal_action_refuses_every_move():
    focus = Focus.of([])
    for control in ("confirm", "next", "previous"):
        _, effect = focus.press(control)
        assert effect.kind == "refused"


def test_duplicate_actions_are_one_option():
    focus = Focus.of([{"type": "draw"}, {"type": "draw"}])
    _, effect = focus.press("confirm")
    assert effect == type(effect)("submit", {"type": "draw"})


def test_actions_without_a_field_get_their_own_option():
    focus, _ = Focus.of([{"type": "flee"}, {"type": "flee", "to": [1, 1]}]).press("confirm")
    assert labels(focus) == ["no to", "to: 1, 1"]


def test_unknown_control_is_an_error():
    with pytest.raises(ValueError, match="unknown control 'jump'"):
        Focus.of(MOVES).press("jump")


def test_every_control_is_understood():
    for control in CONTROLS:
        Focus.of(MOVES).press(control, seat=0 if control == "seat" else None)


def test_route_goes_the_short_way_round():
    focus = Focus.of(MOVES)
    assert route_to(focus, {"type": "end_turn"}) == ["previous", "confirm"]
    deep, _ = focus.press("confirm")
    assert route_to(deep, {"type": "end_turn"}) == ["back", "previous", "confirm"]
    with pytest.raises(ValueError, match="not a legal action"):
        route_to(focus, {"type": "fly"})


values = st.one_of(st.integers(0, 3), st.sampled_from(["a", "b"]),
                   st.lists(st.integers(0, 2), max_size=2))
actions = st.lists(
    st.fixed_dictionaries(
        {"type": st.sampled_from(["move", "give", "roll", "end_turn"])},
        optional={"who": st.sampled_from(["chloe", "ryan"]), "to": values, "n": values},
    ),
    min_size=1,
    max_size=12,
)


@settings(max_examples=150, deadline=None)
@given(actions, st.data())
def test_every_legal_action_is_reachable_with_next_previous_confirm(legal, data):
    """Buttons alone can play any state: each legal action has a press route that sends it."""
    focus = Focus.of(legal)
    start = data.draw(st.lists(st.sampled_from(["next", "previous", "confirm", "back"]),
                               max_size=4))
    for control in start:  # wander first, so routes start from half-made choices too
        focus, effect = focus.press(control)
    target = data.draw(st.sampled_from(legal))
    focus, effect = press_all(focus, route_to(focus, target))
    assert effect.kind == "submit" and effect.action == target


def test_seats_are_counted_from_one_for_the_players():
    focus, _ = Focus.of([{"type": "enter_goal", "seat": 0}, {"type": "enter_goal", "seat": 1}]
                        ).press("confirm")
    assert labels(focus) == ["seat: 1", "seat: 2"]


def test_seat_names_come_from_the_characters_of_a_view():
    public = {"characters": [{"id": "ryan", "seat": 0}, {"id": "chloe", "seat": 1},
                             {"id": "odd", "seat": None}]}
    assert seat_names_from_view(public) == {"ryan": 0, "chloe": 1}
    assert seat_names_from_view({"players": []}) == {}
