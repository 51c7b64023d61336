"""Room tiles: stickers, cells and rotations relative to the start tile, the marker map, the
sticker sheet, and enrolment of a tile without a sticker."""

from __future__ import annotations

import numpy as np
import pytest

from vision.synth import render_castle, tile_art
from vision.tiles import (
    REF_SIDE,
    ReferenceSet,
    TileError,
    enroll_tile,
    load_marker_map,
    marker_sheet,
    read_tiles,
)


@pytest.mark.parametrize("seed", [0, 1])
def test_castle_of_twenty_tiles_read_by_sticker(seed):
    scene = render_castle(seed, count=20)
    reading = read_tiles(scene.image)
    truth = {t.tile: (t.cell, t.rotation) for t in scene.tiles}
    got = {t.tile: (t.cell, t.rotation) for t in reading.tiles}
    assert got == truth
    assert all(t.source == "sticker" and t.confidence > 0.8 for t in reading.tiles)


def test_without_the_start_tile_cells_and_rotations_are_unknown():
    scene = render_castle(2, count=6)
    start = next(t for t in scene.tiles if t.tile == "chainsomnia")
    assert start.cell == (0, 0)
    # Paint over the start tile's sticker: the castle has no origin any more.
    reading = read_tiles(scene.image)
    corners = next(t.corners for t in reading.tiles if t.tile == "chainsomnia")
    image = scene.image.copy()
    xs = [int(x) for x, _ in corners]
    ys = [int(y) for _, y in corners]
    image[min(ys) : max(ys), min(xs) : max(xs)] = 128
    blind = read_tiles(image)
    assert "chainsomnia" not in {t.tile for t in blind.tiles}
    assert blind.tiles and all(t.cell is None and t.rotation is None for t in blind.tiles)


def test_marker_map_ships_every_catalog_tile_once():
    marker_map = load_marker_map()
    assert marker_map.tiles[0] == "chainsomnia"
    assert len(set(marker_map.tiles.values())) == len(marker_map.tiles) == 22


def test_bad_marker_map_names_file_and_entry(tmp_path):
    path = tmp_path / "markers.toml"
    path.write_text('dictionary = "DICT_4X4_50"\n[markers]\n0 = "library"\n1 = "library"\n')
    with pytest.raises(TileError, match=r"markers.toml: \[markers\] 1: tile 'library'"):
        load_marker_map(path)
    path.write_text('dictionary = "DICT_9X9"\n')
    with pytest.raises(TileError, match="dictionary: unknown ArUco dictionary"):
        load_marker_map(path)


def test_sticker_sheet_holds_readable_stickers():
    import cv2

    sheet = marker_sheet()
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    corners, ids, _ = cv2.aruco.ArucoDetector(dictionary).detectMarkers(sheet)
    assert sorted(ids.ravel().tolist()) == list(range(22))


@pytest.mark.parametrize("quarter", [0, 1, 2, 3])
def test_enrolled_tile_is_found_with_its_place_and_rotation(tmp_path, quarter, tile_at_an_angle):
    import cv2

    tile = tile_art("library", ("north", "east", "south"), 240)
    photo = np.full((600, 800, 3), (60, 110, 60), np.uint8)
    photo[180:420, 280:520] = tile
    path = enroll_tile(photo, "library", tmp_path)
    assert path.name == "library.png" and cv2.imread(str(path)).shape == (REF_SIDE, REF_SIDE, 3)
    refs = ReferenceSet(tmp_path)
    # The same tile turned `quarter` times clockwise, seen a little smaller and at an angle.
    seen = refs.find(tile_at_an_angle(tile, quarter))
    assert [s.tile for s in seen] == ["library"]
    assert abs(seen[0].centre[0] - 595) < 10 and abs(seen[0].centre[1] - 310) < 10
    north = np.array([[0, -1], [1, 0], [0, 1], [-1, 0]][quarter])
    up = seen[0].up / np.linalg.norm(seen[0].up)
    assert seen[0].rotation_known and float(up @ north) > 0.95


def test_enrolment_refuses_a_picture_without_a_tile():
    with pytest.raises(TileError, match="no tile outline"):
        enroll_tile(np.full((480, 640, 3), 90, np.uint8), "library", "/nonexistent")
