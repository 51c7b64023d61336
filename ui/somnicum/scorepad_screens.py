"""The score pad's screens: who plays, each player's dream entered by touch, and the tally.

The dream is drawn as the players lay it: level 1 on top, levels 2 and 3 below, each card a
button (tap to change it) with a gap token button between neighbours and a + at the end of
each row. Goal card, unplayed Meeting cards, Meeting card points and Sleep Sand left go beside
it. The tally screen shows every card's line from ``scoring`` and the tie-break in words.
"""

from __future__ import annotations

from typing import Any

from kivy.properties import NumericProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.textinput import TextInput
from kivy.uix.widget import Widget

from ui import background
from ui import theme as colours
from ui.screens.base import BaseScreen
from ui.services import optional_module
from ui.somnicum.scorepad import PadCard, PlayerSheet, ScorePad, SheetRefusal
from ui.widgets import Panel, Stepper, TButton, TToggle, button, clear_and_fill, label

STARS = (1, 2, 3, 4, 5)
BREAKDOWN_WORDS = {
    "level1": "Level 1", "level2": "Level 2 (x2)", "level3": "Level 3 (x3)",
    "isolated": "Cards between gaps (x1)", "meetings": "Meeting cards", "goal": "Goal card",
    "nightmares": "Nightmares",
}


def goal_cards(app: Any) -> list[tuple[str, ...]]:
    """The Goal cards of the catalog (each three particles)."""
    module = optional_module("companion.somnicum.catalog")
    if module is None:
        return []
    folder = app.settings_config.data.catalog
    catalog = module.load_catalog(f"{folder}/somnicum" if folder else None)
    return [tuple(goal.particles) for goal in catalog.goals.values()]


class ScorePadPlayersScreen(BaseScreen):
    name = "scorepad_players"
    count = NumericProperty(2)

    def prepare(self, **_: Any) -> None:
        self.build()

    def build(self) -> None:
        theme = self.app.theme
        rows: list[Any] = [label("[b]How many players?[/b]", "big")]
        grid = GridLayout(cols=4, spacing=theme.gap, size_hint_y=None)
        grid.bind(minimum_height=grid.setter("height"))
        for n in (1, 2, 3, 4):
            toggle = TToggle(text=str(n), group="pad-count", payload=n, allow_no_selection=False)
            toggle.state = "down" if n == self.count else "normal"
            toggle.bind(on_release=lambda w: self.set_count(w.payload))
            grid.add_widget(toggle)
        rows.append(grid)
        rows.append(label("[b]Names[/b] (tap to change)", "big"))
        self.name_inputs = []
        for i in range(int(self.count)):
            field = TextInput(text=f"Player {i + 1}", multiline=False, size_hint_y=None,
                              height=theme.target, font_size=theme.font_body,
                              padding=[theme.pad, theme.pad * 1.4], write_tab=False)
            self.name_inputs.append(field)
            rows.append(field)
        clear_and_fill(self.ids.form, rows)

    def set_count(self, count: int) -> None:
        self.count = count
        self.build()

    def names(self) -> list[str]:
        names: list[str] = []
        for i, field in enumerate(self.name_inputs):
            name = field.text.strip() or f"Player {i + 1}"
            while name in names:
                name += " (2)"
            names.append(name)
        return names

    def start(self) -> None:
        self.app.scorepad = ScorePad.for_players(self.names())
        self.app.go("scorepad_dream", player=0)


class ScorePadDreamScreen(BaseScreen):
    name = "scorepad_dream"
    player = NumericProperty(0)
    heading = StringProperty("")
    refusal = StringProperty("")
    editing = ObjectProperty(None, allownone=True)  # (level, position or None) while the editor is open

    def prepare(self, player: int = 0, **_: Any) -> None:
        self.player = player
        self.editing = None
        self.refusal = ""
        self.build()

    def prepare_return(self) -> None:
        self.build()

    @property
    def sheet(self) -> PlayerSheet:
        return self.app.scorepad.players[int(self.player)]

    def set_sheet(self, sheet: PlayerSheet) -> None:
        self.app.scorepad = self.app.scorepad.with_player(int(self.player), sheet)

    def change(self, make: Any) -> bool:
        """Applies a change to the sheet, or shows the rule that forbids it."""
        try:
            self.set_sheet(make(self.sheet))
        except SheetRefusal as err:
            self.refusal = str(err)
            return False
        self.refusal = ""
        self.build()
        return True

    # -- drawing ----------------------------------------------------------------------------

    def build(self) -> None:
        pad = self.app.scorepad
        sheet = self.sheet
        last = int(self.player) == len(pad.players) - 1
        self.heading = f"{sheet.name}'s dream"
        self.ids.next.text = "Score the game" if last else f"Next: {pad.players[int(self.player) + 1].name}"
        tabs = []
        for i, other in enumerate(pad.players):
            tab = TToggle(text=other.name, group="pad-player", payload=i, allow_no_selection=False,
                          font_role="body")
            tab.state = "down" if i == int(self.player) else "normal"
            tab.bind(on_release=lambda w: self.switch(w.payload))
            tabs.append(tab)
        clear_and_fill(self.ids.tabs, tabs)
        self.build_dream(sheet)
        self.build_extras(sheet)

    def build_dream(self, sheet: PlayerSheet) -> None:
        theme = self.app.theme
        card_w, card_h = theme.target * 1.45, theme.target * 1.25
        gap_w = max(theme.small_target, 48)
        step = card_w + gap_w
        levels = BoxLayout(orientation="vertical", spacing=theme.gap, size_hint=(None, None))
        width = 0.0
        for depth, cards in enumerate(sheet.rows):
            level = depth + 1
            row = BoxLayout(size_hint=(None, None), height=card_h, spacing=0)
            row.add_widget(Label(text=f"L{level}", font_size=theme.font_small, color=colours.TEXT_DIM,
                                 size_hint=(None, 1), width=theme.target * 0.6))
            # levels 2 and 3 sit half a step to the right, under the pairs above
            row.add_widget(Widget(size_hint=(None, 1), width=step / 2 * depth))
            for position, card in enumerate(cards):
                row.add_widget(self.card_button(level, position, card, card_w, card_h))
                if position < len(cards) - 1:
                    row.add_widget(self.gap_button(level, position, sheet.gaps[depth][position], gap_w, card_h))
            if cards:
                row.add_widget(Widget(size_hint=(None, 1), width=gap_w * 0.25))
            add = button("+", lambda w: self.open_editor(w.payload, None), payload=level,
                         size_hint=(None, None), width=card_w * 0.9, height_scale=card_h / theme.target, font_role="big")
            add.tone = "dim"
            row.add_widget(add)
            row.width = sum(child.width for child in row.children)
            width = max(width, row.width)
            levels.add_widget(row)
        levels.width = width
        levels.height = len(sheet.rows) * card_h + (len(sheet.rows) - 1) * theme.gap
        clear_and_fill(self.ids.dream, [levels])
        self.ids.dream.width = width
        self.ids.dream.height = levels.height
        self.ids.dream_view.scroll_y = 1

    def card_button(self, level: int, position: int, card: PadCard, w: float, h: float) -> TButton:
        theme = self.app.theme
        marks = "\n".join(card.particles[:2]) + ("..." if len(card.particles) > 2 else "")
        stars = f"[size={int(theme.font_big)}][b]{card.stars}[/b][/size]"
        widget = button(stars + (f"\n{marks}" if marks else ""), lambda b: self.open_editor(*b.payload),
                        payload=(level, position), size_hint=(None, None), width=w, height_scale=h / theme.target,
                        font_role="small", font_scale=0.85, tone="danger" if card.nightmare else "accent")
        widget.line_height = 0.9
        return widget

    def gap_button(self, level: int, between: int, gap: bool, w: float, h: float) -> TButton:
        theme = self.app.theme
        widget = button("gap" if gap else "\u00b7", lambda b: self.change(lambda s: s.toggle_gap(*b.payload[1:])),
                        payload=("gap", level, between), size_hint=(None, None), width=w,
                        height_scale=h * 0.7 / theme.target, font_role="small" if gap else "big")
        widget.wrap = False
        widget.tone = "normal" if gap else "dim"
        widget.pos_hint = {"center_y": 0.5}
        return widget

    def build_extras(self, sheet: PlayerSheet) -> None:
        rows: list[Any] = []
        goal = ", ".join(sheet.goal) if sheet.goal else "not chosen"
        rows.append(label(f"[b]Goal card:[/b] {goal}", "body"))
        rows.append(button("Choose the Goal card", lambda *_: self.open_goals()))
        for key, text, maximum in (
            ("meetings_unplayed", "Meeting cards not played", 24),
            ("meeting_vp", "Points on played Meeting cards", 60),
            ("sand", "Sleep Sand tokens left", 72),
        ):
            stepper = Stepper(label=text, value=getattr(sheet, key), maximum=maximum)
            stepper.bind(value=lambda w, v, key=key: self.set_number(key, int(v)))
            rows.append(stepper)
        clear_and_fill(self.ids.extras, rows)
        self.ids.extras_view.scroll_y = 1

    def set_number(self, key: str, value: int) -> None:
        from dataclasses import replace

        if getattr(self.sheet, key) != value:
            self.set_sheet(replace(self.sheet, **{key: value}))

    # -- moving between players -------------------------------------------------------------

    def switch(self, player: int) -> None:
        self.player = player
        self.editing = None
        self.refusal = ""
        self.build()

    def next_player(self) -> None:
        if int(self.player) < len(self.app.scorepad.players) - 1:
            self.switch(int(self.player) + 1)
        else:
            self.app.go("scorepad_result")

    def on_back(self) -> bool:
        if self.editing is not None or self.ids.goal_picker.opacity:
            self.close_overlays()
            return True
        return False

    # -- the card editor --------------------------------------------------------------------

    def open_editor(self, level: int, position: int | None) -> None:
        sheet = self.sheet
        card = sheet.rows[level - 1][position] if position is not None else PadCard(1)
        self.editing = (level, position)
        self.draft = card
        self.fill_editor()

    def fill_editor(self) -> None:
        theme = self.app.theme
        level, position = self.editing
        card = self.draft
        self.ids.editor_title.text = (f"Level {level}, card {position + 1}" if position is not None
                                      else f"New card on level {level}")
        stars = GridLayout(cols=len(STARS), spacing=theme.gap, size_hint_y=None, height=theme.target)
        for value in STARS:
            toggle = TToggle(text=str(value), group="pad-stars", payload=value, allow_no_selection=False,
                             font_role="big")
            toggle.state = "down" if value == card.stars else "normal"
            toggle.bind(on_release=lambda w: self.set_draft(stars=w.payload))
            stars.add_widget(toggle)
        nightmare = TToggle(text="Nightmare (subtracts its stars)", payload="nightmare")
        nightmare.state = "down" if card.nightmare else "normal"
        nightmare.bind(on_release=lambda w: self.set_draft(nightmare=w.state == "down"))
        rows: list[Any] = [label("Stars", "small", dim=True), stars, nightmare]
        if self.sheet.goal:
            rows.append(label("Goal particles on this card", "small", dim=True))
            particles = GridLayout(cols=len(self.sheet.goal), spacing=theme.gap, size_hint_y=None, height=theme.target)
            for particle in self.sheet.goal:
                toggle = TToggle(text=particle, payload=particle)
                toggle.state = "down" if particle in card.particles else "normal"
                toggle.bind(on_release=self.toggle_particle)
                particles.add_widget(toggle)
            rows.append(particles)
        else:
            rows.append(label("Choose the Goal card to mark its particles on the cards.", "small", dim=True))
        clear_and_fill(self.ids.editor_rows, rows)
        self.ids.remove_button.disabled = position is None
        self.ids.remove_button.opacity = 0 if position is None else 1

    def set_draft(self, **changes: Any) -> None:
        from dataclasses import replace

        self.draft = replace(self.draft, **changes)

    def toggle_particle(self, toggle: TToggle) -> None:
        particles = [p for p in self.draft.particles if p != toggle.payload]
        if toggle.state == "down":
            particles.append(toggle.payload)
        self.set_draft(particles=tuple(p for p in self.sheet.goal if p in particles))

    def save_card(self) -> None:
        level, position = self.editing
        card = self.draft
        if position is None:
            done = self.change(lambda s: s.add_card(level, card))
        else:
            done = self.change(lambda s: s.set_card(level, position, card))
        if done:
            self.editing = None

    def remove_card(self) -> None:
        level, position = self.editing
        if position is not None and self.change(lambda s: s.remove_card(level, position)):
            self.editing = None

    def close_overlays(self) -> None:
        self.editing = None
        self.ids.goal_picker.opacity = 0
        self.ids.goal_picker.disabled = True

    # -- the Goal card ----------------------------------------------------------------------

    def open_goals(self) -> None:
        clear_and_fill(self.ids.goal_rows, [label("Reading the Goal cards...", dim=True)])
        self.ids.goal_picker.opacity = 1
        self.ids.goal_picker.disabled = False
        background.later(lambda: goal_cards(self.app), self.show_goals,
                         lambda err: clear_and_fill(self.ids.goal_rows, [label(f"The Goal cards cannot be read: {err}")]))

    def show_goals(self, goals: list[tuple[str, ...]]) -> None:
        rows = []
        for particles in goals:
            rows.append(button(", ".join(particles), lambda w: self.choose_goal(w.payload), payload=particles,
                               tone="accent" if particles == self.sheet.goal else "normal"))
        if not rows:
            rows.append(label("The Somnicum catalog is not in this build.", dim=True))
        clear_and_fill(self.ids.goal_rows, rows)

    def choose_goal(self, particles: tuple[str, ...]) -> None:
        self.change(lambda s: s.with_goal(particles))
        self.close_overlays()


def tally_json(result: Any) -> dict[str, Any]:
    """``scoring.FinalScores`` in the shape of the rules' result JSON, so one screen shows both."""
    return {
        "players": [
            {
                "name": p.name, "total": p.total, "breakdown": dict(p.breakdown), "sand": p.sand,
                "cards": [
                    {"level": c.level, "position": c.position, "name": c.card.name, "stars": c.card.stars,
                     "nightmare": c.card.nightmare, "multiplier": c.multiplier, "why": c.reason,
                     "points": c.points, "goal_matches": list(c.goal_matches)}
                    for c in p.cards
                ],
            }
            for p in result.players
        ],
        "winners": list(result.winners),
        "tie_break": result.tie_break,
    }


class ScorePadResultScreen(BaseScreen):
    """The tally: of the score pad, or of a Somnicum game played on the table screen."""

    name = "scorepad_result"
    winners = StringProperty("")

    def prepare(self, result: dict[str, Any] | None = None, **_: Any) -> None:
        result = result or tally_json(self.app.scorepad.scores())
        winners = result.get("winners", [])
        names = ", ".join(winners) or "nobody"
        self.winners = f"{'Winners' if len(winners) > 1 else 'Winner'}: [b]{names}[/b]"
        rows: list[Any] = []
        if result.get("tie_break"):
            rows.append(label(result["tie_break"], "body"))
        ranking = sorted(result.get("players", []), key=lambda p: (-p["total"], -p.get("sand", 0)))
        for player in ranking:
            rows.append(self.player_panel(player))
        clear_and_fill(self.ids.rows, rows)

    def player_panel(self, player: dict[str, Any]) -> Panel:
        panel = Panel(orientation="vertical", size_hint_y=None)
        panel.bind(minimum_height=panel.setter("height"))
        panel.add_widget(label(f"[b]{player['name']}: {player['total']} points[/b]   "
                               f"[color={colours.hex_colour(colours.TEXT_DIM)}]({player.get('sand', 0)} Sleep Sand left)[/color]", "big"))
        parts = [f"{BREAKDOWN_WORDS.get(key, key)} {value:+d}" if key == "nightmares" else f"{BREAKDOWN_WORDS.get(key, key)} {value}"
                 for key, value in player.get("breakdown", {}).items() if value]
        panel.add_widget(label(" + ".join(parts) + f" = {player['total']}" if parts else "No points.", "body"))
        for line in player.get("cards", []):
            what = line.get("name") or f"{'Nightmare' if line.get('nightmare') else 'card'} {line['position']}"
            goal = f"; goal: {', '.join(line['goal_matches'])}" if line.get("goal_matches") else ""
            stars = line["stars"]
            panel.add_widget(label(
                f"Level {line['level']}, {what}: {stars} star{'s' if stars != 1 else ''} x{line['multiplier']} "
                f"= {line['points']:+d} ({line['why']}){goal}", "small", dim=True))
        return panel
