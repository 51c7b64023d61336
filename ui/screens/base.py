"""What every screen shares: being opened with parameters, going back, and button navigation.

On screens without a game in progress (Home, Settings, the score pad), ``next``/``previous``
move the highlight through the screen's visible buttons in reading order and ``confirm`` presses
the highlighted one, so the keyboard and the GPIO panel reach everything a finger can. Game
screens replace this with the focus model over the legal actions.
"""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.properties import StringProperty
from kivy.uix.screenmanager import Screen
from kivy.uix.widget import Widget

from ui.widgets import TButton, TToggle


def walk_visible(widget: Widget) -> list[Widget]:
    """The widget and its descendants that are shown (not hidden by zero opacity or size)."""
    found: list[Widget] = []

    def visit(node: Widget) -> None:
        if node.opacity == 0 or node.width <= 1 or node.height <= 1:
            return
        found.append(node)
        for child in reversed(node.children):  # Kivy keeps children last-added first
            visit(child)

    visit(widget)
    return found


class BaseScreen(Screen):
    """A screen of the app. Subclasses set ``name`` and override the hooks they need."""

    title = StringProperty("")

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.focus_index = -1

    @property
    def app(self) -> Any:
        return App.get_running_app()

    # -- hooks ------------------------------------------------------------------------------

    def prepare(self, **params: Any) -> None:
        """Called before the screen is shown, with the parameters of ``app.go``."""

    def prepare_return(self) -> None:
        """Called when the player comes back to this screen from a later one."""

    def on_back(self) -> bool:
        """True when the screen handled Back itself (closing a panel, a half-made choice)."""
        return False

    # -- button navigation ------------------------------------------------------------------

    def focusables(self) -> list[Widget]:
        buttons = [
            w
            for w in walk_visible(self)
            if isinstance(w, (TButton, TToggle)) and not w.disabled
        ]
        # Reading order: top row first, then left to right.
        return sorted(buttons, key=lambda w: (-round(w.to_window(*w.pos)[1] + w.height), w.to_window(*w.pos)[0]))

    def on_control(self, control: str, seat: int | None) -> bool:
        buttons = self.focusables()
        for widget in buttons:
            widget.focused = False
        if not buttons:
            return False
        if control in ("next", "previous"):
            step = 1 if control == "next" else -1
            self.focus_index = (self.focus_index + step) % len(buttons) if self.focus_index >= 0 else 0
            buttons[self.focus_index].focused = True
            return True
        if control == "confirm" and 0 <= self.focus_index < len(buttons):
            target = buttons[self.focus_index]
            target.focused = True
            press(target)
            return True
        return False

    def on_leave(self, *_: Any) -> None:
        for widget in self.focusables():
            widget.focused = False
        self.focus_index = -1


def press(widget: Widget) -> None:
    """Presses a button as a finger would, for the keyboard and the GPIO panel."""
    if isinstance(widget, TToggle):
        widget._do_press()  # noqa: SLF001 - the toggle's own press logic (groups, allow_no_selection)
        widget.dispatch("on_release")
        return
    widget.dispatch("on_press")
    widget.dispatch("on_release")
