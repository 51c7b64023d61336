"""A 1 beside a read face, nearer it than a touching die's middle can be, its light pip and its
face both far dimmer than that face's, is the die's side face turned from the light, however
squarely it is seen, and surely so (vision.dice: _turned_from_light). Synthetic tuning seeds
only (0..899 and 3000..3899)."""

from __future__ import annotations

from dataclasses import replace

import pytest

import vision.dice as dice
from vision.synth import render_dice

SIDE_ONES = [
    ("rough", 3344),  # a dark die's 3, its side 1 at 1.88 half-sizes, rounder than the 3's pips
    ("rough", 3787),  # a dark die's 2 and a pip of its side face, read as a 1 beside it, surely
]


@pytest.mark.parametrize("condition, seed", SIDE_ONES)
def test_a_side_ones_dim_pip_is_no_die(reads_right, condition, seed):
    assert reads_right(condition, seed)
    assert not reads_right(condition, seed, without=("_turned_from_light", False))


def test_a_side_one_dropped_by_its_light_leaves_no_doubt():
    # rough646 (an old tune seed): a coloured 2's side pip, as round as the 2's, in its side
    # band. Dropped by its light, it is surely a side face: a doubt about its roundness sent
    # the reader to a closer look, which read a 2 more, surely.
    scene = render_dice(646, "rough")
    reading = dice.read_dice(scene.image)
    assert reading.values == scene.values
    assert reading.confidence >= dice.SURE_READING


def test_only_a_dim_light_pip_on_a_dim_face_is_turned_from_the_light(caught):
    # rough3344's side 1 and the 3 it lies beside, as _read_at judges them.
    [((one, face), _)] = caught("_turned_from_light", "rough", 3344)
    pip = one.group[0]
    assert face.die.value == 3
    assert dice._turned_from_light(one, face)

    def with_pip(**changes):
        return replace(one, group=[replace(pip, **changes)])

    # Lit as the face's own pips, or on a face ring as light as theirs: a die lying against it.
    top = max(q.peak for q in face.group)
    assert not dice._turned_from_light(with_pip(peak=top), face)
    assert not dice._turned_from_light(with_pip(face=face.group[0].face), face)
    # Dark pips are dark whichever way they face; a pip split off a linked face is judged so.
    assert not dice._turned_from_light(with_pip(dark=True), face)
    assert not dice._turned_from_light(with_pip(linked=True), face)
    # Farther out than a touching die's middle can be (SIDE_TURN): a die of its own.
    assert not dice._turned_from_light(with_pip(x=pip.x + 4 * face.spacing), face)
    # Beside a 1, neither lone pip says which is whose side face.
    assert not dice._turned_from_light(one, replace(face, die=replace(face.die, value=1)))
