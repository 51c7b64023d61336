"""What the app reaches beyond its screens: the journal of games, the button panel, the keyboard
stand-in, the phones' mirror and the camera.

Each is optional. A part that is absent from this build or cannot start (no GPIO, no camera, the
port taken) is logged once and the app carries on without it: the touchscreen alone can always
play a whole game. Nothing here blocks Kivy's main thread for long: the journal is opened once,
and the mirror and camera run on their own threads.
"""

from __future__ import annotations

import importlib
import logging
import threading
from pathlib import Path
from typing import Any

from kivy.clock import Clock

from ui import background

log = logging.getLogger(__name__)


def optional_module(name: str) -> Any | None:
    """The module, or None when that part of Dreamtable is not in this build."""
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as err:
        if err.name and name.startswith(err.name):
            return None
        raise


class Services:
    def __init__(self, app: Any) -> None:
        self.app = app
        self.config = app.settings_config
        self._journal: Any = None
        self._journal_lock = threading.Lock()
        self.panel: Any = None
        self.lights: Any = None  # hardware.lights.Lights when [lights] is configured
        self._lights_unsubscribe: Any = None
        self.mirror: Any = None
        self.mirror_problem = ""
        self.camera: Any = None
        self.camera_problem = ""
        self.hub: Any = None
        self.session: Any = None  # the game on the table screen (ui.session.TableSession)
        inputs = optional_module("hardware.inputs")
        self.inputs = (
            inputs.InputQueue(wake=lambda: Clock.schedule_once(app.drain_inputs))
            if inputs is not None
            else _NoInputs()
        )

    # -- the journal ------------------------------------------------------------------------

    def journal(self) -> Any | None:
        """The games' journal (one SQLite file), or None when this build has none."""
        with self._journal_lock:
            if self._journal is None:
                module = optional_module("companion.journal")
                if module is None:
                    return None
                path = Path(self.app.database)
                if str(path) != ":memory:":
                    path.parent.mkdir(parents=True, exist_ok=True)
                self._journal = module.Journal(str(path))
            return self._journal

    def start_camera(self) -> Any | None:
        """The camera above the table, started on first use; None when there is none."""
        if self.camera is not None:
            return self.camera
        module = optional_module("hardware.camera")
        if module is None or self.config.camera.source == "none":
            self.camera_problem = "No camera is set up (camera section, source = none)."
            return None
        try:
            self.camera = module.make_camera(self.config.camera)
            if self.camera is not None:
                self.camera.start()  # captures on its own thread
        except Exception as err:  # noqa: BLE001 - a camera problem must not stop the game
            log.warning("camera not started: %s; dice are typed in", err)
            self.camera_problem = f"The camera could not start: {err}"
            self.camera = None
        return self.camera

    def camera_configured(self) -> bool:
        """A camera is set up in the config and this build can drive it."""
        return self.config.camera.source != "none" and optional_module("hardware.camera") is not None

    # -- keyboard, buttons, mirror ----------------------------------------------------------

    def keyboard(self) -> Any | None:
        module = optional_module("hardware.keyboard")
        return module.KeyboardControls() if module is not None else None

    def start(self) -> None:
        self._start_panel()
        self._start_mirror()

    def _start_mirror(self) -> None:
        """Starts the phones' mirror on its own thread; the Phones screen says if it cannot."""
        if not self.config.mirror.enabled:
            self.mirror_problem = "The mirror is turned off in the config (mirror section, enabled = false)."
            return
        server_module = optional_module("companion.net.server")
        hub_module = optional_module("companion.net.hub")
        if server_module is None or hub_module is None:
            self.mirror_problem = "This build has no mirror."
            return
        from companion.games import rules_for

        self.hub = hub_module.MirrorHub(rules_for=rules_for)
        server = server_module.MirrorServer(
            self.config, self.hub, port=self.app.mirror_port, announce=self.app.announce
        )

        def started(_: Any) -> None:
            self.mirror = server
            self.mirror_problem = ""

        def failed(error: BaseException) -> None:
            log.warning("the phones' mirror did not start: %s", error)
            self.mirror_problem = f"The mirror could not start: {error}"

        self.mirror_problem = "The mirror is starting..."
        background.later(server.start, started, failed)

    def attach_mirror(self, table: Any) -> None:
        """Shows ``table``'s game on the phones (the hub subscribes to it) and on the lights."""
        self.follow_with_lights(table)
        hub = self.hub
        if hub is not None:
            background.later(lambda: hub.attach(table))

    def detach_mirror(self) -> None:
        self.follow_with_lights(None)
        hub = self.hub
        if hub is not None:
            background.later(hub.detach)

    def _start_panel(self) -> None:
        module = optional_module("hardware.buttons")
        if module is not None and self.config.buttons:
            try:
                self.panel = module.ButtonPanel.open(self.config, self.inputs)
            except Exception as err:  # noqa: BLE001 - a missing panel must not stop the app
                log.warning("button panel not started: %s; the touchscreen and keyboard still work", err)
                self.panel = None
        lights = optional_module("hardware.lights")
        if lights is not None and self.config.lights:
            try:
                self.lights = lights.Lights.open(self.config)
            except Exception as err:  # noqa: BLE001 - lights are optional at the table
                log.warning("lights not started: %s", err)
                self.lights = None

    def follow_with_lights(self, table: Any) -> None:
        """The LEDs and buzzer follow ``table`` (on their own subscriber thread)."""
        if self._lights_unsubscribe is not None:
            self._lights_unsubscribe()
            self._lights_unsubscribe = None
        if self.lights is not None and table is not None:
            self._lights_unsubscribe = table.subscribe(self.lights.follow)

    def stop(self) -> None:
        if self.session is not None:
            self.session.close()
            self.session = None
        if self._lights_unsubscribe is not None:
            self._lights_unsubscribe()
            self._lights_unsubscribe = None
        for part in (self.panel, self.lights, self.mirror, self.camera):
            close = getattr(part, "close", None) or getattr(part, "stop", None)
            if close is not None:
                try:
                    close()
                except Exception as err:  # noqa: BLE001 - closing must reach every part
                    log.warning("while stopping %s: %s", type(part).__name__, err)
        if self._journal is not None:
            close = getattr(self._journal, "close", None)
            if close is not None:
                close()


class _NoInputs:
    """Stands in for the input queue when this build has no hardware package."""

    def drain(self) -> list[Any]:
        return []

    def post(self, _event: Any) -> bool:
        return False
