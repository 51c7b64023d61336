"""Room tile stickers: read at every size a castle shows them, only the map's own stickers, and
sticker ids checked against the dictionary."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.synth import render_castle
from vision.tiles import MarkerMap, TileError, load_marker_map, read_tiles


def _truth(scene):
    return {t.tile: (t.cell, t.rotation) for t in scene.tiles}


@pytest.mark.parametrize("count", [4, 12])
def test_small_castles_show_large_stickers_and_are_read(count):
    # Fewer tiles fill the frame with larger tiles (stickers up to ~100 px at 4 tiles).
    scene = render_castle(30 + count, count=count)
    reading = read_tiles(scene.image)
    assert {t.tile: (t.cell, t.rotation) for t in reading.tiles} == _truth(scene)


def test_a_sticker_of_the_family_that_marks_no_tile_is_ignored():
    scene = render_castle(5, count=8)
    image = scene.image.copy()
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    stray = cv2.aruco.generateImageMarker(dictionary, 37, 48)
    patch = np.full((72, 72), 255, np.uint8)
    patch[12:60, 12:60] = stray
    image[20:92, 20:92] = cv2.cvtColor(patch, cv2.COLOR_GRAY2BGR)
    # The whole family sees sticker 37 there; the reader does not report it as any tile.
    _, ids, _ = cv2.aruco.ArucoDetector(dictionary).detectMarkers(image)
    assert 37 in ids.ravel().tolist()
    reading = read_tiles(image)
    assert {t.tile: (t.cell, t.rotation) for t in reading.tiles} == _truth(scene)


def test_sticker_ids_need_not_be_contiguous():
    shipped = load_marker_map()
    tiles = {7 + 2 * k: tile for k, tile in enumerate(shipped.tiles.values()) if k < 12}
    marker_map = MarkerMap(shipped.dictionary, shipped.sticker_fraction, tiles)
    scene = render_castle(9, count=10, marker_ids={tile: mid for mid, tile in tiles.items()})
    reading = read_tiles(scene.image, marker_map=marker_map)
    assert {t.tile: (t.cell, t.rotation) for t in reading.tiles} == _truth(scene)
    # The shipped map reads those stickers as other tiles, or not at all: ids are what count.
    assert {t.tile for t in read_tiles(scene.image).tiles} != set(_truth(scene))


def test_a_sticker_id_outside_the_dictionary_is_refused(tmp_path):
    path = tmp_path / "markers.toml"
    path.write_text('dictionary = "DICT_4X4_50"\n[markers]\n0 = "chainsomnia"\n50 = "library"\n')
    with pytest.raises(TileError, match=r"\[markers\] 50: DICT_4X4_50 has sticker ids 0 to 49"):
        load_marker_map(path)
