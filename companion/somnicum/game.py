"""``RULES``: Somnicum as the Table, the simulator and the views call it (``companion.rules.Rules``).

>>> from companion.somnicum import RULES
>>> state = RULES.new_game({"players": ["Ana", "Ben"], "seed": 1})
>>> RULES.legal_actions(state)[0]
{'type': 'place_flywheels', 'gap': 0, 'seat': 1}
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.somnicum import actions, text
from companion.somnicum import view as views
from companion.somnicum.rounds import result_json, scores
from companion.somnicum.setup import catalog_of, new_game
from companion.somnicum.state import SomnicumState, state_from_json, state_to_json

Action = dict[str, Any]
Event = dict[str, Any]


class SomnicumRules:
    """The pure rules of Somnicum; every method is a function of its arguments."""

    name = "somnicum"

    def new_game(self, options: Mapping[str, Any]) -> SomnicumState:
        """Options: players (2-4 names, or a number), decks ("digital" | "physical"), seed,
        first_player (a seat or a name), catalog (a catalog directory; default the shipped one)."""
        state, _events = new_game(options)
        return state

    def apply(self, state: SomnicumState, action: Mapping[str, Any]) -> tuple[SomnicumState, list[Event]]:
        return actions.apply(catalog_of(state), state, action)

    def legal_actions(self, state: SomnicumState) -> list[Action]:
        return actions.legal_actions(catalog_of(state), state)

    def chance_outcomes(self, state: SomnicumState) -> list[tuple[Action, float]]:
        """At a physical table's chance node: each outcome action with its probability."""
        return actions.chance_outcomes(catalog_of(state), state)

    def is_over(self, state: SomnicumState) -> bool:
        return state.over

    def result(self, state: SomnicumState) -> dict[str, Any]:
        """The scores (final once the game is over) with each card's line and the tie-break."""
        data = result_json(scores(catalog_of(state), state))
        data["over"] = state.over
        if state.over:
            best = max((p["total"] for p in data["players"]), default=0)
            winners = data["winners"]
            verb = "wins" if len(winners) == 1 else "share the victory"
            data["text"] = f"Game over: {', '.join(winners)} {verb} with {best} points."
        return data

    def view(self, state: SomnicumState, seat: int | None) -> dict[str, Any]:
        return views.view(catalog_of(state), state, seat)

    def state_to_json(self, state: SomnicumState) -> dict[str, Any]:
        return state_to_json(state)

    def state_from_json(self, data: Mapping[str, Any]) -> SomnicumState:
        return state_from_json(data)

    def describe(self, action: Action, events: Sequence[Event]) -> str:
        return text.describe(action, events)

    def put_back(self, action: Action, events: Sequence[Event]) -> list[str]:
        return text.put_back(action, events)


RULES = SomnicumRules()
