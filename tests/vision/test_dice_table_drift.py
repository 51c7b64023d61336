"""A tilted camera sees the table's far part more steeply than its near part: where the read
faces show the table's squash growing up the picture, a squashed lone pip farther up is
judged against the table as it is at its own place (vision.dice._table_drift, used by
_rescue_ones)."""

from __future__ import annotations

from vision import dice
from vision.dice import SURE_READING, read_dice
from vision.synth import render_dice


def test_a_far_die_s_top_one_squashed_as_the_table_there_is_read():
    # A 5 near the camera, 0.01 squashed, a 4 up the picture, 0.21, and the far die's top 1,
    # its pip 0.69 round: 0.26 off the two faces' mean plane, 0.05 off the plane's drift
    # carried to its place. Read as a sure 4, 5 before.
    scene = render_dice(3835, "close")
    assert scene.values == [1, 4, 5]
    reading = read_dice(scene.image)
    assert reading.values == [1, 4, 5]
    assert reading.confidence >= SURE_READING


def test_faces_whose_squash_shrinks_up_the_table_carry_no_drift(monkeypatch):
    # A 3, 4 and 5 whose shapes show the squash shrinking up the picture (a side face's
    # noise, not a camera's tilt): no line is carried to a lone squashed pip there (0.22 off
    # the line it would give), and the roll stays a sure 3, 4, 5.
    drifts = []
    drift = dice._table_drift

    def spy(faces, shapes, off, up, table):
        found = drift(faces, shapes, off, up, table)
        drifts.append(found)
        return found

    monkeypatch.setattr(dice, "_table_drift", spy)
    scene = render_dice(80, "oblique")
    assert scene.values == [3, 4, 5]
    reading = read_dice(scene.image)
    assert reading.values == [3, 4, 5]
    assert reading.confidence >= SURE_READING
    assert drifts and all(d is None for d in drifts)
