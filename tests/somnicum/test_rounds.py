"""The end of a round and of the game (rulebook: "End of a Round", "End of the Game and
Scoring", "Determining the Winner"). One test per clause."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from somnicum_kit import ALL_TOKENS, CATALOG, apply, at_turn, row

from companion.rules import IllegalAction
from companion.somnicum import RULES
from companion.somnicum.score_sheet import parse_score_sheet
from companion.somnicum.scoring import final_scores

SAND = tuple(t for t in ALL_TOKENS if CATALOG.tokens[t].back == "sand")
BLANK = tuple(t for t in ALL_TOKENS if CATALOG.tokens[t].back == "blank")
FIELD = tuple(f"space_{n:02d}" for n in range(1, 9))


def types(events):
    return [e["type"] for e in events]


def test_a_round_ends_when_only_as_many_cards_remain_as_players():
    state = at_turn(FIELD[:3], flywheels=(0, 1))
    state, events = apply(state, {"type": "move_flywheel", "flywheel": "black", "steps": 3})
    assert "round_ended" not in types(events)  # only after the card is attached
    state, events = apply(state, {"type": "attach", "level": 1})
    ended = next(e for e in events if e["type"] == "round_ended")
    assert ended["reason"] == "cards" and ended["round"] == 1
    assert state.round == 2


def test_a_round_ends_when_no_card_is_left_between_the_flywheels_and_a_blank_back_is_drawn():
    # Only blank-backed tokens are left in the bag (Ben holds every sand one).
    state = at_turn(FIELD, flywheels=(0, 1), supplies=((), SAND))
    state, events = apply(state, {"type": "move_flywheel", "flywheel": "black", "steps": 1})
    assert state.flywheels[0] == state.flywheels[1]
    assert "round_ending" in types(events)
    drawn = state.players[0].supply
    assert len(drawn) == 2 and all(t in BLANK for t in drawn)  # the player keeps them
    assert state.phase == "attach"  # the player still takes and attaches the card
    state, events = apply(state, {"type": "attach", "level": 1})
    assert next(e for e in events if e["type"] == "round_ended")["reason"] == "flywheels"
    assert state.players[0].dream[0].cards[0].card == FIELD[0]
    assert state.players[0].supply == drawn


def test_flywheels_meeting_do_not_end_the_round_when_every_drawn_back_shows_sand():
    state = at_turn(FIELD, flywheels=(0, 1), supplies=((), BLANK))  # only sand backs in the bag
    state, events = apply(state, {"type": "move_flywheel", "flywheel": "black", "steps": 1})
    assert state.flywheels[0] == state.flywheels[1] and "round_ending" not in types(events)
    state, events = apply(state, {"type": "attach", "level": 1})
    assert "round_ended" not in types(events) and state.round == 1


def test_explanation_moving_3_or_more_steps_cannot_end_the_round_by_the_flywheels():
    state = at_turn(FIELD, flywheels=(0, 3), supplies=((), SAND))
    state, events = apply(state, {"type": "move_flywheel", "flywheel": "black", "steps": 3})
    assert state.flywheels[0] == state.flywheels[1]  # no card between them...
    state, events = apply(state, {"type": "attach", "level": 1})
    assert "round_ended" not in types(events)  # ...but no token was drawn


def test_the_next_round_lays_a_new_field_from_the_cards_put_aside():
    state = at_turn(FIELD[:3], flywheels=(0, 1))
    deck = set(state.deck)
    state, events = apply(state, {"type": "move_flywheel", "flywheel": "black", "steps": 3},
                          {"type": "attach", "level": 1})
    assert len(state.field) == 16 and set(state.field) <= deck
    assert set(state.out_of_play) == set(FIELD[:2])  # the cards left on the field leave the game
    assert "field_laid" in types(events)


def test_the_new_first_player_sits_left_of_the_player_whose_turn_ended_the_round():
    state = at_turn(FIELD[:4], flywheels=(0, 1), players=3, seat=1)
    state, _ = apply(state, {"type": "move_flywheel", "flywheel": "black", "steps": 3},
                     {"type": "attach", "level": 1})
    assert state.round == 2 and state.first_player == 2
    # The player to the right of the new first player places the flywheels, as at the start.
    assert state.phase == "place_flywheels" and state.actor == 1
    state, _ = apply(state, {"type": "place_flywheels", "gap": 4})
    assert state.turn == 2


def test_no_starting_tokens_are_dealt_in_the_second_and_third_rounds():
    state = at_turn(FIELD[:3], flywheels=(0, 1), supplies=(("rocket_1",), ("planet_1", "planet_2")))
    state, _ = apply(state, {"type": "move_flywheel", "flywheel": "black", "steps": 3},
                     {"type": "attach", "level": 1})
    assert state.round == 2
    assert [len(p.supply) for p in state.players] == [1, 2]


def test_dreams_tokens_meeting_and_goal_cards_are_kept_until_the_end_of_the_game():
    dream = (row("fairy_tale_01", "fairy_tale_11"), row(), row())
    state = at_turn(FIELD[:3], flywheels=(0, 1), dreams=(dream,), hands=(("sand_owl_1",),))
    goal = state.players[0].goal
    state, _ = apply(state, {"type": "move_flywheel", "flywheel": "black", "steps": 3},
                     {"type": "attach", "level": 1})
    me = state.players[0]
    assert [c.card for c in me.dream[0].cards] == ["fairy_tale_01", "fairy_tale_11", FIELD[2]]
    assert me.hand == ("sand_owl_1",) and me.goal == goal


def _last_turn_of_the_game(supplies=((), ())):
    """Round 3, two cards on the field past the players: Ana's move and card end the game.

    Ana: castle (3) + the card she takes, planet (2): 5. Ben: unicorn (3) + crown (2): 5.
    Neither dream shows a particle of its owner's Goal card."""
    dreams = (
        (row("fairy_tale_01"), row(), row()),
        (row("fairy_tale_03", "fairy_tale_06", gaps="g"), row(), row()),
    )
    state = at_turn(("space_03", "space_04", "space_02"), flywheels=(0, 1), dreams=dreams,
                    supplies=supplies, round=3)
    players = (replace(state.players[0], goal="goal_6"), replace(state.players[1], goal="goal_4"))
    state = replace(state, players=players, goal_box=tuple(g for g in sorted(CATALOG.goals) if g not in ("goal_6", "goal_4")))
    state, _ = apply(state, {"type": "move_flywheel", "flywheel": "black", "steps": 3})
    return apply(state, {"type": "attach", "level": 1})


def test_the_game_ends_after_the_third_round_scored_by_the_scoring_code():
    state, events = _last_turn_of_the_game(supplies=((), ("rocket_1",)))
    assert RULES.is_over(state) and state.phase == "over"
    assert types(events)[-2:] == ["round_ended", "game_over"]
    result = RULES.result(state)
    # The same dreams through the score sheet of 'companion somnicum score' give the same totals.
    sheet = {"players": []}
    for player in RULES.view(state, None)["players"]:
        levels = []
        for level in player["dream"]:
            entries = []
            for index, card in enumerate(level["cards"]):
                if index and level["gaps"][index - 1]:
                    entries.append("gap")
                entries.append({"stars": card["stars"], "particles": card["particles"],
                                "tokens": card["tokens"], "nightmare": card["nightmare"]})
            levels.append(entries)
        sheet["players"].append({
            "name": player["name"], "goal": player["goal"]["particles"], "dream": levels,
            "meetings_unplayed": player["meetings_in_hand"], "sand": player["tokens"],
        })
    expected = final_scores(parse_score_sheet(json.dumps(sheet))).to_json()
    assert [p["total"] for p in result["players"]] == [p["total"] for p in expected["players"]] == [5, 5]
    assert result["winners"] == expected["winners"]


def test_a_tie_goes_to_the_player_with_the_most_sleep_sand_tokens():
    state, _ = _last_turn_of_the_game(supplies=((), ("rocket_1", "rocket_2")))
    result = RULES.result(state)
    assert result["winners"] == ["Player 2"]
    assert "most Sleep Sand tokens" in result["tie_break"]
    assert result["text"] == "Game over: Player 2 wins with 5 points."


def test_a_tie_on_points_and_tokens_shares_the_victory():
    state, _ = _last_turn_of_the_game(supplies=(("moon_1",), ("rocket_1",)))
    assert RULES.result(state)["winners"] == ["Player 1", "Player 2"]


def test_the_final_result_carries_each_cards_line_for_checking():
    state, _ = _last_turn_of_the_game()
    lines = RULES.result(state)["players"][1]["cards"]
    assert [(c["name"], c["multiplier"], c["points"]) for c in lines] == [("Fairy Tale 3", 1, 3), ("Fairy Tale 6", 1, 2)]


def test_nothing_can_be_played_once_the_game_is_over():
    state, _ = _last_turn_of_the_game()
    assert RULES.legal_actions(state) == []
    with pytest.raises(IllegalAction) as refused:
        RULES.apply(state, {"type": "end_turn"})
    assert refused.value.code == "game_over"


def test_ruling_the_round_ends_at_once_after_the_card_even_with_meeting_cards_in_hand():
    state = at_turn(FIELD[:3], flywheels=(0, 1), hands=(("sand_owl_1",),))
    state, events = apply(state, {"type": "move_flywheel", "flywheel": "black", "steps": 3},
                          {"type": "attach", "level": 1})
    assert "round_ended" in types(events) and state.phase == "place_flywheels"
    assert state.players[0].hand == ("sand_owl_1",)


def test_ruling_both_endings_on_one_turn_end_the_round_once():
    state = at_turn(FIELD[:3], flywheels=(0, 1), supplies=((), SAND))
    state, events = apply(state, {"type": "move_flywheel", "flywheel": "black", "steps": 1},
                          {"type": "attach", "level": 1})
    ended = [e for e in events if e["type"] == "round_ended"]
    assert "round_ending" in types(events)
    assert len(ended) == 1 and ended[0]["reason"] == "cards" and state.round == 2
