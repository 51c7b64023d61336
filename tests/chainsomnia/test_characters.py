"""The Characters: each of the six abilities, as the character boards describe them."""

from __future__ import annotations


def test_ryan_secret_royal_command_moves_any_character_to_a_tile_occupied_by_another(game):
    g = game(4).arrange(tiles=[("great_hall", 0, 1, 0), ("chapel", 0, 2, 0)], chars={"chloe": {"cell": (0, 2)}})
    g.do("ability", target="isaac", to=[0, 2])
    assert g.char("isaac").cell == (0, 2) and g.char("ryan").ap == 2
    refusal = g.refuse("ability", target="timi", to=[0, 1])
    assert refusal.code == "no_character_there"


def test_ryan_secret_royal_command_from_and_to_a_bad_dream_tile(game):
    g = game(4).arrange(
        tiles=[("great_hall", 0, 1, 0)],
        stacks={(0, 1): ["creaking_doll"], (0, 0): ["lost_echo"]},
        chars={"chloe": {"cell": (0, 1)}},
    )
    g.do("ability", target="isaac", to=[0, 1])  # out of one Bad Dream room into another
    assert g.char("isaac").cell == (0, 1)


def test_chloe_melody_discards_a_bad_dream_from_an_adjacent_tile_once_per_turn(game):
    g = game(4).arrange(
        tiles=[("great_hall", 0, 1, 0), ("library", 1, 0, 1)],
        stacks={(0, 1): ["creaking_doll"], (1, 0): ["lost_echo"]},
        turn="chloe",
    )
    g.do("ability", tile=[0, 1])
    assert g.stack(0, 1) == () and g.char("chloe").ap == 2
    assert g.refuse("ability", tile=[1, 0]).code == "once_per_turn"


def test_chloe_melody_only_reaches_an_adjacent_room_tile(game):
    # the Great Hall (0, 2) is two rooms away; the Library at (1, 1) touches the Chapel with a wall only
    g = game(4).arrange(
        tiles=[("chapel", 0, 1, 0), ("great_hall", 0, 2, 0), ("library", 1, 1, 0)],
        stacks={(0, 2): ["creaking_doll"], (1, 1): ["lost_echo"]},
        chars={"chloe": {"cell": (0, 1)}},
        turn="chloe",
    )
    assert g.refuse("ability", tile=[1, 1]).code == "not_adjacent"
    g.arrange(chars={"chloe": {"cell": (0, 0)}})
    refusal = g.refuse("ability", tile=[0, 2])
    assert refusal.code == "not_adjacent" and "adjacent Room Tile" in refusal.message
    assert not [a for a in g.legal() if a["type"] == "ability"]


def test_isaac_rolls_3_dice_and_chooses_2(game):
    g = game(4).arrange(tiles=[("great_hall", 0, 1, 0)], stacks={(0, 1): ["lost_echo"]}, turn="isaac")
    g.do("defeat", card="lost_echo")
    assert g.pending.count == 3
    g.roll(2, 6, 1)
    assert g.pending.kind == "keep_dice"
    assert g.refuse("keep_dice", values=[6, 6]).code == "bad_dice"
    g.do("keep_dice", values=[2, 6])
    test = next(e for e in g.events if e["type"] == "test")
    assert test["dice"] == [2, 6] and test["total"] == 12 and test["success"]


def test_isaac_with_virtual_dice_the_app_rolls_3(game):
    g = game(4, dice="virtual").arrange(tiles=[("great_hall", 0, 1, 0)], stacks={(0, 1): ["lost_echo"]}, turn="isaac")
    g.do("defeat", card="lost_echo")
    g.do("roll")
    assert len(g.events[0]["values"]) == 3 and g.pending.kind == "keep_dice"


def test_charlotte_vision_draws_3_keeps_1_and_puts_the_others_back_on_top_in_any_order(game):
    g = game(4, characters=["charlotte", "ryan", "vane", "timi"]).arrange(event_deck=["cold_sweat_1", "lullaby_1", "dread", "shiver"])
    for _ in range(4):
        g.do("end_turn")
    assert g.pending.kind == "vision" and g.pending.cards == ("cold_sweat_1", "lullaby_1", "dread")
    g.do("vision", keep="lullaby_1", back=["dread", "cold_sweat_1"])
    assert g.char("charlotte").chains == 1
    assert g.state.event_deck.top == ("dread", "cold_sweat_1", "shiver")


def test_charlotte_vision_also_applies_to_item_cards(game):
    g = game(4, characters=["charlotte", "ryan", "vane", "timi"]).arrange(
        tiles=[("library", 0, 1, 0)],
        chars={"charlotte": {"cell": (0, 1)}},
        item_deck=["candle_1", "clover", "warm_milk_1", "lucky_coin"],
    )
    g.do("search", nook=0)
    g.roll(5, 5)  # 10 + Intelligence 5
    assert g.pending.kind == "vision" and g.pending.cards == ("candle_1", "clover", "warm_milk_1")
    g.do("vision", keep="clover", back=["warm_milk_1", "candle_1"])
    assert g.char("charlotte").items == ("clover",)
    assert g.state.item_deck.top == ("warm_milk_1", "candle_1", "lucky_coin")


def test_vane_uses_and_gives_items_for_0_ap_to_any_character(game):
    g = game(4, characters=["vane", "ryan", "chloe", "timi"]).arrange(
        tiles=[("great_hall", 0, 1, 0), ("chapel", 0, 2, 0)],
        chars={"vane": {"items": ["candle_1", "warm_milk_1"]}, "chloe": {"cell": (0, 2)}},
    )
    g.arrange(chars={"vane": {"ap": 0}})  # 0 AP actions remain possible at 0 AP
    g.do("use_item", item="candle_1", target="chloe")
    g.do("give_item", item="warm_milk_1", to="chloe")
    assert g.char("vane").ap == 0
    assert g.char("chloe").chains == 1 and g.char("chloe").items == ("warm_milk_1",)


def test_vane_cannot_receive_items_from_other_characters(game):
    g = game(4, characters=["ryan", "vane", "chloe", "timi"]).arrange(chars={"ryan": {"items": ["candle_1"]}})
    refusal = g.refuse("give_item", item="candle_1", to="vane")
    assert refusal.code == "refuses_alms" and "Pride of the Aristocrat" in refusal.message


def test_timi_ignores_howling_when_she_draws_for_exploring(game):
    g = game(4).arrange(howling=["howling_1", "howling_2"], castle_deck=["great_hall"], event_deck=["lullaby_1", "lullaby_2", "cold_sweat_1"], turn="timi")
    g.do("explore")
    g.do("place_tile", at=[0, 1], rotation=0)
    assert [e["card"] for e in g.events if e["type"] == "event_drawn"] == ["lullaby_1"]


def test_timi_ignores_howling_when_she_draws_for_the_daemon(game):
    g = game(4, first_player="timi").arrange(howling=["howling_1"], event_deck=["lullaby_1", "lullaby_2"])
    for _ in range(4):
        g.do("end_turn")
    assert [e["card"] for e in g.events if e["type"] == "event_drawn"] == ["lullaby_1"]


def test_timi_gives_and_takes_chains_for_0_ap_with_any_character(game):
    g = game(4).arrange(tiles=[("great_hall", 0, 1, 0), ("chapel", 0, 2, 0)], chars={"ryan": {"cell": (0, 2)}, "timi": {"ap": 0}}, turn="timi")
    g.do("take_chains", **{"from": "ryan", "count": 2})
    g.do("give_chains", to="ryan", count=1)
    assert (g.char("timi").chains, g.char("ryan").chains, g.char("timi").ap) == (3, 1, 0)
