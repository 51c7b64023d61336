"""The Somnicum table: the field circle with the flywheels and the cost of each move, every
player's dream, and the turn.

The choices are the rules' legal actions. A move says where the flywheel stops and what it
costs ("3 steps: Space 9, 2 stars, free"; "5 steps: ..., pay 2 Sleep Sand tokens"). Choices that
show a player's secrets (their tokens' faces, their Meeting cards) are shown only after that
player asks, so the others can look away.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout

from companion.focus import Focus, Option
from ui import theme as colours
from ui.game_screen import GameScreen
from ui.services import optional_module
from ui.session import Frame
from ui.somnicum.field import DreamView, FieldCircle
from ui.widgets import Panel, button, label

ACTION_WORDS = {
    "place_flywheels": "Place the flywheels",
    "move_flywheel": "Move a flywheel",
    "attach": "Attach the card",
    "add_particle": "Add a particle (Sleep Sand token)",
    "pay_token": "Pay a Sleep Sand token",
    "keep_meeting": "Keep a Meeting card",
    "play_meeting": "Play a Meeting card",
    "end_turn": "End the turn",
    "lay_card": "Name the next field card",
    "enter_goal": "Enter the secret Goal card",
    "draw_token": "Name the token drawn",
    "draw_meeting": "Name the Meeting card drawn",
}
ORDER = ["place_flywheels", "move_flywheel", "add_particle", "attach", "pay_token", "keep_meeting",
         "play_meeting", "lay_card", "enter_goal", "draw_token", "draw_meeting", "end_turn"]
# Choices that show what only the acting player may see.
PRIVATE = {"add_particle", "pay_token", "keep_meeting", "play_meeting", "enter_goal", "draw_token", "draw_meeting"}


def landing(size: int, gap: int, steps: int) -> int:
    """Where a flywheel in ``gap`` stops after ``steps`` (the rulebook's clockwise steps)."""
    field = optional_module("companion.somnicum.field")
    if field is not None:
        return int(field.landing(size, gap, steps))
    return (gap + steps - 1) % size


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'s' if n != 1 else ''}"


class SomnicumTableScreen(GameScreen):
    name = "somnicum_table"
    game = "somnicum"
    seat_views = True

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.catalog: Any = None
        self.seat_view: dict[str, Any] = {}
        self.revealed: tuple[int, int] | None = None  # (seat, seq) whose secrets are shown
        self.gated: int | None = None  # a private one-answer choice waiting for its player to look

    def on_kv_post(self, base_widget: Any) -> None:
        # the field is round: beside it (or under it, upright) there is room for the dreams
        self.board_box = BoxLayout(spacing=self.app.theme.gap)
        self.field = FieldCircle()
        self.field.bind(on_card=lambda _w, i: self.tap_card(i), on_gap=lambda _w, g: self.tap_gap(g))
        self.player_grid = GridLayout(cols=1, spacing=self.app.theme.gap)
        self.board_box.add_widget(self.field)
        self.board_box.add_widget(self.player_grid)
        self.ids.board.add_widget(self.board_box)
        self.app.theme.bind(portrait=self._fit_players, font_body=self._fit_players)
        self._fit_players()

    def load_in_background(self, options: dict[str, Any] | None) -> None:
        module = optional_module("companion.somnicum.catalog")
        if module is not None:
            self.catalog = module.load_catalog((options or {}).get("catalog") or None)

    def prepare(self, **params: Any) -> None:
        if params.get("new") is not None or params.get("resume") is not None:
            self.revealed = None
            self.player_grid.clear_widgets()
        super().prepare(**params)

    # -- words --------------------------------------------------------------------------------

    def arrange(self, legal: list[dict[str, Any]]) -> list[dict[str, Any]]:
        rank = {kind: i for i, kind in enumerate(ORDER)}
        return sorted(legal, key=lambda a: rank.get(a.get("type", ""), len(ORDER)))

    def name_of(self, card: str) -> str:
        return str(self.catalog.card_name(card)) if self.catalog is not None else card

    def particle_of(self, token: str) -> str:
        if self.catalog is not None and token in self.catalog.tokens:
            t = self.catalog.tokens[token]
            return f"{t.particle} ({self.catalog.storyline_name(t.storyline)})"
        return token

    def option_label(self, key: str, value: Any, missing: bool) -> str:
        view = self.view
        if key == "type":
            return ACTION_WORDS.get(str(value), str(value).replace("_", " ").capitalize())
        if missing:
            return "no second token" if key == "return" else "none"
        if key == "flywheel":
            return f"{str(value).capitalize()} flywheel"
        if key == "steps":
            return self.move_words(int(value))
        if key == "gap":
            field = view.get("field", [])
            if field:
                left, right = field[value - 1], field[value % len(field)]
                return f"Between {left['name']} and {right['name']}"
        if key == "level":
            return {1: "Level 1", 2: "Level 2 (x2)", 3: "Level 3 (x3)"}.get(int(value), f"Level {value}")
        if key == "token":
            return self.particle_of(str(value))
        if key == "return":
            return f"return a second {self.particle_of(str(value))}"
        if key in ("card",):
            return self.name_of(str(value))
        if key == "goal":
            if self.catalog is not None and value in self.catalog.goals:
                return "Goal: " + ", ".join(self.catalog.goals[value].particles)
            return str(value)
        if key == "seat":
            players = view.get("players", [])
            return players[value]["name"] if isinstance(value, int) and value < len(players) else str(value)
        return f"{key}: {value}"

    def move_words(self, steps: int) -> str:
        """Where the chosen flywheel stops, and the cost: free, tokens gained, or tokens to pay."""
        view = self.view
        field = view.get("field", [])
        crumbs = dict(self.focus.path) if self.focus is not None else {}
        flywheel = str(crumbs.get("flywheel", '"black"')).strip('"')
        gap = (view.get("flywheels", {}).get(flywheel) or {}).get("gap")
        where = ""
        if field and isinstance(gap, int):
            card = field[landing(len(field), gap, steps)]
            where = f": {card['name']}, {plural(card['stars'], 'star')}"
        free = int(view.get("this_turn", {}).get("free_steps", 3))
        if steps > free:
            cost = f"pay {plural(steps - free, 'Sleep Sand token')}"
        elif steps == 1:
            cost = "free, draw 2 tokens"
        elif steps == 2:
            cost = "free, draw 1 token"
        else:
            cost = "free"
        return f"{plural(steps, 'step')}{where} ({cost})"

    def option_text(self, option: Option) -> str:
        action = option.action
        if option.key == "type" and action is not None and (action.get("type") not in PRIVATE or self.is_revealed()):
            details = [self.option_label(k, v, False) for k, v in action.items() if k not in ("type", "seat")]
            return option.label + (": " + ", ".join(details) if details else "")
        return option.label

    def pinned(self, option: Option) -> bool:
        return option.key == "type" and option.value == "end_turn"

    def render_actions(self) -> None:
        super().render_actions()
        if self.frame is not None and self.frame.over and self.frame.result:
            result = self.frame.result
            self.ids.fixed.add_widget(button("Every card's points", lambda *_: self.app.go("scorepad_result", result=result),
                                             tone="accent"), index=len(self.ids.fixed.children))

    def seat_names_map(self) -> dict[str, int]:
        return {}

    # -- frames -------------------------------------------------------------------------------

    def show_frame(self, frame: Frame) -> None:
        self.seat_view = frame.seat_view or {}
        if self.revealed is not None and self.revealed[1] != frame.update.seq:
            self.revealed = None  # after each action the secrets are hidden again
            self.gated = None
        super().show_frame(frame)

    def status_text(self, frame: Frame) -> str:
        view = frame.public
        if frame.over:
            return f"Round {view.get('round')} of 3 · the game is over"
        pending = view.get("pending") or {}
        who = pending.get("player")
        return f"Round {view.get('round')} of 3" + (f" · [b]{who}[/b] to play" if who else "")

    def prompt_text(self, frame: Frame) -> str:
        pending = frame.public.get("pending") or {}
        text = str(pending.get("text") or "Choose.")
        text = text[:1].upper() + text[1:] + "."
        taken = pending.get("taken")
        if taken and pending.get("phase") == "attach":
            text += f" ({plural(taken['stars'], 'star')}; {', '.join(taken['particles'])})"
        return text

    def end_text(self, frame: Frame) -> str:
        result = frame.result or {}
        lines = [str(result.get("text") or frame.update.text or "The game is over.")]
        for player in sorted(result.get("players", []), key=lambda p: -p["total"]):
            lines.append(f"{player['name']}: {player['total']} points ({player['sand']} Sleep Sand left)")
        if result.get("tie_break"):
            lines.append(str(result["tie_break"]))
        return "\n".join(lines)

    def draw_board(self, frame: Frame) -> None:
        self._show_players(frame.public, frame.result)

    def clear_board(self) -> None:
        self.field.show({})
        self.player_grid.clear_widgets()

    def after_render(self) -> None:
        """Outline the cards a move can reach and the gaps the flywheels can be placed in."""
        targets, gaps = set(), set()
        if self.focus is not None and self.frame is not None and not self.frame.over:
            for action in self.focus.candidates():
                if action.get("type") == "move_flywheel":
                    index = self.landing_of(action)
                    if index is not None:
                        targets.add(index)
                elif action.get("type") == "place_flywheels":
                    gaps.add(int(action["gap"]))
        self.field.show(self.view, sorted(targets), sorted(gaps))

    def landing_of(self, action: dict[str, Any]) -> int | None:
        field = self.view.get("field", [])
        gap = (self.view.get("flywheels", {}).get(action.get("flywheel", "")) or {}).get("gap")
        if not field or not isinstance(gap, int):
            return None
        return landing(len(field), gap, int(action["steps"]))

    def tap_card(self, index: int) -> None:
        """A tap on a card a move reaches: that move (or, if both flywheels reach it, ask which)."""
        if self.focus is None:
            return
        moves = [a for a in self.focus.candidates()
                 if a.get("type") == "move_flywheel" and self.landing_of(a) == index]
        if len(moves) == 1:
            self.submit(moves[0])
        elif moves:
            self.app.notify("Both flywheels can stop there: choose the flywheel first.")

    def tap_gap(self, gap: int) -> None:
        if self.focus is None:
            return
        for action in self.focus.candidates():
            if action.get("type") == "place_flywheels" and action.get("gap") == gap:
                self.submit(action)
                return

    # -- secrets ------------------------------------------------------------------------------

    def is_revealed(self) -> bool:
        if self.frame is None:
            return False
        seat = (self.frame.public.get("pending") or {}).get("seat")
        return seat is not None and self.revealed == (seat, self.frame.update.seq)

    def choose(self, index: int) -> None:
        """A private choice with one answer is not sent unseen: its player looks first."""
        if self.focus is not None and index < len(self.focus.menu()):
            option = self.focus.menu()[index]
            if option.key == "type" and option.value in PRIVATE and option.action is not None:
                if not self.is_revealed() or self.gated != index:
                    self.gated = index
                    self.focus = replace(self.focus, index=index)
                    self.render_actions()
                    return
        self.gated = None
        super().choose(index)

    def press(self, control: str, seat: int | None = None) -> None:
        """The buttons go through the same look-first step as a tap on a private choice."""
        if control == "confirm" and self.focus is not None and not self.focus.path:
            self.choose(self.focus.index)
            return
        super().press(control, seat)

    def custom_panel(self, frame: Frame, focus: Focus) -> Any | None:
        candidates = focus.candidates()
        secret = candidates and all(a.get("type") in PRIVATE for a in candidates) and (
            focus.path or len({a.get("type") for a in candidates}) == 1
        )
        gated = self.gated is not None and not focus.path and self.gated < len(focus.menu())
        pending = frame.public.get("pending") or {}
        seat = pending.get("seat")
        if gated and self.is_revealed():
            option = focus.menu()[self.gated]
            box = BoxLayout(orientation="vertical", size_hint_y=None, spacing=self.app.theme.gap)
            box.bind(minimum_height=box.setter("height"))
            box.add_widget(button(self.option_text(option), lambda *_: self.choose(self.gated), grow=True, tone="accent"))
            box.add_widget(button("Not now", lambda *_: self.ungate(), tone="dim"))
            return box
        if not (secret or gated) or seat is None or self.is_revealed():
            return None
        who = pending.get("player", "the player")
        box = BoxLayout(orientation="vertical", size_hint_y=None, spacing=self.app.theme.gap)
        box.bind(minimum_height=box.setter("height"))
        box.add_widget(label(f"This choice shows {who}'s secret tokens or cards. Only {who} should look.", "body"))
        box.add_widget(button(f"{who}: show my choices", lambda *_: self.reveal(seat), tone="accent"))
        return box

    def ungate(self) -> None:
        self.gated = None
        self.revealed = None
        self.render_actions()

    def reveal(self, seat: int) -> None:
        if self.frame is not None:
            self.revealed = (seat, self.frame.update.seq)
        self.render_actions()

    # -- the players ----------------------------------------------------------------------------

    def _fit_players(self, *_: Any) -> None:
        portrait = self.app.theme.portrait
        self.board_box.orientation = "vertical" if portrait else "horizontal"
        self.player_grid.cols = 2 if portrait else 1
        self.field.size_hint = (1, 1.3) if portrait else (1.15, 1)

    def _show_players(self, view: dict[str, Any], result: dict[str, Any] | None) -> None:
        players = view.get("players", [])
        if len(self.player_grid.children) != len(players):
            self.player_grid.clear_widgets()
            for _ in players:
                self.player_grid.add_widget(PlayerPanel())
            self._fit_players()
        finals = {p["name"]: p["total"] for p in (result or {}).get("players", [])}
        for panel, player in zip(reversed(self.player_grid.children), players):
            panel.show(player, finals.get(player["name"]))


class PlayerPanel(Panel):
    """A player's dream, tokens, Meeting cards and points (Goal points hidden until the end)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(orientation="vertical", **kwargs)
        self.head = label("", "small")
        self.dream = DreamView()
        self.add_widget(self.head)
        self.add_widget(self.dream)

    def show(self, player: dict[str, Any], final: int | None) -> None:
        acting = player.get("to_act")
        self.fill = list(colours.PANEL_LIGHT if acting else colours.PANEL)
        self.outline = list(colours.ACCENT if acting else (0, 0, 0, 0))
        score = player.get("score", {})
        points = f"{final} pts" if final is not None else (
            f"{score.get('total', 0)} pts" + (" + Goal" if score.get("goal_hidden") else ""))
        first = " [color=f2c14e](1st)[/color]" if player.get("first_player") else ""
        self.head.text = (f"[b]{player['name']}[/b]{first}  {points}\n"
                          f"{plural(player.get('tokens', 0), 'token')} · {plural(player.get('meetings_in_hand', 0), 'Meeting')}")
        self.dream.dream = list(player.get("dream", []))
