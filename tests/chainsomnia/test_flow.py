"""Gameplay: rounds, players' turns, AP, the Daemon's turn and the End of the Round."""

from __future__ import annotations


def test_round_players_in_order_from_first_player_then_daemon_then_token_passes_left(game):
    g = game(4).arrange(event_deck=["lullaby_1", "lullaby_2"])
    seen = [g.state.current.id]
    for _ in range(3):
        g.do("end_turn")
        seen.append(g.state.current.id)
    assert seen == ["ryan", "chloe", "isaac", "timi"]
    g.do("end_turn")
    types = g.types()
    assert types.index("daemon_turn") < types.index("event_drawn") < types.index("round_ended")
    daemon = next(e for e in g.events if e["type"] == "daemon_turn")
    assert daemon["character"] == "ryan"  # the First Player draws for the Daemon
    assert g.state.round == 2
    assert g.state.characters[g.state.first].id == "chloe"
    assert g.state.current.id == "chloe"


def test_round_solo_first_player_token_passes_to_the_next_character(game):
    g = game(1)
    while g.pending is not None:
        g.act(g.legal()[0])
    g.arrange(event_deck=["lullaby_1", "lullaby_2"])
    for _ in range(3):
        g.do("end_turn")
    assert g.state.round == 2 and g.state.current.id == "chloe"


def test_players_turn_ap_is_the_highest_visible_number_on_the_chain_gauge(game):
    g = game(4).arrange(chars={"chloe": {"chains": 0}}, event_deck=["lullaby_1"])
    g.do("end_turn")
    assert g.state.current.id == "chloe" and g.state.current.ap == 5


def test_players_turn_ap_are_set_at_the_start_of_the_turn_not_when_chains_change(game):
    g = game(4)
    g.do("give_chains", to="chloe", count=2)  # Ryan: 0 chains now, but his AP stay 3 - 1
    assert g.char("ryan").chains == 0 and g.char("ryan").ap == 2
    g.do("end_turn")
    gauge = g.state.catalog.characters["chloe"].chain_gauge
    assert g.state.current.id == "chloe" and g.char("chloe").chains == 4 and g.char("chloe").ap == gauge[4] == 2


def test_players_turn_unused_ap_are_lost(game):
    g = game(4).arrange(event_deck=["lullaby_2", "cold_sweat_1"])
    events = g.do("end_turn")
    assert events[0]["ap_lost"] == 3
    assert g.char("ryan").ap == 0
    for _ in range(3):
        g.do("end_turn")  # the Daemon's Lullaby takes Ryan's 2 chains down to 1
    for _ in range(3):
        g.do("end_turn")  # round 2: Chloe, Isaac, Timi, then Ryan
    assert g.state.current.id == "ryan"
    assert g.char("ryan").ap == g.state.catalog.characters["ryan"].chain_gauge[1]  # 4, not 3 + 4


def test_players_turn_actions_that_cost_no_ap_remain_possible_at_0_ap(game):
    g = game(4).arrange(chars={"ryan": {"ap": 0, "items": ["candle_1"]}})
    assert g.refuse("explore").code == "no_ap"
    assert {"type": "discard_item", "item": "candle_1"} in g.legal()
    g.do("discard_item", item="candle_1")
    assert g.char("ryan").items == () and g.state.item_discard == ("candle_1",)


def test_chains_and_cages_a_caged_character_skips_their_turn(game):
    g = game(4).arrange(chars={"chloe": {"chains": 6}})
    g.do("end_turn")
    assert "turn_skipped" in g.types()
    assert g.state.current.id == "isaac"


def test_chains_and_cages_caught_in_a_cage_during_the_turn_ends_actions_at_once(game):
    g = game(4).arrange(chars={"ryan": {"chains": 5}})
    g.do("take_chains", **{"from": "chloe", "count": 1})
    assert g.char("ryan").chains == 6
    ended = next(e for e in g.events if e["type"] == "turn_ended")
    assert ended["why"] == "caged" and ended["ap_lost"] == 2  # AP left are not carried over
    assert g.state.current.id == "chloe"


def test_daemon_turn_bad_dream_goes_on_the_first_players_tile_on_top_of_any_there(game):
    g = game(4).arrange(stacks={(0, 0): ["creaking_doll"]}, event_deck=["lost_echo", "lullaby_1"])
    for _ in range(4):
        g.do("end_turn")
    # everyone else on the tile is frightened; the CHAINsomnia tile has no neighbour yet
    assert g.stack(0, 0) == ("creaking_doll", "lost_echo")
    placed = next(e for e in g.events if e["type"] == "bad_dream_placed")
    assert placed["on_top_of"] == "creaking_doll"


def test_daemon_turn_draws_1_plus_1_per_howling(game):
    g = game(4).arrange(howling=["howling_1", "howling_2"], event_deck=["lullaby_1", "lullaby_2", "cold_sweat_1", "dread"])
    for _ in range(4):
        g.do("end_turn")
    drawn = [e["card"] for e in g.events if e["type"] == "event_drawn"]
    assert drawn == ["lullaby_1", "lullaby_2", "cold_sweat_1"]
