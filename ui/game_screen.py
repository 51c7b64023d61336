"""The table screen both games share: the board, what to do now, refusals, undo and the log.

What to do now is the focus model (``companion.focus``) over the rules' legal actions: the
first menu lists the kinds of action, the next ones the fields that tell them apart (which
room, which Item...). A tap on an option highlights and confirms it; the keyboard and the GPIO
buttons move the same highlight. Pending decisions are simply the only legal actions, so they
show up here as clear choices. A refused action shows the rule in words; Undo takes back the
last action and lists what to put back on the table.

Each game's screen (``ui.chainsomnia.table``, ``ui.somnicum.table``) supplies the board, the
words for its actions and, where a list of buttons would be clumsy, a panel of its own (the
dice pad). The screen never changes the state: it renders ``Frame`` objects from the session and
sends Actions.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from typing import Any

from kivy.properties import BooleanProperty, ListProperty, StringProperty

from companion.focus import Effect, Focus, Option
from ui import background
from ui.screens.base import BaseScreen
from ui.session import Frame, TableSession
from ui.widgets import TButton, button, clear_and_fill, label

log = logging.getLogger(__name__)


class GameScreen(BaseScreen):
    """A game in progress. Subclasses set ``game`` and fill in the board hooks."""

    game = ""
    seat_views = False  # True: each frame carries the acting seat's own view
    prompt = StringProperty("")  # what the game waits for, in words
    status_line = StringProperty("")  # round, whose turn
    refusal = StringProperty("")  # the last refusal, with the rule
    notice_line = StringProperty("")  # the last thing that happened
    crumbs = StringProperty("")  # the choices made so far in the menu
    steps = ListProperty([])  # instructions still to confirm, one at a time
    steps_title = StringProperty("")
    steps_done = BooleanProperty(False)
    put_back = ListProperty([])  # after an undo: what to put back on the table
    showing_log = BooleanProperty(False)
    over = BooleanProperty(False)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.session: TableSession | None = None
        self.frame: Frame | None = None
        self.view: dict[str, Any] = {}
        self.focus: Focus | None = None
        self.step_index = 0
        self.step_count = 0
        self.loading = False
        self._option_pool: list[TButton] = []

    # -- opening and closing a game ---------------------------------------------------------

    def prepare(self, new: dict[str, Any] | None = None, resume: int | None = None, **_: Any) -> None:
        if new is None and resume is None:
            return  # back from the Phones screen or the log: the game is still here
        self.close_session()
        self.reset_panels()
        clear_and_fill(self.ids.choices, [])  # nothing of the last game may be tapped meanwhile
        clear_and_fill(self.ids.fixed, [])
        self.view = {}
        self.clear_board()
        self.status_line = ""
        self.prompt = "Setting up the table..." if new is not None else "Opening the saved game..."
        self.loading = True
        services = self.app.services

        def open_table() -> Any:
            from companion.table import Table

            journal = services.journal()
            if journal is None:
                raise RuntimeError("this build has no journal to keep the game in")
            self.load_in_background(new)
            if new is not None:
                return Table.new(journal, self.game, new, source="touch")
            return Table.resume(journal, resume)

        background.later(open_table, self.opened, self.failed_to_open)

    def opened(self, table: Any) -> None:
        self.loading = False
        self.session = TableSession(table, self.show_frame, seat_views=self.seat_views)
        self.app.services.session = self.session
        self.app.services.attach_mirror(table)

    def failed_to_open(self, error: BaseException) -> None:
        self.loading = False
        message = getattr(error, "message", None) or str(error)
        self.prompt = "The game could not be opened."
        self.refusal = message

    def close_session(self) -> None:
        if self.session is not None:
            services = self.app.services
            if services.session is self.session:
                services.session = None
                services.detach_mirror()
            self.session.close()
            self.session = None
        self.frame = None
        self.focus = None

    def reset_panels(self) -> None:
        self.refusal = ""
        self.notice_line = ""
        self.steps = []
        self.put_back = []
        self.showing_log = False
        self.over = False
        self.crumbs = ""

    def leave_game(self) -> None:
        """Home: the game stays in the journal, ready to resume."""
        self.close_session()
        self.app.home()

    # -- drawing a frame --------------------------------------------------------------------

    def show_frame(self, frame: Frame) -> None:
        previous = self.view
        self.frame = frame
        self.view = frame.public
        self.over = frame.over
        legal = self.arrange(frame.legal)
        if self.focus is None:
            self.focus = Focus.of(legal, label=self.option_label, seat_names=self.seat_names_map())
        else:
            self.focus = self.focus.with_actions(legal)
        update = frame.update
        if update.kind == "action" and update.text:
            self.notice_line = update.text
        new_steps = self.steps_for(frame, previous)
        if new_steps:
            if not self.steps or self.steps_done:
                self.steps = list(new_steps)
                self.step_index = 0
            else:
                self.steps = list(self.steps) + list(new_steps)
            self.steps_done = False
            self.step_count = len(self.steps)
        self.status_line = self.status_text(frame)
        self.draw_board(frame)
        self.render_actions()

    def render_actions(self) -> None:
        """The right-hand panel: steps to confirm, or what the game waits for and the choices."""
        frame = self.frame
        if frame is None or self.focus is None:
            return
        box = self.ids.choices
        self.after_render()
        if self.steps and not self.steps_done:
            self.show_step()
            return
        self.steps_title = ""
        if frame.over:
            self.prompt = self.end_text(frame)
            clear_and_fill(box, [button("Undo the last action", lambda *_: self.undo(), tone="danger")])
            clear_and_fill(self.ids.fixed, [button("Home", lambda *_: self.leave_game(), tone="accent")])
            return
        self.prompt = self.prompt_text(frame)
        crumbs = self.focus.breadcrumb()
        self.crumbs = "  >  ".join(crumbs)
        panel = self.custom_panel(frame, self.focus)
        pinned = []
        if panel is not None:
            rows = [panel]
            pinned.extend(getattr(panel, "pinned", []))
        else:
            rows = []
            for index, option in enumerate(self.focus.menu()):
                target = pinned if not self.focus.path and self.pinned(option) else rows
                target.append(self.option_button(index, option))
        if self.focus.path:
            pinned.append(button("Back to the choices", lambda *_: self.press("back"), tone="dim"))
        clear_and_fill(box, rows)
        clear_and_fill(self.ids.fixed, pinned)

    def option_button(self, index: int, option: Option) -> TButton:
        """The button of one choice. Buttons are reused from frame to frame: a new widget (and
        a new text texture) for every option of every update would churn memory on a Pi."""
        while len(self._option_pool) <= index:
            self._option_pool.append(button("", lambda w: self.choose(w.payload), grow=True))
        widget = self._option_pool[index]
        if widget.parent is not None:
            widget.parent.remove_widget(widget)
        widget.text = self.option_text(option)
        widget.payload = index
        widget.tone = self.option_tone(option)
        widget.focused = self.focus is not None and index == self.focus.index and self.keys_used
        return widget

    keys_used = False  # the highlight is drawn once the keyboard or a GPIO button was used

    def choose(self, index: int) -> None:
        """A tap on an option: highlight it and confirm, as the buttons would."""
        if self.focus is None:
            return
        self.focus = replace(self.focus, index=index)
        self.press_focus("confirm")

    def choose_action(self, action: dict[str, Any]) -> None:
        """Sends one specific legal action (a tap on the map, the dice pad)."""
        self.submit(action)

    # -- presses ----------------------------------------------------------------------------

    def press(self, control: str, seat: int | None = None) -> None:
        """A control from the keyboard or the GPIO buttons (games may look at it first)."""
        self.press_focus(control, seat)

    def press_focus(self, control: str, seat: int | None = None) -> None:
        if self.focus is None:
            return
        self.focus, effect = self.focus.press(control, seat)
        self.follow(effect)

    def follow(self, effect: Effect) -> None:
        if effect.kind == "submit" and effect.action is not None:
            self.submit(effect.action)
        elif effect.kind == "undo":
            self.undo()
        elif effect.kind == "refused":
            self.app.notify(effect.note)
        self.render_actions()

    def on_control(self, control: str, seat: int | None) -> bool:
        if self.session is None:
            return False
        self.keys_used = True
        if self.put_back:
            if control in ("confirm", "back"):
                self.put_back = []
                self.render_actions()
            return True
        if self.showing_log:
            if control in ("confirm", "back"):
                self.showing_log = False
            return True
        if self.steps and not self.steps_done:
            if control == "confirm":
                self.next_step()
                return True
            if control == "undo":
                self.undo()
                return True
            return control != "back"
        if control == "back" and (self.focus is None or not self.focus.path):
            return False  # Back at the top of the menu leaves the table (the game is saved)
        self.press(control, seat)
        return True

    def submit(self, action: dict[str, Any]) -> None:
        if self.session is None:
            return
        self.refusal = ""
        self.session.submit(action, self.after_outcome)

    def after_outcome(self, outcome: Any) -> None:
        if not outcome.accepted and outcome.error is not None:
            self.refusal = outcome.error.message
            self.render_actions()

    def undo(self) -> None:
        if self.session is None:
            return
        self.session.undo(self.after_undo)

    def after_undo(self, outcome: Any) -> None:
        if not outcome.accepted:
            self.refusal = outcome.error.message if outcome.error is not None else "Nothing to undo."
            return
        self.refusal = ""
        self.steps = []
        self.steps_done = False
        self.put_back = list(outcome.put_back) or ["Nothing to put back: only the app's record changed."]
        self.notice_line = outcome.text or "Undone."

    def put_back_done(self) -> None:
        self.put_back = []
        self.render_actions()

    # -- step-by-step instructions ----------------------------------------------------------

    def show_step(self) -> None:
        index = min(self.step_index, len(self.steps) - 1)
        self.steps_title = f"{self.steps_heading()}: step {index + 1} of {len(self.steps)}"
        self.prompt = self.steps[index]
        last = index == len(self.steps) - 1
        clear_and_fill(self.ids.choices, [])
        clear_and_fill(self.ids.fixed, [
            button("Done: next step" if not last else "Done", lambda *_: self.next_step(), tone="accent"),
        ])

    def next_step(self) -> None:
        self.step_index += 1
        if self.step_index >= len(self.steps):
            self.steps_done = True
            self.steps = []
            self.step_index = 0
        self.render_actions()

    def steps_heading(self) -> str:
        return "At the table"

    # -- the log ----------------------------------------------------------------------------

    def toggle_log(self) -> None:
        if self.showing_log or self.session is None:
            self.showing_log = False
            return
        table = self.session.table

        def shown(entries: list[dict[str, Any]]) -> None:
            lines = []
            for entry in reversed(entries[-60:]):
                text = entry.get("text") or ""
                if entry.get("undone"):
                    text = f"[color=8c8fa8][s]{text}[/s] (undone)[/color]"
                lines.append(label(text, "small"))
            clear_and_fill(self.ids.log_lines, lines or [label("Nothing yet.", dim=True)])
            self.showing_log = True

        background.later(table.log, shown)

    # -- hooks for each game ----------------------------------------------------------------

    def load_in_background(self, options: dict[str, Any] | None) -> None:
        """Runs on a worker thread before the table opens: read catalogs and the like."""

    def arrange(self, legal: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """The legal actions in the order the screen offers them."""
        return legal

    def after_render(self) -> None:
        """Called whenever the choices change (to outline what the map may choose)."""

    def option_label(self, key: str, value: Any, missing: bool) -> str:
        from companion.focus import default_label

        return default_label(key, value, missing)

    def option_tone(self, option: Option) -> str:
        return "normal"

    def option_text(self, option: Option) -> str:
        """The words on an option's button; by default the focus model's label."""
        return option.label

    def pinned(self, option: Option) -> bool:
        """Options kept in view below the list (ending the turn)."""
        return False

    def seat_names_map(self) -> dict[str, int]:
        return {}

    def status_text(self, frame: Frame) -> str:
        return ""

    def prompt_text(self, frame: Frame) -> str:
        pending = frame.public.get("pending")
        if isinstance(pending, dict) and pending.get("text"):
            return str(pending["text"])
        return "Choose an action."

    def end_text(self, frame: Frame) -> str:
        return frame.update.text or "The game is over."

    def steps_for(self, frame: Frame, previous: dict[str, Any]) -> list[str]:
        return []

    def draw_board(self, frame: Frame) -> None:
        """Draws the game's board from ``frame.public``."""

    def clear_board(self) -> None:
        """Empties the board while another game opens."""

    def custom_panel(self, frame: Frame, focus: Focus) -> Any | None:
        """A panel replacing the list of choices (the dice pad), or None."""
        return None

    def on_leave(self, *args: Any) -> None:
        super().on_leave(*args)
