"""Random legal play: hundreds of seeded games to the end, with the invariants after every action.

Chains stay within 0 to 6, hands at 2 at rest, AP never below 0, every placed tile lines up,
nobody moves into or out of a Bad Dream room, no card is lost or doubled, and every game ends.
"""

from __future__ import annotations

from companion.chainsomnia.simulate import greedy_policy, play_game, random_policy


def test_property_300_random_games_keep_every_invariant_and_end():
    problems, ends = [], set()
    for n in range(300):
        options = {
            "players": n % 4 + 1,
            "seed": 7_000 + n,
            "mode": "beginner" if n % 5 == 0 else "normal",
            "decks": "physical" if n % 3 == 0 else "digital",
            "dice": "physical" if n % 7 == 0 else "virtual",
        }
        report = play_game(options, random_policy, 7_000 + n, check=True, max_actions=5_000)
        problems += [f"game {n}: {v}" for v in report.violations]
        assert report.result in ("victory", "defeat"), f"game {n} did not end"
        ends.add(report.cause)
    assert problems == []
    assert {"caged", "event_deck_empty"} <= ends


def test_property_greedy_games_keep_every_invariant_and_sometimes_escape():
    results = []
    for n in range(40):
        options = {"players": n % 4 + 1, "seed": 9_000 + n, "mode": "beginner"}
        report = play_game(options, greedy_policy, 9_000 + n, check=True, max_actions=5_000)
        assert report.violations == []
        results.append(report.result)
    assert "victory" in results and "defeat" in results
