"""Somnicum's pure rules: the field and flywheels, dreams, Meeting cards, rounds and scoring.

``RULES`` is what the Table calls (``companion.rules.Rules``); ``companion.games.rules_for
("somnicum")`` finds it.
"""

from companion.somnicum.game import RULES, SomnicumRules

__all__ = ["RULES", "SomnicumRules"]
