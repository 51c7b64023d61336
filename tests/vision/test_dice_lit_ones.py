"""A squashed lone pip on a face lit clearly more than a read face beside it is its die's top 1,
and that face its side (vision.dice._rescue_lit_ones): room light falls from above."""

from __future__ import annotations

import pytest

from vision import dice
from vision.dice import SURE_READING, read_dice
from vision.synth import render_dice


@pytest.mark.parametrize("seed, values", [
    # A lone yellow die seen from beyond 45 degrees: its top 1's pip 0.67 round on a face lit
    # 1.5 times its near side face, whose 2 is seen the rounder (0.76): read as a sure 2.
    (3024, [1]),
    # A white die's top 1 over its near side 3, the 3 on the table plane the other dice show:
    # read as a sure 3.
    (3616, [1, 1, 2, 4, 6]),
    # A 1 over its die's side 2, read as a second 2 (sure, before).
    (189, [1, 4]),
])
def test_a_squashed_one_lit_above_a_read_face_is_its_top(seed, values):
    scene = render_dice(seed, "oblique")
    assert scene.values == values
    reading = read_dice(scene.image)
    assert reading.values == values
    assert reading.confidence >= SURE_READING


@pytest.mark.parametrize("seed, values", [(3864, [1, 2]), (895, [1, 2])])
def test_a_one_over_its_side_two_is_no_second_two(seed, values):
    scene = render_dice(seed, "oblique")
    assert scene.values == values
    assert read_dice(scene.image).values == values


@pytest.mark.parametrize("seed, values", [(3038, [2]), (3052, [2]), (3114, [3, 4, 4, 6, 6])])
def test_a_squashed_side_pip_lit_less_than_its_top_is_no_one(monkeypatch, seed, values):
    # A read top face and a squashed pip of its side face just beside it, the side face lit
    # less (or no clearer) than the top: that pip is no top 1 to read, and the step reads none.
    added = []
    rescue = dice._rescue_lit_ones

    def spy(faces, pips, loose, img, con):
        before = len(faces)
        rescue(faces, pips, loose, img, con)
        added.append(len(faces) - before)

    monkeypatch.setattr(dice, "_rescue_lit_ones", spy)
    scene = render_dice(seed, "oblique")
    assert scene.values == values
    reading = read_dice(scene.image)
    assert reading.values == values
    assert reading.confidence >= SURE_READING
    assert added and not any(added)
