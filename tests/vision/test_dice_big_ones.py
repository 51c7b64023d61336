"""1s with a big pip (many dice mark the 1 so: 0.3 to 0.45 of the face's side on some), whose
face ends a few of the pip's radii out (vision.dice: _BIG_ONE_PLAIN, BIG_ONE_SQUARE,
BIG_ONE_PIP, BIG_ONE_FACE, NEIGHBOUR_PIP). The renderer draws big 1s at 1.35x the other pips;
these tests draw them larger by scaling the 1's pip alone. Synthetic tuning seeds only."""

from __future__ import annotations

import dataclasses

import pytest

import vision.synth as synth
from vision.dice import read_dice


@pytest.fixture
def big_ones(monkeypatch):
    """render_dice with the 1's pip radius times a factor (the renderer's own big 1 replaced)."""
    drawn = synth._face_texture

    def render(seed: int, condition: str, factor: float):
        def face_texture(look, value, *args, **kwargs):
            if value == 1:
                look = dataclasses.replace(look, pip_radius=look.pip_radius * factor,
                                           big_one=False)
            return drawn(look, value, *args, **kwargs)

        monkeypatch.setattr(synth, "_face_texture", face_texture)
        return synth.render_dice(seed, condition)

    return render


@pytest.mark.parametrize("factor", [2.0, 2.4])
def test_a_one_whose_pip_fills_its_face_is_read(big_ones, factor):
    # A green die with a white 1 twice to 2.4 times the usual pip: its face ends 2.25 pip
    # radii out, inside the ring a 1's face is first looked for in.
    scene = big_ones(617, "clean", factor)
    assert 1 in scene.values
    reading = read_dice(scene.image)
    assert reading.values == scene.values


def test_the_renderers_own_big_one_on_a_rough_table_is_read():
    scene = synth.render_dice(642, "rough")
    assert 1 in scene.values
    assert read_dice(scene.image).values == scene.values
