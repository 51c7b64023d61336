"""``companion catalog check [DIR]``: validates the games' TOML catalogs.

Every game that ships a ``companion.<game>.catalog`` module with ``load_catalog(dir)`` is
checked; a module that also offers ``check_catalog(dir) -> list[CatalogError]`` reports every
error at once, otherwise the first error ``load_catalog`` raises is reported. Each error names
the file, the entry and the field.

DIR is a data directory holding one folder per game (like ``companion/data``); with ``--game``
it is that one game's catalog folder. Exit status: 0 when every catalog checked is sound, 1 when
any has errors, 2 when there is nothing to check.
"""

from __future__ import annotations

import argparse
import importlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion.catalog import DATA_DIR, CatalogError

GAMES = ("chainsomnia", "somnicum")


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("catalog", help="check the games' card and tile catalogs")
    parser.set_defaults(func=lambda args: (parser.print_help(), 0)[1])
    commands = parser.add_subparsers(dest="catalog_command", metavar="COMMAND")
    check = commands.add_parser(
        "check",
        help="validate a catalog directory",
        description="Validates the TOML catalogs of every game in DIR (default: the configured "
        "catalog, else the one shipped with Dreamtable) and names file, entry and field for "
        "every error.",
    )
    check.add_argument("dir", nargs="?", metavar="DIR", help="a data directory with one folder per game")
    check.add_argument("--game", choices=GAMES, help="check DIR as this one game's catalog folder")
    check.add_argument("--json", action="store_true", help="print the result as JSON")
    check.set_defaults(func=run_check)


def checkers() -> dict[str, Callable[[Path], list[CatalogError]]]:
    """The games whose catalog module is installed, each with a function listing its errors."""
    found: dict[str, Callable[[Path], list[CatalogError]]] = {}
    for game in GAMES:
        name = f"companion.{game}.catalog"
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as err:
            if err.name != name:
                raise
            continue
        if hasattr(module, "check_catalog"):
            found[game] = module.check_catalog
        elif hasattr(module, "load_catalog"):
            found[game] = _first_error_of(module.load_catalog)
    return found


def _first_error_of(load: Callable[[Path], Any]) -> Callable[[Path], list[CatalogError]]:
    def check(directory: Path) -> list[CatalogError]:
        try:
            load(directory)
        except CatalogError as err:
            return [err]
        return []

    return check


def run_check(args: argparse.Namespace) -> int:
    config = getattr(args, "config_obj", None)
    configured = config.data.catalog if config is not None else ""
    root = Path(args.dir or configured or DATA_DIR).expanduser()
    games = checkers()
    if not root.is_dir():
        print(f"companion catalog check: {root}: not a directory")
        return 2
    if args.game:
        if args.game not in games:
            print(f"companion catalog check: this build has no catalog reader for {args.game}")
            return 2
        targets = {args.game: root}
    else:
        targets = {game: root / game for game in games if (root / game).is_dir()}
        if not targets:
            print(
                f"companion catalog check: {root} holds no game folder "
                f"({' or '.join(g + '/' for g in games)}); pass --game to check it as one game's catalog"
            )
            return 2
    report: dict[str, list[str]] = {}
    for game, directory in targets.items():
        report[game] = [str(err) for err in games[game](directory)]
    if args.json:
        print(json.dumps({"ok": not any(report.values()), "games": {g: {"dir": str(targets[g]), "errors": e} for g, e in report.items()}}))
    else:
        for game, errors in report.items():
            if errors:
                print(f"{game}: {len(errors)} error(s) in {targets[game]}")
                for line in errors:
                    print(f"  {line}")
            else:
                print(f"{game}: ok ({targets[game]})")
    return 1 if any(report.values()) else 0
