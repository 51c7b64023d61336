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



def test_an_enlarged_look_whose_face_came_apart_does_not_replace_a_sure_one():
    # Enlarged, the squashed pips of a steeply seen 5 fail to link: a 2 read from some of the
    # very pips the first look read as the 5. Enlarging adds no pips: the first look stands.
    scene = render_dice(723, "oblique")
    assert read_dice(scene.image).values == scene.values == [1, 1, 3, 3, 5, 5]


def test_a_smaller_look_that_reads_a_face_as_one_blob_does_not_replace_it():
    # Shrunk, a small die's whole 4 blurs into one blob, a sure 1: it does not stand over a
    # look that read fewer dice but measured this one's pips.
    scene = render_dice(618, "rough")
    reading = read_dice(scene.image)
    assert reading.values == scene.values == [4]


def test_an_enlarged_look_that_splits_a_sure_face_into_a_one_does_not_stand():
    # Enlarged, one pip of a sure 3 reads as a sure 1 (the others linked with a side face's):
    # enlarging adds no pip, so the larger look is no surer of that die.
    scene = render_dice(613, "clutter")
    assert read_dice(scene.image).values == scene.values == [3]


def test_pips_already_too_large_are_not_enlarged_but_shrunk():
    # A close roll whose 1 has a pip too large for the kernels: enlarged, the pip is lost and
    # the look seems surer for it; the half-size look reads the 1.
    scene = render_dice(520, "close")
    assert read_dice(scene.image).values == scene.values == [1, 3, 4]
