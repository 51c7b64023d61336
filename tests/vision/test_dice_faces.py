"""Dice faces the reader used to get wrong: side faces of an oblique view, 1s on dark dice,
touching dice, and a mark that makes a face illegal."""

from __future__ import annotations

import cv2
import numpy as np

from vision.dice import read_dice

PIPS = {1: [(0, 0)], 3: [(-1, -1), (0, 0), (1, 1)],
        6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)]}


def _table(colour: tuple[int, int, int]) -> np.ndarray:
    img = np.zeros((480, 640, 3), np.uint8)
    img[:] = colour
    noise = np.random.default_rng(5).normal(0, 3, img.shape)
    return np.clip(img + noise, 0, 255).astype(np.uint8)


def _top(img: np.ndarray, cx: int, cy: int, value: int, face: tuple[int, int, int],
         pip: tuple[int, int, int], half: int = 26, spread: int = 14, r: int = 5,
         squash: float = 1.0) -> None:
    """A die's top face, squashed vertically by `squash` (a camera looking from below)."""
    hy = round(half * squash)
    cv2.rectangle(img, (cx - half, cy - hy), (cx + half, cy + hy), face, -1)
    for px, py in PIPS[value]:
        cv2.ellipse(img, (cx + px * spread, cy + round(py * spread * squash)),
                    (r, max(1, round(r * squash))), 0, 0, 360, pip, -1, cv2.LINE_AA)


def test_a_side_face_below_the_top_face_is_not_a_die():
    # Seen from about 35 degrees: the top face (a 6) is squashed a little, the side face below
    # it a lot, and shaded; its lone pip must not become a 1.
    img = _table((60, 110, 150))
    _top(img, 320, 220, 6, (225, 230, 230), (25, 25, 25), half=30, spread=16, r=4, squash=0.82)
    cv2.rectangle(img, (290, 246), (350, 280), (180, 185, 185), -1)  # the side face
    cv2.ellipse(img, (320, 263), (4, 2), 0, 0, 360, (30, 30, 30), -1, cv2.LINE_AA)
    reading = read_dice(img)
    assert reading.values == [6]
    assert reading.confidence >= 0.8


def test_a_one_on_a_dark_die_with_a_light_pip_is_read():
    img = _table((70, 120, 60))
    _top(img, 250, 240, 1, (35, 30, 30), (230, 230, 230), r=6)
    _top(img, 400, 240, 3, (35, 30, 30), (230, 230, 230))
    reading = read_dice(img)
    assert reading.values == [1, 3]
    assert reading.confidence >= 0.8


def test_touching_dice_are_read_apart():
    img = _table((90, 60, 40))
    _top(img, 300, 240, 1, (40, 160, 230), (20, 20, 20), r=6)
    _top(img, 354, 240, 3, (40, 160, 230), (20, 20, 20))
    _top(img, 300, 294, 6, (40, 160, 230), (20, 20, 20))
    assert read_dice(img).values == [1, 3, 6]


def test_a_stray_mark_on_a_read_face_lowers_the_confidence():
    img = _table((60, 110, 150))
    _top(img, 320, 240, 3, (225, 230, 230), (25, 25, 25), half=34, spread=15)
    # A fourth pip-like mark on the same plain face, beyond the diagonal: no legal face.
    cv2.circle(img, (320 + 15, 240 - 15), 5, (25, 25, 25), -1, cv2.LINE_AA)
    reading = read_dice(img)
    assert reading.values != [3] or reading.confidence < 0.5
