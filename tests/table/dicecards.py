"""Dice & Cards: a tiny real game the Table is tested with, independent of the two shipped games.

Two to four players race to a target score. On a turn a player may draw cards (hand of three at
most, the discards are reshuffled when the deck runs out), play a card from hand for its value,
and once per turn roll two dice and keep one of them, then end the turn. The game ends at the end
of a round in which someone reached the target; the highest score wins.

It speaks the whole ``companion.rules.Rules`` protocol with the features the Table must handle:
a seeded generator inside the (immutable) state, a chance node (two dice are needed: typed,
read by a camera, or rolled by the generator), a pending decision (which die to keep), secrets
(deck order, seed, hands) and put-back sentences.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from companion.rules import IllegalAction

MASK = (1 << 64) - 1
CARDS = tuple(v for v in range(1, 7) for _ in range(2))  # twelve cards, 1 to 6 twice
MAX_HAND = 3


def _next(seed: int) -> tuple[int, int]:
    """splitmix64: the next generator state and a 64-bit draw."""
    seed = (seed + 0x9E3779B97F4A7C15) & MASK
    z = seed
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return seed, z ^ (z >> 31)


def _shuffled(cards: Sequence[int], seed: int) -> tuple[tuple[int, ...], int]:
    order = list(cards)
    for i in range(len(order) - 1, 0, -1):
        seed, draw = _next(seed)
        j = draw % (i + 1)
        order[i], order[j] = order[j], order[i]
    return tuple(order), seed


@dataclass(frozen=True)
class State:
    players: tuple[str, ...]
    scores: tuple[int, ...]
    hands: tuple[tuple[int, ...], ...]
    deck: tuple[int, ...]  # top first; secret
    discard: tuple[int, ...]
    turn: int
    round: int
    target: int
    seed: int  # the generator's state; secret
    pending: tuple[Any, ...] | None  # ("dice", 2): chance node; ("keep", (a, b)): decision
    rolled: bool
    over: bool


def _points(n: int) -> str:
    return f"{n} point" if n == 1 else f"{n} points"


def _with_score(state: State, seat: int, points: int) -> tuple[int, ...]:
    return tuple(s + points if i == seat else s for i, s in enumerate(state.scores))


def _with_hand(state: State, seat: int, hand: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    return tuple(hand if i == seat else h for i, h in enumerate(state.hands))


class DiceCardsRules:
    """The Rules of Dice & Cards (see the module docstring)."""

    name = "dicecards"

    def new_game(self, options: Mapping[str, Any]) -> State:
        players = options.get("players", ["Ann", "Ben"])
        if (
            not isinstance(players, list)
            or not 1 <= len(players) <= 4
            or not all(isinstance(p, str) and p for p in players)
            or len(set(players)) != len(players)
        ):
            raise IllegalAction("bad_setup", "Dice & Cards needs 1 to 4 players with different names.")
        seed = options.get("seed", 1)
        target = options.get("target", 20)
        if not isinstance(seed, int) or not isinstance(target, int) or target < 1:
            raise IllegalAction("bad_setup", "The seed and the target must be whole numbers (target at least 1).")
        deck, seed = _shuffled(CARDS, seed & MASK)
        return State(
            players=tuple(players),
            scores=tuple(0 for _ in players),
            hands=tuple(() for _ in players),
            deck=deck,
            discard=(),
            turn=0,
            round=1,
            target=target,
            seed=seed,
            pending=None,
            rolled=False,
            over=False,
        )

    # -- playing ---------------------------------------------------------------------------

    def apply(self, state: State, action: Mapping[str, Any]) -> tuple[State, list[dict[str, Any]]]:
        if state.over:
            raise IllegalAction("game_over", "The game is over.")
        kind = action.get("type")
        handler = {
            "draw": self._draw,
            "play": self._play,
            "roll": self._roll,
            "dice": self._dice,
            "keep": self._keep,
            "end_turn": self._end_turn,
        }.get(kind)  # type: ignore[arg-type]
        if handler is None:
            raise IllegalAction("unknown_action", f"Dice & Cards has no action called {kind!r}.")
        player = state.players[state.turn]
        if state.pending is not None and kind not in ("dice", "keep"):
            needed = "two dice" if state.pending[0] == "dice" else "which die to keep"
            raise IllegalAction("pending", f"{player} must first give {needed}.")
        return handler(state, action, player)

    def _draw(self, state: State, action: Mapping[str, Any], player: str) -> tuple[State, list[dict[str, Any]]]:
        hand = state.hands[state.turn]
        if len(hand) >= MAX_HAND:
            raise IllegalAction("hand_full", f"{player} already holds {MAX_HAND} cards.")
        deck, discard, seed, events = state.deck, state.discard, state.seed, []
        if not deck:
            if not discard:
                raise IllegalAction("no_cards", "The deck and the discard pile are both empty.")
            deck, seed = _shuffled(discard, seed)
            discard = ()
            events.append({"type": "reshuffled", "cards": len(deck)})
        card, deck = deck[0], deck[1:]
        events.append({"type": "drew", "player": player, "card": card})
        return (
            replace(state, deck=deck, discard=discard, seed=seed, hands=_with_hand(state, state.turn, hand + (card,))),
            events,
        )

    def _play(self, state: State, action: Mapping[str, Any], player: str) -> tuple[State, list[dict[str, Any]]]:
        card = action.get("card")
        hand = list(state.hands[state.turn])
        if card not in hand:
            raise IllegalAction("not_in_hand", f"{player} has no {card} card in hand.")
        hand.remove(card)
        return (
            replace(
                state,
                hands=_with_hand(state, state.turn, tuple(hand)),
                discard=state.discard + (card,),
                scores=_with_score(state, state.turn, card),
            ),
            [{"type": "played", "player": player, "card": card}],
        )

    def _roll(self, state: State, action: Mapping[str, Any], player: str) -> tuple[State, list[dict[str, Any]]]:
        if state.rolled:
            raise IllegalAction("rolled", f"{player} has already rolled this turn.")
        return replace(state, pending=("dice", 2)), [{"type": "dice_needed", "player": player, "count": 2}]

    def _dice(self, state: State, action: Mapping[str, Any], player: str) -> tuple[State, list[dict[str, Any]]]:
        if state.pending is None or state.pending[0] != "dice":
            raise IllegalAction("no_roll", "No dice are needed now: roll first.")
        seed = state.seed
        if action.get("virtual"):
            values = []
            for _ in range(2):
                seed, draw = _next(seed)
                values.append(draw % 6 + 1)
        else:
            values = action.get("values")
            if (
                not isinstance(values, list)
                or len(values) != 2
                or not all(isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= 6 for v in values)
            ):
                raise IllegalAction("bad_dice", "Give two dice, each from 1 to 6.")
        event = {"type": "dice_rolled", "player": player, "values": list(values), "virtual": bool(action.get("virtual"))}
        return replace(state, seed=seed, pending=("keep", tuple(values))), [event]

    def _keep(self, state: State, action: Mapping[str, Any], player: str) -> tuple[State, list[dict[str, Any]]]:
        if state.pending is None or state.pending[0] != "keep":
            raise IllegalAction("no_choice", "There are no dice to choose from.")
        die = action.get("die")
        if die not in (0, 1) or isinstance(die, bool):
            raise IllegalAction("bad_choice", "Keep die 0 or die 1.")
        value = state.pending[1][die]
        return (
            replace(state, pending=None, rolled=True, scores=_with_score(state, state.turn, value)),
            [{"type": "kept", "player": player, "value": value, "other": state.pending[1][1 - die]}],
        )

    def _end_turn(self, state: State, action: Mapping[str, Any], player: str) -> tuple[State, list[dict[str, Any]]]:
        turn = (state.turn + 1) % len(state.players)
        round_ = state.round + (1 if turn == 0 else 0)
        over = turn == 0 and max(state.scores) >= state.target
        events: list[dict[str, Any]] = [{"type": "turn_passed", "from": player, "to": state.players[turn], "round": round_}]
        if over:
            events.append({"type": "game_over"})
        return replace(state, turn=turn, round=round_, rolled=False, over=over), events

    # -- asking ----------------------------------------------------------------------------

    def legal_actions(self, state: State) -> list[dict[str, Any]]:
        if state.over:
            return []
        if state.pending is not None:
            if state.pending[0] == "dice":
                return [{"type": "dice", "virtual": True}] + [
                    {"type": "dice", "values": [a, b]} for a in range(1, 7) for b in range(1, 7)
                ]
            return [{"type": "keep", "die": 0}, {"type": "keep", "die": 1}]
        hand = state.hands[state.turn]
        actions: list[dict[str, Any]] = []
        if len(hand) < MAX_HAND and (state.deck or state.discard):
            actions.append({"type": "draw"})
        actions += [{"type": "play", "card": c} for c in sorted(set(hand))]
        if not state.rolled:
            actions.append({"type": "roll"})
        actions.append({"type": "end_turn"})
        return actions

    def is_over(self, state: State) -> bool:
        return state.over

    def result(self, state: State) -> dict[str, Any]:
        best = max(state.scores)
        return {
            "winners": [p for p, s in zip(state.players, state.scores) if s == best] if state.over else [],
            "scores": dict(zip(state.players, state.scores)),
            "rounds": state.round - 1 if state.over else state.round,
        }

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        pending = None
        if state.pending is not None:
            pending = {"chance": "dice", "count": 2} if state.pending[0] == "dice" else {
                "decision": "keep", "values": list(state.pending[1])
            }
        public: dict[str, Any] = {
            "players": [
                {"name": p, "score": s, "hand_size": len(h)}
                for p, s, h in zip(state.players, state.scores, state.hands)
            ],
            "round": state.round,
            "turn": state.players[state.turn],
            "deck_size": len(state.deck),
            "discard": list(state.discard),
            "pending": pending,
            "over": state.over,
        }
        if seat is not None:
            public["hand"] = list(state.hands[seat])
        return public

    def state_to_json(self, state: State) -> dict[str, Any]:
        return {
            "players": list(state.players),
            "scores": list(state.scores),
            "hands": [list(h) for h in state.hands],
            "deck": list(state.deck),
            "discard": list(state.discard),
            "turn": state.turn,
            "round": state.round,
            "target": state.target,
            "seed": state.seed,
            "pending": None if state.pending is None else [state.pending[0], state.pending[1] if state.pending[0] == "dice" else list(state.pending[1])],
            "rolled": state.rolled,
            "over": state.over,
        }

    def state_from_json(self, data: Mapping[str, Any]) -> State:
        pending = data["pending"]
        if pending is not None:
            pending = ("dice", pending[1]) if pending[0] == "dice" else ("keep", tuple(pending[1]))
        return State(
            players=tuple(data["players"]),
            scores=tuple(data["scores"]),
            hands=tuple(tuple(h) for h in data["hands"]),
            deck=tuple(data["deck"]),
            discard=tuple(data["discard"]),
            turn=data["turn"],
            round=data["round"],
            target=data["target"],
            seed=data["seed"],
            pending=pending,
            rolled=data["rolled"],
            over=data["over"],
        )

    # -- words -----------------------------------------------------------------------------

    def describe(self, action: Mapping[str, Any], events: Sequence[Mapping[str, Any]]) -> str:
        words = []
        for event in events:
            kind = event["type"]
            if kind == "reshuffled":
                words.append(f"The discards were reshuffled into a new deck of {event['cards']}.")
            elif kind == "drew":
                words.append(f"{event['player']} drew a {event['card']}.")
            elif kind == "played":
                words.append(f"{event['player']} played a {event['card']} (+{event['card']}).")
            elif kind == "dice_needed":
                words.append(f"{event['player']} rolls: 2 dice are needed.")
            elif kind == "dice_rolled":
                how = "virtual dice" if event["virtual"] else "dice"
                words.append(f"{event['player']} rolled {event['values'][0]} and {event['values'][1]} ({how}).")
            elif kind == "kept":
                words.append(f"{event['player']} kept the {event['value']} (+{event['value']}).")
            elif kind == "turn_passed":
                words.append(f"{event['from']} passed the turn to {event['to']}.")
            elif kind == "game_over":
                words.append("The game is over.")
        return " ".join(words)

    def put_back(self, action: Mapping[str, Any], events: Sequence[Mapping[str, Any]]) -> list[str]:
        sentences = []
        for event in reversed(events):
            kind = event["type"]
            if kind == "drew":
                sentences.append(f"Put the {event['card']} card from {event['player']}'s hand back on top of the deck.")
            elif kind == "reshuffled":
                sentences.append("Turn the deck back into the discard pile: it had just been reshuffled.")
            elif kind == "played":
                sentences.append(
                    f"Take the {event['card']} card from the discard pile back into {event['player']}'s hand"
                    f" and {_points(event['card'])} off {event['player']}."
                )
            elif kind == "dice_needed":
                sentences.append(f"Put the dice down: {event['player']} has not rolled yet.")
            elif kind == "dice_rolled":
                sentences.append(
                    f"Pick up the dice showing {event['values'][0]} and {event['values'][1]}:"
                    f" {event['player']} gives the dice again."
                )
            elif kind == "kept":
                sentences.append(f"Take {_points(event['value'])} off {event['player']}.")
            elif kind == "turn_passed":
                sentences.append(f"Give the turn back to {event['from']}.")
        return sentences


RULES = DiceCardsRules()
