"""A die thrown apart from the roll, past where a lone pip is taken for clutter beside the tray
(vision.dice: NEAR_ROLL), with one pip found: a twin of a read die's pip, lying on a patch of
the roll's face colour the size of a die, makes the reading unsure; a letter printed on a card
of that colour does not (vision.dice: _lone_pip_on_a_die, DIE_PATCH_INNER, DIE_PATCH_OUTER).
Synthetic tuning seeds only."""

from __future__ import annotations

import cv2

from vision.dice import SURE_READING, read_dice
from vision.synth import render_dice


def test_a_die_apart_from_the_roll_with_one_pip_found_is_not_read_surely_wrong():
    # A blue 2 on a noisy pink table, 11 face half-sizes from a sure 1: one of its pips is
    # found, a twin of the 1's, the other lost in the noise; read as [1], it was sure at 1.0.
    scene = render_dice(380, "rough")
    assert sorted(scene.values) == [1, 2]
    reading = read_dice(scene.image)
    assert reading.values == [1, 2] or reading.confidence < SURE_READING


def test_a_letter_on_a_card_far_from_the_roll_leaves_the_reading_sure():
    # A card with "Event 7" on it, past NEAR_ROLL from five dice: a letter's counter is a
    # round blob, a twin of the dice's pips, but the ring round it is mostly the card's
    # letters and not the roll's face colour.
    scene = render_dice(367, "clutter")
    reading = read_dice(scene.image)
    assert reading.values == sorted(scene.values)
    assert reading.confidence >= SURE_READING


def test_a_pip_on_a_card_of_the_rolls_colour_far_from_the_roll_leaves_the_reading_sure():
    # The frame above, the far 2 laid on a card of the dice's blue that reaches past it on
    # every side: its found pip still lies on a die-sized patch of the roll's colour, but the
    # ring DIE_PATCH_REACH face half-sizes round it is that colour too (a card, a blue table),
    # so the pip is not taken for a die apart from the roll (DIE_PATCH_OUTER), and [1] is
    # sure. (With that ring's test off, the reading is unsure.)
    scene = render_dice(380, "rough")
    image = scene.image.copy()
    x1, y1, x2, y2 = scene.boxes[scene.values.index(2)]
    die = image[y1 : y2 + 1, x1 : x2 + 1].copy()
    cx, cy = (x1 + x2) // 2, (y1 + y2) // 2
    cv2.rectangle(image, (cx - 100, cy - 100), (cx + 100, cy + 100), (175, 54, 62), -1)
    image[y1 : y2 + 1, x1 : x2 + 1] = die
    reading = read_dice(image)
    assert reading.values == [1]
    assert reading.confidence >= SURE_READING
