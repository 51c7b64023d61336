"""1s on dice of the table's very hue: the face's edge is a step of 13 to 16 levels in one
channel, found where a 1's walk turns to what lies beyond its face (vision.dice: ONE_TURN_STEP,
smaller than TURN_STEP for a 1's ordinary look only). Synthetic tuning seeds only."""

from __future__ import annotations

import pytest

from vision.dice import read_dice
from vision.synth import render_dice


@pytest.mark.parametrize("key", [
    ("rough", 3438),     # a blue 1 on a blue cloth; without it [3, 3, 5, 6], sure
    ("clutter", 3767),   # a green 1 on a green table
    ("many", 3026),      # a purple 1 on a blue-violet table, beside a 1 read
    ("many", 3532),      # a purple 1 with a light pip on a purple cloth
])
def test_a_one_on_a_die_of_the_tables_hue_is_read(key):
    scene = render_dice(key[1], key[0])
    assert 1 in scene.values
    assert read_dice(scene.image).values == scene.values


def test_a_shaded_side_face_on_a_table_is_no_big_one():
    # Guard: a green die's shaded side face, a large dark blob on a yellow-green table, looked
    # at as a big 1 walks only 4.75 radii out, onto the table's own shading; with the smaller
    # step there it read as a sure extra 1.
    scene = render_dice(3481, "oblique")
    reading = read_dice(scene.image)
    assert reading.values == scene.values == [1, 1, 3, 6]
