"""A dark die's light 1, whose face ring came out off the face's middle in a noisy channel, is
judged again with the colour its plain annulus shows (vision.dice: _ringed_light_one); a spot on
the table, a dark pip, a faint one, or a pip of a larger face is not. Synthetic tuning seeds only
(0..899 and 3000..3899)."""

from __future__ import annotations

from dataclasses import replace

import pytest

import vision.dice as dice
from vision.dice import read_dice
from vision.synth import render_dice

LOST_ONES = [
    ("oblique", 3528),  # a dark brown 1 on a beige table: ring (13, 35, 52), annulus (23, 30, 49)
    ("oblique", 3029),  # a black 1 seen steeply, its side faces the walk's far side
    ("light", 3006),    # a maroon 1 on teal under a low light
    ("rough", 3457),    # a black 1 through noise and JPEG
]


@pytest.mark.parametrize("condition, seed", LOST_ONES)
def test_a_dark_dies_light_one_is_read(reads_right, condition, seed):
    assert reads_right(condition, seed)
    # What reads these 1s is the second look at their face, nothing else.
    assert not reads_right(condition, seed, without=("_ringed_light_one", False))


def test_a_faint_spot_on_a_table_is_no_one():
    # rough3859: a white 4 alone on a noisy table; a spot standing out 0.51 from the table
    # would pass for a 1 by its annulus, and surely, without CLEAR_LIGHT_PIP.
    scene = render_dice(3859, "rough")
    assert 1 not in read_dice(scene.image).values


@pytest.mark.parametrize("condition, seed", [
    ("touching", 463),  # a dark 5's pips not linked, each on a face ending at the walk's first
                        # step: read as 1s, surely, were the face not made to reach past it
    ("oblique", 399),   # a pink 2's pip read as a 1 so, the 2 lost, surely
])
def test_a_pip_of_a_larger_face_is_no_one(reads_right, condition, seed):
    assert reads_right(condition, seed)


def _a_light_lone_pip():
    """oblique3528's light 1 pip as _read_at finds it, and what _alone judges it as."""
    scene = render_dice(3528, "oblique")
    seen = {}
    judged = dice._judge_afresh

    def spy(group, img, con, lone_round):
        p = group[0]
        if len(group) == 1 and abs(p.x - 127) < 4 and abs(p.y - 240) < 4:
            seen["pip"], seen["lone"] = p, dice._alone_once(p, con, img)
        return judged(group, img, con, lone_round)

    dice._judge_afresh = spy
    try:
        dice._read_at(scene.image, dice.WORK_SIDE)
    finally:
        dice._judge_afresh = judged
    return seen["pip"], seen["lone"]


def test_only_clear_round_light_pips_on_plain_faces_are_judged_again():
    pip, lone = _a_light_lone_pip()
    assert dice._ringed_light_one(pip, lone, dice.LONE_ROUNDNESS)
    assert not dice._ringed_light_one(replace(pip, dark=True), lone, dice.LONE_ROUNDNESS)
    # A ring whose spread is the surface's texture (noise 0, see _describe_faces).
    assert not dice._ringed_light_one(replace(pip, noise=0.0), lone, dice.LONE_ROUNDNESS)
    assert not dice._ringed_light_one(
        pip, replace(lone, contrast=dice.CLEAR_LIGHT_PIP - 0.01), dice.LONE_ROUNDNESS)
    # Not a squashed pip let through as a steep camera's 1 (see _rescue_ones).
    assert not dice._ringed_light_one(pip, lone, dice.MIN_ROUNDNESS)
    assert not dice._ringed_light_one(pip, None, dice.LONE_ROUNDNESS)
