"""A dark die's face of light pips, whose rings took the pips' own hue through JPEG's coarse
colour, is judged again against the colour its plain spots show (vision.dice:
_ringed_light_face); two touching 1s, two keys' letters, and a 5's corners round its middle pip
are plain at too few of those spots (PLAIN_AGAIN) to be made a face so. Synthetic tuning seeds
only (0..899 and 3000..3899), and a real tune photo."""

from __future__ import annotations

from pathlib import Path

import cv2
import pytest

import vision.dice as dice
from vision.dice import read_dice
from vision.synth import CAMERA_SHIFTS, render_dice

DICE = Path(__file__).resolve().parents[1] / "data" / "dice"

LOST_FACES = [
    ("rough", 3473),  # a dark green 2: rings (13, 36, 33), the spots between its pips (23, 37, 27)
    ("rough", 3745),  # a dark 2 through noise and JPEG
    ("rough", 3818),  # a dark 5
]


@pytest.mark.parametrize("condition, seed", LOST_FACES)
def test_a_dark_dies_light_face_is_read(reads_right, condition, seed):
    assert reads_right(condition, seed)
    # What reads these faces is the second look at their plain spots, nothing else.
    assert not reads_right(condition, seed, without=("_ringed_light_face", False))


def test_two_touching_ones_stay_two_ones(reads_right, monkeypatch):
    # touching3267: two dark dice's 1s side by side, plain at 14 of 17 spots between them
    # against those spots' own colour: a 2 at the bar a face judged by its rings must pass.
    assert reads_right("touching", 3267)
    monkeypatch.setattr(dice, "PLAIN_AGAIN", 0.75)
    assert not reads_right("touching", 3267)


def test_two_keys_letters_are_no_two(monkeypatch):
    # A real tune photo turned 25 degrees: two dark laptop keys with a light letter each, and
    # the light gap between them, plain at 13 of 17 spots against the keys' own colour.
    turned = CAMERA_SHIFTS["turned 25 deg"](cv2.imread(str(DICE / "five_34.jpg")), 0)
    assert read_dice(turned).values == [5, 5, 5, 5]
    monkeypatch.setattr(dice, "PLAIN_AGAIN", 0.75)
    assert read_dice(turned).values != [5, 5, 5, 5]


def test_a_fives_corners_are_no_four(monkeypatch):
    # oblique739: a coloured 5 read surely; its four corners round the middle pip, judged
    # again, are plain at 0.78 of their spots, and at 0.75 would pass as a 4 beside the 5.
    scene = render_dice(739, "oblique")
    reading = read_dice(scene.image)
    assert reading.values == [5] and reading.confidence >= dice.SURE_READING
    monkeypatch.setattr(dice, "PLAIN_AGAIN", 0.75)
    assert read_dice(scene.image).confidence < dice.SURE_READING


def test_only_clear_light_pips_on_plain_faces_are_judged_again():
    pip = dice._Pip(x=0.0, y=0.0, r=3.0, roundness=0.9, squash=0.0, dark=False,
                    contrast=dice.CLEAR_LIGHT_PIP, noise=4.0)
    twin = dice._Pip(x=20.0, y=20.0, r=3.0, roundness=0.9, squash=0.0, dark=False,
                     contrast=0.9, noise=4.0)
    assert dice._ringed_light_face([pip, twin], noise=4.0)
    # A ring whose spread is the surface's texture (noise 0, see _describe_faces).
    assert not dice._ringed_light_face([pip, twin], noise=0.0)
    faint = dice._Pip(x=0.0, y=0.0, r=3.0, roundness=0.9, squash=0.0, dark=False,
                      contrast=dice.CLEAR_LIGHT_PIP - 0.01, noise=4.0)
    assert not dice._ringed_light_face([faint, twin], noise=4.0)
    dark = [dice._Pip(x=p.x, y=p.y, r=3.0, roundness=0.9, squash=0.0, dark=True,
                      contrast=0.9, noise=4.0) for p in (pip, twin)]
    assert not dice._ringed_light_face(dark, noise=4.0)
