"""Rulings where the rulebook is silent or ambiguous (docs/RULINGS.md), one test each."""

from __future__ import annotations


def end_round(g) -> None:  # noqa: ANN001
    for _ in range(len(g.state.characters)):
        g.do("end_turn")


def test_ruling_an_empty_item_deck_is_remade_from_its_discard_pile(game):
    g = game(4).arrange(tiles=[("library", 0, 1, 0)], chars={"ryan": {"cell": (0, 1), "items": ["candle_1"]}}, item_deck=[])
    g.do("discard_item", item="candle_1")
    g.do("search", nook=0)
    g.roll(6, 6)
    assert "item_deck_remade" in g.types()
    assert g.char("ryan").items == ("candle_1",) and g.state.item_discard == ()


def test_ruling_with_no_item_anywhere_the_reward_is_lost(game):
    g = game(4).arrange(tiles=[("library", 0, 1, 0)], chars={"ryan": {"cell": (0, 1)}}, item_deck=[])
    g.do("search", nook=0)
    g.roll(6, 6)
    assert "deck_empty" in g.types() and g.char("ryan").items == ()


def test_ruling_a_trapped_character_may_still_explore_and_search(game):
    g = game(4).arrange(
        tiles=[("library", 0, 1, 0)],
        stacks={(0, 1): ["lost_echo"]},
        chars={"ryan": {"cell": (0, 1)}},
        castle_deck=["great_hall"],
        item_deck=["candle_1"],
        event_deck=["lullaby_1", "lullaby_2"],
    )
    g.do("search", nook=0)
    g.roll(6, 6)
    g.do("explore")
    g.do("place_tile", at=[0, 2], rotation=0)
    assert g.char("ryan").items == ("candle_1",) and g.char("ryan").cell == (0, 1)


def test_ruling_a_caged_first_player_still_draws_for_the_daemon(game):
    g = game(4).arrange(chars={"ryan": {"chains": 6}}, event_deck=["lullaby_1", "lullaby_2"], turn="chloe")
    for _ in range(3):
        g.do("end_turn")
    drawn = next(e for e in g.events if e["type"] == "event_drawn")
    assert drawn["character"] == "ryan" and g.char("ryan").chains == 5


def test_ruling_frightened_characters_flee_without_taking_chains(game):
    g = game(4).arrange(tiles=[("great_hall", 0, 1, 0)], event_deck=["crawling_ink", "lullaby_1"])
    end_round(g)
    assert g.char("ryan").chains == 3
    assert [g.char(c).chains for c in ("chloe", "isaac", "timi")] == [2, 2, 2]


def test_ruling_a_frightened_character_with_no_adjacent_room_stays(game):
    g = game(4).arrange(event_deck=["creaking_doll", "lullaby_1"])
    end_round(g)
    assert [e["character"] for e in g.events if e["type"] == "cannot_flee"] == ["chloe", "isaac", "timi"]
    assert g.char("chloe").cell == (0, 0) and g.pending is None


def test_ruling_isaac_may_give_only_2_real_dice(game):
    g = game(4, dice="physical").arrange(tiles=[("great_hall", 0, 1, 0)], stacks={(0, 1): ["lost_echo"]}, turn="isaac")
    g.do("defeat", card="lost_echo")
    g.roll(3, 2)
    assert g.pending is None and g.stack(0, 1) == ()


def test_ruling_wake_up_that_fits_nowhere_stays_at_the_bottom(game):
    g = game(4).arrange(
        tiles=[("library", 1, 0, 1), ("great_hall", 2, 0, 0), ("nursery", 1, -1, 0)],
        chars={"ryan": {"cell": (1, 0)}},
        castle_deck=[],
        event_deck=["lullaby_1", "lullaby_2"],
    )
    g.do("explore")
    assert g.state.castle_deck.bottom == ("wake_up",)
    returned = next(e for e in g.events if e["type"] == "tile_returned")
    assert returned["above_wake_up"] is False


def test_ruling_tiles_put_back_go_each_just_above_wake_up(game):
    g = game(4).arrange(
        tiles=[("library", 1, 0, 1), ("great_hall", 2, 0, 0), ("nursery", 1, -1, 0)],
        chars={"ryan": {"cell": (1, 0)}},
        castle_deck=["chapel", "kitchen"],
        event_deck=["lullaby_1", "lullaby_2"],
    )
    g.do("explore")
    g.do("explore")
    assert g.state.castle_deck.bottom == ("chapel", "kitchen", "wake_up")


def test_ruling_bad_dreams_drawn_by_an_effect_while_exploring_go_on_the_new_tile(game):
    g = game(4).arrange(castle_deck=["great_hall"], event_deck=["nightmare_surge", "creaking_doll", "lost_echo", "lullaby_1"])
    g.do("explore")
    g.do("place_tile", at=[0, 1], rotation=0)
    assert g.stack(0, 1) == ("creaking_doll", "lost_echo") and g.stack(0, 0) == ()


def test_ruling_bad_dreams_drawn_by_an_effect_in_the_daemons_turn_go_on_the_drawers_tile(game):
    g = game(4).arrange(event_deck=["nightmare_surge", "creaking_doll", "lost_echo", "lullaby_1"])
    end_round(g)
    assert g.stack(0, 0) == ("creaking_doll", "lost_echo")
