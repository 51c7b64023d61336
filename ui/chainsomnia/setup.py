"""CHAINsomnia's setup: players, characters (chosen or random, with the rulebook's difficulty
dots), Normal or Beginner mode, and how chance comes in (dice and cards).

Start opens the table screen, which first says what to lay out, step by step, as the rulebook's
Game Setup does.
"""

from __future__ import annotations

import random
from typing import Any

from kivy.properties import ListProperty, NumericProperty, StringProperty
from kivy.uix.gridlayout import GridLayout

from ui import background
from ui.chainsomnia.words import ABILITY_TEXT, ABILITY_WORDS, dots
from ui.screens.base import BaseScreen
from ui.services import optional_module
from ui.widgets import TToggle, button, clear_and_fill, label

# Characters in play per number of players (the rulebook: solo plays 3, 2 players play 2 each).
CHARACTERS_FOR = {1: 3, 2: 4, 3: 3, 4: 4}
DICE_WORDS = {"camera": "Real dice, camera", "typed": "Real dice, typed", "virtual": "Virtual dice"}
DECK_WORDS = {"physical": "Real cards", "digital": "Digital decks"}


def characters_for(players: int) -> int:
    setup = optional_module("companion.chainsomnia.setup")
    table = getattr(setup, "CHARACTERS_FOR", CHARACTERS_FOR) if setup else CHARACTERS_FOR
    return int(table[players])


class ChainsomniaSetupScreen(BaseScreen):
    name = "chainsomnia_setup"
    players = NumericProperty(4)
    chosen = ListProperty([])
    mode = StringProperty("normal")
    dice = StringProperty("typed")
    decks = StringProperty("physical")
    summary = StringProperty("")

    def prepare(self, **_: Any) -> None:
        prefs = self.app.prefs
        self.dice = prefs.dice if prefs.dice != "camera" or self.app.services.camera_configured() else "typed"
        self.decks = prefs.decks
        self.chosen = []
        self.catalog = None
        self.character_buttons = {}
        clear_and_fill(self.ids.form, [label("Reading the characters...", dim=True)])
        self.ids.start.disabled = True
        module = optional_module("companion.chainsomnia.catalog")
        if module is None:
            clear_and_fill(self.ids.form, [label("This build has no CHAINsomnia catalog.")])
            return
        folder = self.app.settings_config.data.catalog
        background.later(lambda: module.load_catalog(f"{folder}/chainsomnia" if folder else None),
                         self.catalog_read, self.catalog_failed)

    def catalog_read(self, catalog: Any) -> None:
        self.catalog = catalog
        self.build_form()

    def catalog_failed(self, error: BaseException) -> None:
        clear_and_fill(self.ids.form, [label(f"The CHAINsomnia catalog cannot be read: {error}")])

    def build_form(self) -> None:
        theme = self.app.theme
        rows: list[Any] = []
        rows.append(label("[b]Players[/b]", "big"))
        rows.append(self._choices("players", [(str(n), n) for n in (1, 2, 3, 4)], self.players, self.set_players, cols=4))
        need = characters_for(int(self.players))
        rows.append(label(f"[b]Characters[/b]: choose {need} in turn order, or Random"
                          + ("  (solo: you play all 3)" if self.players == 1 else
                             "  (2 players: 2 each)" if self.players == 2 else ""), "big"))
        grid = GridLayout(cols=1 if theme.portrait else 2, spacing=theme.gap, size_hint_y=None)
        grid.bind(minimum_height=grid.setter("height"))
        self.character_buttons: dict[str, TToggle] = {}
        for cid, board in (self.catalog.characters.items() if self.catalog else []):
            toggle = TToggle(payload=cid, font_role="body", grow=True)
            toggle.bind(on_release=self.toggle_character)
            self.character_buttons[cid] = toggle
            grid.add_widget(toggle)
        rows.append(grid)
        rows.append(button("Random characters", self.random_characters))
        rows.append(label("[b]Mode[/b]", "big"))
        rows.append(self._choices("mode", [("Normal: 16 rooms", "normal"), ("Beginner: 5 rooms", "beginner")],
                                  self.mode, lambda v: setattr(self, "mode", v)))
        rows.append(label("[b]Dice[/b]", "big"))
        dice_options = [(DICE_WORDS[d], d) for d in ("camera", "typed", "virtual")
                        if d != "camera" or self.app.services.camera_configured()]
        rows.append(self._choices("dice", dice_options, self.dice, lambda v: setattr(self, "dice", v)))
        rows.append(label("[b]Cards and tiles[/b]", "big"))
        rows.append(self._choices("decks", [(DECK_WORDS[d], d) for d in ("physical", "digital")],
                                  self.decks, lambda v: setattr(self, "decks", v)))
        clear_and_fill(self.ids.form, rows)
        self.refresh_characters()

    def _choices(self, group: str, options: list[tuple[str, Any]], current: Any, chosen: Any, cols: int | None = None) -> Any:
        theme = self.app.theme
        grid = GridLayout(cols=cols or (1 if theme.portrait and len(options) > 2 else len(options)),
                          spacing=theme.gap, size_hint_y=None)
        grid.bind(minimum_height=grid.setter("height"))
        for text, value in options:
            toggle = TToggle(text=text, group=f"cs-setup-{group}", payload=value, allow_no_selection=False)
            toggle.state = "down" if value == current else "normal"
            toggle.bind(on_release=lambda w: chosen(w.payload))
            grid.add_widget(toggle)
        return grid

    # -- choices ----------------------------------------------------------------------------

    def set_players(self, players: int) -> None:
        self.players = players
        need = characters_for(players)
        self.chosen = list(self.chosen)[:need]
        self.build_form()

    def toggle_character(self, toggle: TToggle) -> None:
        cid = toggle.payload
        chosen = list(self.chosen)
        if cid in chosen:
            chosen.remove(cid)
        elif len(chosen) < characters_for(int(self.players)):
            chosen.append(cid)
        self.chosen = chosen
        self.refresh_characters()

    def random_characters(self, *_: Any) -> None:
        everyone = list(self.character_buttons)
        self.chosen = random.sample(everyone, characters_for(int(self.players)))
        self.refresh_characters()

    def refresh_characters(self) -> None:
        need = characters_for(int(self.players))
        for cid, toggle in self.character_buttons.items():
            board = self.catalog.characters[cid]
            order = self.chosen.index(cid) + 1 if cid in self.chosen else 0
            head = f"{order}. " if order else ""
            toggle.text = (f"{head}[b]{board.name}[/b] {dots(board.difficulty)}\n"
                           f"[size={int(self.app.theme.font_small)}]{ABILITY_WORDS.get(board.ability, '')}: "
                           f"{ABILITY_TEXT.get(board.ability, '')}[/size]")
            toggle.state = "down" if order else "normal"
        names = [self.catalog.characters[c].name for c in self.chosen] if self.catalog else []
        missing = need - len(self.chosen)
        self.summary = (", ".join(names) + (f": choose {missing} more" if missing else "")) if names else f"Choose {need} characters"
        self.ids.start.disabled = missing != 0

    def options(self) -> dict[str, Any]:
        options: dict[str, Any] = {
            "players": int(self.players),
            "characters": list(self.chosen),
            "mode": self.mode,
            "dice": self.dice,
            "decks": self.decks,
        }
        catalog = self.app.settings_config.data.catalog
        if catalog:
            options["catalog_dir"] = f"{catalog}/chainsomnia"
        return options

    def start(self) -> None:
        self.app.go("chainsomnia_table", new=self.options())
