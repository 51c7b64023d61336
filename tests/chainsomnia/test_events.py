"""About Event Cards: Omens, Bad Dreams on tiles and in Item areas, Howling, frightened characters."""

from __future__ import annotations


def end_round(g) -> None:  # noqa: ANN001
    for _ in range(len(g.state.characters)):
        g.do("end_turn")


def test_good_omen_applies_at_once_and_stays_beside_the_drawers_board(game):
    g = game(4).arrange(event_deck=["lullaby_1", "lullaby_2"])
    end_round(g)
    assert g.char("ryan").chains == 1
    assert g.char("ryan").omens == ("lullaby_1",)


def test_bad_omen_applies_at_once_and_stays_beside_the_drawers_board(game):
    g = game(4).arrange(event_deck=["dread", "lullaby_2"])
    end_round(g)
    assert [c.chains for c in g.state.characters] == [3, 3, 3, 3]
    assert g.char("ryan").omens == ("dread",)


def test_bad_dream_cards_chain_icon_adds_a_chain_to_the_drawer(game):
    g = game(4).arrange(tiles=[("great_hall", 0, 1, 0)], chars={c: {"cell": (0, 1)} for c in ("chloe", "isaac", "timi")}, event_deck=["crawling_ink", "lullaby_1"])
    end_round(g)
    assert g.char("ryan").chains == 3 and g.char("chloe").chains == 2
    assert g.stack(0, 0) == ("crawling_ink",)


def test_bad_dream_cards_others_in_the_room_are_frightened_and_flee_the_drawer_is_trapped(game):
    g = game(4).arrange(tiles=[("great_hall", 0, 1, 0), ("library", 1, 0, 1)], event_deck=["creaking_doll", "lullaby_1"])
    end_round(g)
    assert "trapped" in g.types()
    frightened = [e["character"] for e in g.events if e["type"] == "frightened"]
    assert frightened == ["chloe", "isaac", "timi"]
    assert g.pending.kind == "flee" and g.pending.who == "chloe"
    assert {tuple(o) for o in g.pending.options} == {(0, 1), (1, 0)}
    assert {a["type"] for a in g.legal()} == {"flee"}
    g.do("flee", to=[0, 1])  # the players choose, without spending AP
    g.do("flee", to=[1, 0])
    g.do("flee", to=[0, 1])
    assert g.char("ryan").cell == (0, 0)
    assert [g.char(c).cell for c in ("chloe", "isaac", "timi")] == [(0, 1), (1, 0), (0, 1)]
    assert g.state.current.id == "chloe" and g.state.round == 2


def test_bad_dream_cards_maledictum_goes_in_the_drawers_item_area(game):
    g = game(4).arrange(event_deck=["maledictum", "lullaby_1"])
    end_round(g)
    assert g.char("ryan").bad_dreams == ("maledictum",) and g.state.bad_dreams == ()


def test_ruling_maledictum_does_not_count_towards_the_hand_of_2_items(game):
    # Ryan holds Maledictum and 1 Item, then finds a second Item: no discard is asked
    g = game(4).arrange(
        tiles=[("library", 0, 1, 0)],
        chars={"ryan": {"cell": (0, 1), "bad_dreams": ["maledictum"], "items": ["candle_1"]}},
        item_deck=["candle_2", "clover"],
    )
    g.do("search", nook=0)
    g.roll(6, 6)
    assert g.char("ryan").items == ("candle_1", "candle_2") and g.pending is None
    assert g.char("ryan").bad_dreams == ("maledictum",)


def test_important_howling_is_placed_beside_the_event_deck(game):
    g = game(4).arrange(event_deck=["howling_1", "lullaby_1"])
    end_round(g)
    assert g.state.howling == ("howling_1",) and g.state.bad_dreams == ()


def test_important_howling_adds_1_card_per_howling_when_exploring(game):
    g = game(4).arrange(howling=["howling_1", "howling_2"], castle_deck=["great_hall"], event_deck=["lullaby_1", "lullaby_2", "cold_sweat_1", "dread"])
    g.do("explore")
    g.do("place_tile", at=[0, 1], rotation=0)
    assert [e["card"] for e in g.events if e["type"] == "event_drawn"] == ["lullaby_1", "lullaby_2", "cold_sweat_1"]


def test_ruling_howling_drawn_during_a_draw_raises_only_later_draws(game):
    g = game(4).arrange(event_deck=["howling_1", "lullaby_1", "lullaby_2", "cold_sweat_1"])
    end_round(g)
    assert [e["card"] for e in g.events if e["type"] == "event_drawn"] == ["howling_1"]
    end_round(g)  # Chloe draws for the Daemon: 1 + 1 Howling
    assert [e["card"] for e in g.events if e["type"] == "event_drawn"] == ["lullaby_1", "lullaby_2"]


def test_ruling_draw_event_cards_effect_is_raised_by_howling(game):
    g = game(4).arrange(howling=["howling_1"], event_deck=["lullaby_1", "nightmare_surge", "lullaby_2", "cold_sweat_1", "dread", "shiver"])
    end_round(g)
    drawn = [e["card"] for e in g.events if e["type"] == "event_drawn"]
    # the Daemon's 1 + 1 Howling; Nightmare Surge's 2 + 1 Howling
    assert drawn == ["lullaby_1", "nightmare_surge", "lullaby_2", "cold_sweat_1", "dread"]


def test_bad_omen_discard_items_lets_the_drawer_choose(game):
    g = game(4).arrange(chars={"ryan": {"items": ["candle_1", "clover"]}}, event_deck=["pickpocket_imp_1", "lullaby_1"])
    end_round(g)
    assert g.pending.kind == "discard_items"
    assert g.legal() == [{"type": "discard_items", "items": ["candle_1"]}, {"type": "discard_items", "items": ["clover"]}]
    g.do("discard_items", items=["candle_1"])
    assert g.char("ryan").items == ("clover",)


def test_good_omen_discard_the_top_bad_dream_of_an_adjacent_room(game):
    g = game(4).arrange(tiles=[("great_hall", 0, 1, 0)], stacks={(0, 1): ["creaking_doll", "lost_echo"]}, event_deck=["dawn_light_1", "lullaby_1"])
    end_round(g)
    assert g.pending.kind == "choose_tile"
    g.do("choose_tile", tile=[0, 1])
    assert g.stack(0, 1) == ("creaking_doll",)
