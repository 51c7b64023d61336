"""A crowd of dice is read die by die, and no face takes marks that are not its pips, nor gives
up pips that are. A dark face between its big light pips shows dark against their glow: that is
its own surface, not a mark left unread (vision.dice: _own_face_between). A 2's pips lie across
its face's diagonal, the widest spacing of any face, so in a huddle its link is cut first and
its pips, read as a pair, are a 2 (_far_two). A 5 whose two corners on its shaded side ran into
its rim is read from the other three, at most TWICE_COMPLETED, not surely (_completed_five). A
face peeled from a huddle with a neighbour's pip in place of its own, its own left loose on it,
is read with its own (_swapped_pips)."""

from __future__ import annotations

from vision.dice import SURE_READING, TWICE_COMPLETED, read_dice
from vision.synth import render_dice


def _at(reading, x, y):
    """The values of the dice read whose box holds the point (x, y)."""
    return [v for v, (x1, y1, x2, y2) in zip(reading.values, reading.boxes)
            if x1 < x < x2 and y1 < y < y2]


def test_a_dark_face_seen_between_its_big_light_pips_is_not_a_mark_left_unread():
    # Close up: a dark 3 whose light pips are 9.5..10.5 pixels' radius, two dark marks on its
    # diagonal between them (its own face against their glow), beside a 2. The old reader left
    # the marks unread and read [2] at 0.6; the 3 is read, surely.
    scene = render_dice(636, "close")
    reading = read_dice(scene.image)
    assert reading.values == scene.values == [2, 3]
    assert _at(reading, 246, 357) == [3]
    assert reading.confidence >= SURE_READING


def test_marks_of_the_other_polarity_on_read_faces_leave_a_clean_roll_sure():
    # A plain roll of a 5 and two 6s, read right at every scale: the old reader counted marks
    # of the other polarity lying on the read faces as faces left unread, so the roll stayed
    # unsure (0.4) and went to the vote; they are the faces' own surface, and it is sure.
    scene = render_dice(679, "clean")
    reading = read_dice(scene.image)
    assert reading.values == scene.values == [5, 6, 6]
    assert reading.confidence >= SURE_READING


def test_a_twos_far_pip_cut_off_in_a_huddle_is_read_with_its_partner():
    # Six touching dice, eleven pips in one group: the 2's pips (282,230)-(293,266) are its
    # longest link, cut first, the far one left alone. The old reader read [1, 2, 3, 6, 6]
    # at 0.989, wrong and sure.
    scene = render_dice(749, "touching")
    reading = read_dice(scene.image)
    assert reading.values == scene.values == [1, 2, 2, 3, 6, 6]
    assert _at(reading, 287, 248) == [2]


def test_a_five_whose_two_shaded_corners_ran_into_its_rim_is_read_but_not_surely():
    # Seven dice; the purple 5 at (229,212)-(286,269) shows its middle pip and two corners,
    # the other two lost to its dark rim. The old reader read it as a 1 ([1, 5, 5, 5, 6, 6, 6],
    # 0.4). With two of five pips completed it is read, capped below sure (TWICE_COMPLETED).
    scene = render_dice(787, "many")
    reading = read_dice(scene.image)
    assert _at(reading, 257, 240) == [5]
    assert reading.values == scene.values == [5, 5, 5, 5, 6, 6, 6]
    five = [d for d in reading.dice if d.box[0] < 257 < d.box[2] and d.box[1] < 240 < d.box[3]]
    assert five[0].confidence <= TWICE_COMPLETED  # uncapped, it would fit at 0.89
    assert reading.confidence < SURE_READING


def test_a_face_that_took_a_neighbours_pip_for_its_own_is_read_with_its_own():
    # A huddle of touching dice: the middle 6 took a neighbour's rim mark (266,156) for its
    # corner pip (249,191), fitted loosely (0.889) and was dropped as off the table's plane.
    # The old reader read [2, 5, 6, 6]; a rim mark is still left unread, so not surely.
    scene = render_dice(607, "touching")
    reading = read_dice(scene.image)
    assert reading.values == scene.values == [2, 2, 2, 5, 6, 6]
    assert _at(reading, 264, 186) == [6]
