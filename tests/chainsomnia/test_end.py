"""End of the Game: Victory and the two ways to lose."""

from __future__ import annotations

from companion.chainsomnia import RULES


def test_victory_all_bad_dreams_discarded_and_a_character_on_wake_up(game):
    g = game(4).arrange(tiles=[("wake_up", 0, 1, 0)])
    g.do("move", to=[0, 1])
    assert g.state.result == "victory" and g.state.phase == "over"
    assert g.types()[-1] == "victory"
    assert RULES.is_over(g.state) and RULES.legal_actions(g.state) == []
    assert g.refuse("end_turn").code == "game_over"


def test_victory_needs_bad_dreams_in_item_areas_discarded_too(game):
    g = game(4).arrange(tiles=[("wake_up", 0, 1, 0)], chars={"chloe": {"bad_dreams": ["maledictum"]}})
    g.do("move", to=[0, 1])
    assert g.state.result == ""
    g.do("defeat", card="maledictum")
    g.roll(6, 6)
    assert g.state.result == "victory"


def test_victory_needs_every_bad_dream_on_the_tiles_discarded(game):
    g = game(4).arrange(tiles=[("wake_up", 0, 1, 0), ("library", 1, 0, 1)], stacks={(1, 0): ["lost_echo"]})
    g.do("move", to=[0, 1])
    assert g.state.result == ""


def test_victory_with_the_exception_of_howling(game):
    g = game(4).arrange(tiles=[("wake_up", 0, 1, 0)], howling=["howling_1", "howling_2"])
    g.do("move", to=[0, 1])
    assert g.state.result == "victory"


def test_defeat_all_characters_locked_in_cages_with_4_players(game):
    caged = {cid: {"chains": 6} for cid in ("ryan", "chloe", "isaac")}
    g = game(4).arrange(chars={**caged, "timi": {"chains": 4}}, event_deck=["dread", "lullaby_1"], turn="timi")
    g.do("take_chains", **{"from": "ryan", "count": 1})
    assert g.state.result == ""  # three in Cages is not yet the end with 4 players
    g.do("end_turn")  # the Daemon's Dread: Timi's sixth chain
    assert g.state.result == "defeat" and g.state.cause == "caged"
    assert g.types()[-1] == "defeat"


def test_defeat_with_1_or_2_players_when_2_characters_are_caged(game):
    g = game(2).arrange(chars={"chloe": {"chains": 6}, "ryan": {"chains": 5}}, event_deck=["cold_sweat_1", "lullaby_1"])
    g.do("end_turn")  # Ryan
    g.do("end_turn")  # Isaac (Chloe is caged and skipped)
    g.do("end_turn")  # Timi, then the Daemon's Cold Sweat on Ryan: a second Cage
    assert g.state.result == "defeat" and g.state.cause == "caged"
    # one caged character of each player is 2 as well (ruling)
    g = game(2).arrange(chars={"chloe": {"chains": 6}, "isaac": {"chains": 5}})
    assert g.state.options.seats == (("ryan", "chloe"), ("isaac", "timi"))
    g.do("give_chains", to="isaac", count=1)
    assert g.state.result == "defeat" and g.state.cause == "caged"


def test_defeat_playing_solo_when_2_of_the_3_characters_are_caged(game):
    g = game(1)
    while g.pending is not None:
        g.act(g.legal()[0])
    g.arrange(chars={"chloe": {"chains": 6}, "ryan": {"chains": 4}})
    g.do("take_chains", **{"from": "timi", "count": 2})
    assert g.char("ryan").chains == 6
    assert g.state.result == "defeat" and g.state.cause == "caged"


def test_defeat_with_3_players_all_3_must_be_caged(game):
    g = game(3)
    while g.pending is not None:
        g.act(g.legal()[0])
    g.arrange(chars={"chloe": {"chains": 6}, "timi": {"chains": 6}}, event_deck=["lullaby_1", "lullaby_2"])
    g.do("end_turn")
    assert g.state.result == ""


def test_defeat_when_the_event_deck_is_exhausted(game):
    g = game(4).arrange(event_deck=["lullaby_1"])
    for _ in range(4):
        g.do("end_turn")
    assert g.state.result == "" and g.state.event_deck.size == 0
    for _ in range(4):
        g.do("end_turn")
    assert g.state.result == "defeat" and g.state.cause == "event_deck_empty"
    assert RULES.result(g.state)["result"] == "defeat"
