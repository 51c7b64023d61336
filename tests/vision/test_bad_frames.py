"""Frames the readers cannot read are refused with a ValueError that says what a frame must be,
never read as "no dice, fully sure" or left to fail inside OpenCV."""

from __future__ import annotations

import numpy as np
import pytest

from vision.dice import read_dice
from vision.tiles import read_tiles

BAD = {
    "float 0..1": np.zeros((480, 640, 3), np.float32),
    "16-bit": np.zeros((480, 640, 3), np.uint16),
    "all NaN": np.full((480, 640, 3), np.nan, np.float64),
    "2x2": np.zeros((2, 2, 3), np.uint8),
    "one channel in 3D": np.zeros((480, 640, 1), np.uint8),
}


@pytest.mark.parametrize("name", BAD)
@pytest.mark.parametrize("reader", [read_dice, read_tiles])
def test_a_frame_that_is_no_8_bit_picture_is_refused(reader, name):
    with pytest.raises(ValueError, match="8-bit"):
        reader(BAD[name])


def test_a_plain_8_bit_frame_reads_as_nothing_there():
    blank = np.full((480, 640, 3), 128, np.uint8)
    assert read_dice(blank).values == []
    assert read_tiles(blank).tiles == ()


@pytest.mark.parametrize("shape", [(8, 3000), (3000, 8), (8, 8), (9, 641), (30, 5000)])
def test_a_long_thin_frame_is_read_at_every_size_without_failing(shape):
    # A strip of noise: read at the working size, then smaller and larger (see read_dice),
    # never shrunk to no pixels at all.
    noise = np.random.default_rng(1).integers(0, 256, (*shape, 3), dtype=np.uint8)
    reading = read_dice(noise)
    assert reading.values == [] or all(1 <= v <= 6 for v in reading.values)
