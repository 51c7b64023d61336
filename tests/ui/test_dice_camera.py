"""The Dice screen: the camera's reading of a real roll, confirmed by the players, becomes the
Test's dice; Isaac's choice of 2 of his 3 dice is made by tapping the dice on the picture. The
camera is the image-folder source showing a rendered roll."""

from __future__ import annotations

import dataclasses

import cv2
import pytest

from companion.config import CameraConfig
from vision.dice import read_dice
from vision.synth import render_dice


@pytest.fixture
def camera_on_a_roll(home, tmp_path):
    """``show(count)``: the app's camera becomes a folder holding one picture of ``count``
    different dice that the reader reads surely; returns the scene (its values, its dice)."""
    app = home.app
    original = app.settings_config

    def show(count):
        for seed in range(80):
            scene = render_dice(seed, "clean", "white", count=count)
            reading = read_dice(scene.image)
            if (reading.values == scene.values and reading.confidence >= 0.95
                    and len(set(scene.values)) == count):
                break
        else:
            raise AssertionError(f"no rendered roll of {count} different dice is read surely")
        cv2.imwrite(str(tmp_path / "roll.png"), scene.image)
        app.settings_config = dataclasses.replace(original, camera=CameraConfig(source="folder", path=str(tmp_path)))
        app.services.config = app.settings_config
        return scene

    yield show
    if app.services.camera is not None:
        app.services.camera.stop()
        app.services.camera = None
    app.settings_config = original
    app.services.config = original


def search_the_library(ui, characters):
    """The first character explores the Library, moves in and searches its Secret Nook."""
    options = {"players": 2, "characters": characters, "dice": "camera", "decks": "physical"}
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


def test_the_camera_reads_the_roll_and_the_players_confirm_it(home, camera_on_a_roll):
    ui = home
    values = camera_on_a_roll(2).values
    search_the_library(ui, ["ryan", "chloe", "isaac", "timi"])
    ui.wait(lambda: ui.screen.values, timeout=20, what="a settled reading")
    assert ui.screen.values == values
    assert ui.screen.ids.view.texture is not None  # the outlined picture is shown
    ui.tap_text("Confirm")
    ui.wait(lambda: ui.app.manager.current == "chainsomnia_table", what="the table again")
    ui.settle()
    first, second = values
    assert f"Ryan rolls {first}, {second}" in ui.screen.notice_line


def test_isaac_keeps_2_of_his_3_dice_by_tapping_them_on_the_picture(home, camera_on_a_roll, tmp_path):
    from kivy.core.window import Window
    from kivy.uix.button import Button

    from ui.screens.dice import DieTarget

    ui = home
    scene = camera_on_a_roll(3)
    search_the_library(ui, ["isaac", "timi", "ryan", "chloe"])
    dice_screen = ui.screen
    ui.wait(lambda: dice_screen.values, timeout=20, what="a settled reading")
    assert dice_screen.values == scene.values
    ui.tap_text("Confirm")
    ui.wait(lambda: dice_screen.keeping, what="the keep-2 choice on the picture")
    assert ui.app.manager.current == "dice"
    assert "Isaac keeps 2 of the 3 dice" in dice_screen.headline

    # each die read is a target over its own outline, a finger's size at 800x480
    targets = [w for w in ui.visible() if isinstance(w, DieTarget)]
    assert sorted(t.value for t in targets) == scene.values
    view = dice_screen.ids.view
    for target in targets:
        assert min(target.size) >= 48
        points = target.die_points
        centre = (sum(points[0::2]) / 4, sum(points[1::2]) / 4)
        assert target.collide_point(*centre)
        assert view.collide_point(*centre)
    keep = ui.find("Choose 2 dice", kind=Button)
    assert len(keep) == 1 and keep[0].disabled  # nothing to send before 2 dice are chosen
    assert not ui.find("Roll again")  # the roll is sent: only Keep is offered

    lowest, middle, highest = sorted(targets, key=lambda t: t.value)
    ui.tap_at(*lowest.to_window(*lowest.center))
    assert keep[0].disabled and "tap a second die" in dice_screen.detail
    for target in (middle, highest):  # the third tap swaps out the first
        ui.tap_at(*target.to_window(*target.center))
    assert [t.chosen for t in (lowest, middle, highest)] == [False, True, True]
    ui.screenshot(tmp_path / "isaac-keeps.png")
    ui.tap_text(f"Keep {middle.value} and {highest.value}")
    ui.wait(lambda: ui.app.manager.current == "chainsomnia_table", what="the table again")
    ui.settle()
    assert (ui.screen.view.get("pending") or {}).get("kind") != "keep_dice"
    entries = [e for e in ui.screen.session.table.log() if not e["undone"]]
    rolled, kept = entries[-2:]
    assert rolled["action"]["values"] == scene.values and rolled["source"] == "touch"
    assert kept["action"] == {"type": "keep_dice", "values": [middle.value, highest.value]}
    assert f"{middle.value}+{highest.value}+" in ui.screen.notice_line  # the Test adds the kept pair
    assert tuple(Window.size) == (800, 480)
