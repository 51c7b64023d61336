"""Which games Dreamtable knows: a name -> Rules registry for the Table and the command line.

The two games live in their own packages and are imported only when asked for, so a build (or a
test) without one of them still starts, and a slow import stays with the game that needs it:

>>> rules_for("chess")
Traceback (most recent call last):
...
companion.games.UnknownGame: 'chess' is not a game Dreamtable knows (known: chainsomnia, somnicum)
"""

from __future__ import annotations

import importlib
import threading

from companion.rules import Rules

# The built-in games: name -> module exposing RULES.
GAME_MODULES = {
    "chainsomnia": "companion.chainsomnia",
    "somnicum": "companion.somnicum",
}

# Extra games registered at run time (the Table's own test game, a future expansion).
_registered: dict[str, Rules] = {}
_lock = threading.Lock()


class UnknownGame(LookupError):
    """A game name Dreamtable cannot play (unknown, or its rules are not there yet)."""

    def __init__(self, name: str, message: str) -> None:
        super().__init__(message)
        self.name = name
        self.message = message

    def __str__(self) -> str:
        return self.message


def game_names() -> list[str]:
    """Every game name a Table may be asked for, built-in first."""
    with _lock:
        extra = sorted(n for n in _registered if n not in GAME_MODULES)
    return [*GAME_MODULES, *extra]


def rules_for(name: str) -> Rules:
    """The ``RULES`` object of the game called `name` ("chainsomnia" | "somnicum")."""
    with _lock:
        if name in _registered:
            return _registered[name]
    module_name = GAME_MODULES.get(name)
    if module_name is None:
        raise UnknownGame(
            name, f"{name!r} is not a game Dreamtable knows (known: {', '.join(game_names())})"
        )
    module = importlib.import_module(module_name)
    rules = getattr(module, "RULES", None)
    if rules is None:
        raise UnknownGame(name, f"{name}: this build of Dreamtable has no rules for it yet")
    return rules


def register(rules: Rules) -> None:
    """Makes `rules` playable under ``rules.name`` (shadowing a built-in game of that name)."""
    with _lock:
        _registered[rules.name] = rules


def unregister(name: str) -> None:
    """Forgets a game added with :func:`register`."""
    with _lock:
        _registered.pop(name, None)
