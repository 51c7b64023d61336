"""The touchscreen app under a virtual display, driven by simulated touches.

Kivy allows one window per process, so the whole UI session shares one running app (``ui``);
each test starts from the Home screen at 800x480 (``home``). Xvfb is required: without it the
tests fail with the command that installs it, they do not skip.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from companion.config import config_from_dict
from ui.testing import AppDriver, VirtualDisplay, XvfbMissing

SIZE = (800, 480)


@pytest.fixture(scope="session")
def ui(tmp_path_factory: pytest.TempPathFactory) -> Iterator[AppDriver]:
    """The real app on an Xvfb display, for the whole session (one Kivy window per process)."""
    try:
        display = VirtualDisplay().start()
    except XvfbMissing as err:
        pytest.fail(str(err))
    home = tmp_path_factory.mktemp("ui")
    names = ("KIVY_NO_ARGS", "KIVY_NO_CONSOLELOG", "KIVY_HOME", "LP_NUM_THREADS")
    saved = {key: os.environ.get(key) for key in names}
    # LP_NUM_THREADS=0: Mesa's software renderer draws on the calling thread; on a busy 2-core
    # CI machine that is faster than handing each frame to worker threads.
    os.environ.update(KIVY_NO_ARGS="1", KIVY_NO_CONSOLELOG="1", KIVY_HOME=str(home / "kivy"), LP_NUM_THREADS="0")
    config = config_from_dict({"mirror": {"enabled": False}})
    driver = AppDriver(config, database=home / "games.sqlite3", size=SIZE, kivy_home=home / "kivy")
    try:
        driver.start()
        yield driver
    finally:
        driver.stop()
        display.stop()
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


@pytest.fixture
def home(ui: AppDriver) -> AppDriver:
    """The app back on Home at 800x480, with no game open."""
    from kivy.core.window import Window

    if tuple(Window.size) != SIZE:
        ui.resize(*SIZE)
    screen = ui.app.manager.current_screen
    if hasattr(screen, "close_session"):
        screen.close_session()
    ui.app.home()
    ui.settle()
    return ui
