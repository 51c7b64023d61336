"""The CHAINsomnia engine's speed on one core: apply, legal_actions, JSON, whole games.

Target (issue 3): at least 50 whole random games per second. Games are played through the public
API with digital decks and virtual dice, cycling 1 to 4 players; each figure is the median of
several rounds. Times are the process's CPU time (``time.process_time``), so a busy machine
does not slow the figures down; invariant checks are off here (the simulator and tests keep them).

    python -m bench chainsomnia
"""

from __future__ import annotations

import statistics
import time

from companion.chainsomnia import RULES
from companion.chainsomnia.simulate import Chooser, greedy_policy, play_game, random_policy

ROUNDS = 5
GAMES_PER_ROUND = 40


def _options(n: int) -> dict[str, object]:
    return {"players": n % 4 + 1, "seed": 50_000 + n, "dice": "virtual", "decks": "digital"}


def _games_per_second(policy, games: int) -> float:  # noqa: ANN001
    started = time.process_time()
    for n in range(games):
        play_game(_options(n), policy, n, check=False)
    return games / (time.process_time() - started)


def _collect_states(games: int) -> list:  # noqa: ANN401
    """States met along random games, with the action taken from each."""
    pairs = []
    for n in range(games):
        chooser = Chooser(n)
        state = RULES.new_game(_options(n))
        while not RULES.is_over(state):
            action = random_policy(state, RULES.legal_actions(state), chooser)
            pairs.append((state, action))
            state, _ = RULES.apply(state, action)
    return pairs


def _per_call(pairs, call) -> float:  # noqa: ANN001
    started = time.process_time()
    for state, action in pairs:
        call(state, action)
    return (time.process_time() - started) / len(pairs)


def main() -> None:
    pairs = _collect_states(30)
    rows: dict[str, list[float]] = {k: [] for k in ("apply", "legal", "to_json", "from_json", "random", "greedy")}
    payloads = [(RULES.state_to_json(s), a) for s, a in pairs[::5]]
    for _ in range(ROUNDS):
        for state, _a in pairs:  # cold states: the castle geometry is rebuilt as in a real journal replay
            object.__setattr__(state, "geo", None)
        rows["apply"].append(_per_call(pairs, lambda s, a: RULES.apply(s, a)))
        rows["legal"].append(_per_call(pairs, lambda s, a: RULES.legal_actions(s)))
        rows["to_json"].append(_per_call(pairs[::5], lambda s, a: RULES.state_to_json(s)))
        rows["from_json"].append(_per_call(payloads, lambda d, a: RULES.state_from_json(d)))
        rows["random"].append(_games_per_second(random_policy, GAMES_PER_ROUND))
        rows["greedy"].append(_games_per_second(greedy_policy, GAMES_PER_ROUND // 4))
    med = {k: statistics.median(v) for k, v in rows.items()}
    print(f"CHAINsomnia engine (CPU time, one core), {len(pairs)} states from 30 random games, median of {ROUNDS} rounds")
    print(f"{'measure':<34}{'median':>14}")
    print(f"{'apply (actions/s)':<34}{1 / med['apply']:>14,.0f}")
    print(f"{'apply (us per action)':<34}{med['apply'] * 1e6:>14.1f}")
    print(f"{'legal_actions (us per call)':<34}{med['legal'] * 1e6:>14.1f}")
    print(f"{'state_to_json (us)':<34}{med['to_json'] * 1e6:>14.1f}")
    print(f"{'state_from_json (us)':<34}{med['from_json'] * 1e6:>14.1f}")
    print(f"{'random games/s (target >= 50)':<34}{med['random']:>14.1f}")
    print(f"{'greedy games/s':<34}{med['greedy']:>14.1f}")


if __name__ == "__main__":
    main()
