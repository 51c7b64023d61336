"""The engine's promises: JSON round trip, secret-free views, chance and choice nodes, narration."""

from __future__ import annotations

import json

import pytest

from companion.chainsomnia import RULES
from companion.chainsomnia.simulate import Chooser, greedy_policy, random_policy
from companion.rules import IllegalAction


def walk(options, steps, policy=random_policy, seed=0):
    """Yields (state, action, next_state, events) along a game played by ``policy``."""
    chooser = Chooser(seed)
    state = RULES.new_game(options)
    for _ in range(steps):
        if RULES.is_over(state):
            return
        action = policy(state, RULES.legal_actions(state), chooser)
        nxt, events = RULES.apply(state, action)
        yield state, action, nxt, events
        state = nxt


@pytest.mark.parametrize("decks", ["digital", "physical"])
def test_state_json_round_trips_exactly(decks):
    for seed in range(6):
        options = {"players": seed % 4 + 1, "seed": seed, "decks": decks, "dice": "physical" if seed % 2 else "virtual"}
        for state, _action, _nxt, _events in walk(options, 150, seed=seed):
            data = RULES.state_to_json(state)
            again = RULES.state_from_json(json.loads(json.dumps(data)))
            assert again == state
            assert RULES.state_to_json(again) == data


def test_state_json_carries_what_a_ui_draws():
    state = RULES.new_game({"players": 1, "seed": 3})
    data = RULES.state_to_json(state)
    tile = data["castle"][0]
    assert tile["name"] == "CHAINsomnia" and tile["door_sides"] == ["north", "east", "south", "west"]
    assert {"x", "y", "rotation", "door_colour"} <= set(tile)


def test_state_from_json_refuses_other_data():
    with pytest.raises(ValueError, match="not a CHAINsomnia state"):
        RULES.state_from_json({"game": "somnicum"})
    data = RULES.state_to_json(RULES.new_game({"players": 2}))
    data["round"] = "three"
    with pytest.raises(ValueError, match=r"state.round: must be a whole number"):
        RULES.state_from_json(data)


def test_view_never_contains_deck_order_or_the_seed():
    state = RULES.new_game({"players": 4, "seed": 987654321})
    for seat in (None, 0, 3):
        text = json.dumps(RULES.view(state, seat))
        assert "987654321" not in text and str(state.rng) not in text
        # the next cards of each deck are not named anywhere in the view
        for deck in (state.event_deck, state.item_deck, state.castle_deck):
            assert deck.top[0] not in text
        assert all(t not in text for t in state.boxed)
    public = RULES.view(state, None)
    assert public["decks"] == {"castle": 17, "event": 40, "item": 20}


def test_view_shows_the_cards_of_a_vision_only_to_the_seat_that_controls_charlotte(game):
    g = game(4, characters=["ryan", "charlotte", "vane", "timi"]).arrange(event_deck=["cold_sweat_1", "lullaby_1", "dread"], turn="charlotte")
    g.arrange(castle_deck=["great_hall"])
    g.do("explore")
    g.do("place_tile", at=[0, 1], rotation=0)
    assert g.pending.kind == "vision"
    assert "cards" in RULES.view(g.state, 1)["pending"]
    assert "cards" not in RULES.view(g.state, 0)["pending"]
    assert "cards" not in RULES.view(g.state, None)["pending"]
    assert "lullaby_1" not in json.dumps(RULES.view(g.state, None))


def test_view_refuses_a_seat_that_does_not_exist():
    with pytest.raises(ValueError):
        RULES.view(RULES.new_game({"players": 2}), 2)


def test_choices_while_a_decision_is_pending_its_answers_are_the_only_legal_actions():
    kinds = {"roll": {"roll", "dice"}, "keep_dice": {"keep_dice"}, "clover": {"reroll", "keep_roll"}, "draw": {"draw"},
             "vision": {"vision"}, "place_tile": {"place_tile"}, "flee": {"flee"}, "discard_excess": {"discard_item"},
             "discard_items": {"discard_items"}, "choose_tile": {"choose_tile"}}
    seen = set()
    for seed in range(30):
        options = {"players": seed % 4 + 1, "seed": seed, "decks": "physical" if seed % 3 == 0 else "digital"}
        for state, _a, _n, _e in walk(options, 400, policy=greedy_policy if seed % 2 else random_policy, seed=seed):
            if state.pending is not None:
                seen.add(state.pending.kind)
                legal = RULES.legal_actions(state)
                assert legal and {a["type"] for a in legal} <= kinds[state.pending.kind]
                with pytest.raises(IllegalAction) as info:
                    RULES.apply(state, {"type": "end_turn"})
                assert info.value.code == "pending"
    assert {"roll", "place_tile", "draw", "discard_excess"} <= seen


def test_chance_physical_dice_are_given_by_value_and_virtual_dice_rolled_by_the_engine(game):
    g = game(4, dice="physical").arrange(tiles=[("library", 0, 1, 0)], chars={"ryan": {"cell": (0, 1)}})
    g.do("search", nook=0)
    assert g.refuse("roll").code == "physical_dice"
    assert g.refuse("dice", values=[7, 1]).code == "bad_dice"
    assert g.refuse("dice", values=[1]).code == "bad_dice"
    assert len(g.legal()) == 21  # every unordered pair of dice
    g.do("dice", values=[1, 1], source="camera")
    assert g.pending is None


def test_chance_virtual_dice_are_rolled_by_the_app_not_typed(game):
    g = game(4, dice="virtual").arrange(tiles=[("library", 0, 1, 0)], chars={"ryan": {"cell": (0, 1)}})
    g.do("search", nook=0)
    assert g.legal() == [{"type": "roll"}]
    refusal = g.refuse("dice", values=[6, 6])
    assert refusal.code == "virtual_dice" and "virtual dice" in refusal.message


def test_chance_virtual_dice_follow_the_seed(game):
    rolls = []
    for _ in range(2):
        g = game(4, seed=42, dice="virtual").arrange(tiles=[("library", 0, 1, 0)], chars={"ryan": {"cell": (0, 1)}})
        g.do("search", nook=0)
        g.do("roll")
        rolls.append(g.events[0]["values"])
    assert rolls[0] == rolls[1]


def test_chance_a_physical_deck_takes_the_drawn_cards_identity(game):
    g = game(4, decks="physical").arrange()
    for _ in range(4):
        g.do("end_turn")
    assert g.pending.kind == "draw" and g.pending.deck == "event"
    assert len(g.legal()) == 40
    refusal = g.refuse("draw", card="no_such_card")
    assert refusal.code == "not_in_deck"
    g.do("draw", card="howling")  # a card named by its entry: any unseen copy
    assert g.state.howling == ("howling_1",)
    assert "howling_1" not in g.state.event_deck.pool and g.state.event_deck.size == 39


def test_refusals_cite_the_rule_in_plain_words(game):
    g = game(4).arrange(tiles=[("library", 0, 1, 0)], stacks={(0, 1): ["creaking_doll"]})
    refusal = g.refuse("move", to=[0, 1])
    assert refusal.message == "Ryan cannot move into the Library: a Bad Dream is there"
    assert g.refuse("move", to=[5, 5]).message == "There is no Room Tile at (5, 5)"
    assert g.refuse("end_turn", character="chloe").message == "It is Ryan's turn, not Chloe's"
    assert "needs a \"to\" field" in g.refuse("move").message
    with pytest.raises(IllegalAction) as info:
        RULES.apply(g.state, ["move"])  # type: ignore[arg-type]
    assert info.value.code == "bad_action"


def test_describe_tells_one_line_and_put_back_undoes_the_table(game):
    g = game(4).arrange(castle_deck=["great_hall"], event_deck=["crawling_ink", "lullaby_1"])
    g.do("explore")
    assert RULES.describe({"type": "explore"}, g.events) == "Ryan explores."
    assert RULES.put_back({"type": "explore"}, g.events) == [
        "Put the Great Hall tile back on top of the Castle deck",
        "Set Ryan's AP marker back to 3",
    ]
    events = g.do("place_tile", at=[0, 1], rotation=0)
    text = RULES.describe({"type": "place_tile"}, events)
    assert "\n" not in text and "Great Hall" in text and "Crawling Ink" in text
    assert RULES.put_back({"type": "place_tile"}, events) == [
        "Take 1 chain off Ryan",
        "Take Crawling Ink off the Great Hall and put it back on top of the Event deck",
        "Put the Great Hall tile back on top of the Castle deck",
    ]


def test_put_back_names_chains_items_and_the_first_player_token(game):
    g = game(4).arrange(chars={"ryan": {"items": ["candle_1"]}}, event_deck=["lullaby_1", "dread"])
    events = g.do("use_item", item="candle_1", target="chloe")
    assert RULES.put_back({"type": "use_item"}, events) == [
        "Put 1 chain back on Chloe",
        "Take Candle from the Item discard pile back into Ryan's Item area",
        "Set Ryan's AP marker back to 3",
    ]
    for _ in range(3):
        g.do("end_turn")
    events = g.do("end_turn")
    sentences = RULES.put_back({"type": "end_turn"}, events)
    assert sentences[0] == "Give the First Player token back to Ryan"
    assert "Take Lullaby from beside Ryan's board and put it back on top of the Event deck" in sentences


def test_a_physical_draw_is_told_by_the_cards_name_never_its_id():
    import random

    state = RULES.new_game({"players": 2, "seed": 3, "dice": "physical", "decks": "physical"})
    rng = random.Random(1)
    told = []
    for _ in range(400):
        action = rng.choice(RULES.legal_actions(state))
        state, events = RULES.apply(state, action)
        if action["type"] == "draw":
            told.append((action["card"], RULES.describe(action, events)))
        if RULES.is_over(state) or len(told) >= 6:
            break
    assert len(told) >= 3
    for card, text in told:
        assert card not in text, text  # "Gallery is drawn.", not "drawn: gallery"
        assert "drawn: " not in text
