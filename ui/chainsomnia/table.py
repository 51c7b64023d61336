"""The CHAINsomnia table: the castle map, the character boards, and the turn.

Everything shown comes from the public view; every choice is a legal action of the rules.
A tap on an outlined room chooses it (move, flee, where the new tile goes); a Test waiting for
real dice gets the dice pad; a card drawn by hand is picked from the names still in the deck.
The Daemon's turn is told step by step, each step confirmed before the next.
"""

from __future__ import annotations

from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout

from companion.focus import Focus, Option
from ui import theme as colours
from ui.chainsomnia.boards import CharacterBoard
from ui.chainsomnia.castle_map import CastleMap
from ui.chainsomnia.words import ABILITY_WORDS, Words, daemon_steps, instruction, ordered, setup_steps
from ui.dice_pad import DicePad
from ui.game_screen import GameScreen
from ui.services import optional_module
from ui.session import Frame
from ui.widgets import button, label

ISAAC = "fortune_of_a_bold_entrepreneur"
CELL_KEYS = ("to", "tile", "at")


class ChainsomniaTableScreen(GameScreen):
    name = "chainsomnia_table"
    game = "chainsomnia"

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.catalog: Any = None
        self.words = Words({})
        self.end_sentence = ""
        self.steps_kind = "At the table"
        self.boards: dict[str, CharacterBoard] = {}
        self.fresh = False  # a new game: say first how to lay out the table

    def on_kv_post(self, base_widget: Any) -> None:
        theme = self.app.theme
        column = BoxLayout(orientation="vertical", spacing=theme.gap * 0.5)
        self.deck_line = label("", "small", dim=True)
        self.castle_map = CastleMap()
        self.castle_map.bind(on_cell=lambda _w, cell: self.tap_cell(cell))
        column.add_widget(self.deck_line)
        column.add_widget(self.castle_map)
        self.ids.board.add_widget(column)
        self.board_grid = GridLayout(cols=4, spacing=theme.gap)
        self.ids.boards.add_widget(self.board_grid)
        theme.bind(portrait=self._fit_boards, font_body=self._fit_boards)

    # -- opening --------------------------------------------------------------------------

    def load_in_background(self, options: dict[str, Any] | None) -> None:
        module = optional_module("companion.chainsomnia.catalog")
        if module is None:
            return
        catalog_dir = (options or {}).get("catalog_dir")
        self.catalog = module.load_catalog(catalog_dir or None)

    def prepare(self, **params: Any) -> None:
        if params.get("new") is not None or params.get("resume") is not None:
            # a new game first says how to lay out the table (unless it is already laid out)
            self.fresh = params.get("new") is not None and params.get("guide", True)
            self.end_sentence = ""
            self.boards.clear()
            self.board_grid.clear_widgets()
        super().prepare(**params)

    # -- what the choices say -------------------------------------------------------------

    def arrange(self, legal: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return ordered(legal)

    def option_label(self, key: str, value: Any, missing: bool) -> str:
        return self.words.label(key, value, missing)

    def option_tone(self, option: Option) -> str:
        if option.key == "type" and option.value in ("defeat", "flee"):
            return "danger"
        return "normal"

    def option_text(self, option: Option) -> str:
        """A kind of action with only one way to do it says that way: "Flee: the Armory"."""
        action = option.action
        if option.key != "type" or action is None:
            return option.label
        details = [self.words.label(key, value, False) for key, value in action.items()
                   if key not in ("type", "character")]
        return option.label + (": " + ", ".join(details) if details else "")

    def pinned(self, option: Option) -> bool:
        return option.key == "type" and option.value == "end_turn"

    def seat_names_map(self) -> dict[str, int]:
        return {c["id"]: c["seat"] for c in self.view.get("characters", [])}

    # -- frames ---------------------------------------------------------------------------

    def show_frame(self, frame: Frame) -> None:
        self.words = Words(frame.public, self.catalog)
        for event in frame.update.events or []:
            if event.get("type") in ("victory", "defeat"):
                self.end_sentence = str(event.get("text", ""))
        super().show_frame(frame)

    def status_text(self, frame: Frame) -> str:
        view = frame.public
        round_ = view.get("round")
        if frame.over:
            return f"Round {round_} · the game is over"
        if view.get("phase") == "daemon":
            return f"Round {round_} · [color={colours.hex_colour(colours.DANGER)}]the Daemon's turn[/color]"
        current = self.words.current
        if current is None:
            return f"Round {round_}"
        return f"Round {round_} · [b]{current['name']}[/b]'s turn · {current['ap']} AP"

    def prompt_text(self, frame: Frame) -> str:
        pending = frame.public.get("pending")
        if pending:
            return self.words.pending_prompt()
        current = self.words.current
        if current is None:
            return "Choose."
        if self.focus is not None and self.focus.path:
            return f"{current['name']}: choose."
        ap = current.get("ap", 0)
        return f"{current['name']}: {ap} AP left. What now?" if ap else f"{current['name']}: no AP left."

    def end_text(self, frame: Frame) -> str:
        return self.end_sentence or frame.update.text or "The game is over."

    def steps_for(self, frame: Frame, previous: dict[str, Any]) -> list[str]:
        update = frame.update
        if update.kind == "start" and self.fresh:
            self.fresh = False
            self.steps_kind = "Lay out the table"
            return setup_steps(frame.public, self.catalog)
        if update.kind != "action":
            return []
        events = update.events or []
        continuing = previous.get("phase") == "daemon"
        steps = daemon_steps(events, continuing, self.words)
        if steps:
            self.steps_kind = "The Daemon's turn"
            return steps
        if any(e.get("type") in ("event_drawn", "tile_returned") for e in events):
            # exploring (or an effect) drew cards: say what goes where on the table
            self.steps_kind = "At the table"
            start = next(i for i, e in enumerate(events) if e.get("type") in ("event_drawn", "tile_returned"))
            lines = [instruction(e, self.words) for e in events[start:]]
            return [line for line in lines if line]
        return []

    def steps_heading(self) -> str:
        return self.steps_kind

    def draw_board(self, frame: Frame) -> None:
        view = frame.public
        decks = view.get("decks", {})
        howling = view.get("howling_count", 0)
        howl = f"  ·  [color={colours.hex_colour(colours.DANGER)}][b]Howling {howling}[/b] (draw {howling + 1})[/color]" if howling else ""
        self.deck_line.text = (f"Castle {decks.get('castle', '?')}  ·  Events {decks.get('event', '?')}  ·  "
                               f"Items {decks.get('item', '?')}{howl}")
        self._show_boards(view)

    def clear_board(self) -> None:
        self.castle_map.show({})
        self.deck_line.text = ""

    def after_render(self) -> None:
        targets, ghosts = self.map_choices()
        self.castle_map.show(self.view, targets, ghosts)

    def map_choices(self) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
        """The cells a tap may choose now, and where a new tile could go."""
        if self.focus is None or self.frame is None or self.frame.over or (self.steps and not self.steps_done):
            return [], []
        pending = self.view.get("pending") or {}
        ghosts = []
        if pending.get("kind") == "place_tile":
            ghosts = sorted({tuple(o["at"]) for o in pending.get("options", [])})
        targets = [cell for o in self.focus.menu() if (cell := option_cell(o)) is not None]
        if not self.focus.path and not pending:
            targets += [tuple(a["to"]) for a in self.focus.actions if a.get("type") == "move"]
        return targets, ghosts

    def tap_cell(self, cell: tuple[int, int]) -> None:
        if self.focus is None:
            return
        for index, option in enumerate(self.focus.menu()):
            if option_cell(option) == tuple(cell):
                self.choose(index)
                return
        if not self.focus.path:
            for action in self.focus.actions:
                if action.get("type") == "move" and tuple(action["to"]) == tuple(cell):
                    self.submit(action)
                    return

    # -- panels instead of long lists ---------------------------------------------------------

    def custom_panel(self, frame: Frame, focus: Focus) -> Any | None:
        pending = frame.public.get("pending") or {}
        kind = pending.get("kind")
        if kind == "roll" and frame.public.get("dice") == "physical":
            return self.dice_pad(pending)
        if kind == "draw" and not focus.path:
            return self.card_picker(focus)
        return None

    def dice_pad(self, pending: dict[str, Any]) -> Any:
        count = int(pending.get("count", 2))
        who = self.words.characters.get(pending.get("character", ""), {})
        optional = 1 if count == 3 and who.get("ability") == ISAAC else 0
        extra = []
        if self.app.services.camera_configured():
            extra.append(button("Read the dice with the camera",
                                lambda *_: self.app.go("dice", screen=self.name, count=count, optional=optional)))
        return DicePad(count, self.give_dice, optional=optional, extra=extra)

    def give_dice(self, values: list[int]) -> None:
        self.submit({"type": "dice", "values": values})

    def card_picker(self, focus: Focus) -> Any:
        """The cards still unseen in that deck, one button per name (any copy will do)."""
        theme = self.app.theme
        grid = GridLayout(cols=1 if theme.portrait else 2, spacing=theme.gap, size_hint_y=None)
        grid.bind(minimum_height=grid.setter("height"))
        by_name: dict[str, dict[str, Any]] = {}
        for action in focus.actions:
            if action.get("type") == "draw":
                by_name.setdefault(self.words.card(action["card"]), action)
        for name in sorted(by_name):
            grid.add_widget(button(name, lambda w: self.submit(w.payload), payload=by_name[name],
                                   font_role="body"))
        return grid

    def dice_from_camera(self, values: list[int]) -> None:
        """The Dice screen's confirmed reading."""
        self.give_dice(values)

    # -- the character boards ---------------------------------------------------------------

    def _fit_boards(self, *_: Any) -> None:
        theme = self.app.theme
        count = max(len(self.boards), 1)
        columns = 2 if theme.portrait and count > 2 else count
        rows = -(-count // columns)
        self.board_grid.cols = columns
        one = theme.font_body * 2.5 + theme.font_small * 1.3 + theme.pad + theme.gap
        self.ids.boards.height = rows * one + (rows - 1) * theme.gap

    def _show_boards(self, view: dict[str, Any]) -> None:
        characters = view.get("characters", [])
        if set(self.boards) != {c["id"] for c in characters}:
            self.boards = {c["id"]: CharacterBoard() for c in characters}
            self.board_grid.clear_widgets()
            for c in characters:
                self.board_grid.add_widget(self.boards[c["id"]])
            self._fit_boards()
        turn = view.get("turn")
        for index, c in enumerate(characters):
            colour = colours.SEAT_COLOURS[index % len(colours.SEAT_COLOURS)]
            self.boards[c["id"]].show(c, colour, c["id"] == turn)


def option_cell(option: Option) -> tuple[int, int] | None:
    """The room a menu option points at: its own value, or the cell of the one action it sends."""
    if option.key in CELL_KEYS and isinstance(option.value, list):
        return (option.value[0], option.value[1])
    action = option.action
    if action is not None and option.key == "type":
        for key in CELL_KEYS:
            if isinstance(action.get(key), list):
                return (action[key][0], action[key][1])
    return None


def ability_name(ability: str) -> str:
    return ABILITY_WORDS.get(ability, ability.replace("_", " "))
