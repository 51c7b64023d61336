"""An unsure reading put to a vote of looks at nearby scales (vision.dice._outvoted): when four
of five looks read the same other dice, theirs stands, as unsure as the first; fewer do not
outvote it, and a sure reading is not looked at again.

A reading that stands unsure is still the players' best guess: where two or more looks at
other scales (half to twice WORK_SIDE) read other dice with nothing left unread and no face in
doubt, alike, and more of them than read the unsure reading's, theirs is shown instead, as
unsure (vision.dice._agreed_elsewhere)."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

import vision.dice as dice
from vision.dice import Die, DiceReading, read_dice
from vision.synth import CAMERA_SHIFTS, render_dice

DATA = Path(__file__).resolve().parents[1] / "data"


def _die(value, x, side=8):
    corners = ((x, 0), (x + side, 0), (x + side, side), (x, side))
    return Die(value, (x, 0, x + side, side), corners, 1.0, ())


def _reading(values, confidence, sides=None):
    sides = sides or [8] * len(values)
    return DiceReading(tuple(_die(v, 20 * i, s) for i, (v, s) in enumerate(zip(values, sides))),
                       confidence)


def _looks(monkeypatch, by_side):
    asked = []

    def read_at(frame, side):
        asked.append(side)
        return by_side[side]
    monkeypatch.setattr(dice, "_read_at", read_at)
    return asked


def test_four_looks_of_five_that_agree_outvote_an_unsure_reading(monkeypatch):
    first = _reading([2, 3], 0.6)
    other = _reading([2, 5], 0.95)
    sides = dice.VOTE_SIDES
    asked = _looks(monkeypatch, {s: (first if s == sides[2] else other) for s in sides})
    voted = dice._outvoted(np.zeros((480, 640, 3), np.uint8), first)
    assert voted.values == [2, 5]
    assert voted.confidence == 0.6  # no surer than the reading it replaced
    assert asked == list(sides)


def test_three_looks_of_five_do_not_outvote_it(monkeypatch):
    first = _reading([2, 3], 0.6)
    other = _reading([2, 5], 0.95)
    sides = dice.VOTE_SIDES
    _looks(monkeypatch, {s: (first if s in sides[1:3] else other) for s in sides})
    assert dice._outvoted(np.zeros((480, 640, 3), np.uint8), first) is first


def test_a_face_far_larger_than_the_other_dice_does_not_win_the_vote(monkeypatch):
    # the dice of one roll are one size: a "2" half again as large as the others is a pattern
    # in the clutter (a card's letters), however many looks agree on it
    first = _reading([1, 3, 6, 6], 0.4)
    other = _reading([1, 2, 3, 6, 6], 0.95, sides=[8, 13, 8, 8, 9])
    _looks(monkeypatch, {s: other for s in dice.VOTE_SIDES})
    assert dice._outvoted(np.zeros((480, 640, 3), np.uint8), first) is first
    fair = _reading([1, 2, 3, 6, 6], 0.95, sides=[8, 10, 8, 8, 9])
    _looks(monkeypatch, {s: fair for s in dice.VOTE_SIDES})
    assert dice._outvoted(np.zeros((480, 640, 3), np.uint8), first).values == [1, 2, 3, 6, 6]


def test_looks_that_see_nothing_do_not_vote(monkeypatch):
    first = _reading([4], 0.4)
    _looks(monkeypatch, {s: DiceReading((), 1.0) for s in dice.VOTE_SIDES})
    assert dice._outvoted(np.zeros((480, 640, 3), np.uint8), first) is first


def test_the_vote_stops_once_it_cannot_be_won(monkeypatch):
    # two looks that agree with the reading leave three, too few to outvote it
    first = _reading([1, 6], 0.5)
    asked = _looks(monkeypatch, {s: first for s in dice.VOTE_SIDES})
    dice._outvoted(np.zeros((480, 640, 3), np.uint8), first)
    assert asked == list(dice.VOTE_SIDES[:2])


def test_a_sure_reading_is_not_put_to_a_vote(monkeypatch):
    scene = render_dice(3, "clean", style="white", count=3)
    called = []
    monkeypatch.setattr(dice, "_outvoted", lambda frame, reading: called.append(1) or reading)
    reading = read_dice(scene.image)
    assert reading.confidence >= dice.SURE_READING and not called


def _photo(folder, name):
    want = json.loads((DATA / folder / "labels.json").read_text())[name]
    return cv2.imread(str(DATA / folder / name)), want


# (clean679 was read so too, until marks on its faces of the other polarity stopped counting as
# faces left unread: it is read surely at the first look, see test_dice_crowds.py.)
@pytest.mark.parametrize("seed, condition", [(705, "clutter"), (753, "rough")])
def test_rolls_read_unsurely_at_one_scale_are_read_by_the_vote(seed, condition):
    scene = render_dice(seed, condition)
    reading = read_dice(scene.image)
    assert reading.values == scene.values
    assert reading.confidence < dice.SURE_READING  # still for the players to check


def test_dark_dice_at_half_resolution_are_read_by_the_vote():
    # the negative of two 4s: at one scale a stray light speck makes a third die
    photo, want = _photo("dice-cameras", "four_16.jpg")
    assert read_dice(CAMERA_SHIFTS["half resolution"](255 - photo, 0)).values == want == [4, 4]


def test_twos_in_a_heavily_compressed_photo_are_read_by_the_vote():
    photo, want = _photo("dice", "two_35.jpg")
    _, jpeg = cv2.imencode(".jpg", photo, [cv2.IMWRITE_JPEG_QUALITY, 15])
    assert read_dice(cv2.imdecode(jpeg, cv2.IMREAD_COLOR)).values == want


def test_a_faces_side_is_its_outlines_or_else_its_boxs():
    assert dice._face_side(_die(2, 0, side=10)) == 10
    assert dice._face_side(Die(4, (10, 10, 40, 44), (), 1.0, ())) == 34


# --- dice other scales agree on (_agreed_elsewhere) ---

FRAME = np.zeros((480, 640, 3), np.uint8)


def _clear_looks(**at):
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
    shown = dice._agreed_elsewhere(FRAME, unsure, _clear_looks(s320=clear, s720=clear))
    assert shown.values == [1, 2, 2, 2]
    assert shown.confidence == 0.4  # as unsure as the reading it replaced: players check it


def test_one_look_alone_is_not_enough():
    unsure = _reading([2, 2, 2, 2], 0.4)
    clear = _reading([1, 2, 2, 2], 0.99)
    assert dice._agreed_elsewhere(FRAME, unsure, _clear_looks(s720=clear)) is unsure


def test_looks_that_left_a_face_unread_or_in_doubt_do_not_count():
    unsure = _reading([2, 2, 2, 2], 0.4)
    doubted = _reading([1, 2, 2, 2], dice.DOUBTED)
    looks = _clear_looks(s320=doubted, s480=doubted, s720=doubted)
    assert dice._agreed_elsewhere(FRAME, unsure, looks) is unsure
    clear = _reading([1, 2, 2, 2], dice.DOUBTED + 0.01)
    looks = _clear_looks(s320=clear, s480=clear)
    assert dice._agreed_elsewhere(FRAME, unsure, looks).values == [1, 2, 2, 2]


def test_as_many_looks_that_read_the_unsure_readings_dice_keep_it():
    unsure = _reading([2, 5], 0.6)
    same = _reading([2, 5], 0.95)
    other = _reading([2, 6], 0.95)
    looks = _clear_looks(s320=other, s480=other, s560=same, s720=same)
    assert dice._agreed_elsewhere(FRAME, unsure, looks) is unsure
    looks = _clear_looks(s320=other, s480=other, s560=other, s720=same, s800=same)
    assert dice._agreed_elsewhere(FRAME, unsure, looks).values == [2, 6]


def test_the_reading_itself_counts_as_a_look_when_as_clear():
    # tune photo dice_24 over-exposed: three white 1s read at 0.89 (one 1 unsure) and so at
    # 560; two of them at 960 and 1280
    unsure = _reading([1, 1, 1], 0.89)
    two = _reading([1, 1], 1.0)
    looks = _clear_looks(s560=_reading([1, 1, 1], 0.868), s960=two, s1280=two)
    assert dice._agreed_elsewhere(FRAME, unsure, looks) is unsure
    left_unread = _reading([1, 1, 1], 0.4)  # not itself a clear look: two against one
    assert dice._agreed_elsewhere(FRAME, left_unread, looks).values == [1, 1]


def test_two_other_readings_as_often_keep_it():
    unsure = _reading([2, 5], 0.6)
    a, b = _reading([2, 6], 0.95), _reading([3, 5], 0.95)
    looks = _clear_looks(s320=a, s480=a, s720=b, s800=b)
    assert dice._agreed_elsewhere(FRAME, unsure, looks) is unsure


def test_a_face_far_larger_than_the_other_dice_does_not_count():
    unsure = _reading([1, 3, 6, 6], 0.4)
    oversized = _reading([1, 2, 3, 6, 6], 0.95, sides=[8, 13, 8, 8, 9])
    looks = _clear_looks(s320=oversized, s480=oversized, s560=oversized)
    assert dice._agreed_elsewhere(FRAME, unsure, looks) is unsure


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
