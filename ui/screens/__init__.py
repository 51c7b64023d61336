"""The app's screens, one module each; ``all_screens()`` lists the classes the app shows."""

from __future__ import annotations

from typing import Any


def all_screens() -> list[Any]:
    from ui.screens.dice import DiceScreen
    from ui.screens.history import HistoryScreen
    from ui.screens.home import HomeScreen
    from ui.screens.phones import PhonesScreen
    from ui.screens.settings import SettingsScreen

    from ui.chainsomnia.setup import ChainsomniaSetupScreen
    from ui.chainsomnia.table import ChainsomniaTableScreen

    from ui.somnicum.setup import SomnicumSetupScreen
    from ui.somnicum.table import SomnicumTableScreen
    from ui.somnicum.scorepad_screens import ScorePadDreamScreen, ScorePadPlayersScreen, ScorePadResultScreen

    return [
        HomeScreen, SettingsScreen, PhonesScreen, HistoryScreen,
        ChainsomniaSetupScreen, ChainsomniaTableScreen,
        ScorePadPlayersScreen, ScorePadDreamScreen, ScorePadResultScreen,
        SomnicumSetupScreen, SomnicumTableScreen, DiceScreen,
    ]
