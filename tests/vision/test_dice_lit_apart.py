"""A 1's pip and a pip of its die's side face beside it may pass as a 2's twins in size,
contrast and (on a dark die, whose gloss hides the shading) face colour; their matte paint
still shows the light: the side pip faces away from it. Two light pips of a dark die lit
further apart than one face's shading allows (TWIN_STEP) are parted (_lit_apart)."""

from __future__ import annotations

import numpy as np

from vision import dice
from vision.dice import SURE_READING, read_dice
from vision.synth import render_dice


def test_a_top_one_and_its_side_pip_lit_apart_are_no_two():
    # A red die seen obliquely: its top 1 (pip at 224) and a pip of its side face (108) were
    # read as a sure 2, dropped as the side face of the 4 before it: [3, 4], sure.
    scene = render_dice(3430, "oblique")
    reading = read_dice(scene.image)
    assert sorted(reading.values) == [1, 3] == sorted(scene.values)
    assert reading.confidence >= SURE_READING


def test_a_true_two_in_a_lights_fall_off_stays_a_two():
    # Guard: a dark die's true 2 in grain, its pips lit 1.59 times apart (within TWIN_STEP,
    # not within TOP_LIGHT, which judges whole faces).
    scene = render_dice(3340, "rough")
    reading = read_dice(scene.image)
    assert sorted(reading.values) == [2, 3, 3, 6] == sorted(scene.values)


def test_lit_apart_takes_light_pips_of_dark_dice_only():
    a = dice._Pip(0.0, 0.0, 3.0, 0.9, 0.0, False, 0.8, face=np.array([30.0, 10.0, 120.0]),
                  peak=224.0)
    b = dice._Pip(9.0, 9.0, 3.0, 0.9, 0.0, False, 0.8, face=np.array([30.0, 10.0, 120.0]),
                  peak=108.0)
    assert dice._lit_apart(a, b)
    b.peak = 150.0
    assert not dice._lit_apart(a, b)  # within TWIN_STEP
    b.peak = 108.0
    b.face = np.array([200.0, 200.0, 200.0])
    a.face = b.face
    assert not dice._lit_apart(a, b)  # a light die: its faces show the shading
