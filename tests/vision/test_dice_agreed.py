"""A reading that stands unsure is still the players' best guess: where two or more looks at
other scales (half to twice WORK_SIDE) read other dice with nothing left unread and no face in
doubt, alike, and more of them than read the unsure reading's, theirs is shown instead, as
unsure (vision.dice._agreed_elsewhere)."""

from __future__ import annotations

import numpy as np
import pytest

import vision.dice as dice
from vision.dice import Die, DiceReading, read_dice
from vision.synth import render_dice

FRAME = np.zeros((480, 640, 3), np.uint8)


def _die(value, x, side=8):
    corners = ((x, 0), (x + side, 0), (x + side, side), (x, side))
    return Die(value, (x, 0, x + side, side), corners, 1.0, ())


def _reading(values, confidence, sides=None):
    sides = sides or [8] * len(values)
    return DiceReading(tuple(_die(v, 20 * i, s) for i, (v, s) in enumerate(zip(values, sides))),
                       confidence)


def _looks(**at):
    """Looks by side: the sides named (as s320, s480, ...) read so, the others nothing."""
    nothing = DiceReading((), 1.0)
    return {side: at.get(f"s{side}", nothing) for side in dice.AGREE_SIDES}


def test_the_sides_run_from_half_to_twice_the_first_looks():
    assert dice.AGREE_SIDES[0] == dice.WORK_SIDE // 2
    assert dice.AGREE_SIDES[-1] == 2 * dice.WORK_SIDE
    assert set(dice.VOTE_SIDES) <= set(dice.AGREE_SIDES)


def test_two_clear_looks_that_agree_are_shown_in_place_of_an_unsure_reading():
    unsure = _reading([2, 2, 2, 2], 0.4)
    clear = _reading([1, 2, 2, 2], 0.99)
    shown = dice._agreed_elsewhere(FRAME, unsure, _looks(s320=clear, s720=clear))
    assert shown.values == [1, 2, 2, 2]
    assert shown.confidence == 0.4  # as unsure as the reading it replaced: players check it


def test_one_look_alone_is_not_enough():
    unsure = _reading([2, 2, 2, 2], 0.4)
    clear = _reading([1, 2, 2, 2], 0.99)
    assert dice._agreed_elsewhere(FRAME, unsure, _looks(s720=clear)) is unsure


def test_looks_that_left_a_face_unread_or_in_doubt_do_not_count():
    unsure = _reading([2, 2, 2, 2], 0.4)
    doubted = _reading([1, 2, 2, 2], dice.DOUBTED)
    assert dice._agreed_elsewhere(FRAME, unsure, _looks(s320=doubted, s480=doubted,
                                                        s720=doubted)) is unsure
    clear = _reading([1, 2, 2, 2], dice.DOUBTED + 0.01)
    assert dice._agreed_elsewhere(FRAME, unsure, _looks(s320=clear, s480=clear)).values == [
        1, 2, 2, 2]


def test_as_many_looks_that_read_the_unsure_readings_dice_keep_it():
    unsure = _reading([2, 5], 0.6)
    same = _reading([2, 5], 0.95)
    other = _reading([2, 6], 0.95)
    assert dice._agreed_elsewhere(FRAME, unsure, _looks(s320=other, s480=other, s560=same,
                                                        s720=same)) is unsure
    assert dice._agreed_elsewhere(FRAME, unsure, _looks(s320=other, s480=other, s560=other,
                                                        s720=same, s800=same)).values == [2, 6]


def test_the_reading_itself_counts_as_a_look_when_as_clear():
    # tune photo dice_24 over-exposed: three white 1s read at 0.89 (one 1 unsure) and so at
    # 560; two of them at 960 and 1280
    unsure = _reading([1, 1, 1], 0.89)
    two = _reading([1, 1], 1.0)
    looks = _looks(s560=_reading([1, 1, 1], 0.868), s960=two, s1280=two)
    assert dice._agreed_elsewhere(FRAME, unsure, looks) is unsure
    left_unread = _reading([1, 1, 1], 0.4)  # not itself a clear look: two against one
    assert dice._agreed_elsewhere(FRAME, left_unread, looks).values == [1, 1]


def test_two_other_readings_as_often_keep_it():
    unsure = _reading([2, 5], 0.6)
    a, b = _reading([2, 6], 0.95), _reading([3, 5], 0.95)
    assert dice._agreed_elsewhere(FRAME, unsure, _looks(s320=a, s480=a, s720=b,
                                                        s800=b)) is unsure


def test_a_face_far_larger_than_the_other_dice_does_not_count():
    unsure = _reading([1, 3, 6, 6], 0.4)
    oversized = _reading([1, 2, 3, 6, 6], 0.95, sides=[8, 13, 8, 8, 9])
    assert dice._agreed_elsewhere(FRAME, unsure, _looks(s320=oversized, s480=oversized,
                                                        s560=oversized)) is unsure


def test_looks_already_taken_are_not_taken_again(monkeypatch):
    asked = []
    monkeypatch.setattr(dice, "_read_at",
                        lambda frame, side: asked.append(side) or DiceReading((), 1.0))
    taken = {320: DiceReading((), 1.0), 1280: DiceReading((), 1.0), 480: DiceReading((), 1.0)}
    dice._agreed_elsewhere(FRAME, _reading([4], 0.4), taken)
    assert sorted(asked) == sorted(set(dice.AGREE_SIDES) - {320, 480, 1280})
    assert set(taken) == set(dice.AGREE_SIDES)


# Tune frames (seeds 3000..3899) read unsurely at WORK_SIDE and as wrongly by the vote, each
# read by two or more clear looks at other scales: oblique3122 a 1 beside its side face read as
# a fourth 2; many3515 a 2 and a 6 left unread among eight dice; rough3816 a small orange 5
# read as a 1.
@pytest.mark.parametrize("seed, condition", [(3122, "oblique"), (3515, "many"),
                                             (3816, "rough")])
def test_rolls_read_unsurely_show_the_dice_other_scales_agree_on(seed, condition):
    scene = render_dice(seed, condition)
    reading = read_dice(scene.image)
    assert reading.values == scene.values
    assert reading.confidence < dice.SURE_READING  # still for the players to check
