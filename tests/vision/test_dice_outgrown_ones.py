"""An enlarged look adds no pixel the first look lacked: where it reads a 2 on a 1 the first
look read surely, with no mark left unread, the 2's other pip is one the first look had put on
the die's side face, and the first look's 1 stands (vision.dice: read_dice, _outgrown_ones).
A first look whose pips were too large for it loses a face whole, leaving no mark: a smaller
look that reads all its dice and that face stands, though no surer (read_dice,
_accounts_for)."""

from __future__ import annotations

from vision.dice import SURE_READING, Die, DiceReading, _outgrown_ones, read_dice
from vision.synth import render_dice


def _die(value, box, pips, confidence=0.99):
    x1, y1, x2, y2 = box
    return Die(value, box, ((x1, y1), (x2, y1), (x2, y2), (x1, y2)), confidence, tuple(pips))


def test_a_sure_one_enlarged_into_a_two_with_a_side_pip_stands():
    # Bright light, pips of 2.3 pixels: the first look reads [1, 4, 5, 5] at 0.987, nothing
    # unread. Enlarged, the 1's pip was linked with a pip of its side face below it, a 2 of
    # 0.937; the old reader let that [2, 4, 5, 5] stand, wrong and sure.
    scene = render_dice(190, "light")
    reading = read_dice(scene.image)
    assert reading.values == scene.values == [1, 4, 5, 5]
    assert reading.confidence >= SURE_READING


def test_only_a_face_on_the_ones_own_pip_outgrows_it():
    one = _die(1, (346, 177, 382, 213), [(364, 195)], 1.0)
    first = DiceReading((one,), 1.0)
    grown = _die(2, (343, 185, 383, 226), [(362, 216), (364, 195)], 0.937)
    assert _outgrown_ones(DiceReading((grown,), 0.937), first)
    # A 2 at the same place whose pips both lie off the 1's pip is another reading of the
    # face, not one grown on the 1.
    other = _die(2, (343, 180, 383, 220), [(352, 188), (376, 212)], 0.95)
    assert not _outgrown_ones(DiceReading((other,), 0.95), first)
    # A face of more pips built on the 1 may be the whole face, come apart at the first size.
    four = _die(4, (343, 185, 383, 226), [(352, 195), (364, 195), (352, 216), (364, 216)])
    assert not _outgrown_ones(DiceReading((four,), 0.99), first)
    # An unsure 1 may be a misreading the enlarged look puts right.
    unsure = DiceReading((_die(1, one.box, one.pips, 0.8),), 0.8)
    assert not _outgrown_ones(DiceReading((grown,), 0.937), unsure)


def test_a_smaller_look_that_reads_a_face_of_big_pips_lost_whole_stands():
    # Close to the camera, pips of 11 pixels: the first look sees only the 1 ([1], 0.868), the
    # 3's pips too large for its kernels and not seen at all. Half the size reads [1, 3] at
    # 0.863, a hair less sure; the old reader kept [1].
    scene = render_dice(749, "close")
    reading = read_dice(scene.image)
    assert reading.values == scene.values == [1, 3]
