"""Edge cases found reviewing the reader: a 6 completed from both its columns is one die, a larger
reading that reads nothing does not replace one too small, coincident pips do not crash a fit."""

from __future__ import annotations

import cv2
import numpy as np

import vision.dice as dice
from vision.dice import DiceReading, Die, read_dice


def _drawn_six() -> np.ndarray:
    img = np.full((480, 640, 3), (60, 90, 60), np.uint8)
    cx, cy, s = 320, 240, 28
    cv2.rectangle(img, (cx - 2 * s + 4, cy - 2 * s + 4), (cx + 2 * s - 4, cy + 2 * s - 4),
                  (235, 235, 235), -1)
    for x, y in dice.LAYOUTS[6]:
        cv2.circle(img, (int(cx + x * s * 0.8), int(cy + y * s * 0.8)), 6, (20, 20, 20), -1,
                   cv2.LINE_AA)
    return cv2.GaussianBlur(img, (3, 3), 0)


def test_a_six_whose_columns_were_read_as_two_threes_is_one_six(drawn_pips):
    img = _drawn_six()
    assert read_dice(img).values == [6]
    # Both columns read as 3s of their own: completing either makes the 6, and the other
    # column's 3 is that 6's, not a second die.
    pips, smooth, con = drawn_pips(img)
    columns = [[p for p in pips if p.x < 320], [p for p in pips if p.x > 320]]
    faces = [dice._judge(column, smooth, con)[0] for column in columns]
    assert [f.die.value for f in faces] == [3, 3]
    loose: list = []
    dice._completed_sixes(faces, loose, smooth, con)
    assert [f.die.value for f in faces] == [6] and len(faces[0].group) == 6 and not loose


def test_a_larger_reading_of_nothing_does_not_replace_a_small_one(monkeypatch):
    # A phone's photo: the first reading's dice are too small, so the frame is read larger;
    # a larger reading that finds no die at all is no better than one that found four.
    tiny = tuple(Die(value=v, confidence=1.0, box=(100 * v, 100, 100 * v + 20, 120),
                     outline=((0.0, 0.0),) * 4, pips=()) for v in (1, 2, 3, 4))
    first = DiceReading(tiny, 1.0, (), 1.0, 1.0)
    nothing = DiceReading((), 1.0, (), 1.0, 0.0)
    monkeypatch.setattr(dice, "_read_at",
                        lambda frame, side: first if side == dice.WORK_SIDE else nothing)
    frame = np.zeros((2160, 2880, 3), np.uint8)
    assert read_dice(frame).values == [1, 2, 3, 4]


def test_a_fit_of_coincident_pips_is_refused_not_a_crash():
    for pts in ([[10.0, 10.0], [10.0, 10.0], [20.0, 20.0]],
                [[10.0, 10.0], [20.0, 20.0], [10.0, 10.0]],
                [[10.0, 10.0], [10.0, 10.0], [10.0, 10.0]],
                [[5.0, 5.0], [5.0, 5.0]]):
        fit = dice._fit_layout(np.array(pts), np.eye(2))
        assert fit is None or fit.value in dice.LAYOUTS
