"""The simulator: whole games played through ``legal_actions`` by a random or a greedy policy.

It measures what the rules give (win rate, rounds, causes of defeat) and checks the
invariants after every action. The ``greedy`` policy plays the way a careful table would:
explore from rooms with an open door, attack Bad Dreams it has a fair chance against, keep
chains spread out, and head for Wake Up! once the castle is clear. Its escape rate is an honest
figure to compare with the publisher's advertised 12%, not a proof of it.
"""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import product
from typing import Any

from companion.chainsomnia import engine, rng, setup
from companion.chainsomnia.castle import SIDE_BITS, Cell, door_mask, step
from companion.chainsomnia.invariants import violations
from companion.chainsomnia.state import State

Action = dict[str, Any]
Policy = Callable[[State, list[Action], "Chooser"], Action]


class Chooser:
    """The policy's own seeded generator (never the game's, never the global one)."""

    def __init__(self, seed: int) -> None:
        self.state = rng.seed_state(seed ^ 0x5DEECE66D)

    def index(self, n: int) -> int:
        self.state, i = rng.below(self.state, n)
        return i

    def pick(self, options: Sequence[Action]) -> Action:
        return options[self.index(len(options))]


def random_policy(state: State, legal: list[Action], chooser: Chooser) -> Action:
    """Uniform over the legal actions (a turn still ends: end_turn is always among them)."""
    return chooser.pick(legal)


# --- the greedy policy ------------------------------------------------------------------------------


def _chance_table(dice: int) -> dict[int, float]:
    """P(best 2 of ``dice`` dice >= total) for each total."""
    counts: Counter[int] = Counter()
    rolls = list(product(range(1, 7), repeat=dice))
    for roll in rolls:
        counts[sum(sorted(roll)[-2:])] += 1
    return {t: sum(n for s, n in counts.items() if s >= t) / len(rolls) for t in range(0, 14)}


CHANCE = {2: _chance_table(2), 3: _chance_table(3)}
DEFEAT_CHANCE = 0.25  # the least chance of a Victory Test worth its AP


def success_chance(state: State, cid: str, attribute: str, at_least: int) -> float:
    board = state.catalog.characters[cid]
    c = state.character(cid)
    value = board.attribute(attribute)
    value += sum(state.catalog.item_cards[i].passive.bonus_for(attribute) for i in c.items)
    value += sum(state.catalog.event_cards[b].held.bonus_for(attribute) for b in c.bad_dreams)
    need = at_least - value
    table = CHANCE[3 if board.ability == "fortune_of_a_bold_entrepreneur" else 2]
    return 1.0 if need <= 2 else table.get(need, 0.0)


def _card_value(state: State, card: str) -> float:
    cat = state.catalog
    if card in cat.item_cards:
        item = cat.item_cards[card]
        return 1.0 + item.stars
    event = cat.event_cards[card]
    if event.kind == "good_omen":
        return 5.0
    if event.kind == "bad_omen":
        return -1.0
    if event.is_howling:
        return -6.0
    return {"small": -2.0, "medium": -3.0, "large": -4.0}.get(event.size, -3.0) - (1.0 if event.chain else 0.0)


def _distances(state: State, start: Cell, blocked: set[Cell]) -> dict[Cell, int]:
    """Moves needed from ``start`` to each room, never through a Bad Dream room."""
    geo = state.geometry()
    dist = {start: 0}
    queue = deque([start])
    while queue:
        cell = queue.popleft()
        if cell in blocked and cell != start:
            continue
        for nxt in geo.neighbours.get(cell, ()):
            if nxt not in dist:
                dist[nxt] = dist[cell] + 1
                queue.append(nxt)
    return dist


def _open_doors(state: State, cell: Cell) -> int:
    geo = state.geometry()
    mask = geo.doors[cell]
    return sum(1 for s in range(4) if mask & SIDE_BITS[s] and step(cell, s) not in geo.doors)


def _wake_up_cell(state: State) -> Cell | None:
    for p in state.castle:
        if state.catalog.tiles[p.tile].kind == "wake_up":
            return p.cell
    return None


def _first(legal: list[Action], kind: str, **match: Any) -> Action | None:
    for a in legal:
        if a["type"] == kind and all(a.get(k) == v for k, v in match.items()):
            return a
    return None


def greedy_policy(state: State, legal: list[Action], chooser: Chooser) -> Action:
    p = state.pending
    if p is not None:
        return _greedy_answer(state, legal, chooser)
    return _greedy_turn(state, legal, chooser)


def _greedy_answer(state: State, legal: list[Action], chooser: Chooser) -> Action:
    p = state.pending
    assert p is not None
    kind = p.kind
    if kind == "roll":
        return _first(legal, "roll") or chooser.pick(legal)
    if kind == "keep_dice":
        return max(legal, key=lambda a: (sum(a["values"]), a["values"][0] == a["values"][1]))
    if kind == "clover":
        test = p.test
        assert test is not None
        need = test.at_least - (state.catalog.characters[test.who].attribute(test.attribute))
        if sum(p.dice) >= need or (test.kind == "victory" and p.dice[0] == p.dice[1]):
            return {"type": "keep_roll"}
        return {"type": "reroll", "die": 0 if p.dice[0] <= p.dice[1] else 1}
    if kind == "vision":
        best = max(p.cards, key=lambda c: _card_value(state, c))
        back = sorted((c for c in p.cards if c != best), key=lambda c: -_card_value(state, c))
        return {"type": "vision", "keep": best, "back": back}
    if kind == "place_tile":
        return max(legal, key=lambda a: (_placement_score(state, p.tile, a), -chooser.index(4)))
    if kind == "flee":
        stacks = {s.cell for s in state.bad_dreams}
        return max(legal, key=lambda a: (tuple(a["to"]) not in stacks, _open_doors(state, tuple(a["to"]))))
    if kind in ("discard_excess",):
        return min(legal, key=lambda a: _card_value(state, a["item"]))
    if kind == "discard_items":
        return min(legal, key=lambda a: sum(_card_value(state, i) for i in a["items"]))
    if kind == "choose_tile":
        if p.purpose == "discard_top_bad_dream":
            stacks = {s.cell: s.cards for s in state.bad_dreams}
            return max(legal, key=lambda a: len(stacks.get(tuple(a["tile"]), ())))
        wake = _wake_up_cell(state)
        return max(legal, key=lambda a: (tuple(a["tile"]) == wake, _open_doors(state, tuple(a["tile"]))))
    return chooser.pick(legal)


def _placement_score(state: State, tile: str, a: Action) -> float:
    """Prefer laying tiles so that more doors stay open for the next explorations."""
    geo = state.geometry()
    cell = (a["at"][0], a["at"][1])
    mask = door_mask(state.catalog.tiles[tile].doors, a["rotation"])
    open_doors = sum(1 for s in range(4) if mask & SIDE_BITS[s] and step(cell, s) not in geo.doors)
    return open_doors + 0.1 * abs(cell[0] + cell[1])


def _greedy_turn(state: State, legal: list[Action], chooser: Chooser) -> Action:
    c = state.current
    cid = c.id
    cat = state.catalog
    stacks = {s.cell: s.cards for s in state.bad_dreams}
    held = [b for o in state.characters for b in o.bad_dreams]
    wake = _wake_up_cell(state)
    by_type: dict[str, list[Action]] = {}
    for a in legal:
        by_type.setdefault(a["type"], []).append(a)

    # 1. Wake Up! reachable and the castle clear: go.
    if wake is not None and not stacks and not held and "move" in by_type:
        dist = _distances(state, wake, set())
        move = min(by_type["move"], key=lambda a: dist.get(tuple(a["to"]), 99))
        if dist.get(tuple(move["to"]), 99) < dist.get(c.cell, 99):
            return move

    # 2. Bad Dreams: melody, cheap conditions, then tests with a fair chance.
    if "ability" in by_type and cat.characters[cid].ability == "melody_of_a_brilliant_singer":
        return by_type["ability"][0]
    # once the castle is explored, every Bad Dream left stands between the players and the exit
    least = DEFEAT_CHANCE if state.castle_deck.size else DEFEAT_CHANCE / 2
    for a in by_type.get("defeat", []):
        defeat = cat.event_cards[a["card"]].defeat
        assert defeat is not None
        if defeat.how == "discard_items":
            return a
        if defeat.how == "take_chains" and c.chains + defeat.count <= 3:
            return a
        if defeat.how == "test" and success_chance(state, cid, defeat.attribute, defeat.at_least) >= least:
            return a
    for a in by_type.get("use_item", []):
        card = cat.item_cards[a["item"]]
        effects = {e.do for e in card.use}
        if "discard_top_bad_dream" in effects:
            return a
        if "remove_chains" in effects:
            target = state.character(a.get("target", cid))
            if target.chains >= 4:
                return a
        if "gain_ap" in effects and c.ap <= 1:
            return a

    # 3. Chains: relieve a friend close to the Cage.
    for a in by_type.get("take_chains", []):
        other = state.character(a["from"])
        if a["count"] == 1 and other.chains >= 5 and c.chains <= 3:
            return a

    # 4. Explore while the Castle deck lasts (the deck order stays unseen): from here if a door
    #    opens onto an empty square, else walk towards such a room.
    geo = state.geometry()
    blocked = set(stacks)
    if state.castle_deck.size and c.chains <= 4:
        if "explore" in by_type and _open_doors(state, c.cell):
            return by_type["explore"][0]
        frontier = {cell for cell in geo.doors if _open_doors(state, cell) and cell not in blocked}
        step_towards = _step_towards(state, by_type.get("move", []), frontier, blocked)
        if step_towards is not None and c.ap >= 2:  # arrive with an AP left to explore
            return step_towards

    # 5. Head for the Bad Dreams still in the way, or for Wake Up!.
    targets = set()
    for cell in stacks:
        targets.update(geo.neighbours.get(cell, ()))
    if not targets and wake is not None:
        targets.add(wake)
    targets -= blocked
    if targets and c.cell not in targets:
        step_towards = _step_towards(state, by_type.get("move", []), targets, blocked)
        if step_towards is not None:
            return step_towards

    # 6. Search a Secret Nook worth it with AP that would otherwise be lost.
    placed = next(p for p in state.castle if p.cell == c.cell)
    nooks = cat.tiles[placed.tile].nooks
    for a in by_type.get("search", []):
        nook = nooks[a["nook"]]
        chance = success_chance(state, cid, nook.attribute, nook.at_least)
        if chance >= 0.5 and (not nook.chain or c.chains <= 2) and len(c.items) < 2:
            return a
    return {"type": "end_turn"}


def _step_towards(state: State, moves: list[Action], targets: set[Cell], blocked: set[Cell]) -> Action | None:
    """The move that brings the character closest to one of ``targets`` (None if none helps)."""
    best, best_d = None, 99
    here = state.current.cell
    here_d = min((d for cell, d in _distances(state, here, blocked).items() if cell in targets), default=99)
    for a in moves:
        dist = _distances(state, (a["to"][0], a["to"][1]), blocked)
        d = min((dist[t] for t in targets if t in dist), default=99)
        if d < best_d:
            best, best_d = a, d
    return best if best is not None and best_d < here_d else None


POLICIES: dict[str, Policy] = {"random": random_policy, "greedy": greedy_policy}


# --- playing games ----------------------------------------------------------------------------------


@dataclass
class GameReport:
    seed: int
    players: int
    characters: tuple[str, ...]
    result: str
    cause: str
    rounds: int
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
    state = engine.start(setup.new_game(options))
    found: list[str] = violations(None, None, state, []) if check else []
    actions = 0
    while state.phase != "over":
        legal = engine.legal_actions(state)
        if not legal:
            found.append(f"no legal action in phase {state.phase}")
            break
        action = policy(state, legal, chooser)
        before = state
        state, events = engine.apply(state, action)
        actions += 1
        if check:
            found += [f"after {action}: {v}" for v in violations(before, action, state, events)]
        if actions >= max_actions:
            found.append(f"the game did not end within {max_actions} actions")
            break
    return GameReport(seed, state.options.players, state.options.characters, state.result, state.cause, state.round, actions, found)


def simulate(
    games: int,
    seed: int,
    policy: str = "random",
    players: int | None = None,
    mode: str = "normal",
    check: bool = True,
) -> dict[str, Any]:
    chosen = POLICIES[policy]
    reports = []
    for n in range(games):
        count = players or (n % 4) + 1
        game_seed = seed * 1_000_003 + n
        options = {"players": count, "seed": game_seed, "mode": mode, "dice": "virtual", "decks": "digital"}
        reports.append(play_game(options, chosen, game_seed, check))
    return summarise(reports, policy, seed, mode)


def summarise(reports: list[GameReport], policy: str, seed: int, mode: str) -> dict[str, Any]:
    games = len(reports)
    wins = sum(1 for r in reports if r.result == "victory")
    by_players: dict[str, dict[str, Any]] = {}
    for count in sorted({r.players for r in reports}):
        group = [r for r in reports if r.players == count]
        won = sum(1 for r in group if r.result == "victory")
        by_players[str(count)] = {"games": len(group), "victories": won, "win_rate": round(won / len(group), 4)}
    rounds = sorted(r.rounds for r in reports)
    violations_found = [v for r in reports for v in r.violations]
    return {
        "games": games,
        "policy": policy,
        "seed": seed,
        "mode": mode,
        "victories": wins,
        "win_rate": round(wins / games, 4) if games else 0.0,
        "advertised_escape_rate": 0.12,
        "by_players": by_players,
        "rounds": {
            "mean": round(sum(rounds) / games, 2) if games else 0.0,
            "median": rounds[games // 2] if games else 0,
            "min": rounds[0] if games else 0,
            "max": rounds[-1] if games else 0,
        },
        "actions_per_game": round(sum(r.actions for r in reports) / games, 1) if games else 0.0,
        "defeat_causes": dict(Counter(r.cause for r in reports if r.result == "defeat")),
        "invariant_violations": len(violations_found),
        "violation_examples": violations_found[:5],
    }
