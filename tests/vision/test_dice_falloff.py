"""Light falls off across a face: the rings round its pips by the shaded side or its rounded
edge come out darker than its lit middle, whatever the pips' colour, so the lightest ring is the
face's least-off colour for dark pips seen square-on too (vision.dice: _judge_afresh). And one
face's pips are one size: a blob at a 4's or 5's missing corner much larger than its pips is
that corner pip run into the face's shaded rim (_completed_four, MERGED_PIP)."""

from __future__ import annotations

from vision.dice import SURE_READING, read_dice
from vision.synth import render_dice, shadow_band


def test_a_six_under_a_low_light_is_read_by_its_lit_middle():
    # A white 6 seen square-on under a low lamp: its rings run 195..226 against a lit middle
    # of 252 and a shaded side of 165; against the median ring only 3 of its 5 plain spots match.
    scene = render_dice(788, "light")
    reading = read_dice(scene.image)
    assert reading.values == scene.values == [2, 4, 5, 6, 6]
    assert reading.confidence >= SURE_READING


def test_a_two_whose_pips_lie_either_side_of_a_shadows_edge(camera_photo):
    photo, want = camera_photo("two_41.jpg")
    assert read_dice(photo).values == want == [2, 2, 2, 2, 2]
    reading = read_dice(shadow_band(photo))
    assert reading.values == want
    assert reading.confidence >= SURE_READING


def test_a_five_whose_corner_pip_runs_into_its_rim():
    # A purple 5 among seven dice: its left corner pip joined to the face's shaded edge is a
    # blob of 6.7 pixels' radius beside pips of 3.9..4.2; the 5 is read round it, not as a 1.
    scene = render_dice(787, "many")
    reading = read_dice(scene.image)
    there = [v for v, (x1, y1, x2, y2) in zip(reading.values, reading.boxes)
             if x1 < 162 < x2 and y1 < 50 < y2]
    assert there == [5]
