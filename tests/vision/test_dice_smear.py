"""A camera that moves during the exposure smears every pip along its motion: a lone 1's dark
pip, cut where the blur has spread its edge, comes out long along the smear and fails a 1's
roundness. At half its own depth the pip keeps its width across the smear and is shorter along
it, so that part gives its shape (vision.dice: _unsmeared, SMEAR_WIDTH)."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.dice import SURE_READING, read_dice

CAMERAS = Path(__file__).resolve().parents[1] / "data" / "dice-cameras"


def _photo(name: str) -> tuple[np.ndarray, list[int]]:
    want = json.loads((CAMERAS / "labels.json").read_text())[name]
    return cv2.imread(str(CAMERAS / name)), want


def _smeared(image: np.ndarray, length: int = 7, vertical: bool = False) -> np.ndarray:
    """The camera moved ``length`` pixels during the exposure: a box blur along one line."""
    kernel = np.zeros((length, length), np.float32)
    kernel[length // 2, :] = 1 / length
    return cv2.filter2D(image, -1, kernel.T if vertical else kernel)


@pytest.mark.parametrize("name", ["dice_38.jpg", "dice_21.jpg"])
def test_lone_ones_smeared_sideways_are_read(name):
    photo, want = _photo(name)
    assert set(want) == {1}
    reading = read_dice(_smeared(photo))
    assert reading.values == want
    assert reading.confidence >= SURE_READING


@pytest.mark.parametrize("name", ["dice_38.jpg", "dice_21.jpg"])
def test_a_smear_down_the_frame_reads_alike(name):
    # The motion's direction is not assumed: the photo turned a quarter and smeared down the
    # frame is the same smear along the dice's other axis.
    photo, want = _photo(name)
    turned = np.ascontiguousarray(cv2.rotate(photo, cv2.ROTATE_90_CLOCKWISE))
    assert read_dice(_smeared(turned, vertical=True)).values == want


def test_the_photos_unsmeared_still_read():
    for name in ("dice_38.jpg", "dice_21.jpg"):
        photo, want = _photo(name)
        assert read_dice(photo).values == want


def test_a_pip_squashed_by_the_faces_tilt_is_no_one():
    # A squashed lone pip (a face seen at a slant, no smear) keeps its squash at every depth,
    # so it does not become a round 1: only a blob whose half-depth part is rounder and as
    # wide across is a smeared round pip. (Taking every half-depth shape as the pip's reads a 1.)
    img = np.full((480, 640, 3), 120, np.uint8)
    cv2.rectangle(img, (280, 200), (360, 280), (235, 235, 235), -1)
    cv2.ellipse(img, (320, 240), (10, 6), 0, 0, 360, (30, 30, 30), -1)
    img = cv2.GaussianBlur(img, (0, 0), 1.0)
    assert read_dice(img).values != [1]
