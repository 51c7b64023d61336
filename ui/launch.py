"""Starting Kivy for Dreamtable: its environment and window settings, then the app.

Kivy reads its settings when first imported, so ``prepare_kivy`` runs before any Kivy import:
no command-line parsing by Kivy, its logs through Python logging (``companion.logs``), its own
files under ``$XDG_CONFIG_HOME/dreamtable/kivy`` instead of ``~/.kivy``.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import Any

from companion.config import Config, xdg_config_home


def _warnings_and_worse(record: logging.LogRecord) -> bool:
    return record.levelno >= logging.WARNING


def prepare_kivy(size: tuple[int, int], fullscreen: bool, kivy_home: Path | None = None) -> None:
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    os.environ.setdefault("KIVY_LOG_MODE", "PYTHON")
    os.environ.setdefault("KIVY_HOME", str(kivy_home or xdg_config_home() / "dreamtable" / "kivy"))
    Path(os.environ["KIVY_HOME"]).mkdir(parents=True, exist_ok=True)
    if logging.getLogger().getEffectiveLevel() > logging.DEBUG:
        # Kivy's start-up chatter is DEBUG to us. A filter, not a level: Kivy sets its logger's
        # level itself while it is imported.
        logging.getLogger("kivy").addFilter(_warnings_and_worse)
    from kivy.config import Config as KivyConfig

    KivyConfig.set("kivy", "log_enable", "0")
    KivyConfig.set("kivy", "exit_on_escape", "0")  # Escape is not a way to lose a game
    KivyConfig.set("kivy", "keyboard_mode", "system")
    KivyConfig.set("input", "mouse", "mouse,multitouch_on_demand")  # no red dots on right-click
    KivyConfig.set("graphics", "width", str(size[0]))
    KivyConfig.set("graphics", "height", str(size[1]))
    KivyConfig.set("graphics", "fullscreen", "auto" if fullscreen else "0")
    KivyConfig.set("graphics", "show_cursor", "0" if fullscreen else "1")
    KivyConfig.set("graphics", "maxfps", "30")  # plenty for a board game; spares the Pi


def launch(
    config: Config,
    *,
    size: tuple[int, int],
    fullscreen: bool,
    database: str | None = None,
    **app_options: Any,
) -> int:
    prepare_kivy(size, fullscreen)
    from ui.app import DreamtableApp

    app = DreamtableApp(config, database=Path(database) if database else None, **app_options)
    app.run()
    return 0
