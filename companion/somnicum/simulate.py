"""The simulator: whole games of Somnicum played through ``legal_actions`` by a random or a
greedy policy, checking the invariants after every action.

At a physical table's chance nodes (``decks="physical"``) the outcome is sampled from
``chance_outcomes`` with its probability, so the physical path is played as often as the digital
one. The ``greedy`` policy takes, each turn, the card that adds most to its dream (stars times the
level it can reach, its Goal particles, no gap) net of the tokens it pays; it is a sparring
partner, not a strategy guide.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.somnicum import attach as dreams
from companion.somnicum.actions import chance_outcomes, legal_actions
from companion.somnicum.actions import apply as apply_action
from companion.somnicum.catalog import Catalog
from companion.somnicum.chance import below, seed_state
from companion.somnicum.field import landing
from companion.somnicum.invariants import problems
from companion.somnicum.meetings import free_steps
from companion.somnicum.rounds import scores
from companion.somnicum.setup import catalog_of, new_game
from companion.somnicum.state import FLYWHEELS, SomnicumState

Action = dict[str, Any]


class Chooser:
    """The policy's own seeded generator (never the game's, never the global one)."""

    def __init__(self, seed: int) -> None:
        self.state = seed_state(seed ^ 0x50A1C1)

    def index(self, n: int) -> int:
        self.state, i = below(self.state, n)
        return i

    def pick(self, options: Sequence[Action]) -> Action:
        return options[self.index(len(options))]

    def sample(self, outcomes: Sequence[tuple[Action, float]]) -> Action:
        self.state, x = below(self.state, 1 << 30)
        point = x / (1 << 30)
        for action, chance in outcomes:
            point -= chance
            if point < 0:
                return action
        return outcomes[-1][0]


Policy = Callable[[Catalog, SomnicumState, list[Action], Chooser], Action]


def random_policy(catalog: Catalog, state: SomnicumState, legal: list[Action], chooser: Chooser) -> Action:
    """Uniform over the legal actions."""
    return chooser.pick(legal)


# -- the greedy policy -------------------------------------------------------------------------

# Effects worth playing as soon as they can be (they only help, or score more face up).
_PLAY_AT_ONCE = ("victory_points", "draw_tokens", "single_token")


def card_value(catalog: Catalog, state: SomnicumState, card: str) -> tuple[float, int]:
    """What `card` adds to the current player's dream at its best level, and that level."""
    player = state.players[state.turn]
    spec = catalog.dream_cards[card]
    goal = set(catalog.goals[player.goal].particles) if player.goal else set()
    goal_points = sum(1 for p in spec.particles if p in goal)
    best = (-99.0, 1)
    for level in dreams.open_levels(player.dream):
        gap = dreams.needs_gap(catalog, player.dream, level, card) and not state.continuous
        stars = spec.stars * (level if not gap or level == 1 else 1)
        value = (-stars if spec.nightmare else stars) + goal_points
        value -= 2.0 if gap else 0.0  # a gap spoils the pairs below it
        value += 0.5 * level if spec.meeting else 0.0
        if value > best[0]:
            best = (value, level)
    return best


def _move_value(catalog: Catalog, state: SomnicumState, action: Action) -> float:
    gap = state.flywheels[FLYWHEELS.index(action["flywheel"])]
    steps = action["steps"]
    card = state.field[landing(len(state.field), gap, steps)]
    value, _level = card_value(catalog, state, card)
    owed = max(0, steps - free_steps(catalog, state, state.players[state.turn]))
    return value - 0.8 * owed + {1: 0.8, 2: 0.4}.get(steps, 0.0) - 0.01 * steps


def greedy_policy(catalog: Catalog, state: SomnicumState, legal: list[Action], chooser: Chooser) -> Action:
    phase = state.phase
    by_type: dict[str, list[Action]] = {}
    for action in legal:
        by_type.setdefault(action["type"], []).append(action)
    for action in by_type.get("play_meeting", []):
        effect = catalog.meetings[action["card"]]
        if effect.effect in _PLAY_AT_ONCE or (effect.effect == "free_steps" and effect.permanent):
            return action
    if phase == "turn":
        return max(by_type["move_flywheel"], key=lambda a: _move_value(catalog, state, a))
    if phase == "attach":
        _value, level = card_value(catalog, state, state.taken)
        gap = dreams.needs_gap(catalog, state.players[state.turn].dream, level, state.taken)
        if gap and not state.continuous:
            for action in by_type.get("play_meeting", []):
                if catalog.meetings[action["card"]].effect == "continuous":
                    return action
        return next(a for a in by_type["attach"] if a["level"] == level)
    if phase == "keep_meeting":
        rank = {"victory_points": 3, "draw_tokens": 2, "single_token": 1}
        return max(legal, key=lambda a: (rank.get(catalog.meetings[a["card"]].effect, 0), catalog.meetings[a["card"]].amount))
    if phase == "end_turn":
        return by_type["end_turn"][0]
    return chooser.pick(legal)


POLICIES: dict[str, Policy] = {"random": random_policy, "greedy": greedy_policy}


# -- playing games -----------------------------------------------------------------------------


@dataclass
class GameReport:
    seed: int
    players: int
    winners: tuple[str, ...]
    totals: tuple[int, ...]
    tie_break: bool
    rounds: int
    round_ends: list[str]
    turns: int
    actions: int
    violations: list[str] = field(default_factory=list)


def play_game(
    options: Mapping[str, Any],
    policy: Policy,
    seed: int,
    check: bool = True,
    max_actions: int = 20000,
) -> GameReport:
    chooser = Chooser(seed)
    state, _events = new_game(options)
    catalog = catalog_of(state)
    found: list[str] = problems(catalog, state) if check else []
    actions = turns = 0
    round_ends: list[str] = []
    game_over: dict[str, Any] = {}
    while state.phase != "over":
        outcomes = () if state.digital else chance_outcomes(catalog, state)
        if outcomes:
            action = chooser.sample(outcomes)
        else:
            legal = legal_actions(catalog, state)
            if not legal:
                found.append(f"no legal action in phase {state.phase}")
                break
            action = policy(catalog, state, legal, chooser)
        state, events = apply_action(catalog, state, action)
        actions += 1
        for event in events:
            kind = event["type"]
            if kind == "turn_started":
                turns += 1
            elif kind == "round_ended":
                round_ends.append(event["reason"])
            elif kind == "game_over":
                game_over = event
        if check:
            found += [f"after {action}: {p}" for p in problems(catalog, state)]
        if actions >= max_actions:
            found.append(f"the game did not end within {max_actions} actions")
            break
    if not game_over:  # stopped early: score the dreams as they are
        result = scores(catalog, state)
        game_over = {
            "winners": list(result.winners), "totals": {p.name: p.total for p in result.players},
            "tie_break": result.tie_break,
        }
    return GameReport(
        seed=seed,
        players=len(state.players),
        winners=tuple(game_over["winners"]),
        totals=tuple(game_over["totals"].values()),
        tie_break=bool(game_over["tie_break"]),
        rounds=len(round_ends),
        round_ends=round_ends,
        turns=turns,
        actions=actions,
        violations=found,
    )


def simulate(
    games: int,
    seed: int,
    policy: str = "random",
    players: int | None = None,
    decks: str = "digital",
    check: bool = True,
) -> dict[str, Any]:
    """Plays `games` games (2, 3, 4 players in turn unless `players` is given) and sums them up."""
    chosen = POLICIES[policy]
    reports = []
    for n in range(games):
        count = players or 2 + n % 3
        game_seed = seed * 1_000_003 + n
        options = {"players": count, "seed": game_seed, "decks": decks}
        reports.append(play_game(options, chosen, game_seed, check))
    return summarise(reports, policy, seed, decks)


def _spread(values: list[int]) -> dict[str, float]:
    if not values:
        return {"mean": 0.0, "min": 0, "max": 0}
    return {"mean": round(sum(values) / len(values), 2), "min": min(values), "max": max(values)}


def summarise(reports: list[GameReport], policy: str, seed: int, decks: str) -> dict[str, Any]:
    games = len(reports)
    by_players: dict[str, dict[str, Any]] = {}
    for count in sorted({r.players for r in reports}):
        group = [r for r in reports if r.players == count]
        by_players[str(count)] = {
            "games": len(group),
            "winning_total": _spread([max(r.totals) for r in group]),
            "total": _spread([t for r in group for t in r.totals]),
            "turns": _spread([r.turns for r in group]),
        }
    violations = [v for r in reports for v in r.violations]
    return {
        "game": "somnicum",
        "games": games,
        "policy": policy,
        "seed": seed,
        "decks": decks,
        "by_players": by_players,
        "rounds": _spread([r.rounds for r in reports]),
        "round_ends": dict(Counter(reason for r in reports for reason in r.round_ends)),
        "actions_per_game": round(sum(r.actions for r in reports) / games, 1) if games else 0.0,
        "tie_breaks": sum(1 for r in reports if r.tie_break),
        "shared_victories": sum(1 for r in reports if len(r.winners) > 1),
        "invariant_violations": len(violations),
        "violation_examples": violations[:5],
    }
