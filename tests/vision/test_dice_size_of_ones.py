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


def test_a_small_1_kept_by_the_dice_of_more_pips_is_judged_again_by_all_faces_kept():
    # A side face's pip read as a 1 a little over half the size of the dice of more pips, but
    # under half that of the roll's faces once its real 1s count too: it is no die of this roll.
    import numpy as np

    from vision.dice import Die, _drop_undersized_faces, _Face, _Pip

    def face(value, size, x):
        pips = [_Pip(x=x, y=100.0, r=3.0, roundness=1.0, squash=0.0, dark=True, contrast=0.8)
                for _ in range(value)]
        die = Die(value=value, box=(int(x), 90, int(x) + 20, 110), outline=(), confidence=1.0,
                  pips=())
        return _Face(die, pips, np.array([x, 100.0]), np.eye(2), 1.0, size, 1.0, None)

    many = [face(3, 18.0, 0.0), face(4, 19.6, 100.0), face(5, 22.0, 200.0)]
    ones = [face(1, 24.0, 300.0), face(1, 25.0, 400.0)]
    side_pip = face(1, 10.2, 500.0)
    kept = _drop_undersized_faces(many + ones + [side_pip])
    assert all(any(f is k for k in kept) for f in many + ones)
    assert not any(f is side_pip for f in kept)
