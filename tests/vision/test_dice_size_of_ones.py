"""A 1's face is measured outward from its one pip, and a round mark read as a 1 can be any
size: the roll's size is taken from its dice of more pips, which a 1 does not drop as
undersized (see _drop_undersized_faces)."""

from __future__ import annotations

from vision.dice import SURE_READING, read_dice
from vision.synth import render_dice


def test_a_large_mark_read_as_a_1_leaves_the_rolls_dice_read():
    # Two small dark dice with light pips, both 4s, and a dark disc on a pink one in the
    # clutter, read as a 1 three times their size: the 4s were dropped as undersized beside
    # it and the reading was that 1 alone, and sure. The 1, dark where the 4s' pips are
    # light, is no die of this roll (see _drop_odd_ones).
    sample = render_dice(886, "clutter")
    reading = read_dice(sample.image)
    assert reading.values == sorted(sample.values)
    assert reading.confidence >= SURE_READING


def test_small_1s_are_judged_by_the_dice_of_more_pips_not_by_each_other():
    # Pips of a die taken each for a small 1 beside the roll kept one another: counted among
    # the other faces, they pulled the roll's size down (rough118: 1s of 6.8, 9.4 and 10.6
    # pixels beside dice of 18.5..18.9; clutter81 enlarged: a 1 of 16.8 beside 2s and 3s of
    # 28..42). Judged by the dice of more pips alone, they are dropped as undersized.
    for seed, condition in ((118, "rough"), (81, "clutter")):
        sample = render_dice(seed, condition)
        assert read_dice(sample.image).values == sorted(sample.values), (condition, seed)
