"""Two things a table does to dice: the soft edge of a shadow across a die, and two dice of one
colour lying against each other, so that their pips link into one group."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.dice import LAYOUTS, read_dice
from vision.synth import render_dice


def _table() -> np.ndarray:
    img = np.zeros((480, 640, 3), np.uint8)
    img[:] = (70, 120, 60)
    noise = np.random.default_rng(7).normal(0, 3, img.shape)
    return np.clip(img + noise, 0, 255).astype(np.float32)


def _die(img: np.ndarray, cx: int, cy: int, value: int, half: int = 22, spread: int = 12,
         r: int = 4, turn: float = 0.0) -> None:
    """A white die seen from straight above, turned by ``turn`` degrees; its rounded edge
    shows as a thin shaded rim, so two dice side by side have a seam between them."""
    c, s = np.cos(np.radians(turn)), np.sin(np.radians(turn))
    rot = np.array([[c, -s], [s, c]])
    corners = np.round(np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]]) * half @ rot.T + (cx, cy))
    cv2.fillPoly(img, [corners.astype(np.int32)], (228, 232, 232), cv2.LINE_AA)
    cv2.polylines(img, [corners.astype(np.int32)], True, (160, 165, 165), 2, cv2.LINE_AA)
    for px, py in LAYOUTS[value]:
        x, y = rot @ np.array([px * spread, py * spread]) + (cx, cy)
        cv2.circle(img, (round(x), round(y)), r, (25, 25, 25), -1, cv2.LINE_AA)


def _photo(img: np.ndarray) -> np.ndarray:
    return np.clip(cv2.GaussianBlur(img, (0, 0), 0.7), 0, 255).astype(np.uint8)


def test_a_die_half_in_a_shadow_is_still_read():
    img = _table()
    _die(img, 320, 240, 2)
    _die(img, 180, 300, 5)
    # A soft shadow edge (an arm, a lamp) runs across the 2: its lower right pip is in a
    # quarter less light than the upper left one.
    x = np.arange(640, dtype=np.float32)
    light = np.clip(1.0 - 0.25 * (x - 305) / 25, 0.75, 1.0)
    img *= light[None, :, None]
    assert read_dice(_photo(img)).values == [2, 5]


def test_two_touching_dice_whose_pips_link_are_read_apart():
    img = _table()
    # A 3 and a 4 side by side, edge to edge: the nearest pips of the two are as far apart as
    # pips of one face, and the faces join without a seam.
    _die(img, 300, 240, 3)
    _die(img, 344, 240, 4)
    assert read_dice(_photo(img)).values == [3, 4]


def test_a_one_lying_against_another_die_is_a_die_not_its_side():
    # Seen from straight above, a 1 against the corner of a 6 turned 45 degrees: its pip is as
    # round as the 6's, so it is a top face of its own, though it lies where the 6's side
    # faces would show to a tilted camera.
    img = _table()
    _die(img, 300, 240, 6, turn=45)
    _die(img, 354, 240, 1, r=8)
    assert read_dice(_photo(img)).values == [1, 6]


@pytest.mark.parametrize("values", [(6, 5, 3), (6, 4, 2), (1, 1, 1), (2, 1, 3), (4, 1, 4)])
def test_three_dice_in_a_huddle_are_read_one_by_one(values):
    # Three dice against one another link into one group (14 pips for 6, 5, 3; 3 for three
    # 1s); each is cut off the huddle in turn.
    img = _table()
    for x, value in zip((256, 300, 344), values):
        _die(img, x, 240, value)
    assert read_dice(_photo(img)).values == sorted(values)


def test_a_two_whose_pips_differ_in_shape_is_read():
    # A speck of shadow on one pip's edge makes it look oval, so the two pips of the 2 do not
    # link as alike; they are still twins in size, darkness and face, at a 2's spacing.
    img = _table()
    _die(img, 320, 240, 2, r=5)
    cv2.ellipse(img, (332, 250), (7, 4), 30, 0, 360, (25, 25, 25), -1, cv2.LINE_AA)
    assert read_dice(_photo(img)).values == [2]


def test_two_touching_dice_seen_square_on_are_not_one_dies_top_and_side():
    # A 4 and a 3 touching, 0.90 of their half-sizes summed apart (one die's top and side face
    # lie closer), their pips 0.91 and 0.92 round: a die's top and side face are seen at angles
    # that add up to 90 degrees, so both cannot look at the camera that squarely.
    scene = render_dice(348, "touching")
    assert read_dice(scene.image).values == scene.values == [1, 3, 3, 4, 5, 6]


@pytest.mark.parametrize("seed, values", [(582, [1, 2, 3, 4, 5, 5]), (674, [2, 2, 3, 3, 5, 6])])
def test_a_neighbours_square_of_pips_does_not_make_a_two_a_row(seed, values):
    # Touching dice: a pip of a 4, 5 or 6 beside a 2 lies where the 2's diagonal would run on.
    # Those pips are a square face's, which a pattern in rows never is: the 2 stays a die.
    scene = render_dice(seed, "touching")
    assert scene.values == values
    assert read_dice(scene.image).values == values
