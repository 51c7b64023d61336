"""A camera that moves during the exposure smears every pip along its motion: a lone 1's dark
pip, cut where the blur has spread its edge, comes out long along the smear and fails a 1's
roundness. At half its own depth the pip keeps its width across the smear and is shorter along
it, so that part gives its shape (vision.dice: _unsmeared, SMEAR_WIDTH)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision import dice
from vision.dice import SURE_READING, _Pip, read_dice
from vision.synth import smeared


@pytest.mark.parametrize("name", ["dice_38.jpg", "dice_21.jpg"])
def test_lone_ones_smeared_sideways_are_read(camera_photo, name):
    photo, want = camera_photo(name)
    assert set(want) == {1}
    reading = read_dice(smeared(photo))
    assert reading.values == want
    assert reading.confidence >= SURE_READING


@pytest.mark.parametrize("name", ["dice_38.jpg", "dice_21.jpg"])
def test_a_smear_down_the_frame_reads_alike(camera_photo, name):
    # The motion's direction in the image is not assumed: the photo turned a quarter and
    # smeared down the frame is the same smear across the same dice. (A smear down the unturned
    # photo, along its 1s' side faces, or at 45 degrees still reads dice_21 wrong.)
    photo, want = camera_photo(name)
    turned = np.ascontiguousarray(cv2.rotate(photo, cv2.ROTATE_90_CLOCKWISE))
    assert read_dice(smeared(turned, vertical=True)).values == want


def test_the_photos_unsmeared_still_read(camera_photo):
    for name in ("dice_38.jpg", "dice_21.jpg"):
        photo, want = camera_photo(name)
        assert read_dice(photo).values == want


def _pip(r: float, roundness: float) -> _Pip:
    return _Pip(x=320.0, y=240.0, r=r, roundness=roundness, squash=0.0, dark=True, contrast=0.8)


def test_a_half_depth_part_as_wide_across_gives_the_pips_shape(monkeypatch):
    # A smear stretches the blob along its motion only: the half-depth part keeps the width
    # across (short axis r * sqrt(roundness): 5.6 for both) and is shorter along, so rounder.
    lone = _pip(7.0, 0.64)
    monkeypatch.setattr(dice, "_half_height_cut", lambda pip, con: _pip(6.2, 0.82))
    assert dice._unsmeared(lone, None).roundness == 0.82
    assert dice._unsmeared(lone, None).r == lone.r  # (its size stays the blob's)


@pytest.mark.parametrize("cut", [_pip(4.4, 0.78), _pip(6.0, 0.6), _pip(2.0, 1.0)])
def test_a_half_depth_part_narrower_across_or_no_rounder_or_too_small_keeps_the_blobs(
        monkeypatch, cut):
    # An even blur narrows the half-depth part every way (short axis 3.9 against 5.6); a
    # side face's pip is squashed at every depth; a part under SMALL_PIP has the grid's shape.
    lone = _pip(7.0, 0.64)
    monkeypatch.setattr(dice, "_half_height_cut", lambda pip, con: cut)
    assert dice._unsmeared(lone, None) is lone


def test_a_squashed_lone_pip_with_no_smear_is_no_one():
    # A lone pip squashed by the face's slant (no smear) is squashed at every depth.
    img = np.full((480, 640, 3), 120, np.uint8)
    cv2.rectangle(img, (280, 200), (360, 280), (235, 235, 235), -1)
    cv2.ellipse(img, (320, 240), (10, 6), 0, 0, 360, (30, 30, 30), -1)
    img = cv2.GaussianBlur(img, (0, 0), 1.0)
    assert read_dice(img).values != [1]
