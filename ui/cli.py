"""``companion app``: starts the touchscreen app (``make run`` calls it).

Kivy is imported only when the app starts, so every other ``companion`` command stays quick and
works on a machine without a display.
"""

from __future__ import annotations

import argparse
from typing import Any


def window_size(text: str) -> tuple[int, int]:
    """``800x480`` -> (800, 480); the error says what was expected."""
    width, sep, height = text.lower().partition("x")
    if not sep or not width.isdigit() or not height.isdigit():
        raise argparse.ArgumentTypeError(f"expected WIDTHxHEIGHT such as 800x480, not {text!r}")
    size = int(width), int(height)
    if size[0] < 320 or size[1] < 240:
        raise argparse.ArgumentTypeError(f"the window must be at least 320x240, not {text}")
    return size


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "app",
        help="start the touchscreen app",
        description="Starts the Dreamtable touchscreen app: play CHAINsomnia or Somnicum at the "
        "table. The window size and full screen default to the config's [app] section.",
    )
    parser.add_argument("--fullscreen", action="store_true", help="fill the whole screen (the Pi's kiosk)")
    parser.add_argument("--size", type=window_size, metavar="WxH",
                        help="the window size, e.g. 800x480 (7\" display), 1280x720 or 720x1280")
    parser.add_argument("--database", metavar="FILE",
                        help="the games' journal (default: the config's [data] database)")
    parser.set_defaults(func=run)


def check_hardware_config(config: Any) -> str | None:
    """The first problem of the [buttons] and [lights] sections, in one line, or None.

    Checked before any window opens: a panel wired differently from its config must stop the app
    with the entry named, not leave players pressing buttons that do nothing.
    """
    from companion.config import ConfigError
    from hardware.buttons import read_buttons
    from hardware.lights import read_lights

    try:
        read_buttons(config)
        read_lights(config)
    except ConfigError as err:
        return str(err)
    return None


def run(args: argparse.Namespace) -> int:
    import sys

    from ui.launch import launch

    config = args.config_obj
    problem = check_hardware_config(config)
    if problem:
        print(f"companion app: {problem}", file=sys.stderr)
        return 2
    size = args.size or (config.app.width, config.app.height)
    fullscreen = bool(args.fullscreen or config.app.fullscreen)
    return launch(config, size=size, fullscreen=fullscreen, database=args.database)
