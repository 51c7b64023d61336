"""Settings: text size, how chance and cards come in, and what the camera, the buttons, the
network and the catalog are doing.

Text size and the dice/cards defaults change at once and are kept in the touchscreen's
preferences (``ui.prefs``). Camera, buttons and network are set in the owner's TOML config; this
screen shows what is in use and where to change it.
"""

from __future__ import annotations

import shutil
import subprocess
from dataclasses import replace
from pathlib import Path
from typing import Any

from companion.config import default_config_path
from ui import background
from ui.prefs import DECK_SOURCES, DICE_SOURCES, TEXT_SCALES
from ui.screens.base import BaseScreen
from ui.services import optional_module
from ui.widgets import TToggle, button, clear_and_fill, label

DICE_WORDS = {
    "camera": "Real dice, read by the camera",
    "typed": "Real dice, typed in",
    "virtual": "Virtual dice",
}
DECK_WORDS = {"physical": "Real cards: tell the app what was drawn", "digital": "Digital decks"}


def config_file_name(config: Any) -> str:
    """Where the owner edits the config: the file in use, or the default place for a new one."""
    return config.source if config.source != "<defaults>" else str(default_config_path())


def catalog_folder(config: Any) -> Path:
    if config.data.catalog:
        return Path(config.data.catalog).expanduser()
    return Path(__file__).resolve().parents[2] / "companion" / "data"


def provisional_entries(config: Any) -> list[str]:
    """The catalog entries marked provisional (not fixed by the rulebook), as 'kind: name'."""
    catalog_module = optional_module("companion.chainsomnia.catalog")
    if catalog_module is None:
        return []
    folder = config.data.catalog
    directory = Path(folder).expanduser() / "chainsomnia" if folder else None
    catalog = catalog_module.load_catalog(directory)
    found = []
    for kind, entries in (
        ("Character", catalog.characters),
        ("Room tile", catalog.tiles),
        ("Event card", catalog.event_cards),
        ("Item card", catalog.item_cards),
    ):
        seen: set[str] = set()
        for entry in entries.values():
            name = getattr(entry, "name", "")
            if getattr(entry, "provisional", False) and name not in seen:
                seen.add(name)
                found.append(f"{kind}: {name}")
    return found


class SettingsScreen(BaseScreen):
    name = "settings"

    def prepare(self, **_: Any) -> None:
        self.build_sections()

    def on_kv_post(self, base_widget: Any) -> None:
        self.build_sections()

    def build_sections(self) -> None:
        app = self.app
        if app is None:
            return
        prefs, config = app.prefs, app.settings_config
        rows: list[Any] = []

        rows.append(label("[b]Text size[/b]", "big"))
        rows.append(self._choices(
            "text", [(f"{round(s * 100)}%", s) for s in TEXT_SCALES], prefs.text_scale, self.set_text_scale
        ))
        rows.append(label("[b]Dice[/b] (each new game can change it)", "big"))
        rows.append(self._choices("dice", [(DICE_WORDS[d], d) for d in DICE_SOURCES], prefs.dice, self.set_dice))
        rows.append(label("[b]Cards[/b]", "big"))
        rows.append(self._choices("decks", [(DECK_WORDS[d], d) for d in DECK_SOURCES], prefs.decks, self.set_decks))

        rows.append(label("[b]Camera[/b]", "big"))
        camera = config.camera
        where = config_file_name(config)
        if camera.source == "none":
            rows.append(label("No camera is set up: dice are typed in. Set [b]source[/b] in the "
                              f"[b]camera[/b] section of {where} to use one.", dim=True))
        else:
            rows.append(label(f"Camera: {camera.source}" + (f" ({camera.path})" if camera.path else "")
                              + f"; readings below {round(camera.min_confidence * 100)}% confidence "
                              "are shown to you to confirm."))

        rows.append(label("[b]Buttons[/b]", "big"))
        panel = app.services.panel
        if panel is not None:
            rows.append(label("The GPIO button panel is on."))
        elif config.buttons:
            rows.append(label("GPIO buttons are configured but could not start on this machine; "
                              "the keyboard stands in.", dim=True))
        else:
            rows.append(label("No GPIO buttons are configured. Keyboard: Enter confirms, Backspace "
                              "goes back, arrows move, Space ends the turn, R rolls, U undoes.",
                              dim=True))

        rows.append(label("[b]Network[/b]", "big"))
        mirror = config.mirror
        if not mirror.enabled:
            rows.append(label(f"The phones' mirror page is off ([b]enabled = false[/b] in the "
                              f"[b]mirror[/b] section of {where}).", dim=True))
        else:
            rows.append(label(f"The phones' mirror page is on port {mirror.port}. "
                              "The Phones screen shows its QR code."))
            rows.append(button("Phones", lambda *_: app.go("phones")))

        rows.append(label("[b]Catalog[/b]", "big"))
        folder = catalog_folder(config)
        rows.append(label(f"The cards and tiles are in [b]{folder}[/b]; correct them for your copy "
                          "of the game, then check them with 'companion catalog check'.", dim=True))
        rows.append(button("Open the catalog folder", self.open_catalog_folder))
        rows.append(self._choices(
            "provisional",
            [("Hide provisional entries", False), ("Show provisional entries", True)],
            prefs.show_provisional,
            self.set_show_provisional,
        ))
        self.provisional_label = label("", dim=True)
        rows.append(self.provisional_label)
        clear_and_fill(self.ids.sections, rows)
        self.show_provisional()

    def _choices(self, group: str, options: list[tuple[str, Any]], current: Any, chosen: Any) -> Any:
        from kivy.uix.gridlayout import GridLayout

        theme = self.app.theme
        columns = 1 if theme.portrait and len(options) > 2 else min(len(options), 3 if len(options) != 5 else 5)
        grid = GridLayout(cols=columns, spacing=theme.gap, size_hint_y=None)
        grid.bind(minimum_height=grid.setter("height"))
        for text, value in options:
            toggle = TToggle(text=text, group=f"settings-{group}", payload=value, allow_no_selection=False)
            toggle.state = "down" if value == current else "normal"
            toggle.bind(on_release=lambda w: chosen(w.payload))
            grid.add_widget(toggle)
        return grid

    # -- changes ----------------------------------------------------------------------------

    def _save(self, **changes: Any) -> None:
        self.app.prefs = replace(self.app.prefs, **changes)
        self.app.prefs.save()

    def set_text_scale(self, scale: float) -> None:
        self._save(text_scale=scale)
        self.app.theme.text_scale = scale

    def set_dice(self, dice: str) -> None:
        self._save(dice=dice)

    def set_decks(self, decks: str) -> None:
        self._save(decks=decks)

    def set_show_provisional(self, show: bool) -> None:
        self._save(show_provisional=show)
        self.show_provisional()

    def show_provisional(self) -> None:
        target = getattr(self, "provisional_label", None)
        if target is None:
            return
        if not self.app.prefs.show_provisional:
            target.text = ""
            return
        target.text = "Reading the catalog..."

        def shown(entries: list[str]) -> None:
            if not entries:
                target.text = "No provisional entries: every entry is fixed by the rulebook or by you."
            else:
                target.text = (f"{len(entries)} entries are provisional (the rulebook does not fix "
                               "them; check them against your cards):\n" + "\n".join(entries))

        background.later(
            lambda: provisional_entries(self.app.settings_config),
            shown,
            lambda err: setattr(target, "text", f"The catalog cannot be read: {err}"),
        )

    def open_catalog_folder(self, *_: Any) -> None:
        folder = catalog_folder(self.app.settings_config)
        opener = shutil.which("xdg-open")
        if opener is None:
            self.app.notify(f"No file manager here: the catalog is in {folder}")
            return
        try:
            subprocess.Popen([opener, str(folder)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        except OSError as err:
            self.app.notify(f"The folder could not be opened ({err}): it is {folder}")
            return
        self.app.notify(f"Opening {folder}")
