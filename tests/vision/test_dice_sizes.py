"""The dice of one roll are one size: a face-like mark far smaller than the dice (a dot on a
cable's label, a key's letter, a pattern in the clutter) is not read as a die."""

from __future__ import annotations

import cv2
import numpy as np

from vision.dice import read_dice

PIPS = {1: [(0, 0)], 3: [(-1, -1), (0, 0), (1, 1)],
        5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)]}


def _table() -> np.ndarray:
    img = np.zeros((480, 640, 3), np.uint8)
    img[:] = (70, 120, 160)
    noise = np.random.default_rng(4).normal(0, 3, img.shape)
    return np.clip(img + noise, 0, 255).astype(np.uint8)


def _face(img: np.ndarray, cx: int, cy: int, value: int, scale: float = 1.0) -> None:
    """A white face with dark pips; ``scale`` 1 is a die about 56 pixels wide."""
    half, spread, r = round(28 * scale), round(15 * scale), max(2, round(5 * scale))
    cv2.rectangle(img, (cx - half, cy - half), (cx + half, cy + half), (228, 228, 228), -1)
    for px, py in PIPS[value]:
        cv2.circle(img, (cx + px * spread, cy + py * spread), r, (25, 25, 25), -1, cv2.LINE_AA)


def test_a_mark_far_smaller_than_the_dice_is_not_a_die():
    img = _table()
    _face(img, 160, 240, 3)
    _face(img, 330, 250, 5)
    _face(img, 480, 230, 1)
    # A white tag with a dark dot, a quarter of a die's size, in the clutter beyond the dice.
    _face(img, 560, 60, 1, scale=0.3)
    assert read_dice(img).values == [1, 3, 5]


def test_dice_of_one_size_seen_nearer_and_farther_are_all_read():
    # A steep camera makes the far dice look smaller: about 0.7 of the near ones' size.
    img = _table()
    _face(img, 160, 380, 3)
    _face(img, 330, 390, 5)
    _face(img, 250, 110, 1, scale=0.7)
    _face(img, 450, 100, 3, scale=0.7)
    assert read_dice(img).values == [1, 3, 3, 5]


def test_pips_bridged_by_blur_are_still_counted():
    # A 6 on a dark die with light pips: blur bridges neighbouring pips by a pixel, so the
    # contrast mask shows each column of three pips as one blob; they are still three pips.
    img = _table()
    _face(img, 200, 240, 3)
    _face(img, 420, 240, 5)
    cx, cy = 310, 120
    cv2.rectangle(img, (cx - 25, cy - 25), (cx + 25, cy + 25), (40, 30, 25), -1)
    for px in (-1, 1):
        for py in (-1, 0, 1):
            cv2.circle(img, (cx + px * 12, cy + py * 12), 4, (60, 220, 230), -1, cv2.LINE_AA)
        for gap in (-1, 1):  # thin bright bridges across the gaps of one column
            x, y = cx + px * 12, cy + gap * 6
            cv2.line(img, (x, y - 2), (x, y + 2), (60, 220, 230), 1)
    assert read_dice(img).values == [3, 5, 6]
