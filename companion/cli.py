"""The ``companion`` command: the scriptable face of Dreamtable.

Each part of the app adds its own subcommands: a module listed in ``COMMAND_MODULES`` has a
``register(subparsers)`` function that adds its parser(s) and sets ``func`` to a callable taking
the parsed arguments and returning the exit status. Modules are imported only when the command
line is built, so a heavy import (OpenCV, Kivy) stays inside the command that needs it.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import sys
from collections.abc import Sequence

from companion import __version__
from companion.allocator import keep_frame_memory
from companion.config import ConfigError, load_config
from companion.logs import setup_logging

COMMAND_MODULES = [
    "companion.somnicum.cli",
    "companion.chainsomnia.cli",
    "companion.catalog_cli",
    "companion.games_cli",
    "companion.net.cli",
    "vision.cli",
    "ui.cli",
]

OVERVIEW = """\
Dreamtable: a table companion for CHAINsomnia and Somnicum.

Commands:
{commands}

Run 'companion COMMAND --help' for the details of one command.
"""

log = logging.getLogger("companion")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="companion",
        description="Dreamtable: a table companion for CHAINsomnia and Somnicum.",
    )
    parser.add_argument("--version", action="version", version=f"dreamtable {__version__}")
    parser.add_argument(
        "--config",
        metavar="FILE",
        help="the TOML config to use (default: $DREAMTABLE_CONFIG, then "
        "~/.config/dreamtable/config.toml)",
    )
    parser.add_argument("--log-level", metavar="LEVEL", help="DEBUG, INFO, WARNING or ERROR")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as err:
            if err.name is None or not (name == err.name or name.startswith(err.name + ".")):
                raise  # a real import error inside that part, not an absent part
            continue  # that part of the app is not installed in this build
        module.register(subparsers)
    return parser


def overview(parser: argparse.ArgumentParser) -> str:
    lines = []
    for action in parser._subparsers._group_actions if parser._subparsers else []:  # noqa: SLF001
        for choice in action._choices_actions:  # noqa: SLF001
            lines.append(f"  {choice.dest:<14} {choice.help or ''}")
    return OVERVIEW.format(commands="\n".join(lines))


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        config = load_config(args.config)
    except ConfigError as err:
        print(f"companion: {err}", file=sys.stderr)
        return 2
    setup_logging(args.log_level or config.app.log_level)
    keep_frame_memory()
    args.config_obj = config
    if not getattr(args, "func", None):
        print(overview(parser), end="")
        return 0
    try:
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
