"""Somnicum's pure rules: the field and flywheels, dreams, Meeting cards, rounds and scoring.

``RULES`` is what the Table calls (``companion.rules.Rules``); ``companion.games.rules_for
("somnicum")`` finds it. It is imported on first use, so that ``companion somnicum score`` and
the command line's start do not pay for the whole game.
"""

from __future__ import annotations

from typing import Any

__all__ = ["RULES", "SomnicumRules"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from companion.somnicum import game

        return getattr(game, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
