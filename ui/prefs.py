"""The touchscreen's own preferences: what a player changes on the Settings screen.

The TOML config (``companion/config.py``) is the owner's file and the app never rewrites it. The
few things players change at the table (text size, how dice and cards come in by default,
showing provisional catalog entries) are kept beside it in
``$XDG_CONFIG_HOME/dreamtable/touchscreen.json`` and start from the config's values.

>>> from companion.config import Config
>>> prefs = Prefs.starting_from(Config())
>>> prefs.dice, prefs.text_scale
('typed', 1.0)
"""

from __future__ import annotations

import json
import logging
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

from companion.config import Config, xdg_config_home

log = logging.getLogger(__name__)

DICE_SOURCES = ("camera", "typed", "virtual")
DECK_SOURCES = ("physical", "digital")
TEXT_SCALES = (0.85, 1.0, 1.15, 1.3, 1.5)


def prefs_path() -> Path:
    return xdg_config_home() / "dreamtable" / "touchscreen.json"


@dataclass(frozen=True)
class Prefs:
    text_scale: float = 1.0
    dice: str = "typed"
    decks: str = "physical"
    show_provisional: bool = False

    @classmethod
    def starting_from(cls, config: Config) -> Prefs:
        return cls(text_scale=config.app.text_scale, dice=config.game.dice, decks=config.game.decks)

    @classmethod
    def load(cls, config: Config, path: Path | None = None) -> Prefs:
        """The saved preferences over the config's values; a damaged file is ignored (logged)."""
        base = cls.starting_from(config)
        path = path or prefs_path()
        if not path.exists():
            return base
        try:
            raw = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as err:
            log.warning("%s: ignored (%s); using the config's settings", path, err)
            return base
        return base.merged(raw if isinstance(raw, dict) else {})

    def merged(self, raw: dict[str, Any]) -> Prefs:
        changes: dict[str, Any] = {}
        if isinstance(raw.get("text_scale"), (int, float)) and 0.5 <= raw["text_scale"] <= 3.0:
            changes["text_scale"] = float(raw["text_scale"])
        if raw.get("dice") in DICE_SOURCES:
            changes["dice"] = raw["dice"]
        if raw.get("decks") in DECK_SOURCES:
            changes["decks"] = raw["decks"]
        if isinstance(raw.get("show_provisional"), bool):
            changes["show_provisional"] = raw["show_provisional"]
        return replace(self, **changes)

    def save(self, path: Path | None = None) -> None:
        path = path or prefs_path()
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(asdict(self), indent=2) + "\n", encoding="utf-8")
        except OSError as err:
            log.warning("%s: the settings could not be saved: %s", path, err)
