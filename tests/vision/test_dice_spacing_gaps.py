"""Pips judged too far apart by their long radius when their face shows no tilt (UNTILTED), and
the strip of face between big pips that stands out as a mark of its own (_gap_between).
Synthetic tuning seeds only, never bench seeds (1000+)."""

from __future__ import annotations

from vision.dice import _gap_between, _Pip, read_dice
from vision.synth import render_dice


def _pip(x: float, y: float, r: float, dark: bool, contrast: float) -> _Pip:
    return _Pip(x=x, y=y, r=r, roundness=1.0, squash=0.0, dark=dark, contrast=contrast)


def test_a_small_pipped_two_whose_pips_look_a_little_squashed_is_read():
    # A yellow 2 among seven dice: its pips, 0.88 round, are 4.52 of their area radii apart,
    # just past the 4.5 limit; by their long radius they are a 2's diagonal.
    scene = render_dice(715, "many")
    assert read_dice(scene.image).values == scene.values


def test_the_same_rule_reads_a_rough_and_a_touching_roll():
    for seed, condition in ((727, "rough"), (275, "touching")):
        scene = render_dice(seed, condition)
        assert read_dice(scene.image).values == scene.values, (seed, condition)


def test_a_close_six_of_big_light_pips_is_not_read_as_the_gaps_between_them():
    # A green 6 with big white pips near the camera: the face between two pips stood out as a
    # dark mark, took their place and left a sure 2.
    scene = render_dice(702, "close")
    reading = read_dice(scene.image)
    assert reading.values == scene.values
    assert 6 in reading.values


def test_a_mark_over_two_stronger_pips_of_the_other_polarity_is_a_gap():
    left = _pip(100, 100, 10, dark=False, contrast=3.0)
    right = _pip(124, 100, 10, dark=False, contrast=3.0)
    gap = _pip(112, 100, 6, dark=True, contrast=1.5)
    assert _gap_between(gap, [left, right, gap])


def test_a_pip_on_its_own_face_or_stronger_than_its_neighbours_is_no_gap():
    face = _pip(100, 100, 30, dark=False, contrast=1.2)
    pip = _pip(100, 100, 6, dark=True, contrast=2.5)
    assert not _gap_between(pip, [face, pip])  # one mark of the other polarity: its face
    left = _pip(100, 100, 10, dark=False, contrast=1.4)
    right = _pip(124, 100, 10, dark=False, contrast=1.4)
    strong = _pip(112, 100, 6, dark=True, contrast=2.0)
    assert not _gap_between(strong, [left, right, strong])  # stronger than both: a pip
    far = _pip(300, 100, 10, dark=False, contrast=3.0)
    alone = _pip(112, 100, 6, dark=True, contrast=1.5)
    assert not _gap_between(alone, [left, far, alone])  # overlaps one only
