"""A light lone pip (a 1) is judged on its whole blob, cut low in the glow round it (see
vision.dice: _alone, _shaped_at_half_height). Sensor noise and strong JPEG join a speck or two to
that faint glow: the blob comes out ragged, its fill under LONE_FILL, and the 1 is not read,
though the pip's top, its part above half its own height, is a filled disc. That part gives the
fill when it is the fuller, even where it is too small to give the pip's shape (SMALL_PIP)."""

from __future__ import annotations

import vision.dice as dice
from vision.dice import read_dice
from vision.synth import render_dice


def _die_at(reading, x: float, y: float):
    return [d for d in reading.dice if d.box[0] <= x <= d.box[2] and d.box[1] <= y <= d.box[3]]


def test_a_noisy_frames_lone_one_with_a_ragged_glow_is_read():
    # A rough frame (noise 6, strong JPEG, 640 x 480): a lone 1 at about (580, 205), its
    # whole blob 0.86 full (specks joined to its glow), its half-height cut 0.99. The old
    # reader's first look left it unread and read [2, 6]; only the smoothed look read the 1,
    # unsurely, and the reading stood at [2, 6].
    scene = render_dice(413, "rough")
    first = dice._read_at(scene.image, dice.WORK_SIDE)
    assert [d.value for d in _die_at(first, 580, 205)] == [1]
    assert read_dice(scene.image).values == scene.values == [1, 2, 6, 6]


def test_another_ragged_one_is_read_at_the_first_look():
    # Another rough frame: a lone 1 at about (147, 358), its blob run into noise specks (5.4
    # pixels against a 2.7 pixel core, 0.88 full); its cut is a filled disc. The old reader's
    # first look read no die there.
    scene = render_dice(158, "rough")
    first = dice._read_at(scene.image, dice.WORK_SIDE)
    assert [d.value for d in _die_at(first, 147, 358)] == [1]
