"""The Somnicum rules' speed on one core: apply, legal_actions, JSON, whole games.

Target (issue 5): at least 200 whole random games per second. Games are played through the
rules' own API (``legal_actions`` then ``apply``) with a digital field and bag, cycling 2, 3 and 4
players; each figure is the median of several rounds. Times are the process's CPU time
(``time.process_time``), so a busy machine slows the figures less. Invariant checks are off here
(the simulator and the tests keep them on); one row shows what they cost. The last row times a
fixed pure-Python loop, so figures from different machines (or a machine under load) can be
compared.

    python -m bench somnicum
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from typing import Any

from companion.somnicum import RULES
from companion.somnicum.simulate import Chooser, greedy_policy, play_game, random_policy

ROUNDS = 5
GAMES_PER_ROUND = 60


def _options(n: int, decks: str = "digital") -> dict[str, Any]:
    return {"players": 2 + n % 3, "seed": 70_000 + n, "decks": decks}


def _games_per_second(policy: Callable[..., Any], games: int, decks: str = "digital", check: bool = False) -> float:
    started = time.process_time()
    for n in range(games):
        play_game(_options(n, decks), policy, n, check=check)
    return games / (time.process_time() - started)


def _collect_states(games: int) -> list[tuple[Any, dict[str, Any]]]:
    """States met along random games, with the action taken from each."""
    pairs = []
    for n in range(games):
        chooser = Chooser(n)
        state = RULES.new_game(_options(n))
        while not RULES.is_over(state):
            action = chooser.pick(RULES.legal_actions(state))
            pairs.append((state, action))
            state, _ = RULES.apply(state, action)
    return pairs


def _per_call(pairs: list[tuple[Any, Any]], call: Callable[[Any, Any], Any]) -> float:
    started = time.process_time()
    for state, action in pairs:
        call(state, action)
    return (time.process_time() - started) / len(pairs)


def _calibration() -> float:
    started = time.process_time()
    sum(range(10**7))
    return time.process_time() - started


def main() -> None:
    pairs = _collect_states(30)
    payloads = [(RULES.state_to_json(s), a) for s, a in pairs[::5]]
    rows: dict[str, list[float]] = {
        k: [] for k in ("apply", "legal", "view", "to_json", "from_json", "random", "checked", "greedy", "physical", "calibration")
    }
    for _ in range(ROUNDS):
        rows["apply"].append(_per_call(pairs, lambda s, a: RULES.apply(s, a)))
        rows["legal"].append(_per_call(pairs, lambda s, a: RULES.legal_actions(s)))
        rows["view"].append(_per_call(pairs[::5], lambda s, a: RULES.view(s, None)))
        rows["to_json"].append(_per_call(pairs[::5], lambda s, a: RULES.state_to_json(s)))
        rows["from_json"].append(_per_call(payloads, lambda d, a: RULES.state_from_json(d)))
        rows["random"].append(_games_per_second(random_policy, GAMES_PER_ROUND))
        rows["checked"].append(_games_per_second(random_policy, GAMES_PER_ROUND // 3, check=True))
        rows["greedy"].append(_games_per_second(greedy_policy, GAMES_PER_ROUND // 3))
        rows["physical"].append(_games_per_second(random_policy, GAMES_PER_ROUND // 3, decks="physical"))
        rows["calibration"].append(_calibration())
    med = {k: statistics.median(v) for k, v in rows.items()}
    print(f"Somnicum rules, {len(pairs)} states from 30 random games, median of {ROUNDS} rounds")
    print(f"{'measure':<40}{'median':>12}")
    print(f"{'apply (us per action)':<40}{med['apply'] * 1e6:>12.1f}")
    print(f"{'legal_actions (us per call)':<40}{med['legal'] * 1e6:>12.1f}")
    print(f"{'view, public (us)':<40}{med['view'] * 1e6:>12.1f}")
    print(f"{'state_to_json (us)':<40}{med['to_json'] * 1e6:>12.1f}")
    print(f"{'state_from_json (us)':<40}{med['from_json'] * 1e6:>12.1f}")
    print(f"{'random games/s (target >= 200)':<40}{med['random']:>12.1f}")
    print(f"{'random games/s, invariants checked':<40}{med['checked']:>12.1f}")
    print(f"{'greedy games/s':<40}{med['greedy']:>12.1f}")
    print(f"{'random games/s, physical table':<40}{med['physical']:>12.1f}")
    print(f"{'calibration: sum(range(10**7)) (s)':<40}{med['calibration']:>12.3f}")


if __name__ == "__main__":
    main()
