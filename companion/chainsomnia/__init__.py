"""CHAINsomnia's pure rules: ``RULES`` is what the Table, the simulator and the views call.

>>> state = RULES.new_game({"players": 4, "characters": ["ryan", "chloe", "isaac", "timi"], "seed": 7})
>>> state.phase, state.current.id, state.current.ap
('players', 'ryan', 3)
>>> state, events = RULES.apply(state, {"type": "end_turn"})
>>> RULES.describe({"type": "end_turn"}, events)
"Ryan ends the turn; Chloe's turn (3 AP)."
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.chainsomnia import daemon, engine, narration, setup
from companion.chainsomnia import state as state_module
from companion.chainsomnia import view as view_module
from companion.chainsomnia.state import State
from companion.rules import Action, Event, JSON


class ChainsomniaRules:
    """companion.rules.Rules for CHAINsomnia."""

    name = "chainsomnia"

    def new_game(self, options: Mapping[str, Any]) -> State:
        return engine.start(setup.new_game(options))

    def apply(self, state: State, action: Action) -> tuple[State, list[Event]]:
        return engine.apply(state, action)

    def legal_actions(self, state: State) -> list[Action]:
        return engine.legal_actions(state)

    def is_over(self, state: State) -> bool:
        return state.phase == "over"

    def result(self, state: State) -> JSON:
        return {
            "over": state.phase == "over",
            "result": state.result,
            "cause": state.cause,
            "round": state.round,
            "caged": [c.id for c in state.characters if c.chains >= state_module.CAGE],
        } | ({"text": daemon.end_text(state.result, state.cause)} if state.phase == "over" else {})

    def view(self, state: State, seat: int | None) -> JSON:
        return view_module.view(state, seat)

    def state_to_json(self, state: State) -> JSON:
        return state_module.state_to_json(state)

    def state_from_json(self, data: Mapping[str, Any]) -> State:
        return state_module.state_from_json(dict(data))

    def describe(self, action: Action, events: Sequence[Event]) -> str:
        return narration.describe(action, events)

    def put_back(self, action: Action, events: Sequence[Event]) -> list[str]:
        return narration.put_back(action, events)


RULES = ChainsomniaRules()

__all__ = ["RULES", "ChainsomniaRules", "State"]
