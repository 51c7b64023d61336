"""A steep camera (40..45 degrees) shows each die's top face and its side faces: the top faces
all lie in the table plane and are foreshortened alike, the side faces are not."""

from __future__ import annotations

import cv2
import numpy as np

from vision.dice import read_dice

PIPS = {1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)],
        4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
        5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
        6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)]}


def _table() -> np.ndarray:
    img = np.zeros((480, 640, 3), np.uint8)
    img[:] = (70, 120, 160)
    noise = np.random.default_rng(9).normal(0, 3, img.shape)
    return np.clip(img + noise, 0, 255).astype(np.uint8)


def _face(img: np.ndarray, cx: int, cy: int, value: int, sx: float, sy: float,
          shade: int = 228, half: int = 28, spread: int = 15, r: int = 5) -> None:
    """A white face with dark pips, foreshortened by sx across and sy down."""
    hx, hy = round(half * sx), round(half * sy)
    cv2.rectangle(img, (cx - hx, cy - hy), (cx + hx, cy + hy), (shade, shade, shade), -1)
    for px, py in PIPS[value]:
        cv2.ellipse(img, (cx + round(px * spread * sx), cy + round(py * spread * sy)),
                    (max(1, round(r * sx)), max(1, round(r * sy))), 0, 0, 360, (25, 25, 25), -1,
                    cv2.LINE_AA)


def _die(img: np.ndarray, cx: int, cy: int, top: int, tilt: float, side: int | None = None,
         side_squash: float = 0.5) -> None:
    """A die seen from a steep camera: its top face squashed by `tilt` down the picture and,
    below it, a side face turned away from the camera (squashed across, seen tall)."""
    _face(img, cx, cy, top, 1.0, tilt)
    if side is not None:
        _face(img, cx, cy + round(28 * tilt) + 29, side, side_squash, 1.0, shade=180)


def test_a_side_face_in_another_plane_is_not_read_as_a_die():
    img = _table()
    _die(img, 150, 150, 3, 0.8)
    _die(img, 470, 150, 6, 0.8)
    # The front die's top face is a 2; the side face below it, turned away from the camera,
    # shows a readable 5 squashed across instead of down.
    _die(img, 300, 260, 2, 0.8, side=5, side_squash=0.5)
    reading = read_dice(img)
    assert reading.values == [2, 3, 6]


def test_a_one_squashed_like_the_table_is_read_above_its_side_face():
    # So steep that a lone pip is no rounder than the pips of a side face; the other dice show
    # how squashed the table plane looks, and the 1 sits beside its readable side face (a 5).
    img = _table()
    _die(img, 150, 140, 4, 0.64)
    _die(img, 480, 140, 6, 0.64)
    _die(img, 320, 240, 1, 0.64, side=5, side_squash=0.45)
    reading = read_dice(img)
    assert reading.values == [1, 4, 6]
