"""The app's screens, one module each. ``SCREENS`` maps a screen's name to where its class is;
the app builds a screen the first time it is opened, so start-up draws only Home."""

from __future__ import annotations

import importlib
from typing import Any

SCREENS = {
    "home": "ui.screens.home:HomeScreen",
    "settings": "ui.screens.settings:SettingsScreen",
    "phones": "ui.screens.phones:PhonesScreen",
    "history": "ui.screens.history:HistoryScreen",
    "dice": "ui.screens.dice:DiceScreen",
    "chainsomnia_setup": "ui.chainsomnia.setup:ChainsomniaSetupScreen",
    "chainsomnia_table": "ui.chainsomnia.table:ChainsomniaTableScreen",
    "somnicum_setup": "ui.somnicum.setup:SomnicumSetupScreen",
    "somnicum_table": "ui.somnicum.table:SomnicumTableScreen",
    "scorepad_players": "ui.somnicum.scorepad_screens:ScorePadPlayersScreen",
    "scorepad_dream": "ui.somnicum.scorepad_screens:ScorePadDreamScreen",
    "scorepad_result": "ui.somnicum.scorepad_screens:ScorePadResultScreen",
}


def screen_class(name: str) -> Any:
    """The class of screen `name` (KeyError for a screen the app does not have)."""
    module, _, attribute = SCREENS[name].partition(":")
    return getattr(importlib.import_module(module), attribute)
