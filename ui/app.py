"""The touchscreen app: the screens, the way between them, and where input comes in.

``DreamtableApp`` owns the window and a ``ScreenManager``. It holds no rules: game screens render
the Table's state and send Actions through a ``ui.session.Session``. Input from the keyboard and
the GPIO panel arrives as ``hardware.inputs.InputEvent`` values on one queue, drained on Kivy's
main thread and handed to the current screen's ``on_control``; touches go to the widgets.

Started by ``companion app`` (``ui.cli``) or, in tests, by ``ui.testing.AppDriver``.
"""

from __future__ import annotations

import logging
import os
import time
from pathlib import Path
from typing import Any

from kivy.app import App
from kivy.core.window import Window
from kivy.lang import Builder
from kivy.properties import ObjectProperty, StringProperty
from kivy.uix.floatlayout import FloatLayout
from kivy.uix.screenmanager import NoTransition, ScreenManager

from companion.config import Config
from ui import theme as colours
from ui.prefs import Prefs
from ui.theme import Theme
from ui.widgets import Notice

log = logging.getLogger(__name__)

KV_DIR = Path(__file__).parent / "kv"


class DreamtableApp(App):
    """The app. ``go(name, **params)`` opens a screen; ``back()`` returns to the previous one."""

    title = "Dreamtable"
    theme = ObjectProperty(None)
    status = StringProperty("")

    def __init__(
        self,
        config: Config,
        *,
        database: Path | str | None = None,
        prefs: Prefs | None = None,
        mirror_port: int | None = None,
        announce: bool = True,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.settings_config = config
        self.database = database or config.data.database_path
        self.prefs = prefs or Prefs.load(config)
        self.mirror_port = mirror_port
        self.announce = announce
        self.theme = Theme(text_scale=self.prefs.text_scale)
        self.history: list[str] = []
        self.scorepad: Any = None  # the score pad's sheet (ui.somnicum.scorepad.ScorePad)
        self.started_at = time.perf_counter()
        self.first_frame_at: float | None = None
        self.services = _services_for(self)
        self._keyboard: Any = None

    # -- Kivy hooks -------------------------------------------------------------------------

    def build(self) -> FloatLayout:
        from ui import screens, widgets

        del widgets  # imported so the kv rules find its classes
        # widgets.kv first: the screens' rules use its classes.
        for path in sorted(KV_DIR.glob("*.kv"), key=lambda p: (p.name != "widgets.kv", p.name)):
            Builder.load_file(str(path))
        Window.clearcolor = colours.BACKGROUND
        self.theme.fit(*Window.size)
        Window.bind(size=lambda _w, size: self.theme.fit(*size))
        self.manager = ScreenManager(transition=NoTransition())
        self.manager.add_widget(screens.screen_class("home")())
        self.manager.current = "home"
        self.history = ["home"]
        root = FloatLayout()
        root.add_widget(self.manager)
        self.notice = Notice()
        root.add_widget(self.notice)
        return root

    def on_start(self) -> None:
        Window.bind(on_flip=self._first_frame)
        self._keyboard = self.services.keyboard()
        if self._keyboard is not None:
            Window.bind(on_key_down=self._key_down, on_key_up=self._key_up)
        self.services.start()

    def on_stop(self) -> None:
        self.services.stop()

    def _first_frame(self, *_: Any) -> None:
        Window.unbind(on_flip=self._first_frame)
        self.first_frame_at = time.perf_counter()
        if os.environ.get("DREAMTABLE_FIRST_FRAME"):
            # bench/ui.py measures the launch: say when the first frame is on screen.
            print(f"first-frame {self.first_frame_at - self.started_at:.4f}", flush=True)

    # -- navigation -------------------------------------------------------------------------

    def screen(self, name: str) -> Any:
        """Screen `name`, built the first time it is needed."""
        if not self.manager.has_screen(name):
            from ui.screens import screen_class

            self.manager.add_widget(screen_class(name)())
        return self.manager.get_screen(name)

    @property
    def current_screen(self) -> Any:
        return self.manager.current_screen

    def go(self, name: str, **params: Any) -> Any:
        """Opens screen `name`, handing it `params` through its ``prepare``."""
        screen = self.screen(name)
        screen.prepare(**params)
        if self.manager.current != name:
            self.manager.current = name
        if not self.history or self.history[-1] != name:
            self.history.append(name)
        return screen

    def back(self) -> None:
        """Returns to the previous screen (Home at the bottom of the stack)."""
        current = self.screen(self.manager.current)
        if current.on_back():
            return
        if len(self.history) > 1:
            self.history.pop()
        target = self.history[-1] if self.history else "home"
        self.screen(target).prepare_return()
        self.manager.current = target

    def home(self) -> None:
        self.history = ["home"]
        self.screen("home").prepare()
        self.manager.current = "home"

    def notify(self, text: str, seconds: float = 4.0) -> None:
        """A short message over the bottom of the screen ("Saved", "The folder is ...")."""
        self.notice.show(text, seconds)

    # -- the game at the table --------------------------------------------------------------

    def seat_names(self) -> list[str]:
        """The seats of the game in progress (for the Phones screen's private links)."""
        session = self.services.session
        return session.seat_names() if session is not None else []

    def seat_name(self, seat: int) -> str:
        names = self.seat_names()
        return names[seat] if 0 <= seat < len(names) else f"Seat {seat + 1}"

    def resume_game(self, game: str, game_id: int) -> None:
        """Opens an unfinished game from the journal on its table screen."""
        self.go(f"{game}_table", resume=game_id)

    # -- input from the keyboard and the button panel ---------------------------------------

    def _key_down(self, _window: Any, key: int, _scancode: int, _text: str, modifiers: list[str]) -> bool:
        event = self._keyboard.key_down(key, modifiers)
        if event is None:
            return False
        return self.control(event.control, seat=event.seat, long=event.long)

    def _key_up(self, _window: Any, key: int, *_: Any) -> bool:
        self._keyboard.key_up(key)
        return False

    def drain_inputs(self, *_: Any) -> None:
        """Feeds the queued button presses to the current screen (Kivy's main thread)."""
        for event in self.services.inputs.drain():
            self.control(event.control, seat=event.seat, long=event.long)

    def control(self, control: str, seat: int | None = None, long: bool = False) -> bool:
        """One press of a named control (``companion.focus.CONTROLS``) on the current screen."""
        screen = self.screen(self.manager.current)
        if screen.on_control(control, seat):
            return True
        if control == "back":
            self.back()
            return True
        return False


def _services_for(app: DreamtableApp) -> Any:
    from ui.services import Services

    return Services(app)
