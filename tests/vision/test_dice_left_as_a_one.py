"""A 1 whose pip linked with the pips of a face beside it (its own side face, a touching die's
face), left over when those were read as a face, is judged as a 1 of its own (vision.dice:
_left_as_a_one). Synthetic tuning seeds only (3000..3899)."""

from __future__ import annotations

from dataclasses import replace

import pytest

import vision.dice as dice
from vision.synth import render_dice

LEFT_ONES = [
    ("oblique", 3854),   # a white die's big 1 linked with its side 3's row: lost, surely
    ("touching", 3166),  # a dark 1 linked with a touching die's 5 and another's 2
    ("oblique", 3209),   # a dark 1 linked with its side 5, the near die 1.6x the far ones
    ("touching", 3230),  # a white die's big 1 linked with a touching 5's and 3's pips
]


@pytest.mark.parametrize("condition, seed", LEFT_ONES)
def test_a_one_left_beside_a_read_face_is_read(reads_right, condition, seed):
    assert reads_right(condition, seed)
    # What reads these 1s is this judgement, nothing else.
    assert not reads_right(condition, seed, without=("_left_as_a_one", None))


def _pips_of(seed: int, condition: str):
    """The frame's found pips as _read_at leaves them, with the frame and contrast it used."""
    scene = render_dice(seed, condition)
    seen = {}
    groups = dice._groups

    def spy(pips, img, black=0.0):
        seen["pips"], seen["img"] = pips, img
        return groups(pips, img, black)

    explain = dice._explain

    def spy_explain(group, img, con, *args, **kwargs):
        seen["con"] = con
        return explain(group, img, con, *args, **kwargs)

    dice._groups, dice._explain = spy, spy_explain
    try:
        dice._read_at(scene.image, dice.WORK_SIDE)
    finally:
        dice._groups, dice._explain = groups, explain
    return seen["pips"], seen["img"], seen["con"]


def test_only_a_single_pip_not_on_a_side_face_is_judged():
    pips, img, con = _pips_of(3854, "oblique")
    one = min(pips, key=lambda p: abs(p.x - 579) + abs(p.y - 73))  # the big 1's pip
    was = one.unlinked
    assert dice._left_as_a_one([replace(one, side=True)], img, con) is None
    near = [p for p in pips if p is not one and abs(p.x - 560) < 25 and abs(p.y - 101) < 8]
    assert near and dice._left_as_a_one([one, near[0]], img, con) is None
    assert one.unlinked == was
    face = dice._left_as_a_one([one], img, con)
    assert face is not None and face.die.value == 1 and face.group == [one] and one.unlinked


def test_a_pip_that_is_no_one_is_left_as_it_was():
    # A side face's pip (oblique3854's side 3, its row's middle pip) is no 1 by itself.
    pips, img, con = _pips_of(3854, "oblique")
    row = min(pips, key=lambda p: abs(p.x - 561) + abs(p.y - 101))
    row.unlinked = False
    assert dice._left_as_a_one([row], img, con) is None
    assert row.unlinked is False
