"""A 2 that is one side of a 4 whose other side was not found, or found but linked elsewhere, is
read as the 4 (vision.dice: _completed_fours); a true 2, or a 2 beside a surely read face, is not.
Synthetic tuning seeds only (3000..3899)."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

import vision.dice as dice
from vision.dice import read_dice
from vision.synth import render_dice


def _drawn_four(other_side: int) -> np.ndarray:
    """A white 4 seen square-on, its right column's pips drawn at ``other_side`` grey (20: as
    dark as the left column's; 235: not drawn at all, the face plain there)."""
    img = np.full((480, 640, 3), (60, 90, 60), np.uint8)
    cx, cy, s = 320, 240, 28
    cv2.rectangle(img, (cx - 2 * s + 4, cy - 2 * s + 4), (cx + 2 * s - 4, cy + 2 * s - 4),
                  (235, 235, 235), -1)
    for x, y in dice.LAYOUTS[4]:
        grey = 20 if x < 0 else other_side
        cv2.circle(img, (int(cx + x * s * 0.8), int(cy + y * s * 0.8)), 6, (grey,) * 3, -1,
                   cv2.LINE_AA)
    return cv2.GaussianBlur(img, (3, 3), 0)


def _left_column_as_a_two(drawn_pips, img: np.ndarray):
    """The 4's left column judged as a face of its own, as _read_at would, and what it needs."""
    pips, smooth, con = drawn_pips(img)
    face = dice._judge([p for p in pips if p.x < 320], smooth, con)[0]
    return face, smooth, con


@pytest.mark.parametrize("grey", [20, 90])
def test_a_two_that_is_a_fours_side_is_completed(drawn_pips, grey):
    # The right column drawn as dark as the left, or fainter.
    face, smooth, con = _left_column_as_a_two(drawn_pips, _drawn_four(grey))
    assert face.die.value == 2
    face.die = replace(face.die, confidence=min(face.die.confidence, 0.85))
    faces, loose = [face], []
    dice._completed_fours(faces, loose, smooth, con)
    assert [f.die.value for f in faces] == [4] and len(faces[0].group) == 4 and not loose
    assert faces[0].die.confidence <= dice.TWICE_COMPLETED  # two pips completed: not sure


def test_a_two_beside_a_plain_face_is_not_completed(drawn_pips):
    face, smooth, con = _left_column_as_a_two(drawn_pips, _drawn_four(235))
    assert face is not None and face.die.value == 2
    face.die = replace(face.die, confidence=0.5)  # even an unsure one
    faces = [face]
    dice._completed_fours(faces, [], smooth, con)
    assert faces == [face]


@pytest.mark.parametrize("condition, seed", [
    ("rough", 3196),     # an orange 4's right pips on a noisy face, not found: read as a 2
    ("rough", 3881),     # a dark 4's column read as a 2 beside a 3's pips
    ("touching", 3374),  # a dark 4's other side linked as 2s with two touching dice's 1s,
                         # which are read again as the 1s they are
    ("rough", 3839),     # a white 1 and its side 4: the side 4 completed and dropped as a
                         # side face, the 1 given back (read as nothing at all, and surely)
])
def test_fours_read_as_twos_are_read_as_fours(condition, seed):
    scene = render_dice(seed, condition)
    assert read_dice(scene.image).values == scene.values


@pytest.mark.parametrize("condition, seed", [
    ("light", 3868),   # a sure 5 beside a 2: the 2 would take two of its pips
    ("many", 3020),    # a sure 6 beside a 2 likewise
    ("light", 3218),   # a sure white 2 with marks, no pips, where a 4's side would be
    ("many", 3750),    # likewise, among many dice
])
def test_sure_faces_beside_a_two_are_kept(condition, seed):
    scene = render_dice(seed, condition)
    assert read_dice(scene.image).values == scene.values
