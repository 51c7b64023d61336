"""Dice: the camera's view of the roll with each die outlined and read; confirm, roll again, or
type the values instead.

Frames are read off the main thread (``vision.dice.read_dice``) and a roll is offered only once
``DiceSettler`` sees the dice at rest. Nothing is applied without a tap on Confirm; a reading the
camera is unsure of says so. The values go back to the game screen that asked
(``dice_from_camera``), which sends them as the Test's dice.
"""

from __future__ import annotations

import logging
from typing import Any

from kivy.clock import Clock
from kivy.graphics.texture import Texture
from kivy.properties import ListProperty, StringProperty

from ui import background
from ui.screens.base import BaseScreen
from ui.services import optional_module

log = logging.getLogger(__name__)

POLL = 0.15  # seconds between frames read: about the pace the settler needs on a Pi


def frame_texture(image: Any) -> Texture:
    """A BGR numpy image as a Kivy texture (Kivy's rows run bottom to top)."""
    height, width = image.shape[:2]
    texture = Texture.create(size=(width, height), colorfmt="bgr")
    texture.blit_buffer(image.tobytes(), colorfmt="bgr", bufferfmt="ubyte")
    texture.flip_vertical()
    return texture


class DiceScreen(BaseScreen):
    name = "dice"
    headline = StringProperty("")
    detail = StringProperty("")
    values = ListProperty([])

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.back_to = ""
        self.allowed: tuple[int, ...] = (2,)
        self.settler: Any = None
        self.reading_in_flight = False
        self.last_frame = -1
        self._poll: Any = None

    def prepare(self, screen: str = "", count: int = 2, optional: int = 0, **_: Any) -> None:
        self.back_to = screen
        self.allowed = tuple(range(count - optional, count + 1))
        self.values = []
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

    def poll(self, _dt: float) -> None:
        if self.reading_in_flight:
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
        """On a worker thread: the reading, the settled roll (or None), the outlined picture."""
        from vision.dice import draw_dice, read_dice

        reading = read_dice(image)
        settled = self.settler.feed(reading, image)
        return reading, settled, draw_dice(image, reading)

    def show_reading(self, result: tuple[Any, Any, Any]) -> None:
        self.reading_in_flight = False
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
        unsure = settled.confidence < self.app.settings_config.camera.min_confidence
        self.detail = ("The camera is not sure: check the dice before confirming." if unsure
                       else "Check the dice on the table, then confirm.")

    def reading_failed(self, error: BaseException) -> None:
        self.reading_in_flight = False
        log.warning("the dice could not be read: %s", error)
        self.detail = f"The dice could not be read ({error}): type them on the game screen."

    def confirm(self) -> None:
        if not self.values:
            return
        values = list(self.values)
        target = self.app.screen(self.back_to) if self.back_to else None
        self.app.back()
        if target is not None and hasattr(target, "dice_from_camera"):
            target.dice_from_camera(values)

    def roll_again(self) -> None:
        dice = optional_module("vision.dice")
        if dice is not None:
            self.settler = dice.DiceSettler()
        self.values = []
        self.detail = "Waiting for the dice to come to rest..."
