"""Enrolled tiles whose art looks the same turned: the rotation comes from the doors, or is
unknown, never a guess."""

from __future__ import annotations

import numpy as np
import pytest

from vision.synth import tile_art
from vision.tiles import ReferenceSet, catalog_doors, enroll_tile

NORTH_AFTER = [np.array(v) for v in ([0, -1], [1, 0], [0, 1], [-1, 0])]


def _enrolled(tmp_path, tile: str, doors: tuple[str, ...]) -> tuple[np.ndarray, ReferenceSet]:
    art = tile_art(tile, doors, 240, symmetric=True)
    photo = np.full((600, 800, 3), (60, 110, 60), np.uint8)
    photo[180:420, 280:520] = art
    enroll_tile(photo, tile, tmp_path)
    return art, ReferenceSet(tmp_path, doors={tile: doors})


@pytest.mark.parametrize("quarter", [1, 2])
def test_symmetric_art_takes_its_rotation_from_lopsided_doors(tmp_path, quarter,
                                                             tile_at_an_angle):
    art, refs = _enrolled(tmp_path, "library", ("north", "east", "south"))
    seen = refs.find(tile_at_an_angle(art, quarter))
    assert [s.tile for s in seen] == ["library"]
    up = seen[0].up / np.linalg.norm(seen[0].up)
    assert seen[0].rotation_known and float(up @ NORTH_AFTER[quarter]) > 0.95


@pytest.mark.parametrize("quarter", [0, 1, 2])
def test_symmetric_art_and_symmetric_doors_leave_the_rotation_unknown(tmp_path, quarter,
                                                                     tile_at_an_angle):
    # North and south doors on art that looks the same at every turn: a half turn cannot be
    # seen, so the reader must not claim one.
    art, refs = _enrolled(tmp_path, "chapel", ("north", "south"))
    seen = refs.find(tile_at_an_angle(art, quarter))
    assert [s.tile for s in seen] == ["chapel"]
    assert not seen[0].rotation_known and seen[0].confidence <= 0.5


def test_the_door_layout_comes_from_the_tile_catalog():
    doors = catalog_doors()
    assert doors["chapel"] == ("north", "south")
    assert doors["chainsomnia"] == ("north", "east", "south", "west")
    assert ReferenceSet().doors == doors


def test_an_unreadable_catalog_gives_no_door_layouts(tmp_path):
    bad = tmp_path / "tiles.toml"
    bad.write_text("[chapel\n")
    assert catalog_doors(bad) == {}
