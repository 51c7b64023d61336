"""What every game's pure rules offer the Table, the simulator and the views.

A game is a module (``companion.chainsomnia``, ``companion.somnicum``) that exposes a
``RULES`` object with this shape. State is immutable; ``apply`` returns the next state and the
events that happened, or raises ``IllegalAction`` with a code and a sentence a player
understands, citing the rule.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

Action = dict[str, Any]
Event = dict[str, Any]
JSON = dict[str, Any]


class IllegalAction(Exception):
    """A refused action: ``code`` for programs, ``message`` for the players.

    >>> raise IllegalAction("bad_dream_in_room", "Chloe cannot move into the Library: a Bad Dream is there")
    Traceback (most recent call last):
    ...
    companion.rules.IllegalAction: Chloe cannot move into the Library: a Bad Dream is there
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def to_json(self) -> JSON:
        return {"code": self.code, "message": self.message}


class Rules(Protocol):
    """The vocabulary every game speaks (after OpenSpiel's game API)."""

    name: str  # "chainsomnia" or "somnicum"

    def new_game(self, options: Mapping[str, Any]) -> Any: ...

    def apply(self, state: Any, action: Action) -> tuple[Any, list[Event]]: ...

    def legal_actions(self, state: Any) -> list[Action]: ...

    def is_over(self, state: Any) -> bool: ...

    def result(self, state: Any) -> JSON: ...

    def view(self, state: Any, seat: int | None) -> JSON: ...

    def state_to_json(self, state: Any) -> JSON: ...

    def state_from_json(self, data: Mapping[str, Any]) -> Any: ...

    def describe(self, action: Action, events: Sequence[Event]) -> str: ...

    def put_back(self, action: Action, events: Sequence[Event]) -> list[str]: ...
