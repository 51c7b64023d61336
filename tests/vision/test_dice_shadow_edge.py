"""Real photos whose camera framing or light changed: a hard shadow's edge across the dice, and
the dice filling more of the frame (vision.dice: SHADOW_STEP, _shadow_split, _lost_faces)."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np

from vision.dice import read_dice

DATA = Path(__file__).resolve().parents[1] / "data"


def _photo(folder: str, name: str) -> tuple[np.ndarray, list[int]]:
    want = json.loads((DATA / folder / "labels.json").read_text())[name]
    return cv2.imread(str(DATA / folder / name)), want


def _shadow_band(image: np.ndarray) -> np.ndarray:
    """Diagonal bands in a hard shadow (0.55 of the light), as a lamp's arm or a hand casts."""
    h, w = image.shape[:2]
    y, x = np.mgrid[0:h, 0:w]
    shade = np.where(((x + 0.6 * y) % w) < 0.4 * w, 0.55, 1.0)[..., None]
    return cv2.GaussianBlur(np.clip(image * shade, 0, 255).astype(np.uint8), (0, 0), 0.6)


def _zoomed(image: np.ndarray, factor: float) -> np.ndarray:
    """The middle of the frame enlarged to fill it: a camera nearer the tray."""
    h, w = image.shape[:2]
    ch, cw = int(h / factor), int(w / factor)
    top, left = (h - ch) // 2, (w - cw) // 2
    return cv2.resize(image[top:top + ch, left:left + cw], (w, h), interpolation=cv2.INTER_LINEAR)


def test_a_face_a_shadows_edge_crosses_is_one_face():
    # The edge splits the 3s' faces into a lit part and one at 0.55 of it: each part alone is
    # no legal face, together they are one 3.
    photo, want = _photo("dice-cameras", "three_33.jpg")
    assert read_dice(_shadow_band(photo)).values == want


def test_the_same_photo_without_the_shadow_still_reads():
    photo, want = _photo("dice-cameras", "three_33.jpg")
    assert read_dice(photo).values == want


def test_a_closer_camera_does_not_trade_sure_dice_for_nothing():
    # Enlarged, the already large pips of three 4s are too large for the kernels and two faces
    # are lost: the first look's sure dice stand.
    photo, want = _photo("dice", "four_22.jpg")
    reading = read_dice(_zoomed(photo, 1.35))
    assert reading.values == want == [4, 4, 4]
