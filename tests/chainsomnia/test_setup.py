"""Game Setup and "Playing with 1 to 3 Players" (rulebook pages 3 and 17)."""

from __future__ import annotations

import pytest

from companion.chainsomnia import RULES
from companion.rules import IllegalAction


@pytest.mark.parametrize(
    ("players", "seats"),
    [(1, [3]), (2, [2, 2]), (3, [1, 1, 1]), (4, [1, 1, 1, 1])],
)
def test_setup_solo_controls_3_two_players_2_each_three_and_four_players_1_each(players, seats):
    state = RULES.new_game({"players": players, "seed": 5})
    assert [len(s) for s in state.options.seats] == seats
    assert len(state.characters) == sum(seats)
    assert len({c.id for c in state.characters}) == sum(seats)


def test_setup_take_2_chain_tokens_and_ap_marker_on_first_visible_number(game):
    g = game(4)
    for c in g.state.characters:
        assert c.chains == 2
        board = g.state.catalog.characters[c.id]
        assert c.ap == board.chain_gauge[2]  # the first number left uncovered by 2 tokens
    assert g.state.current.ap == 3  # the rulebook's example: "the first visible number is 3"


def test_setup_playing_with_3_players_take_only_one_chain(game):
    g = game(3)
    assert all(c.chains == 1 for c in g.state.characters)


def test_setup_character_tiles_start_on_the_chainsomnia_tile(game):
    g = game(4)
    start = next(p for p in g.state.castle if p.tile == "chainsomnia")
    assert all(c.cell == start.cell for c in g.state.characters)


@pytest.mark.parametrize("players", [1, 3])
def test_setup_solo_and_3_players_lay_3_tiles_connected_to_chainsomnia_without_events(game, players):
    g = game(players)
    assert g.pending.kind == "place_tile" and g.pending.context == "setup"
    for _ in range(3):
        option = g.legal()[0]
        g.act(option)
        assert "event_drawn" not in g.types()
    assert len(g.state.castle) == 4
    geo = g.state.geometry()
    assert len(geo.neighbours[(0, 0)]) == 3  # every laid tile opens onto the CHAINsomnia tile
    assert g.state.event_deck.size == 40
    assert g.state.phase == "players"


@pytest.mark.parametrize("players", [2, 4])
def test_setup_two_and_four_players_start_with_the_chainsomnia_tile_alone(game, players):
    g = game(players)
    assert len(g.state.castle) == 1 and g.pending is None


def test_setup_normal_mode_castle_deck_is_16_tiles_then_wake_up(game):
    g = game(4, mode="normal")
    deck = g.state.castle_deck
    assert deck.size == 17
    assert deck.bottom[-1] == "wake_up"
    assert len(g.state.boxed) == 4  # 4 tiles put back in the box unseen
    assert "chainsomnia" not in deck.top and "wake_up" not in deck.top


def test_setup_beginner_mode_castle_deck_is_5_tiles_then_wake_up(game):
    g = game(4, mode="beginner")
    assert g.state.castle_deck.size == 6
    assert g.state.castle_deck.bottom == ("wake_up",)


def test_setup_characters_chosen_at_random_from_the_seed():
    a = RULES.new_game({"players": 4, "seed": 11})
    b = RULES.new_game({"players": 4, "seed": 11})
    assert a.options.characters == b.options.characters
    picks = {RULES.new_game({"players": 4, "seed": s}).options.characters for s in range(12)}
    assert len(picks) > 1


def test_setup_first_player_token_starts_the_first_round(game):
    g = game(4, first_player="isaac")
    assert g.state.current.id == "isaac"
    assert g.state.characters[g.state.first].id == "isaac"


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"players": 5}, '"players" must be 1, 2, 3 or 4'),
        ({"players": 2, "characters": ["ryan", "chloe"]}, "2 player(s) play 4 characters"),
        ({"players": 4, "characters": ["ryan", "chloe", "isaac", "bob"]}, "no character 'bob'"),
        ({"players": 4, "mode": "hard"}, '"mode" must be one of normal, beginner'),
        ({"players": 4, "colour": "red"}, 'unknown setup option "colour"'),
        ({"players": 4, "event_deck": ["howling_1", "howling_1"]}, "lists a card twice"),
    ],
)
def test_setup_refuses_bad_options_with_a_sentence(options, words):
    with pytest.raises(IllegalAction) as info:
        RULES.new_game(options)
    assert info.value.code == "bad_setup"
    assert words in info.value.message


def test_setup_physical_decks_wait_for_the_drawn_card(game):
    g = game(1, decks="physical")
    assert g.pending.kind == "draw" and g.pending.deck == "castle"
    assert len(g.legal()) == 20  # any of the 20 room tiles may come up
    g.do("draw", card="library")
    assert g.pending.kind == "place_tile" and g.pending.tile == "library"
    assert g.state.castle_deck.size == 16
