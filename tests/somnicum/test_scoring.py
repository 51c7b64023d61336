"""Somnicum's scoring: one test per scoring sentence of the rulebook and per ruling."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.somnicum.dream import Dream, DreamCard, DreamRow
from companion.somnicum.score_sheet import ScoreSheetError, parse_score_sheet
from companion.somnicum.scoring import PlayerTally, decide_winners, final_scores, score_player

DATA = Path(__file__).parent.parent / "data"


def card(stars: int, *particles: str, nightmare: bool = False, tokens: tuple[str, ...] = ()) -> DreamCard:
    return DreamCard(stars=stars, particles=particles or ("moon",), nightmare=nightmare, tokens=tokens)


def row(*entries: DreamCard | str) -> DreamRow:
    """A row written as on the score sheet: cards with "gap" between some of them."""
    cards: list[DreamCard] = []
    gaps: list[bool] = []
    for entry in entries:
        if entry == "gap":
            gaps[-1] = True
        else:
            cards.append(entry)  # type: ignore[arg-type]
            gaps.append(False)
    return DreamRow(tuple(cards), tuple(gaps[:-1]))


def dream(*rows: DreamRow) -> Dream:
    return Dream(tuple(rows) + (DreamRow(),) * (3 - len(rows)))


def breakdown(d: Dream, **extra: object) -> dict[str, int]:
    return score_player(PlayerTally(name="P", dream=d, **extra)).breakdown  # type: ignore[arg-type]


FOUR_TOP = row(card(1), card(1), card(1), card(1))  # three gapless pairs for level 2


def test_rulebook_example_karl_scores_32():
    tallies = parse_score_sheet((DATA / "karl.json").read_text())
    result = final_scores(tallies)
    karl = result.players[0]
    assert karl.breakdown == {
        "level1": 7, "level2": 10, "level3": 9, "isolated": 2,
        "meetings": 1, "goal": 4, "nightmares": -1,
    }
    assert karl.total == 32
    assert result.winners == ("Karl",)


def test_sum_of_values_on_first_level():
    assert breakdown(dream(row(card(2), card(3), "gap", card(1))))["level1"] == 6


def test_second_level_values_multiplied_by_2():
    b = breakdown(dream(FOUR_TOP, row(card(2), card(3))))
    assert b["level2"] == 10
    assert b["isolated"] == 0


def test_third_level_values_multiplied_by_3():
    b = breakdown(dream(FOUR_TOP, row(card(1), card(1), card(1)), row(card(2), card(3))))
    assert b["level3"] == 15


def test_unplayed_meeting_cards_score_1_vp_each():
    assert breakdown(dream(), meetings_unplayed=3)["meetings"] == 3


def test_victory_points_printed_on_played_meeting_cards_count():
    assert breakdown(dream(), meetings_unplayed=1, meeting_vp=4)["meetings"] == 5


def test_each_particle_matching_the_goal_card_scores_1_vp():
    d = dream(row(card(1, "cloud", "octopus"), card(1, "octopus", "fish"), card(1, "dragon")))
    assert breakdown(d, goal=("cloud", "octopus", "dragon"))["goal"] == 4


def test_sleep_sand_tokens_on_cards_are_not_counted_for_the_goal():
    d = dream(row(card(1, "fish", tokens=("cloud", "octopus"))))
    assert breakdown(d, goal=("cloud", "octopus", "dragon"))["goal"] == 0


def test_nightmare_values_are_subtracted():
    b = breakdown(dream(row(card(2), card(3, nightmare=True))))
    assert b["nightmares"] == -3
    assert b["level1"] == 2


def test_nightmare_values_on_second_and_third_levels_multiplied_by_2_and_3():
    d = dream(FOUR_TOP, row(card(1), card(2, nightmare=True), card(1)), row(card(1, nightmare=True), card(1)))
    assert breakdown(d)["nightmares"] == -(2 * 2 + 1 * 3)


def test_card_with_a_gap_on_both_sides_is_not_multiplied():
    d = dream(FOUR_TOP, row(card(1), "gap", card(3), "gap", card(1)))
    b = breakdown(d)
    assert b["isolated"] == 3 + 1 + 1  # the middle card and both edge cards each have their gaps
    assert b["level2"] == 0


def test_first_card_in_its_row_needs_only_a_gap_on_its_right():
    b = breakdown(dream(FOUR_TOP, row(card(2), "gap", card(1), card(1))))
    assert b["isolated"] == 2
    assert b["level2"] == 4


def test_last_card_in_its_row_needs_only_a_gap_on_its_left():
    b = breakdown(dream(FOUR_TOP, row(card(1), card(1), "gap", card(3))))
    assert b["isolated"] == 3
    assert b["level2"] == 4


def test_card_with_a_gap_on_one_side_only_is_multiplied():
    b = breakdown(dream(FOUR_TOP, row(card(1), "gap", card(3), card(1))))
    assert b["isolated"] == 1  # only the first card
    assert b["level2"] == (3 + 1) * 2


def test_isolated_card_on_third_level_counts_as_first_level():
    d = dream(FOUR_TOP, row(card(1), card(1), card(1)), row(card(3), "gap", card(2)))
    b = breakdown(d)
    assert b["isolated"] == 5
    assert b["level3"] == 0


def test_ruling_nightmare_particles_count_for_the_goal():
    d = dream(row(card(1, "cloud", "octopus", "dragon", "a", "b", "c", nightmare=True)))
    assert breakdown(d, goal=("cloud", "octopus", "dragon"))["goal"] == 3


def test_ruling_a_card_alone_in_its_row_is_multiplied():
    b = breakdown(dream(row(card(1), card(1)), row(card(3))))
    assert b["level2"] == 6
    assert b["isolated"] == 0


def test_ruling_an_isolated_nightmare_subtracts_at_times_1():
    b = breakdown(dream(FOUR_TOP, row(card(2), "gap", card(3, nightmare=True))))
    assert b["nightmares"] == -3  # not -6: isolated, so counted as on level 1
    assert b["isolated"] == 2  # the good card before the gap; Nightmares stay in their own bucket
    assert b["level2"] == 0


def test_ruling_more_cards_than_gapless_pairs_is_an_impossible_dream():
    top = [{"stars": 1, "particles": ["a"]}, "gap", {"stars": 1, "particles": ["b"]}, {"stars": 1, "particles": ["c"]}]
    below = [{"stars": 1, "particles": ["d"]}, {"stars": 1, "particles": ["e"]}]
    sheet = {"players": [{"name": "Ann", "dream": [top, below]}]}
    with pytest.raises(ScoreSheetError, match=r'players\[0\] "Ann": dream level 2: 2 cards.*impossible'):
        parse_score_sheet(json.dumps(sheet))


def test_ruling_a_level_below_an_empty_level_is_impossible():
    sheet = {"players": [{"name": "Ann", "dream": [[{"stars": 1, "particles": ["a"]}], [], [{"stars": 1, "particles": ["b"]}]]}]}
    with pytest.raises(ScoreSheetError, match="dream level 2|dream level 3"):
        parse_score_sheet(json.dumps(sheet))


def _scored(name: str, total_stars: int, sand: int) -> object:
    return score_player(PlayerTally(name=name, dream=dream(row(card(total_stars))), sand=sand))


def test_player_with_the_most_victory_points_wins():
    winners, why = decide_winners([_scored("Ann", 5, 0), _scored("Bob", 7, 0)])  # type: ignore[list-item]
    assert winners == ("Bob",)
    assert why == ""


def test_tie_goes_to_the_most_sleep_sand_tokens_in_supply():
    winners, why = decide_winners([_scored("Ann", 7, 4), _scored("Bob", 7, 2), _scored("Cy", 3, 9)])  # type: ignore[list-item]
    assert winners == ("Ann",)
    assert "Sleep Sand" in why and "Ann" in why


def test_remaining_tie_shares_the_victory():
    winners, why = decide_winners([_scored("Ann", 7, 2), _scored("Bob", 7, 2), _scored("Cy", 7, 1)])  # type: ignore[list-item]
    assert winners == ("Ann", "Bob")
    assert "share" in why
