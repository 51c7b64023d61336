"""``make screens``: a screenshot of every screen at 800x480 and 1280x720, into docs/screens/.

    python -m ui.screenshots [--out docs/screens] [--sizes 800x480,1280x720,720x1280]

The app runs on its own virtual display (Xvfb) with a journal in a temporary folder. Games are
set up through the Table with chosen cards, so the pictures are the same on every run; the
screens are then opened and tapped as a player would.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path
from typing import Any

from companion.config import CameraConfig, Config, MirrorConfig, config_from_dict
from ui.cli import window_size
from ui.testing import AppDriver, VirtualDisplay, XvfbMissing

DEFAULT_SIZES = "800x480,1280x720"

CHAINSOMNIA = {"players": 2, "characters": ["ryan", "chloe", "isaac", "timi"], "mode": "normal",
               "dice": "typed", "decks": "physical", "seed": 7}


def legal(table: Any, kind: str, **fields: Any) -> dict[str, Any]:
    """The legal action of this kind whose fields match (lists compared as lists)."""
    for action in table.legal_actions():
        if action.get("type") == kind and all(action.get(k) == v for k, v in fields.items()):
            return action
    raise LookupError(f"no legal {kind} {fields}: {table.legal_actions()[:8]}")


def play(table: Any, *steps: tuple[Any, ...]) -> None:
    for kind, fields in steps:
        outcome = table.submit(legal(table, kind, **fields))
        if not outcome.accepted:
            raise RuntimeError(f"{kind} {fields}: {outcome.error}")


def chainsomnia_castle(journal: Any) -> int:
    """A game a round in: four rooms, a Bad Dream on the Great Hall, Howling in play."""
    from companion.table import Table

    table = Table.new(journal, "chainsomnia", CHAINSOMNIA)
    play(
        table,
        ("explore", {}), ("draw", {"card": "great_hall"}), ("place_tile", {"at": [1, 0], "rotation": 0}),
        ("draw", {"card": "whispering_shadow"}),
        ("explore", {}), ("draw", {"card": "library"}), ("place_tile", {"at": [0, 1], "rotation": 0}),
        ("draw", {"card": "lullaby_1"}),
        ("move", {"to": [0, 1]}),
        ("end_turn", {}),
        ("explore", {}), ("draw", {"card": "kitchen"}), ("place_tile", {"at": [0, -1], "rotation": 2}),
        ("draw", {"card": "howling_1"}),
        ("move", {"to": [0, 1]}),
    )
    game_id = table.game_id
    table.close()
    return game_id


class Shots:
    def __init__(self, driver: AppDriver, out: Path, label: str) -> None:
        self.driver, self.out, self.label = driver, out, label
        self.taken: list[Path] = []

    def __call__(self, name: str) -> None:
        self.driver.settle()
        self.taken.append(self.driver.screenshot(self.out / f"{name}-{self.label}.png"))


def take_all(driver: AppDriver, shot: Shots, workdir: Path) -> None:
    ui = driver
    app = ui.app
    journal = app.services.journal()

    app.home()
    shot("home")
    ui.tap_text("Settings")
    shot("settings")
    app.home()
    ui.tap_text("New CHAINsomnia game")
    ui.tap_text("2", exact=True)
    for name in ("Ryan", "Chloe", "Isaac", "Timi"):
        ui.tap_text(name)
    shot("chainsomnia-setup")
    ui.tap_text("Start the game")
    ui.wait(lambda: ui.find("Lay out the table"), what="the setup steps")
    shot("chainsomnia-guide")

    # a castle a round in, opened as a saved game
    game_id = chainsomnia_castle(journal)
    app.home()
    ui.settle()
    shot("home-resume")
    app.resume_game("chainsomnia", game_id)
    shot("chainsomnia-table")
    ui.tap_text("Search a Secret Nook")
    shot("chainsomnia-dice")
    for face in [w for w in ui.visible() if getattr(w, "payload", None) in ((0, 2), (1, 3))]:
        ui.tap(face)
    ui.tap_text("Confirm 2 and 3")
    ui.tap_text("End the turn")
    ui.tap_text("End the turn")
    ui.tap_text("End the turn")
    ui.wait(lambda: "Daemon" in ui.screen.steps_title, what="the Daemon's turn")
    shot("chainsomnia-daemon")
    while ui.find("Done"):
        ui.tap_text("Done")
    ui.tap_text("Creaking Doll", exact=True)
    ui.wait(lambda: ui.find("Done"), what="the Bad Dream's steps")
    ui.tap_text("Done")
    shot("chainsomnia-daemon-bad-dream")
    while ui.find("Done"):
        ui.tap_text("Done")
    shot("chainsomnia-flee")
    ui.tap_text("Flee")
    ui.tap_text("Undo")
    ui.wait(lambda: ui.screen.put_back, what="the put-back list")
    shot("chainsomnia-undo")
    ui.tap_text("Done")
    ui.tap_text("Log")
    shot("chainsomnia-log")
    ui.tap_text("Close")
    ui.screen.submit({"type": "move", "to": [5, 5]})  # as a stale tap would
    ui.settle()
    shot("chainsomnia-refusal")
    ui.screen.leave_game()

    # the camera's reading of a roll
    camera_dice(ui, shot, workdir)

    # Somnicum: a game in progress and one played to the end
    app.home()
    ui.tap_text("New Somnicum game")
    shot("somnicum-setup")
    app.go("somnicum_table", new={"players": ["Ann", "Ben", "Cleo"], "decks": "digital", "seed": 4})
    ui.settle()
    shot("somnicum-flywheels")
    gap = ui.screen.field.gap_targets[0]
    ui.tap_at(*ui.screen.field.to_window(*ui.screen.field.gap_centre(gap)))
    ui.settle()
    for steps in (3, 1, 2, 3):
        if ui.find("Move a flywheel"):
            ui.tap_text("Move a flywheel")
        ui.tap_text("Black flywheel")
        if steps == 3 and ui.screen.view["players"][0]["dream"][0]["cards"]:
            shot("somnicum-move")
        ui.tap(ui.find(f"{steps} step")[0])
        ui.settle()
        ui.tap(next(w for w in ui.find("Attach the card")))
        ui.settle()
        if ui.find("End the turn"):
            ui.tap_text("End the turn")
    shot("somnicum-table")
    ui.screen.leave_game()
    finished_somnicum(journal)
    app.home()
    ui.tap_text("History", exact=True)
    shot("history")

    # the score pad: Karl's dream from the rulebook
    scorepad(ui, shot)

    # the phones' page
    phones(ui, shot)


def camera_dice(ui: AppDriver, shot: Shots, workdir: Path) -> None:
    import dataclasses

    import cv2

    from vision.dice import read_dice
    from vision.synth import render_dice

    for seed in range(50):
        scene = render_dice(seed, "clean", "white", count=2)
        reading = read_dice(scene.image)
        if reading.values == scene.values and reading.confidence >= 0.95:
            break
    folder = workdir / "roll"
    folder.mkdir(exist_ok=True)
    cv2.imwrite(str(folder / "roll.png"), scene.image)
    app = ui.app
    original = app.settings_config
    app.settings_config = dataclasses.replace(original, camera=CameraConfig(source="folder", path=str(folder)))
    app.services.config = app.settings_config
    try:
        app.go("dice", screen="chainsomnia_table", count=2)
        ui.wait(lambda: ui.screen.values, timeout=20, what="a settled reading")
        shot("dice-camera")
        app.back()
    finally:
        if app.services.camera is not None:
            app.services.camera.stop()
            app.services.camera = None
        app.settings_config = original
        app.services.config = original


def finished_somnicum(journal: Any) -> None:
    """A whole digital game played by the rules' first legal choices, for the history."""
    from companion.table import Table

    table = Table.new(journal, "somnicum", {"players": ["Ann", "Ben"], "decks": "digital", "seed": 11})
    while not table.over:
        actions = table.legal_actions()
        moves = [a for a in actions if a["type"] == "move_flywheel"]
        choice = moves[min(2, len(moves) - 1)] if moves else actions[-1]
        table.submit(choice)
    table.close()


def scorepad(ui: AppDriver, shot: Shots) -> None:
    def card(level: int, stars: int, particles: tuple[str, ...] = (), nightmare: bool = False) -> None:
        ui.tap([w for w in ui.find("+", exact=True) if w.payload == level][0])
        ui.settle()
        ui.tap([w for w in ui.find(str(stars), exact=True) if w.payload == stars][0])
        if nightmare:
            ui.tap(ui.button("Nightmare"))
        for particle in particles:
            ui.tap([w for w in ui.find(particle, exact=True) if w.payload == particle][0])
        ui.tap_text("Save")

    app = ui.app
    app.home()
    ui.tap_text("Score pad")
    ui.tap_text("2", exact=True)
    ui.screen.name_inputs[0].text = "Karl"
    ui.screen.name_inputs[1].text = "Lena"
    shot("scorepad-players")
    ui.tap_text("Enter the dreams")
    ui.tap_text("Choose the Goal card")
    ui.tap_text("cloud, octopus, dragon")
    for level, stars, particles, nightmare in (
        (1, 2, ("cloud",), False), (1, 3, (), False), (1, 2, ("octopus",), False), (1, 1, (), True),
        (2, 2, (), False), (2, 3, ("octopus",), False), (2, 2, ("dragon",), False), (3, 3, (), False),
    ):
        card(level, stars, particles, nightmare)
    ui.tap([w for w in ui.visible() if getattr(w, "payload", None) == ("gap", 2, 1)][0])
    meetings, _points, sand = [w for w in ui.find("+", exact=True) if w.payload is None]
    ui.tap(meetings)
    for _ in range(3):
        ui.tap(sand)
    shot("scorepad-dream")
    ui.tap(ui.find("2", exact=True)[0])
    ui.settle()
    shot("scorepad-card")
    ui.tap_text("Cancel")
    ui.tap_text("Next: Lena")
    card(1, 3)
    card(1, 2)
    ui.tap_text("Score the game")
    shot("scorepad-result")


def phones(ui: AppDriver, shot: Shots) -> None:
    from companion.net.hub import MirrorHub
    from companion.net.server import MirrorServer

    app = ui.app
    app.home()
    ui.tap_text("Phones")
    shot("phones-off")
    server = MirrorServer(MirrorConfig(interfaces=["127.0.0.1"]), MirrorHub(), port=0, announce=False)
    server.start()
    try:
        app.services.mirror = server
        app.go("phones")
        ui.wait(lambda: ui.find("http://"), what="the mirror's address")
        shot("phones")
    finally:
        app.services.mirror = None
        server.stop()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ui.screenshots", description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("docs/screens"))
    parser.add_argument("--sizes", default=DEFAULT_SIZES, help=f"comma-separated WxH (default {DEFAULT_SIZES})")
    args = parser.parse_args(argv)
    try:
        sizes = [window_size(s) for s in args.sizes.split(",")]
    except argparse.ArgumentTypeError as err:
        parser.error(f"--sizes: {err}")
    try:
        display = VirtualDisplay().start()
    except XvfbMissing as err:
        print(f"screenshots: {err}", file=sys.stderr)
        return 2
    taken: list[Path] = []
    try:
        with tempfile.TemporaryDirectory(prefix="dreamtable-screens-") as tmp:
            work = Path(tmp)
            config: Config = config_from_dict({"mirror": {"enabled": False}})
            driver = AppDriver(config, database=work / "games.sqlite3", size=sizes[0], kivy_home=work / "kivy")
            driver.start()
            try:
                for size in sizes:
                    driver.resize(*size)
                    shots = Shots(driver, args.out, f"{size[0]}x{size[1]}")
                    take_all(driver, shots, work)
                    taken.extend(shots.taken)
            finally:
                driver.stop()
    finally:
        display.stop()
    for path in taken:
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

