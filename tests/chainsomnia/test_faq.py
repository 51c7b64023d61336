"""One test per answer of the rulebook's FAQ, in its order."""

from __future__ import annotations

from companion.chainsomnia import RULES


def end_round(g) -> None:  # noqa: ANN001
    for _ in range(len(g.state.characters)):
        g.do("end_turn")


def test_faq_chloe_cannot_use_her_ability_on_the_tile_where_she_is(game):
    g = game(4).arrange(stacks={(0, 0): ["creaking_doll"]}, turn="chloe")
    refusal = g.refuse("ability", tile=[0, 0])
    assert refusal.code == "own_tile" and "(FAQ)" in refusal.message


def test_faq_ryan_can_move_a_character_to_a_tile_occupied_by_a_bad_dream(game):
    g = game(4).arrange(tiles=[("great_hall", 0, 1, 0)], stacks={(0, 1): ["creaking_doll"]}, chars={"chloe": {"cell": (0, 1)}})
    g.do("ability", target="isaac", to=[0, 1])
    assert g.char("isaac").cell == (0, 1)


def test_faq_ryan_can_move_himself_and_escape_from_bad_dreams(game):
    g = game(4).arrange(tiles=[("great_hall", 0, 1, 0)], stacks={(0, 0): ["creaking_doll"]}, chars={"chloe": {"cell": (0, 1)}})
    assert g.refuse("move", to=[0, 1]).code == "trapped"
    g.do("ability", target="ryan", to=[0, 1])
    assert g.char("ryan").cell == (0, 1)


def test_faq_two_draws_with_charlotte_or_the_mirror_resolve_one_by_one(game):
    g = game(4).arrange(
        chars={"ryan": {"items": ["mirror_of_truth"]}},
        howling=["howling_1"],
        event_deck=["cold_sweat_1", "lullaby_1", "dread", "lullaby_2", "shiver"],
    )
    end_round(g)
    # first draw: 3 cards seen, Lullaby kept and applied before the second draw begins
    assert g.pending.kind == "vision" and g.pending.cards == ("cold_sweat_1", "lullaby_1", "dread")
    g.do("vision", keep="lullaby_1", back=["cold_sweat_1", "dread"])
    assert g.char("ryan").chains == 1
    assert g.pending.kind == "vision" and g.pending.cards == ("cold_sweat_1", "dread", "lullaby_2")
    g.do("vision", keep="lullaby_2", back=["dread", "cold_sweat_1"])
    assert g.char("ryan").chains == 0
    assert g.state.event_deck.top == ("dread", "cold_sweat_1", "shiver")


def test_faq_isaac_doubles_count_only_on_the_2_dice_kept(game):
    g = game(4).arrange(
        tiles=[("great_hall", 0, 1, 0)],
        stacks={(0, 1): ["nightmare_knight"]},
        chars={"isaac": {"items": ["clover"]}},
        turn="isaac",
    )
    g.do("defeat", card="nightmare_knight")
    g.roll(6, 4, 4)
    g.do("keep_dice", values=[6, 4])
    g.do("keep_roll")
    test = next(e for e in g.events if e["type"] == "test")
    assert test["double"] is False and test["success"] is False  # 10 + Strength 2 < 13
    assert g.stack(0, 1) == ("nightmare_knight",)


def test_faq_vane_takes_chains_off_any_character_with_royal_doudou_for_1_ap(game):
    g = game(4, characters=["vane", "ryan", "chloe", "timi"]).arrange(
        tiles=[("great_hall", 0, 1, 0), ("chapel", 0, 2, 0)],
        chars={"vane": {"items": ["royal_doudou"]}, "chloe": {"cell": (0, 2)}},
    )
    g.do("use_item", item="royal_doudou", target="chloe")
    assert g.char("chloe").chains == 1 and g.char("vane").ap == 2


def test_faq_room_tile_or_chloe_discard_takes_the_first_card_of_the_stack(game):
    # Chapel: Intelligence 10+ discards the top Bad Dream of an adjacent Room.
    g = game(4).arrange(
        tiles=[("chapel", 0, 1, 0), ("great_hall", 0, 2, 0)],
        stacks={(0, 2): ["creaking_doll", "lost_echo"]},
        chars={"ryan": {"cell": (0, 1)}},
    )
    g.do("search", nook=0)
    g.roll(6, 6)
    g.do("choose_tile", tile=[0, 2])
    assert g.stack(0, 2) == ("creaking_doll",)
    g.arrange(stacks={(0, 2): ["creaking_doll", "grinning_mask"]}, chars={"chloe": {"cell": (0, 1)}}, turn="chloe")
    g.do("ability", tile=[0, 2])
    assert g.stack(0, 2) == ("creaking_doll",)


def test_faq_frightened_characters_may_flee_onto_a_tile_with_a_bad_dream(game):
    g = game(4).arrange(tiles=[("great_hall", 0, 1, 0)], stacks={(0, 1): ["lost_echo"]}, event_deck=["creaking_doll", "lullaby_1"])
    end_round(g)
    assert g.pending.kind == "flee"
    g.do("flee", to=[0, 1])
    assert g.char("chloe").cell == (0, 1)


def test_faq_discard_piles_and_cards_beside_the_boards_can_be_looked_at_any_time(game):
    g = game(4).arrange(event_deck=["dread", "lullaby_1"], chars={"ryan": {"items": ["candle_1"]}})
    g.do("discard_item", item="candle_1")
    end_round(g)
    public = RULES.view(g.state, None)
    assert public["discards"]["items"] == [{"id": "candle_1", "name": "Candle"}]
    ryan = next(c for c in public["characters"] if c["id"] == "ryan")
    assert ryan["omens"][0]["id"] == "dread"


def test_faq_clover_double_counts_only_on_the_dice_used_after_a_reroll(game):
    g = game(4).arrange(tiles=[("great_hall", 0, 1, 0)], stacks={(0, 1): ["nightmare_knight"]}, chars={"ryan": {"items": ["clover"]}})
    g.do("defeat", card="nightmare_knight")
    g.roll(3, 3)
    assert g.pending.kind == "clover"
    g.do("reroll", die=1)
    g.roll(5)
    test = next(e for e in g.events if e["type"] == "test")
    assert test["dice"] == [3, 5] and test["double"] is False and not test["success"]
    # a double on the dice used does defeat it
    g2 = game(4).arrange(tiles=[("great_hall", 0, 1, 0)], stacks={(0, 1): ["nightmare_knight"]}, chars={"ryan": {"items": ["clover"]}})
    g2.do("defeat", card="nightmare_knight")
    g2.roll(1, 4)
    g2.do("reroll", die=1)
    g2.roll(1)
    assert g2.stack(0, 1) == ()


def test_faq_an_event_card_may_move_characters_onto_a_bad_dream_tile(game):
    g = game(4).arrange(tiles=[("great_hall", 0, 1, 0)], stacks={(0, 1): ["lost_echo"]}, event_deck=["sleepwalking", "lullaby_1"])
    end_round(g)
    assert g.pending.kind == "choose_tile" and (0, 1) in g.pending.options
    g.do("choose_tile", tile=[0, 1])
    assert g.char("ryan").cell == (0, 1)


def test_faq_stacked_bad_dream_cards_can_be_read(game):
    g = game(4).arrange(tiles=[("great_hall", 0, 1, 0)], stacks={(0, 1): ["creaking_doll", "lost_echo"]})
    tile = next(t for t in RULES.view(g.state, None)["castle"] if t["at"] == [0, 1])
    assert [b["name"] for b in tile["bad_dreams"]] == ["Creaking Doll", "Lost Echo"]


def test_faq_light_stone_applies_first_for_a_character_with_the_maximum_chains(game):
    g = game(4).arrange(chars={"chloe": {"chains": 6, "items": ["light_stone"]}})
    g.do("end_turn")
    assert "turn_skipped" not in g.types()
    assert g.state.current.id == "chloe" and g.char("chloe").chains == 5
    assert g.char("chloe").ap == g.state.catalog.characters["chloe"].chain_gauge[5]


def test_faq_timi_ability_does_not_apply_to_cards_drawn_by_an_event_effect(game):
    g = game(4, first_player="timi").arrange(howling=["howling_1"], event_deck=["nightmare_surge", "lullaby_1", "lullaby_2", "cold_sweat_1", "dread"])
    end_round(g)
    drawn = [e["card"] for e in g.events if e["type"] == "event_drawn"]
    # her own Daemon draw ignores Howling (1 card), but Nightmare Surge's 2 cards get +1
    assert drawn == ["nightmare_surge", "lullaby_1", "lullaby_2", "cold_sweat_1"]


def test_faq_new_bad_dream_on_phantasm_frightens_all_but_the_one_who_placed_it(game):
    g = game(4).arrange(
        tiles=[("great_hall", 0, 1, 0)],
        stacks={(0, 0): ["phantasm"]},
        event_deck=["creaking_doll", "lullaby_1"],
    )
    # all four on Phantasm's tile would discard it: keep Timi outside
    g.arrange(chars={"timi": {"cell": (0, 1)}})
    end_round(g)
    assert [e["character"] for e in g.events if e["type"] == "frightened"] == ["chloe", "isaac"]
    assert g.stack(0, 0) == ("phantasm", "creaking_doll")
    g.do("flee", to=[0, 1])
    g.do("flee", to=[0, 1])
    assert g.refuse("move", to=[0, 0]).code == "bad_dream_there"  # Chloe's turn: no way back in


def test_faq_ryan_moving_everyone_onto_a_covered_phantasm_does_not_discard_it(game):
    g = game(4).arrange(
        tiles=[("great_hall", 0, 1, 0)],
        stacks={(0, 1): ["phantasm", "lost_echo"]},
        chars={cid: {"cell": (0, 1)} for cid in ("chloe", "isaac", "timi")},
    )
    g.do("ability", target="ryan", to=[0, 1])
    assert g.stack(0, 1) == ("phantasm", "lost_echo")
