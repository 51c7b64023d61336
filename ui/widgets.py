"""The touchscreen's building blocks: big buttons, wrapped labels, panels, steppers, a top bar.

Every control is at least ``theme.small_target`` tall (48 px at 800x480) and draws its own
flat background, so the app looks the same on a Pi and a desktop. ``focused`` draws the highlight
of the focus model (keyboard and GPIO buttons) on any button.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from kivy.app import App
from kivy.properties import (
    BooleanProperty,
    ListProperty,
    NumericProperty,
    ObjectProperty,
    OptionProperty,
    StringProperty,
)
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.floatlayout import FloatLayout
from kivy.uix.label import Label
from kivy.uix.scrollview import ScrollView
from kivy.uix.togglebutton import ToggleButton

from ui import theme as colours

TONES = ("normal", "accent", "danger", "good", "dim", "daemon")


def tone_colour(tone: str) -> tuple[float, ...]:
    return {
        "normal": colours.PANEL_LIGHT,
        "accent": colours.ACCENT,
        "danger": colours.DANGER,
        "good": colours.GOOD,
        "dim": colours.PANEL_MID,
        "daemon": colours.DAEMON,
    }[tone]


def tone_text(tone: str) -> tuple[float, ...]:
    return colours.ACCENT_TEXT if tone in ("accent", "good") else colours.TEXT


class TButton(Button):
    """A big flat button with a tone; ``focused`` shows the keyboard/GPIO highlight."""

    tone = OptionProperty("normal", options=TONES)
    focused = BooleanProperty(False)
    grow = BooleanProperty(False)  # taller than one line when the text wraps
    wrap = BooleanProperty(True)  # False: one line, as wide as it is (tiny buttons)
    font_role = OptionProperty("button", options=("small", "body", "button", "big"))
    font_scale = NumericProperty(1.0)
    height_scale = NumericProperty(1.0)  # in touch targets (1: one target tall)
    fill = ListProperty(list(colours.PANEL_LIGHT))
    ink = ListProperty(list(colours.TEXT))
    payload = ObjectProperty(None, allownone=True)  # what this button stands for (an action...)

    def on_tone(self, *_: Any) -> None:
        self.fill = list(tone_colour(self.tone))
        self.ink = list(tone_text(self.tone))

    def on_kv_post(self, base_widget: Any) -> None:
        self.on_tone()


class TToggle(ToggleButton):
    """A toggle with the same look; ``down`` state is drawn in the accent colour."""

    focused = BooleanProperty(False)
    grow = BooleanProperty(False)
    wrap = BooleanProperty(True)
    font_role = OptionProperty("button", options=("small", "body", "button", "big"))
    font_scale = NumericProperty(1.0)
    height_scale = NumericProperty(1.0)  # in touch targets (1: one target tall)
    payload = ObjectProperty(None, allownone=True)


class TLabel(Label):
    """A label that wraps to its width and grows to its text's height."""

    role = OptionProperty("body", options=("small", "body", "big", "title", "huge"))
    dim = BooleanProperty(False)


class Panel(BoxLayout):
    """A rounded block with a background colour."""

    fill = ListProperty(list(colours.PANEL))
    outline = ListProperty([0, 0, 0, 0])


class Chip(Label):
    """A small coloured tag (a door colour, a chain count, a seat)."""

    fill = ListProperty(list(colours.PANEL_LIGHT))


class Scroller(ScrollView):
    """A vertical scroller whose bar is wide enough to drag with a finger.

    With ``to_top``, new content (a new list of choices) is shown from its top.
    """

    to_top = BooleanProperty(False)

    def add_widget(self, widget: Any, *args: Any, **kwargs: Any) -> None:
        super().add_widget(widget, *args, **kwargs)
        widget.bind(height=self._content_changed)

    def _content_changed(self, *_: Any) -> None:
        if self.to_top:
            self.scroll_y = 1


class Stepper(BoxLayout):
    """A number with − and + buttons: sand tokens, meeting cards, stars."""

    label = StringProperty("")
    value = NumericProperty(0)
    minimum = NumericProperty(0)
    maximum = NumericProperty(99)

    def step(self, delta: int) -> None:
        self.value = int(min(max(self.value + delta, self.minimum), self.maximum))


class TopBar(BoxLayout):
    """The line at the top of each screen: back, the title, and room for a few buttons."""

    title = StringProperty("")
    show_back = BooleanProperty(True)
    back_text = StringProperty("Back")

    def go_back(self) -> None:
        App.get_running_app().back()


def button(
    text: str,
    on_press: Callable[[TButton], Any] | None = None,
    *,
    tone: str = "normal",
    payload: Any = None,
    **kwargs: Any,
) -> TButton:
    """A TButton wired to ``on_press`` (called with the button)."""
    widget = TButton(text=text, tone=tone, payload=payload, **kwargs)
    if on_press is not None:
        widget.bind(on_release=on_press)
    return widget


def label(text: str, role: str = "body", **kwargs: Any) -> TLabel:
    return TLabel(text=text, role=role, **kwargs)


def clear_and_fill(container: Any, widgets: Sequence[Any]) -> None:
    container.clear_widgets()
    for widget in widgets:
        container.add_widget(widget)


class Notice(Label):
    """A passing message over the bottom of the screen; tapping it hides it."""

    def show(self, text: str, seconds: float = 4.0) -> None:
        from kivy.clock import Clock

        self.text = text
        self.opacity = 1
        Clock.unschedule(self._hide)
        Clock.schedule_once(self._hide, seconds)

    def _hide(self, *_: Any) -> None:
        self.opacity = 0
        self.text = ""

    def on_touch_down(self, touch: Any) -> bool:
        if self.opacity and self.collide_point(*touch.pos):
            self._hide()
            return True
        return False


class ModalPanel(FloatLayout):
    """A message over the whole screen with one button: the put-back list after an undo."""

    title = StringProperty("")
    lines = ListProperty([])
    done_text = StringProperty("Done")

    __events__ = ("on_done",)

    def on_lines(self, *_: Any) -> None:
        box = self.ids.get("modal_lines")
        if box is not None:
            clear_and_fill(box, [label(f"• {line}") for line in self.lines])

    def on_kv_post(self, base_widget: Any) -> None:
        self.on_lines()

    def on_done(self) -> None:
        pass
