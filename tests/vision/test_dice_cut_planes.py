"""A straight cut through one pip group that takes a top face's pips with its side face's is
no two dice (vision.dice._cut_across_planes): the top face peeled off whole stands, its side
face's marks as its side pips."""

from __future__ import annotations

import pytest

from vision import dice
from vision.dice import SURE_READING, read_dice
from vision.synth import render_dice


def test_a_top_face_is_not_cut_in_half_with_its_side_marks():
    # A 4 seen nearly square-on, two squashed marks of its side face beside it, linked into
    # one group: a cut left a sure 2 (two of the 4's pips) and a "4" of its other two pips and
    # the side marks, later dropped as a side face, so the roll read a 2, and sure.
    scene = render_dice(166, "clean")
    reading = read_dice(scene.image)
    assert reading.values == scene.values == [1, 1, 4, 5, 6]
    assert reading.confidence >= SURE_READING


@pytest.mark.parametrize("seed, condition, values", [
    # A 4 and a 6 whose side marks linked with them: cut into a 2 among others before.
    (479, "many", [1, 3, 4, 4, 5, 6]),
    # A die seen steeply, its 3 on top and a 2 on its near side, each face's pips alike: two
    # planes, but no face mixes them, and the frame's other die tells the top (the 2 stays
    # out of the roll as before).
    (550, "oblique", [3, 3]),
])
def test_cuts_through_two_planes(seed, condition, values):
    scene = render_dice(seed, condition)
    assert scene.values == values
    assert read_dice(scene.image).values == values


@pytest.mark.parametrize("seed, condition, values", [
    # A dark 4 with light pips seen at a slant, its side face's marks in a column beside it:
    # six pips in a grid of two rows of three. The cut took the side marks with the 4's near
    # column as a "4" (two planes, dropped later) and left its far column as a sure 2.
    (3419, "oblique", [4, 4, 4, 4, 5, 5]),
    (3025, "clutter", [4]),
    (3835, "light", [2, 4, 5, 5, 5, 6]),
    (3700, "rough", [3, 4, 5, 5, 6]),
    # The same with a 6 whose side marks made a grid with it: read as a 2.
    (3898, "clean", [2, 3, 5, 6, 6]),
])
def test_a_top_face_over_a_cut_that_halves_it(seed, condition, values):
    scene = render_dice(seed, condition)
    assert scene.values == values
    reading = read_dice(scene.image)
    assert reading.values == values
    assert reading.confidence >= SURE_READING


@pytest.mark.parametrize("seed", [0, 53, 81, 115])
def test_a_touching_die_is_no_side_face_though_it_lies_near(monkeypatch, seed):
    # A 6 (or 4) touching a 2: the 2's near pip lies within the 6's side band, its far pip
    # beyond. With the band widened to take both, the 2 still stands: its pips make a face of
    # their own, which a side face's marks beside a top face do not.
    monkeypatch.setattr(dice, "SIDE_BAND", 3.5)
    scene = render_dice(seed, "touching")
    assert 2 in scene.values and len(scene.values) >= 2
    assert read_dice(scene.image).values == scene.values
