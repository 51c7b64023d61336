"""Driving the real app without a person: a virtual display, simulated touches, screenshots.

The UI tests, ``ui/screenshots.py`` (``make screens``) and ``bench/ui.py`` all use this. Kivy
allows one window per process, so one ``AppDriver`` runs the app for a whole test session: it
prepares the app as ``App.run`` does, then turns Kivy's event loop by hand (``pump``), so a test
can tap a widget, wait for the Table's update to arrive through ``Clock.schedule_once``, and read
what the screen shows.

    with VirtualDisplay() as display:
        driver = AppDriver(config, database=":memory:")
        driver.start()
        driver.tap_text("Score pad")
        assert "Players" in driver.screen_text()
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion.config import Config

MARKUP = re.compile(r"\[/?(?:b|i|u|s|sub|sup|size|color|font|ref|anchor|font_context|font_family|font_features|text_language)(?:=[^\]]*)?\]")


class XvfbMissing(RuntimeError):
    """Xvfb is not installed: the UI tests need it (apt-get install xvfb xauth)."""


class VirtualDisplay:
    """An Xvfb server on a free display number, large enough for every layout we test."""

    def __init__(self, width: int = 1600, height: int = 1600) -> None:
        self.width, self.height = width, height
        self.process: subprocess.Popen[bytes] | None = None
        self.display = ""
        self._previous: str | None = None

    def start(self) -> VirtualDisplay:
        xvfb = shutil.which("Xvfb")
        if xvfb is None:
            raise XvfbMissing("Xvfb is not installed: apt-get install xvfb xauth (the UI tests need it)")
        read_fd, write_fd = os.pipe()
        self.process = subprocess.Popen(
            [xvfb, "-displayfd", str(write_fd), "-screen", "0", f"{self.width}x{self.height}x24",
             "-nolisten", "tcp", "-noreset"],
            pass_fds=(write_fd,),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        os.close(write_fd)
        number = b""
        deadline = time.monotonic() + 15
        with os.fdopen(read_fd, "rb", buffering=0) as pipe:
            while not number.endswith(b"\n") and time.monotonic() < deadline:
                chunk = pipe.read(16)
                if not chunk:
                    break
                number += chunk
        if not number.strip().isdigit():
            self.stop()
            raise RuntimeError("Xvfb did not start (no display number)")
        self.display = f":{number.strip().decode()}"
        self._previous = os.environ.get("DISPLAY")
        os.environ["DISPLAY"] = self.display
        return self

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.process.kill()
            self.process = None
        if self._previous is not None:
            os.environ["DISPLAY"] = self._previous

    def __enter__(self) -> VirtualDisplay:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def plain(text: str) -> str:
    """Label text without Kivy markup."""
    return MARKUP.sub("", text)


class AppDriver:
    """The app, run by hand: pump frames, tap widgets, read the screen, take screenshots."""

    def __init__(
        self,
        config: Config,
        *,
        database: str | Path = ":memory:",
        size: tuple[int, int] = (800, 480),
        kivy_home: Path | None = None,
        **app_options: Any,
    ) -> None:
        self.config = config
        self.database = database
        self.size = size
        self.kivy_home = kivy_home or Path(tempfile.mkdtemp(prefix="dreamtable-kivy-"))
        self.app_options = app_options
        self.app: Any = None

    # -- running --------------------------------------------------------------------------

    def start(self) -> Any:
        os.environ.setdefault("KIVY_NO_ARGS", "1")
        os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
        os.environ.setdefault("KIVY_HOME", str(self.kivy_home))
        from ui.launch import prepare_kivy

        prepare_kivy(self.size, False, self.kivy_home)
        from kivy.config import Config as KivyConfig

        KivyConfig.set("graphics", "maxfps", "0")  # tests turn the loop as fast as it goes
        from kivy.base import runTouchApp
        from kivy.core.window import Window

        from ui.app import DreamtableApp

        Window.size = self.size
        self.app = DreamtableApp(self.config, database=self.database, **self.app_options)
        self.app._run_prepare()  # noqa: SLF001 - what App.run does before its loop
        runTouchApp(embedded=True)
        self.pump(3)
        return self.app

    def stop(self) -> None:
        if self.app is not None:
            from kivy.base import stopTouchApp

            self.app.dispatch("on_stop")
            stopTouchApp()
            self.app = None

    def pump(self, frames: int = 1) -> None:
        from kivy.base import EventLoop

        for _ in range(frames):
            EventLoop.idle()

    def wait(self, condition: Callable[[], Any], timeout: float = 10.0, what: str = "") -> Any:
        """Turns the loop until ``condition()`` is true; fails with what the screen shows."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            self.pump()
            value = condition()
            if value:
                return value
            time.sleep(0.005)
        raise AssertionError(
            f"waited {timeout} s for {what or condition}; the screen {self.app.manager.current!r} "
            f"shows: {self.screen_text()!r}"
        )

    def settle(self, timeout: float = 10.0) -> None:
        """Waits until background work and its main-thread callbacks are done."""
        from ui import background

        self.wait(lambda: background.pending() == 0 and self._session_idle(), timeout, "the app to settle")
        self.pump(2)

    def _session_idle(self) -> bool:
        if getattr(self.screen, "loading", False):
            return False  # a game is being opened
        session = self.app.services.session
        return session is None or session.idle()

    def resize(self, width: int, height: int) -> None:
        from kivy.core.window import Window

        Window.size = (width, height)
        self.wait(lambda: tuple(Window.size) == (width, height), 5, f"the window to be {width}x{height}")
        self.pump(4)

    # -- looking --------------------------------------------------------------------------

    @property
    def screen(self) -> Any:
        return self.app.manager.current_screen

    def visible(self) -> list[Any]:
        """Every widget drawn now, on the current screen and over it (notices, popups)."""
        from kivy.core.window import Window

        from ui.screens.base import walk_visible

        found = []
        for child in reversed(Window.children):
            if child is self.app.root:
                found.extend(walk_visible(self.screen))
                found.extend(w for w in walk_visible(self.app.notice))
            else:
                found.extend(walk_visible(child))
        return found

    def labels(self) -> list[str]:
        from kivy.uix.label import Label

        return [plain(w.text) for w in self.visible() if isinstance(w, Label) and w.text]

    def screen_text(self) -> str:
        return " | ".join(self.labels())

    def find(self, text: str, *, exact: bool = False, kind: type | None = None) -> list[Any]:
        """Visible widgets whose (plain) text contains ``text`` (or equals it)."""
        from kivy.uix.label import Label

        kind = kind or Label
        hits = []
        for widget in self.visible():
            if isinstance(widget, kind) and widget.text:
                shown = plain(widget.text)
                if shown == text if exact else text in shown:
                    hits.append(widget)
        return hits

    def button(self, text: str, exact: bool = False) -> Any:
        from kivy.uix.button import Button

        self.pump(1)  # lay out what changed since the last frame before looking
        hits = [w for w in self.find(text, exact=exact, kind=Button) if not w.disabled]
        if not hits:
            raise AssertionError(f"no enabled button {text!r} on {self.app.manager.current!r}; "
                                 f"the screen shows: {self.screen_text()!r}")
        return hits[0]

    # -- touching -------------------------------------------------------------------------

    def tap(self, widget: Any) -> None:
        """A finger down and up at the middle of ``widget`` (scrolled into view first)."""
        from kivy.uix.scrollview import ScrollView

        parent, seen = widget.parent, set()
        while parent is not None and id(parent) not in seen:  # the Window is its own parent
            seen.add(id(parent))
            if isinstance(parent, ScrollView):
                parent.scroll_to(widget, padding=10, animate=False)
                self.pump(2)
                break
            parent = parent.parent
        x, y = widget.to_window(*widget.center)
        self._check_reachable(widget, x, y)
        self.tap_at(x, y)

    def _check_reachable(self, widget: Any, x: float, y: float) -> None:
        """A finger can only press what is on the screen and not clipped by a scroller."""
        from kivy.core.window import Window
        from kivy.uix.scrollview import ScrollView

        if not (0 <= x < Window.width and 0 <= y < Window.height):
            raise AssertionError(f"{widget!r} ({getattr(widget, 'text', '')!r}) is off the screen at {x:.0f},{y:.0f}")
        parent, seen = widget.parent, set()
        while parent is not None and id(parent) not in seen:
            seen.add(id(parent))
            if isinstance(parent, ScrollView):
                px, py = parent.to_window(parent.x, parent.y)
                if not (px <= x <= px + parent.width and py <= y <= py + parent.height):
                    raise AssertionError(
                        f"{getattr(widget, 'text', widget)!r} is hidden outside its scroller "
                        f"(the scroller is {parent.width:.0f}x{parent.height:.0f})"
                    )
            parent = parent.parent

    def tap_at(self, x: float, y: float) -> None:
        from kivy.tests.common import UnitTestTouch

        touch = UnitTestTouch(x, y)
        touch.touch_down()
        touch.touch_up()  # a quick tap: Kivy's buttons release on the same frame
        self.pump(2)

    def tap_text(self, text: str, exact: bool = False) -> None:
        self.tap(self.button(text, exact))
        self.settle()

    def screenshot(self, path: Path) -> Path:
        """Saves what the window shows now as a PNG at ``path``."""
        from kivy.core.window import Window

        self.pump(3)
        path.parent.mkdir(parents=True, exist_ok=True)
        taken = Window.screenshot(name=str(path.with_name(path.stem + "-shot.png")))
        os.replace(taken, path)
        return path

