"""Defeating Bad Dreams: reach, stacks, Victory Tests, conditions, Maledictum and Phantasm."""

from __future__ import annotations


def test_defeating_bad_dreams_from_a_room_adjacent_to_the_bad_dream(game):
    g = game(4).arrange(tiles=[("great_hall", 0, 1, 0)], stacks={(0, 1): ["creaking_doll"]})
    g.do("defeat", card="creaking_doll")
    g.roll(3, 2)  # 5 + Strength 4 = 9: Creaking Doll needs 9+
    assert g.stack(0, 1) == ()
    assert "room_freed" in g.types()
    assert g.state.bad_dream_discard == ("creaking_doll",)


def test_defeating_bad_dreams_not_from_the_tile_where_your_character_is(game):
    g = game(4).arrange(tiles=[("great_hall", 0, 1, 0)], stacks={(0, 1): ["creaking_doll"]}, chars={"ryan": {"cell": (0, 1)}})
    refusal = g.refuse("defeat", card="creaking_doll")
    assert refusal.code == "out_of_reach" and "own tile" in refusal.message


def test_defeating_bad_dreams_not_from_a_room_that_is_not_adjacent(game):
    g = game(4).arrange(tiles=[("great_hall", 0, 1, 0), ("chapel", 0, 2, 0)], stacks={(0, 2): ["creaking_doll"]})
    assert g.refuse("defeat", card="creaking_doll").code == "out_of_reach"


def test_defeating_bad_dreams_malice_may_be_defeated_on_your_own_tile(game):
    g = game(4).arrange(stacks={(0, 0): ["malice"]})
    g.do("defeat", card="malice")
    g.roll(4, 3)  # 7 + Luck 3 = 10
    assert g.state.bad_dreams == ()


def test_defeating_bad_dreams_the_dominatus_from_any_room_but_its_own(game):
    g = game(4).arrange(tiles=[("great_hall", 0, 1, 0), ("chapel", 0, 2, 0)], stacks={(0, 2): ["the_dominatus"]})
    g.do("defeat", card="the_dominatus")
    assert g.char("ryan").ap == 1  # the Dominatus costs 2 AP
    g.roll(6, 3)  # 9 + Strength 4 = 13
    assert g.stack(0, 2) == ()
    g2 = game(4).arrange(stacks={(0, 0): ["the_dominatus"]})
    assert g2.refuse("defeat", card="the_dominatus").code == "out_of_reach"


def test_defeating_bad_dreams_maledictum_in_an_item_area_from_anywhere(game):
    g = game(4).arrange(tiles=[("great_hall", 0, 1, 0), ("chapel", 0, 2, 0)], chars={"chloe": {"cell": (0, 2), "bad_dreams": ["maledictum"]}})
    g.do("defeat", card="maledictum")
    g.roll(4, 3)  # 7 + Intelligence 3 = 10
    assert g.char("chloe").bad_dreams == ()
    assert g.state.bad_dream_discard == ("maledictum",)


def test_defeating_bad_dreams_maledictum_cannot_be_discarded_arbitrarily(game):
    g = game(4).arrange(chars={"ryan": {"bad_dreams": ["maledictum"], "items": ["candle_1"]}})
    assert g.refuse("discard_item", item="maledictum").code == "not_your_item"
    assert not [a for a in g.legal() if a["type"] in ("discard_item", "give_item") and a["item"] == "maledictum"]


def test_defeating_bad_dreams_two_or_more_on_a_tile_one_by_one_from_the_top(game):
    g = game(4).arrange(tiles=[("great_hall", 0, 1, 0)], stacks={(0, 1): ["creaking_doll", "lost_echo"]})
    refusal = g.refuse("defeat", card="creaking_doll")
    assert refusal.code == "not_top_card" and "under Lost Echo" in refusal.message
    g.do("defeat", card="lost_echo")
    g.roll(6, 6)
    assert g.stack(0, 1) == ("creaking_doll",)
    assert "room_freed" not in g.types()


def test_defeating_bad_dreams_victory_test_ap_are_paid_even_when_it_fails(game):
    g = game(4).arrange(tiles=[("great_hall", 0, 1, 0)], stacks={(0, 1): ["creaking_doll"]})
    g.do("defeat", card="creaking_doll")
    g.roll(1, 2)
    assert g.char("ryan").ap == 2
    assert g.stack(0, 1) == ("creaking_doll",)


def test_defeating_bad_dreams_to_defeat_discard_2_item_cards(game):
    g = game(4).arrange(
        tiles=[("great_hall", 0, 1, 0)],
        stacks={(0, 1): ["hungry_portrait"]},
        chars={"ryan": {"items": ["candle_1", "warm_milk_1"]}},
    )
    assert g.refuse("defeat", card="hungry_portrait", items=["candle_1"]).code == "items_needed"
    g.do("defeat", card="hungry_portrait", items=["candle_1", "warm_milk_1"])
    assert g.char("ryan").items == () and g.stack(0, 1) == ()
    assert set(g.state.item_discard) == {"candle_1", "warm_milk_1"}


def test_defeating_bad_dreams_discard_2_item_cards_names_2_different_cards_of_your_own(game):
    g = game(4).arrange(
        tiles=[("great_hall", 0, 1, 0)],
        stacks={(0, 1): ["hungry_portrait", "creaking_doll"]},
        chars={"ryan": {"items": ["candle_1", "warm_milk_1"]}},
    )
    g.arrange(stacks={(0, 1): ["creaking_doll", "hungry_portrait"]})
    for items in (["candle_1", "candle_1", "warm_milk_1"], ["candle_1", "candle_1"], ["candle_1", "warm_milk_1", "candle_2"]):
        assert g.refuse("defeat", card="hungry_portrait", items=items).code == "items_needed"
    # a Victory Test card is not defeated by discarding Items
    g2 = game(4).arrange(tiles=[("great_hall", 0, 1, 0)], stacks={(0, 1): ["creaking_doll"]}, chars={"ryan": {"items": ["candle_1"]}})
    refusal = g2.refuse("defeat", card="creaking_doll", items=["candle_1"])
    assert refusal.code == "bad_action" and "not defeated by discarding Items" in refusal.message


def test_defeating_bad_dreams_condition_take_chains(game):
    g = game(4).arrange(tiles=[("great_hall", 0, 1, 0)], stacks={(0, 1): ["chain_wraith"]})
    g.do("defeat", card="chain_wraith")
    assert g.char("ryan").chains == 4 and g.stack(0, 1) == ()


def test_defeating_bad_dreams_phantasm_is_discarded_when_all_characters_are_on_its_tile(game):
    g = game(4).arrange(
        tiles=[("great_hall", 0, 1, 0)],
        stacks={(0, 1): ["phantasm"]},
        chars={cid: {"cell": (0, 1)} for cid in ("chloe", "isaac", "timi")},
    )
    assert g.refuse("defeat", card="phantasm").code == "automatic"
    g.do("ability", target="ryan", to=[0, 1])  # Secret Royal Command may enter a Bad Dream tile
    assert g.stack(0, 1) == ()
    defeated = next(e for e in g.events if e["type"] == "bad_dream_defeated")
    assert defeated["how"] == "all_characters_here"


def test_bad_dream_cards_phantasm_placed_where_everyone_stands_frightens_the_others_and_stays(game):
    # the Daemon's Phantasm lands on the CHAINsomnia tile, where all four characters stand
    g = game(4).arrange(tiles=[("great_hall", 0, 1, 0)], event_deck=["phantasm", "lullaby_1"])
    for _ in range(4):
        g.do("end_turn")
    assert g.stack(0, 0) == ("phantasm",)
    assert [e["character"] for e in g.events if e["type"] == "frightened"] == ["chloe", "isaac", "timi"]
    for _ in range(3):
        g.do("flee", to=[0, 1])
    assert g.stack(0, 0) == ("phantasm",) and "bad_dream_defeated" not in g.types()


def test_important_howling_cards_are_not_defeated(game):
    g = game(4).arrange(howling=["howling_1"])
    assert g.refuse("defeat", card="howling_1").code == "howling"
