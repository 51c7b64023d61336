"""Steep views (synthetic tuning seeds, never bench seeds): a face squashed past the usual limit
is still a face when its round pips are squashed alike, in one plane with it; and a faint mark
in a face's margin, where no pip is painted, is the rounded edge's shading, not a pip that
would make the face doubtful."""

from __future__ import annotations

import pytest

from vision.dice import read_dice
from vision.synth import render_dice


@pytest.mark.parametrize(("seed", "condition"), [(257, "oblique"), (252, "oblique")])
def test_a_face_seen_steeply_with_its_pips_squashed_alike_is_read(seed, condition):
    scene = render_dice(seed, condition)
    assert read_dice(scene.image).values == scene.values


@pytest.mark.parametrize(("seed", "condition"),
                         [(265, "oblique"), (351, "many"), (312, "rough"), (346, "rough")])
def test_shading_on_a_faces_rounded_edge_is_no_pip(seed, condition):
    scene = render_dice(seed, condition)
    assert read_dice(scene.image).values == scene.values
