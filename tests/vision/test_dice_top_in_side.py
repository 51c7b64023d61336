"""A sure face in the table's plane among the pips a steep camera's top face would silence as
its side face is a touching die's top face (vision.dice: _top_in_side). Synthetic tuning seeds
only (3000..3899)."""

from __future__ import annotations

from dataclasses import replace

import vision.dice as dice


def test_a_touching_dies_three_is_no_side_face(reads_right):
    # touching3178: five touching dark dice in one group of 21 pips; the 1 peeled off last
    # left a sure 3 and two marks between the dice, and the 3 went unread, surely.
    assert reads_right("touching", 3178)
    assert not reads_right("touching", 3178, without=("_top_in_side", None))


def test_only_a_sure_face_wholly_in_the_rest_and_on_the_table_is_a_top_face(caught):
    # touching3178's steep top face, its rest and the faces peeled with it, as _explain asks.
    [((face, rest, peeled), other)] = caught("_top_in_side", "touching", 3178)
    assert (face.die.value, other.die.value) == (1, 3)
    assert dice._top_in_side(face, rest, peeled) is other

    def peeled_with(changed):
        return [(changed if f is other else f, r) for f, r in peeled]

    unsure = replace(other, die=replace(other.die, confidence=dice.UNSURE_FACE - 0.01))
    assert dice._top_in_side(face, rest, peeled_with(unsure)) is None
    # One of its pips outside the rest: not all of it lies where the side face would.
    assert dice._top_in_side(face, [p for p in rest if p is not other.group[0]], peeled) is None
    # Foreshortened unlike the top face (another plane: a side face after all).
    tilted = replace(other, shape=dice._shape_vector(face) + dice.ON_TABLE * 1.5)
    assert dice._top_in_side(face, rest, peeled_with(tilted)) is None
