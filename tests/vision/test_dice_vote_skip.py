"""The vote of five looks at nearby scales stands against an unsure first look only when four
of them read other dice, alike: a face that came apart or ran together at the working size
does so at one scale and not at others. So where the looks already taken at twice and half the
size read the first look's very values, what leaves it unsure is in the frame at every scale,
and the vote is not taken (vision.dice: _seconded). And under a veil the second contrast works
out only the dark marks again: light marks are measured on grey alone, which the veil leaves
as it is (_contrast, same_grey)."""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np

import vision.dice as dice
from vision.dice import SURE_READING, DiceReading, Die, read_dice


def _die(value, x, side=8):
    corners = ((x, 0), (x + side, 0), (x + side, side), (x, side))
    return Die(value, (x, 0, x + side, side), corners, 1.0, ())


def _reading(values, confidence):
    return DiceReading(tuple(_die(v, 20 * i) for i, v in enumerate(values)), confidence)


def test_looks_at_twice_and_half_the_size_that_read_the_same_dice_skip_the_vote(
        camera_photo, monkeypatch):
    # Five white 6s, read alike at 640, 1280 and 320, unsure at each (a mark left unread).
    # The old reader went on to the vote's looks at 480 and 560 too, and they changed nothing.
    # (The lab's frame was tune photo five_39.jpg, not in the tests' data; six_40 shows the
    # same: looks [640, 1280, 320, 480, 560] before, [640, 1280, 320] now.)
    photo, want = camera_photo("six_40.jpg")
    sides = []
    read_at = dice._read_at
    monkeypatch.setattr(dice, "_read_at", lambda frame, side: sides.append(side)
                        or read_at(frame, side))
    reading = read_dice(photo)
    assert sides == [640, 1280, 320]
    assert reading.values == want == [6, 6, 6, 6, 6]
    assert reading.confidence == 0.4 < SURE_READING  # as unsure as before


def test_looks_second_the_first_only_when_each_that_read_dice_read_its_values():
    # (On the old reader there is no _seconded: this fails there.)
    first = _reading([2, 5], 0.6)
    nothing = DiceReading((), 1.0)
    assert dice._seconded(first, [_reading([2, 5], 0.95), nothing, _reading([2, 5], 0.4)])
    assert not dice._seconded(first, [_reading([2, 5], 0.95), _reading([2, 6], 0.95)])
    assert not dice._seconded(first, [_reading([2, 5, 5], 0.95)])
    assert not dice._seconded(first, [nothing, nothing])
    assert not dice._seconded(first, [])


def _fields_equal(a, b):
    for f in dataclasses.fields(a):
        x, y = getattr(a, f.name), getattr(b, f.name)
        if isinstance(x, tuple):
            assert len(x) == len(y), f.name
            for u, v in zip(x, y):
                assert np.array_equal(u, v), f.name
        elif isinstance(x, np.ndarray) or isinstance(y, np.ndarray):
            assert x is not None and y is not None and np.array_equal(x, y), f.name
        else:
            assert x == y, f.name


def test_the_second_contrast_under_a_veil_is_the_same_reusing_the_light_half(camera_photo):
    # Exact identity, not a behaviour (fails on the old reader only for want of same_grey):
    # a tune photo under "low contrast" (the lab's shift: x 0.6, + 60), veiled, its contrast
    # worked out above the veil's black point afresh and reusing the first contrast's grey half.
    photo, _ = camera_photo("two_7.jpg")
    img = cv2.convertScaleAbs(photo, alpha=0.6, beta=60)
    gray = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    bright, dim = dice._levels(img, gray)
    con = dice._contrast(dim, bright, dice.KERNEL)
    black = dice._veil(img, bright, con)
    assert black  # the frame is veiled
    lifted = cv2.subtract(bright, black)
    _fields_equal(dice._contrast(dim, lifted, dice.KERNEL, same_grey=con),
                  dice._contrast(dim, lifted, dice.KERNEL))
