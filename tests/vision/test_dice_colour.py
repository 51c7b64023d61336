"""Dice reader: dark pips on a coloured face (dim in grey, close to its pips)."""
from __future__ import annotations

import numpy as np

from vision.dice import read_dice
from vision.synth import render_dice


def test_dark_pips_on_a_coloured_die_are_read() -> None:
    scene = render_dice(0, "clean", style="coloured")
    x0, y0, x1, y1 = scene.boxes[0]
    centre = scene.image[(y0 + y1) // 2 - 3 : (y0 + y1) // 2 + 4,
                         (x0 + x1) // 2 - 3 : (x0 + x1) // 2 + 4].reshape(-1, 3)
    # The scene is what this test is about: a strongly coloured face (its channels far apart).
    face = np.median(centre, axis=0)
    assert face.max() - face.min() > 60
    reading = read_dice(scene.image)
    assert sorted(reading.values) == scene.values
