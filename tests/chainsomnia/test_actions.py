"""The actions of a turn: b) move, c) search a Secret Nook, d) use, e) give Items, f) chains."""

from __future__ import annotations

from companion.chainsomnia import RULES


def test_move_to_an_adjacent_room_costs_1_ap(game):
    g = game(4).arrange(tiles=[("great_hall", 0, 1, 0)])
    g.do("move", to=[0, 1])
    assert g.char("ryan").cell == (0, 1) and g.char("ryan").ap == 2


def test_bad_dreams_you_cannot_move_onto_a_bad_dream_room_tile(game):
    g = game(4).arrange(tiles=[("library", 0, 1, 0)], stacks={(0, 1): ["creaking_doll"]}, turn="chloe")
    refusal = g.refuse("move", to=[0, 1])
    assert refusal.code == "bad_dream_there"
    assert refusal.message == "Chloe cannot move into the Library: a Bad Dream is there"
    assert {"type": "move", "to": [0, 1]} not in g.legal()


def test_bad_dreams_prevent_characters_from_moving_out_of_their_tile(game):
    g = game(4).arrange(tiles=[("great_hall", 0, 1, 0)], stacks={(0, 0): ["creaking_doll"]})
    assert g.refuse("move", to=[0, 1]).code == "trapped"
    assert not [a for a in g.legal() if a["type"] == "move"]


def test_search_a_secret_nook_research_test_of_2_dice_plus_attribute_gives_the_reward(game):
    # Library: Intelligence 10+ draws 1 Item; Ryan's Intelligence is 3.
    g = game(4).arrange(tiles=[("library", 0, 1, 0)], chars={"ryan": {"cell": (0, 1)}}, item_deck=["candle_1", "candle_2"])
    g.do("search", nook=0)
    assert g.pending.kind == "roll" and g.pending.count == 2
    g.roll(4, 3)
    test = next(e for e in g.events if e["type"] == "test")
    assert test["total"] == 10 and test["success"]
    assert g.char("ryan").items == ("candle_1",)


def test_search_a_secret_nook_failed_research_test_gives_nothing(game):
    g = game(4).arrange(tiles=[("library", 0, 1, 0)], chars={"ryan": {"cell": (0, 1)}}, item_deck=["candle_1"])
    g.do("search", nook=0)
    g.roll(3, 3)
    assert g.char("ryan").items == ()
    assert g.char("ryan").ap == 2


def test_search_a_secret_nook_chain_icon_takes_1_chain_on_every_attempt(game):
    # Gallery: Luck 10+ with the Chain icon.
    g = game(4).arrange(tiles=[("gallery", 1, 0, 0)], chars={"ryan": {"cell": (1, 0)}}, item_deck=["candle_1", "candle_2"])
    g.do("search", nook=0)
    assert g.char("ryan").chains == 3
    g.roll(1, 1)
    g.do("search", nook=0)
    assert g.char("ryan").chains == 4
    g.roll(6, 6)
    assert g.char("ryan").chains == 4 and len(g.char("ryan").items) == 2


def test_search_a_secret_nook_rewards_may_be_obtained_again(game):
    g = game(4).arrange(tiles=[("library", 0, 1, 0)], chars={"ryan": {"cell": (0, 1)}}, item_deck=["candle_1", "candle_2"])
    for _ in range(2):
        g.do("search", nook=0)
        g.roll(6, 6)
    assert g.char("ryan").items == ("candle_1", "candle_2")


def test_about_item_cards_with_3_items_discard_at_once_down_to_2(game):
    g = game(4).arrange(
        tiles=[("library", 0, 1, 0)],
        chars={"ryan": {"cell": (0, 1), "items": ["candle_1", "warm_milk_1"]}},
        item_deck=["clover"],
    )
    g.do("search", nook=0)
    g.roll(6, 6)
    assert g.pending.kind == "discard_excess"
    assert {a["type"] for a in g.legal()} == {"discard_item"}
    assert g.refuse("end_turn").code == "pending"
    g.do("discard_item", item="candle_1")
    assert g.pending is None and g.char("ryan").items == ("warm_milk_1", "clover")


def test_about_item_cards_a_character_given_a_third_item_discards_down_to_2(game):
    g = game(4).arrange(chars={"ryan": {"items": ["candle_1"]}, "chloe": {"items": ["clover", "warm_milk_1"]}})
    g.do("give_item", item="candle_1", to="chloe")
    assert g.pending.kind == "discard_excess" and g.pending.who == "chloe"
    assert g.refuse("discard_item", item="candle_1", character="ryan").code == "not_your_choice"
    g.do("discard_item", item="clover", character="chloe")
    assert g.char("chloe").items == ("warm_milk_1", "candle_1") and g.pending is None


def test_use_an_item_consumable_costs_1_ap_and_goes_to_the_discard_pile(game):
    g = game(4).arrange(chars={"ryan": {"items": ["candle_1"]}})
    g.do("use_item", item="candle_1", target="chloe")
    assert g.char("chloe").chains == 1
    assert g.char("ryan").ap == 2 and g.char("ryan").items == ()
    assert g.state.item_discard == ("candle_1",)


def test_use_an_item_equipable_stays_and_costs_no_ap_unless_the_card_says_so(game):
    g = game(4).arrange(chars={"ryan": {"items": ["royal_doudou", "clover"]}})
    refusal = g.refuse("use_item", item="clover")
    assert refusal.code == "passive_item"
    g.do("use_item", item="royal_doudou", target="chloe")  # printed exception: 1 AP
    g.do("use_item", item="royal_doudou", target="isaac")
    assert g.char("ryan").items == ("royal_doudou", "clover")
    assert g.char("ryan").ap == 1
    assert (g.char("chloe").chains, g.char("isaac").chains) == (1, 1)


def test_use_an_item_refuses_a_choice_the_card_does_not_make(game):
    g = game(4).arrange(chars={"ryan": {"items": ["warm_milk_1", "candle_1"]}})
    refusal = g.refuse("use_item", item="warm_milk_1", target="chloe")  # Warm Milk: the user's own chains
    assert refusal.code == "bad_action" and 'takes no "target"' in refusal.message
    assert g.refuse("use_item", item="candle_1", target="chloe", to=[0, 1]).code == "bad_action"


def test_actions_d_to_f_reach_the_same_room_or_an_adjacent_one(game):
    # Library (1, 0) is adjacent to CHAINsomnia; Chapel turned once (2, 0) is not.
    g = game(4).arrange(
        tiles=[("library", 1, 0, 1), ("chapel", 2, 0, 1)],
        chars={"ryan": {"items": ["candle_1", "candle_2"]}, "chloe": {"cell": (1, 0)}, "isaac": {"cell": (2, 0)}},
    )
    g.do("give_item", item="candle_1", to="chloe")
    assert g.refuse("give_item", item="candle_2", to="isaac").code == "out_of_reach"
    assert g.refuse("give_chains", to="isaac", count=1).code == "out_of_reach"
    assert g.refuse("use_item", item="candle_2", target="isaac").code == "out_of_reach"
    g.do("use_item", item="candle_2", target="chloe")
    assert g.char("chloe").items == ("candle_1",) and g.char("chloe").chains == 1


def test_give_an_item_you_cannot_take_items_from_another_character(game):
    g = game(4).arrange(chars={"chloe": {"items": ["candle_1"]}})
    assert g.refuse("take_item", item="candle_1", **{"from": "chloe"}).code == "unknown_action"
    assert not [a for a in g.legal() if a.get("item") == "candle_1"]


def test_give_or_take_chains_any_number_for_1_ap(game):
    g = game(4)
    g.do("give_chains", to="chloe", count=2)
    assert (g.char("ryan").chains, g.char("chloe").chains, g.char("ryan").ap) == (0, 4, 2)
    g.do("take_chains", **{"from": "isaac", "count": 1})
    assert (g.char("ryan").chains, g.char("isaac").chains, g.char("ryan").ap) == (1, 1, 1)


def test_chains_and_cages_no_more_than_6_chain_tokens(game):
    g = game(4).arrange(chars={"chloe": {"chains": 5}})
    refusal = g.refuse("give_chains", to="chloe", count=2)
    assert refusal.code == "too_many_chains"
    g.arrange(chars={"ryan": {"items": []}}, event_deck=["rattling_chains", "lullaby_1"])
    g.arrange(chars={"ryan": {"chains": 5}})
    for _ in range(4):
        g.do("end_turn")  # Rattling Chains on Ryan: 2 chains, but no more than 6
    assert g.char("ryan").chains == 6


def test_chains_and_cages_caged_when_no_number_is_visible(game):
    g = game(4).arrange(chars={"chloe": {"chains": 6}})
    public = RULES.view(g.state, None)
    chloe = next(c for c in public["characters"] if c["id"] == "chloe")
    assert chloe["caged"] is True
    g.do("end_turn")
    assert g.state.current.id != "chloe"


def test_use_an_ability_only_abilities_that_cost_ap_are_actions(game):
    g = game(4).arrange(turn="isaac")
    assert g.refuse("ability").code == "no_ability_action"
