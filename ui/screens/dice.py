"""Dice: the camera's view of the roll with each die outlined and read; confirm, roll again, or
type the values instead; and Isaac's choice of 2 of his 3 dice made on the picture itself.

Frames are read off the main thread (``vision.dice.read_dice``) and a roll is offered only once
``DiceSettler`` sees the dice at rest. Nothing is applied without a tap on Confirm; a reading the
camera is unsure of says so. The values go back to the game screen that asked
(``dice_from_camera``), which sends them as the Test's dice.

When the Table then waits for a ``keep_dice`` decision on those very dice (Isaac rolled 3), the
screen stays, freezes the picture of the roll and outlines each die as a tap target
(``DieTarget``). Two taps choose the pair (a third swaps out the older choice), and Keep sends
the matching action from the game screen's legal actions: the screen only offers pairs the
rules list, it never decides what is legal.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from kivy.clock import Clock
from kivy.graphics import Color, Line, Rectangle
from kivy.graphics.texture import Texture
from kivy.properties import BooleanProperty, ListProperty, StringProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.widget import Widget

from ui import background
from ui import theme as colours
from ui.screens.base import BaseScreen
from ui.services import optional_module
from ui.widgets import TButton, button

log = logging.getLogger(__name__)

POLL = 0.15  # seconds between frames read: about the pace the settler needs on a Pi
ANSWER_WAIT = 10.0  # seconds to wait for the Table's answer to a sent roll before going back


def frame_texture(image: Any) -> Texture:
    """A BGR numpy image as a Kivy texture (Kivy's rows run bottom to top)."""
    height, width = image.shape[:2]
    texture = Texture.create(size=(width, height), colorfmt="bgr")
    texture.blit_buffer(image.tobytes(), colorfmt="bgr", bufferfmt="ubyte")
    texture.flip_vertical()
    return texture


def picture_to_widget(image: Any, point: tuple[float, float]) -> tuple[float, float]:
    """Where a pixel of the camera picture is drawn inside a 'contain'-fitted Image widget."""
    tex_w, tex_h = image.texture.size
    shown_w, shown_h = image.norm_image_size
    scale = shown_w / max(tex_w, 1)
    left = image.x + (image.width - shown_w) / 2
    bottom = image.y + (image.height - shown_h) / 2
    return left + point[0] * scale, bottom + (tex_h - point[1]) * scale  # picture rows run downwards


class DieTarget(ButtonBehavior, Widget):
    """One die of the frozen roll: its outline on the picture and a finger-sized tap area
    around it. ``chosen`` draws it as kept; ``focused`` is the keyboard/GPIO highlight."""

    chosen = BooleanProperty(False)
    focused = BooleanProperty(False)

    def __init__(self, index: int, value: int, outline: Sequence[tuple[float, float]], **kwargs: Any) -> None:
        super().__init__(size_hint=(None, None), **kwargs)
        self.index = index
        self.value = value
        self.outline = [tuple(p) for p in outline]
        self.die_points: list[float] = []
        with self.canvas.after:
            self._fill_colour = Color(0, 0, 0, 0)
            self._fill = Rectangle()
            # the tap area, faintly, so a small die on the picture still looks finger-sized
            self._area_colour = Color(*colours.TEXT_DIM[:3], 0.45)
            self._area = Line(close=True, width=1)
            self._line_colour = Color(*colours.FOCUS)
            self._line = Line(close=True, width=2)
            self._focus_colour = Color(0, 0, 0, 0)
            self._focus_line = Line(close=True, width=2.5)
        self.bind(chosen=self.redraw, focused=self.redraw, pos=self.redraw, size=self.redraw)

    def place(self, image: Any, minimum: float) -> None:
        """Puts the target over its die in ``image``, at least ``minimum`` px each way."""
        points = [picture_to_widget(image, p) for p in self.outline]
        xs, ys = [p[0] for p in points], [p[1] for p in points]
        width = max(max(xs) - min(xs), minimum)
        height = max(max(ys) - min(ys), minimum)
        self.die_points = [c for p in points for c in p]
        self.size = (width, height)
        self.center = ((max(xs) + min(xs)) / 2, (max(ys) + min(ys)) / 2)
        self.redraw()

    def redraw(self, *_: Any) -> None:
        self._line.points = self.die_points
        self._line.width = 4 if self.chosen else 2
        self._line_colour.rgba = colours.ACCENT if self.chosen else colours.FOCUS
        self._fill_colour.rgba = (*colours.ACCENT[:3], 0.3) if self.chosen else (0, 0, 0, 0)
        self._fill.pos, self._fill.size = self.pos, self.size
        frame = [self.x, self.y, self.right, self.y, self.right, self.top, self.x, self.top]
        self._area.points = frame
        self._focus_colour.rgba = colours.FOCUS if self.focused else (0, 0, 0, 0)
        self._focus_line.points = frame


class DiceScreen(BaseScreen):
    name = "dice"
    headline = StringProperty("")
    detail = StringProperty("")
    values = ListProperty([])
    keeping = BooleanProperty(False)  # the keep-2 choice is being made on the picture

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.back_to = ""
        self.allowed: tuple[int, ...] = (2,)
        self.settler: Any = None
        self.reading_in_flight = False
        self.last_frame = -1
        self._poll: Any = None
        self.roll: Any = None  # the settled reading whose values are offered
        self.roll_texture: Texture | None = None  # its picture, frozen while keeping
        self.targets: list[DieTarget] = []
        self.chosen: list[int] = []  # indices into ``targets``, oldest first
        self.keep_button: TButton | None = None
        self._camera_buttons: list[Widget] = []
        self._waiting: Any = None

    def prepare(self, screen: str = "", count: int = 2, optional: int = 0, **_: Any) -> None:
        self.end_keeping()
        self.back_to = screen
        self.allowed = tuple(range(count - optional, count + 1))
        self.values = []
        self.roll = None
        self.roll_texture = None
        self.ids.view.texture = None
        dice = optional_module("vision.dice")
        camera = self.app.services.start_camera()
        if dice is None or camera is None:
            self.headline = "No camera: type the dice on the game screen."
            self.detail = self.app.services.camera_problem
            return
        self.settler = dice.DiceSettler()
        self.headline = f"Roll {' or '.join(map(str, self.allowed))} dice under the camera."
        self.detail = "Waiting for the dice to come to rest..."
        self._poll = Clock.schedule_interval(self.poll, POLL)

    def on_leave(self, *args: Any) -> None:
        super().on_leave(*args)
        if self._poll is not None:
            self._poll.cancel()
            self._poll = None
        self.end_keeping()

    def poll(self, _dt: float) -> None:
        if self.reading_in_flight or self.keeping or self._waiting is not None:
            return
        camera = self.app.services.camera
        if camera is None or not camera.available:
            self.detail = "The camera is not answering: type the dice on the game screen."
            return
        frame = camera.latest()
        if frame is None or frame.number == self.last_frame:
            return
        self.last_frame = frame.number
        self.reading_in_flight = True
        background.later(lambda: self.read(frame.image), self.show_reading, self.reading_failed)

    def read(self, image: Any) -> tuple[Any, Any, Any]:
        """On a worker thread: the reading, the settled roll (or None), the outlined picture
        (of the settled roll when there is one, so its outlines match the dice offered)."""
        from vision.dice import draw_dice, read_dice

        # A picture still moving (dice tumbling, a hand) is read quickly, without a closer look.
        reading = read_dice(image, closer=self.settler.still(image))
        settled = self.settler.feed(reading)
        return reading, settled, draw_dice(image, settled if settled is not None else reading)

    def show_reading(self, result: tuple[Any, Any, Any]) -> None:
        self.reading_in_flight = False
        if self.keeping or self._waiting is not None:
            return  # the roll was sent: the picture stays as it was read
        reading, settled, picture = result
        self.ids.view.texture = frame_texture(picture)
        if settled is None:
            if not self.values:
                self.detail = f"Seen: {', '.join(map(str, reading.values)) or 'no dice'}; waiting for them to rest."
            return
        values = list(settled.values)
        if len(values) not in self.allowed:
            self.values = []
            self.detail = (f"The camera sees {len(values)} dice ({', '.join(map(str, values))}); "
                           f"{' or '.join(map(str, self.allowed))} are needed.")
            return
        self.values = values
        self.roll = settled
        self.roll_texture = self.ids.view.texture
        unsure = settled.confidence < self.app.settings_config.camera.min_confidence
        self.detail = ("The camera is not sure: check the dice before confirming." if unsure
                       else "Check the dice on the table, then confirm.")

    def reading_failed(self, error: BaseException) -> None:
        self.reading_in_flight = False
        log.warning("the dice could not be read: %s", error)
        self.detail = f"The dice could not be read ({error}): type them on the game screen."

    # -- sending the roll -------------------------------------------------------------------

    def game_screen(self) -> Any | None:
        return self.app.screen(self.back_to) if self.back_to else None

    def confirm(self) -> None:
        if not self.values or self.keeping or self._waiting is not None:
            return
        values = list(self.values)
        target = self.game_screen()
        if target is None or not hasattr(target, "dice_from_camera"):
            self.app.back()
            return
        if getattr(target, "session", None) is None or self.roll is None:
            self.app.back()
            target.dice_from_camera(values)
            return
        # Stay on the picture until the Table answers: if it then waits for a choice among
        # these dice, the choice is made here, on the dice as the camera saw them.
        before = target.frame
        self.detail = "Sending the dice..."
        if self.roll_texture is not None:
            self.ids.view.texture = self.roll_texture
        target.dice_from_camera(values)
        started = Clock.get_boottime()
        self._waiting = Clock.schedule_interval(lambda _dt: self.await_answer(target, before, started), 0)

    def await_answer(self, target: Any, before: Any, started: float) -> None:
        if target.frame is before and not target.refusal and Clock.get_boottime() - started < ANSWER_WAIT:
            return
        self._stop_waiting()
        frame = target.frame
        pending = (frame.public.get("pending") or {}) if frame is not None and frame is not before else {}
        if (pending.get("kind") == "keep_dice" and self.roll is not None
                and sorted(pending.get("dice") or []) == sorted(d.value for d in self.roll.dice)):
            self.start_keeping(pending)
        else:
            self.app.back()  # the game screen shows what follows (or the refusal)

    def _stop_waiting(self) -> None:
        if self._waiting is not None:
            self._waiting.cancel()
            self._waiting = None

    # -- keeping 2 of the 3 dice on the picture ---------------------------------------------

    def keep_actions(self) -> list[dict[str, Any]]:
        target = self.game_screen()
        frame = getattr(target, "frame", None)
        if frame is None:
            return []
        return [a for a in frame.legal if a.get("type") == "keep_dice"]

    def start_keeping(self, pending: dict[str, Any]) -> None:
        view = self.ids.view
        if self.roll_texture is not None:
            view.texture = self.roll_texture
        offered = {v for a in self.keep_actions() for v in a.get("values", [])}
        self.targets = [DieTarget(i, die.value, die.outline) for i, die in enumerate(self.roll.dice)
                        if die.value in offered]
        for die in self.targets:
            die.bind(on_release=lambda w: self.tap_die(w.index))
            view.add_widget(die)
        view.bind(size=self.place_targets, pos=self.place_targets, norm_image_size=self.place_targets)
        self.place_targets()
        self.chosen = []
        self.keeping = True
        self._swap_buttons()
        who = pending.get("name") or "The player"
        self.headline = f"{who} keeps 2 of the 3 dice: tap them on the picture."
        self.show_choice()

    def place_targets(self, *_: Any) -> None:
        view = self.ids.view
        if view.texture is None:
            return
        minimum = self.app.theme.small_target
        for die in self.targets:
            die.place(view, minimum)

    def _swap_buttons(self) -> None:
        """The Confirm / Roll again buttons give way to Keep while the choice is made."""
        column = self.right_column()
        self._camera_buttons = [w for w in column.children if isinstance(w, TButton)]
        for widget in self._camera_buttons:
            column.remove_widget(widget)
        self.keep_button = button("Choose 2 dice", lambda *_: self.keep(), tone="accent")
        self.keep_button.disabled = True
        column.add_widget(self.keep_button)

    def right_column(self) -> Widget:
        view = self.ids.view
        return next(w for w in view.parent.children if w is not view)

    def tap_die(self, index: int) -> None:
        if not self.keeping:
            return
        by_index = {t.index: t for t in self.targets}
        if index in self.chosen:
            self.chosen.remove(index)
        else:
            if len(self.chosen) == 2:
                self.chosen.pop(0)  # a third tap swaps out the die chosen first
            self.chosen.append(index)
        for die in self.targets:
            die.chosen = die.index in self.chosen
        self.show_choice(by_index)

    def chosen_action(self) -> dict[str, Any] | None:
        """The legal keep_dice action matching the two dice tapped, if the rules list one."""
        if len(self.chosen) != 2:
            return None
        by_index = {t.index: t for t in self.targets}
        values = sorted(by_index[i].value for i in self.chosen)
        return next((a for a in self.keep_actions() if sorted(a.get("values", [])) == values), None)

    def show_choice(self, by_index: dict[int, DieTarget] | None = None) -> None:
        by_index = by_index or {t.index: t for t in self.targets}
        kept = [by_index[i].value for i in self.chosen]
        action = self.chosen_action()
        if self.keep_button is not None:
            self.keep_button.disabled = action is None
            self.keep_button.text = (f"Keep {' and '.join(map(str, kept))}" if action is not None
                                     else "Choose 2 dice")
        if not kept:
            self.detail = "Tap the 2 dice to keep: they turn gold."
        elif len(kept) == 1:
            self.detail = f"Keeping {kept[0]}: tap a second die."
        elif action is None:
            self.detail = f"{' and '.join(map(str, kept))} cannot be kept together."
        else:
            self.detail = f"Keeping {' and '.join(map(str, kept))}. A third tap swaps a die."

    def keep(self) -> None:
        action = self.chosen_action()
        target = self.game_screen()
        if action is None or target is None:
            return
        self.app.back()
        target.choose_action(action)

    def end_keeping(self) -> None:
        self._stop_waiting()
        view = self.ids.view
        view.unbind(size=self.place_targets, pos=self.place_targets, norm_image_size=self.place_targets)
        for die in self.targets:
            view.remove_widget(die)
        self.targets = []
        self.chosen = []
        if self.keep_button is not None:
            column = self.right_column()
            column.remove_widget(self.keep_button)
            for widget in reversed(self._camera_buttons):
                column.add_widget(widget)
            self.keep_button = None
            self._camera_buttons = []
        self.keeping = False

    def focusables(self) -> list[Widget]:
        """The dice on the picture come first for the keyboard and the GPIO buttons."""
        return [*self.targets, *super().focusables()] if self.keeping else super().focusables()

    def roll_again(self) -> None:
        dice = optional_module("vision.dice")
        if dice is not None:
            self.settler = dice.DiceSettler()
        self.values = []
        self.roll = None
        self.detail = "Waiting for the dice to come to rest..."
