"""The Castle: exploring, laying Room Tiles, doors and walls, adjacency."""

from __future__ import annotations

import dataclasses

from companion.chainsomnia.state import Deck


def test_ruling_explore_new_tile_goes_against_a_door_of_the_explorers_room(game):
    # Library turned once: doors east, south and west; its north side is a wall.
    g = game(4).arrange(tiles=[("library", 1, 0, 1)], chars={"ryan": {"cell": (1, 0)}}, castle_deck=["great_hall"])
    g.do("explore")
    cells = {(x, y) for x, y, _ in g.pending.options}
    assert cells == {(2, 0), (1, -1)}  # not (1, 1), behind the wall
    refusal = g.refuse("place_tile", at=[1, 1], rotation=0)
    assert refusal.code == "tile_does_not_fit"


def test_explore_a_new_room_doors_and_walls_must_line_up_with_adjacent_tiles(game):
    # Gallery (doors east and west) at (1, 1): a tile at (0, 1) must face it with a door.
    g = game(4).arrange(tiles=[("gallery", 1, 1, 0)], castle_deck=["music_room"])
    g.do("explore")
    at_01 = {r for x, y, r in g.pending.options if (x, y) == (0, 1)}
    assert at_01 == {1}  # music room turned once: doors east and south, nothing else fits there
    assert g.refuse("place_tile", at=[0, 1], rotation=0).code == "tile_does_not_fit"
    g.do("place_tile", at=[0, 1], rotation=1)
    geo = g.state.geometry()
    assert geo.adjacent((0, 1), (1, 1)) and geo.adjacent((0, 1), (0, 0))


def test_explore_a_new_room_costs_1_ap_and_draws_an_event_card_for_the_new_tile(game):
    g = game(4).arrange(castle_deck=["great_hall"], event_deck=["creaking_doll", "lullaby_1"])
    g.do("explore")
    assert g.char("ryan").ap == 2
    g.do("place_tile", at=[0, 1], rotation=0)
    assert g.stack(0, 1) == ("creaking_doll",)  # on the new tile, not under the explorer
    assert g.char("ryan").cell == (0, 0)  # exploring does not move the explorer


def test_explore_a_new_room_tile_that_fits_nowhere_goes_back_above_wake_up_and_the_bad_dream_lands_on_the_explorer(game):
    g = game(4).arrange(
        tiles=[("library", 1, 0, 1), ("great_hall", 2, 0, 0), ("nursery", 1, -1, 0)],
        chars={"ryan": {"cell": (1, 0)}, "chloe": {"cell": (1, 0)}},
        castle_deck=["chapel", "kitchen"],
        event_deck=["creaking_doll", "lullaby_1"],
    )
    g.do("explore")
    assert [e["type"] for e in g.events if e["type"].startswith("tile")] == ["tile_drawn", "tile_returned"]
    assert g.state.castle_deck.bottom == ("chapel", "wake_up")
    assert g.stack(1, 0) == ("creaking_doll",)
    assert "trapped" in g.types()
    assert g.pending.kind == "flee" and g.pending.who == "chloe"


def test_explore_a_new_room_tile_that_fits_nowhere_bad_dream_lands_where_the_explorer_is_when_drawn(game):
    # Howling: 2 cards. Sleepwalking takes Ryan to the Great Hall first; the Lost Echo then lands
    # on "the Room Tile your character occupies", the Great Hall.
    g = game(4).arrange(
        tiles=[("library", 1, 0, 1), ("great_hall", 2, 0, 0), ("nursery", 1, -1, 0)],
        chars={"ryan": {"cell": (1, 0)}},
        howling=["howling_1"],
        castle_deck=["chapel"],
        event_deck=["sleepwalking", "lost_echo", "lullaby_1"],
    )
    g.do("explore")
    g.do("choose_tile", tile=[2, 0])
    assert g.char("ryan").cell == (2, 0)
    assert g.stack(2, 0) == ("lost_echo",) and g.stack(1, 0) == ()


def test_explore_a_new_room_needs_a_tile_in_the_castle_deck(game):
    g = game(4)
    g.state = dataclasses.replace(g.state, castle_deck=Deck())
    assert g.refuse("explore").code == "castle_deck_empty"
    assert {"type": "explore"} not in g.legal()


def test_castle_two_tiles_with_only_a_wall_between_them_are_not_adjacent(game):
    # Library turned once (north wall) at (1, 0) and Chapel turned once (south wall) at (1, 1).
    g = game(4).arrange(tiles=[("library", 1, 0, 1), ("chapel", 1, 1, 1)], chars={"ryan": {"cell": (1, 0)}})
    refusal = g.refuse("move", to=[1, 1])
    assert refusal.code == "not_adjacent"
    assert "not adjacent to the Library" in refusal.message


def test_castle_wake_up_is_the_last_tile_of_the_deck(game):
    g = game(4, mode="beginner")
    deck = g.state.castle_deck
    assert deck.top[-1] != "wake_up" and deck.bottom == ("wake_up",)
