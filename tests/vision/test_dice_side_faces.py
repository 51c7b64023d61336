"""Which of a die's two readable faces is its top: a tilted camera sees every die's near side
faces on the same side of its top face, and the frame's clearer pairs show which side that is
(vision.dice._toward_camera)."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import pytest

from vision.dice import read_dice
from vision.synth import CAMERA_SHIFTS, render_dice

DATA = Path(__file__).resolve().parents[1] / "data" / "dice-side"
LABELS = json.loads((DATA / "labels.json").read_text())


def test_a_side_five_towards_the_camera_is_not_read_for_its_top_one():
    # Black dice with white pips (the photo's negative), seen from a steep stand: one die's top
    # 1 and side 5 lie about as far off the table plane (0.29 and 0.20), but the 5 lies towards
    # the camera, where the other dice show their side faces.
    image = 255 - cv2.imread(str(DATA / "dice_46.jpg"))
    reading = read_dice(image)
    assert reading.values == LABELS["dice_46.jpg"]


def test_a_camera_turned_to_face_the_player_sees_side_faces_up_the_picture():
    # A synthetic camera about 45 degrees off vertical, turned so that the dice show their side
    # faces up the picture, not down it: a 2 and its die's side 3 are squashed alike (pips 0.74
    # and 0.76 round); only the direction in which the other dice show their side faces tells
    # which is the top.
    scene = render_dice(364, "oblique")
    assert read_dice(scene.image).values == scene.values == [1, 2, 3, 4, 5, 6]


@pytest.mark.parametrize("shift", ["dim room", "warm light"])
def test_a_one_measured_squashed_beside_its_side_face_farther_off_the_table_is_the_top(shift):
    # Five 1s from a steep stand, each die's side face in view. In dim or warm light one 1's
    # small pip measures too squashed to stand alone (0.63 round, 0.28 off the table the other
    # dice show); its die's side 2 beside it lies 0.48 off the table: the 1 is the top face.
    image = CAMERA_SHIFTS[shift](cv2.imread(str(DATA / "dice_46.jpg")), 0)
    assert read_dice(image).values == LABELS["dice_46.jpg"] == [1, 1, 1, 1, 1]


def test_a_one_whose_side_face_lies_beyond_the_pips_own_reach_is_still_its_top():
    # Three 1s from a steep stand, saved as a rough JPEG (quality 35): one 1's pip measures too
    # squashed to stand alone; its die's side 2, far off the table plane, lies as near as a
    # die's top and side face do (measured by both faces' sizes, not the pip's), and the 1 is
    # read as its top face instead of being silently lost.
    photo = cv2.imread(str(DATA.parent / "dice-close" / "dice_22.jpg"))
    _, jpeg = cv2.imencode(".jpg", photo, [cv2.IMWRITE_JPEG_QUALITY, 35])
    assert read_dice(cv2.imdecode(jpeg, cv2.IMREAD_COLOR)).values == [1, 1, 1]


@pytest.mark.parametrize("shift", ["turned 25 deg", "over-exposed"])
def test_a_far_dies_top_one_up_the_table_from_its_front_face_is_read(shift):
    # The far die is seen more steeply than the near ones that set the table plane: its top 1
    # measures farther off that plane than its front 5. Where the other dice show which way
    # the camera looks, a lone pip just up the table from a face is that face's top (a side
    # face never lies beyond its top face), unless a face lies just up the table from it.
    image = CAMERA_SHIFTS[shift](cv2.imread(str(DATA / "dice_46.jpg")), 0)
    assert read_dice(image).values == LABELS["dice_46.jpg"]


@pytest.mark.parametrize("negative", [False, True])
def test_a_front_face_with_nothing_below_it_is_a_side_face(negative):
    # At half resolution a die's top 1 and front 5 look like two touching dice's top faces in
    # a line towards the camera. But the nearer of two such dice shows its own front face
    # below its top; one die shows two faces only. Nothing below the 5: it is the 1's side.
    image = cv2.imread(str(DATA / "dice_46.jpg"))
    image = CAMERA_SHIFTS["half resolution"](255 - image if negative else image, 0)
    assert read_dice(image).values == LABELS["dice_46.jpg"]
