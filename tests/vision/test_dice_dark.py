"""Black dice with white pips, the commonest dice the real photos lack: their negatives stand in
(white dice with black pips become black dice with white pips). Glossy black plastic shows the
room mirrored more than its own shading, so which face is on top is told by the pips' matte
paint, not by the faces; white pips that blur together come apart deep in their glow."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import pytest

from vision.dice import read_dice
from vision.synth import CAMERA_SHIFTS, render_dice

DATA = Path(__file__).resolve().parents[1] / "data"
CAMERAS = DATA / "dice-cameras"


def _negative(name: str) -> tuple[list[int], list[int]]:
    want = json.loads((CAMERAS / "labels.json").read_text())[name]
    return read_dice(255 - cv2.imread(str(CAMERAS / name))).values, want


@pytest.mark.parametrize("name", ["three_43.jpg", "six_20.jpg"])
def test_a_black_dies_top_face_is_not_taken_for_its_brighter_side(name):
    # Each die's side face, seen at a grazing angle, is brighter than its top: the pips, not
    # the faces, say which face the light falls on from above.
    got, want = _negative(name)
    assert got == want


def test_white_pips_blurred_into_a_column_come_apart_on_a_black_die():
    got, want = _negative("six_42.jpg")
    assert got == want == [6, 6, 6, 6, 6]


def test_a_dark_dies_shaded_pips_still_tell_its_top_from_its_side():
    # Synthetic tuning seed: a dark die whose side face's pips are in shade (about half as
    # light as the top face's) keeps its top 2, not its side 4.
    scene = render_dice(382, "rough")
    assert read_dice(scene.image).values == scene.values


def _shifted_negative(folder: str, name: str, shift: str | None) -> tuple[list[int], list[int]]:
    want = json.loads((DATA / folder / "labels.json").read_text())[name]
    image = 255 - cv2.imread(str(DATA / folder / name))
    return read_dice(image if shift is None else CAMERA_SHIFTS[shift](image, 0)).values, want


@pytest.mark.parametrize("shift", [None, "mirrored", "dim room", "warm light"])
def test_a_side_face_between_two_dice_takes_neither_top_face(shift):
    # A 5's side 3, far off the table plane and lying towards the camera, is that 5's side face
    # by shape and place; lit above the next 5 that it also touches (a negative's light is
    # upside down), it must not make that 5 its side face too.
    got, want = _shifted_negative("dice", "five_34.jpg", shift)
    assert got == want == [5, 5, 5, 5]


@pytest.mark.parametrize("shift", ["dim room", "over-exposed", "half resolution"])
def test_a_six_behind_a_sixs_side_face_stays(shift):
    got, want = _shifted_negative("dice-cameras", "six_20.jpg", shift)
    assert got == want == [6, 6]


def test_light_does_not_drop_both_faces_of_one_die():
    # Over-exposed, a 2's side face is lit above its top: by light the 2 is the side face, by
    # shape (its pips squashed in the band round the rounder face) the other one; shape wins.
    got, want = _shifted_negative("dice", "two_35.jpg", "over-exposed")
    assert got == want == [2, 2, 2, 2]


def test_a_one_near_a_table_no_two_faces_agree_on_is_the_top_face():
    # Three 1s that measure their plane 0.21 to 0.23 apart agree on no table; a 1 that is not
    # clearly off it stays the top face beside a side 2 far off it, whatever the light says.
    got, want = _shifted_negative("dice-close", "dice_22.jpg", "over-exposed")
    assert got == want == [1, 1, 1]


def test_a_quarter_size_look_that_cannot_measure_its_pips_is_not_taken():
    # Tilted, a black 2 is read unsure and looked at again smaller; the half-size look's pips
    # (and its largest lone pip) would be too small to measure at quarter size, so that look,
    # which reads a 1, is not taken (nor made: it costs about 4 ms).
    got, want = _shifted_negative("dice-cameras", "two_7.jpg", "tilted")
    assert got == want == [2]


@pytest.mark.parametrize("shift", ["tilted", "soft focus", "half resolution", "grainy"])
def test_white_ones_whose_glow_blurs_out_of_round_are_read(shift):
    # Three dark dice showing 1s (the photo's negative). A light pip's blob takes in its glow;
    # cut at half the pip's height it is rounder. Where the two shapes agree within the
    # tolerance they are one shape measured twice (their mean), not the rounder cut thrown
    # away; and a core the blur drew out of round is taken whole when its blob is a round pip.
    want = json.loads((CAMERAS / "labels.json").read_text())["dice_24.jpg"]
    image = CAMERA_SHIFTS[shift](255 - cv2.imread(str(CAMERAS / "dice_24.jpg")), 5)
    assert read_dice(image).values == want == [1, 1, 1]


def test_a_large_white_one_on_a_black_die_in_light_is_read():
    scene = render_dice(377, "light")
    assert read_dice(scene.image).values == scene.values


def test_a_quarter_turned_camera_still_keeps_a_five_beside_its_side_three():
    # Turned a quarter, the frame's far side is no longer at its top: with no pair of faces to
    # show which way the camera looks, a pip's place up the picture decides nothing.
    got, want = _shifted_negative("dice", "five_34.jpg", "quarter turn")
    assert got == want == [5, 5, 5, 5]


def test_a_pip_split_off_a_face_the_frame_cuts_is_no_one():
    # Turned, the frame's corner cuts a 6 (dark dice: the photo's negative); a pip split off
    # its alike neighbours passed as a 1, its face's edge "found" where the frame ends. A
    # linked 1 whose outline runs past the frame is left unread, as cut 2s, 3s and 4s are.
    got, want = _shifted_negative("dice-cameras", "six_40.jpg", "turned 25 deg")
    assert got == want == [6, 6, 6, 6, 6]


@pytest.mark.parametrize("name", ["four_13.jpg", "three_43.jpg"])
def test_an_over_exposed_black_die_is_dark_by_its_darker_face(name):
    # Over-exposure lifts a black die's glossy side face past the level that makes a die dark
    # first; by its brighter face the die looked light and its side face was kept as its top (a
    # sure 6 for a 4 on four_13). Its darker face still shows the plastic.
    want = json.loads((CAMERAS / "labels.json").read_text())[name]
    reading = read_dice(CAMERA_SHIFTS["over-exposed"](255 - cv2.imread(str(CAMERAS / name)), 0))
    assert reading.values == want


def test_a_grainy_white_ones_whole_glow_makes_its_pip_too_large_for_the_enlarged_look():
    # The seed is dice_8.jpg's place among the tuning photos, as the lab's set shifted it. The
    # enlarged second look lost the 1's glowing pip (a blob wider than its kernel) and read its
    # side 4 in its place, sure: a light pip is as large as its whole glow.
    image = CAMERA_SHIFTS["grainy"](255 - cv2.imread(str(CAMERAS / "dice_8.jpg")), 17)
    assert read_dice(image).values == [1]


def test_tilted_white_ones_on_black_dice_take_their_tilt_from_their_whole_pip():
    # A light 1's core, cut at half its height over its glints, measured 0.54 round where the
    # whole pip is 0.74: the table's plane went to a side face and the 1s were dropped.
    image = CAMERA_SHIFTS["tilted"](255 - cv2.imread(str(DATA / "dice-side" / "dice_46.jpg")), 0)
    reading = read_dice(image)
    assert reading.values == [1, 1, 1, 1, 1]
    assert reading.confidence >= 0.9
