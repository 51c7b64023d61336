"""A phone's photo of the whole table: the dice fill a small middle part of a large frame, too
small to read once the frame is shrunk to the usual working size. The reader reads such a frame
again at a larger size."""

from __future__ import annotations

import json
from pathlib import Path

import cv2

from vision.dice import read_dice

DATA = Path(__file__).resolve().parents[1] / "data" / "dice"


def _wide(image, zoom: float):
    """The photo taken by a sharper camera (``zoom``) from further away: the table continues
    all round it, the frame three times as wide and high."""
    big = cv2.resize(image, None, fx=zoom, fy=zoom, interpolation=cv2.INTER_CUBIC)
    h, w = big.shape[:2]
    return cv2.copyMakeBorder(big, h, h, w, w, cv2.BORDER_REPLICATE)


def test_dice_small_in_a_large_photo_are_read_as_in_the_close_one():
    labels = json.loads((DATA / "labels.json").read_text())
    agree = 0
    for name, want in labels.items():
        image = cv2.imread(str(DATA / name))
        close = read_dice(image)
        wide = read_dice(_wide(image, 1.5))  # 2880 x 2160: at 640 px the dice are ~13 px
        agree += close.values == want and wide.values == want
        # Boxes come back in the large frame's pixels, round the dice where they now lie.
        for box in wide.boxes:
            assert 640 * 1.5 - 5 <= box[0] and box[2] <= 2 * 640 * 1.5 + 5
    assert agree >= 9, f"{agree} of {len(labels)} photos read right both close and wide"


def test_a_reading_too_small_to_tell_pips_apart_is_no_judge_of_a_larger_one():
    # At the first working size a lone 2's or 4's pips are a pixel or two: the face comes apart
    # into a 1 as sure as any die. The larger reading, with the frame's own pixels for the
    # pips, stands even though it is no surer and reads no more dice.
    folder = DATA.parent / "dice-wide"
    for name, want in json.loads((folder / "labels.json").read_text()).items():
        got = read_dice(_wide(cv2.imread(str(folder / name)), 1.5)).values
        assert got == want, f"{name}: read {got}, not {want}"
