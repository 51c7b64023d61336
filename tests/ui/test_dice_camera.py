"""The Dice screen: the camera's reading of a real roll, confirmed by the players, becomes the
Test's dice. The camera is the image-folder source showing a rendered roll."""

from __future__ import annotations

import dataclasses

import cv2
import pytest

from companion.config import CameraConfig
from vision.dice import read_dice
from vision.synth import render_dice


@pytest.fixture
def camera_on_a_roll(home, tmp_path):
    """The app's camera is a folder holding one picture of two dice the reader reads surely."""
    for seed in range(50):
        scene = render_dice(seed, "clean", "white", count=2)
        reading = read_dice(scene.image)
        if reading.values == scene.values and reading.confidence >= 0.95 and len(set(scene.values)) == 2:
            break
    cv2.imwrite(str(tmp_path / "roll.png"), scene.image)
    app = home.app
    original = app.settings_config
    app.settings_config = dataclasses.replace(original, camera=CameraConfig(source="folder", path=str(tmp_path)))
    app.services.config = app.settings_config
    yield scene.values
    if app.services.camera is not None:
        app.services.camera.stop()
        app.services.camera = None
    app.settings_config = original
    app.services.config = original


def test_the_camera_reads_the_roll_and_the_players_confirm_it(home, camera_on_a_roll):
    ui = home
    options = {"players": 2, "characters": ["ryan", "chloe", "isaac", "timi"], "dice": "camera",
               "decks": "physical"}
    ui.app.go("chainsomnia_table", new=options, guide=False)
    ui.settle()
    ui.tap_text("Explore a new Room")
    ui.tap_text("Library", exact=True)
    castle = ui.screen.castle_map
    ui.tap_at(*castle.to_window(*castle.cell_centre((0, 1))))
    ui.settle()
    ui.tap(ui.find("Doors north, east, south")[0])
    ui.settle()
    ui.tap_text("Lullaby", exact=True)
    while ui.find("Done"):
        ui.tap_text("Done")
    ui.tap_at(*castle.to_window(*castle.cell_centre((0, 1))))
    ui.settle()
    ui.tap_text("Search a Secret Nook")
    ui.tap_text("Read the dice with the camera")
    assert ui.app.manager.current == "dice"
    ui.wait(lambda: ui.screen.values, timeout=20, what="a settled reading")
    assert ui.screen.values == camera_on_a_roll
    assert ui.screen.ids.view.texture is not None  # the outlined picture is shown
    ui.tap_text("Confirm")
    assert ui.app.manager.current == "chainsomnia_table"
    ui.settle()
    first, second = camera_on_a_roll
    assert f"Ryan rolls {first}, {second}" in ui.screen.notice_line
