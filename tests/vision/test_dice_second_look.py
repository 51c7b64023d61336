"""Which reading stands when the frame is looked at again, larger or smaller (vision.dice.read_dice,
_accounts_for): a second look that reads, die by die, all the first read and more stands even
when it is no surer; two looks at four times each other's scale that read the same dice confirm
each other."""

from __future__ import annotations

import pytest

from vision.dice import read_dice
from vision.synth import render_dice


def test_an_enlarged_look_that_reads_the_first_looks_unread_faces_stands():
    # The first look reads a 2 and leaves a face beside it unread; enlarged, the same die is a
    # sure 6 (the 2 and the unread face together), and the other dice are as they were.
    scene = render_dice(346, "light")
    assert read_dice(scene.image).values == scene.values == [1, 3, 6]


def test_a_passed_over_enlarged_look_that_a_smaller_one_confirms_stands():
    # Eight dice: enlarged and at half size the frame reads the same eight, die for die, where
    # the first look read six and left three faces unread.
    scene = render_dice(295, "many")
    assert read_dice(scene.image).values == scene.values


@pytest.mark.parametrize("seed", [230, 267])
def test_a_smaller_look_that_reads_more_of_a_close_roll_stands(seed):
    scene = render_dice(seed, "close")
    assert read_dice(scene.image).values == scene.values

