"""Real photos whose camera framing or light changed: a hard shadow's edge across the dice, and
the dice filling more of the frame (vision.dice: SHADOW_STEP, _shadow_split, _lost_faces)."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.dice import _cast_edge, _Pip, read_dice
from vision.synth import shadow_band

DATA = Path(__file__).resolve().parents[1] / "data"


def _photo(folder: str, name: str) -> tuple[np.ndarray, list[int]]:
    want = json.loads((DATA / folder / "labels.json").read_text())[name]
    return cv2.imread(str(DATA / folder / name)), want


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
    assert read_dice(shadow_band(photo)).values == want


def test_the_same_photo_without_the_shadow_still_reads():
    photo, want = _photo("dice-cameras", "three_33.jpg")
    assert read_dice(photo).values == want


def test_a_closer_camera_does_not_trade_sure_dice_for_nothing():
    # Enlarged, the already large pips of three 4s are too large for the kernels and two faces
    # are lost: the first look's sure dice stand.
    photo, want = _photo("dice", "four_22.jpg")
    reading = read_dice(_zoomed(photo, 1.35))
    assert reading.values == want == [4, 4, 4]


def test_a_two_a_shadows_edge_crosses_is_one_two():
    # The band's edge runs between the two pips of one of the 2s: neither pip alone is a 1
    # (each is round, but its face is split), and the table beyond the die shows the same step
    # along the same line, so the two are joined across it.
    photo, want = _photo("dice", "two_14.jpg")
    assert want == [2, 2]
    assert read_dice(shadow_band(photo)).values == want


def _die_with_two(shadow_on_table: bool) -> tuple[np.ndarray, _Pip, _Pip]:
    """A white die with a 2's pips on a grey table, a vertical shadow edge (0.55 of the light)
    between the pips: over the table too (a cast shadow) or on the die alone (its own edge)."""
    img = np.full((480, 640, 3), 150, np.float32)
    img[210:271, 290:351] = 220
    shade = np.ones((480, 640, 1), np.float32)
    if shadow_on_table:
        shade[:, 320:] = 0.55
    else:
        shade[210:271, 320:351] = 0.55
    img = img * shade
    for x, y in ((300, 220), (340, 260)):
        cv2.circle(img, (x, y), 6, (40, 40, 40), -1)
    img = img.astype(np.uint8)
    lit = _Pip(x=300, y=220, r=6, roundness=0.95, squash=0.0, dark=True, contrast=2.0,
               face=np.float64([220, 220, 220]))
    dim = _Pip(x=340, y=260, r=6, roundness=0.95, squash=0.0, dark=True, contrast=2.0,
               face=np.float64([121, 121, 121]))
    return img, lit, dim


def test_a_step_the_table_shows_beyond_the_die_is_a_cast_shadows_edge():
    img, lit, dim = _die_with_two(shadow_on_table=True)
    assert _cast_edge(lit, dim, img)
    assert _cast_edge(dim, lit, img)


def test_a_step_on_the_die_alone_is_no_cast_shadow():
    # A die's own edge (its top and a dimmer side face) ends with the die: no 2 across it.
    img, lit, dim = _die_with_two(shadow_on_table=False)
    assert not _cast_edge(lit, dim, img)


@pytest.mark.parametrize("name", ["dice_48.jpg", "dice_37.jpg"])
def test_a_one_a_shadows_edge_crosses_is_read(name):
    # The band's edge crosses a 1's face: its lit part stops the walks out from the pip, so the
    # pip seemed a spot on something no die's shape. The part beyond the edge, of the face's
    # balance at a shadow's step of its level, is face when the table beyond the die shows the
    # same step across the same line.
    photo, want = _photo("dice-cameras", name)
    assert read_dice(shadow_band(photo)).values == want
