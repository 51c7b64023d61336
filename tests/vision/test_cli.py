"""``companion vision``: the JSON lines of dice and tiles, overlays, errors, the sticker sheet."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np

from companion.cli import main
from vision.synth import render_castle

DATA = Path(__file__).parent.parent / "data" / "dice"


def test_dice_prints_one_line_per_image_and_keeps_going_after_a_bad_file(tmp_path, capsys):
    bad = tmp_path / "broken.jpg"
    bad.write_bytes(b"not a picture")
    good = str(DATA / "two_14.jpg")
    status = main(["vision", "dice", good, str(bad), str(tmp_path / "missing.png"), good,
                   "--overlay", str(tmp_path / "over")])
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert status == 1
    assert [line["image"] for line in lines] == [good, str(bad), str(tmp_path / "missing.png"),
                                                  good]
    first = lines[0]
    assert set(first) == {"image", "dice", "boxes", "confidence", "ms"}
    assert first["dice"] == [2, 2] and len(first["boxes"]) == 2
    assert all(len(b) == 4 and b[0] < b[2] and b[1] < b[3] for b in first["boxes"])
    assert 0.0 <= first["confidence"] <= 1.0 and first["ms"] > 0
    assert "not an image" in lines[1]["error"] and "no such file" in lines[2]["error"]
    overlay = cv2.imread(str(tmp_path / "over" / "two_14.png"))
    assert overlay is not None and overlay.shape == (480, 640, 3)


def test_dice_exit_status_is_zero_when_every_file_reads(capsys):
    assert main(["vision", "dice", str(DATA / "five_7.jpg")]) == 0
    line = json.loads(capsys.readouterr().out)
    assert line["dice"] == sorted(line["dice"])


def test_tiles_prints_each_tile_with_cell_and_rotation(tmp_path, capsys):
    scene = render_castle(4, count=8)
    path = tmp_path / "castle.png"
    cv2.imwrite(str(path), scene.image)
    assert main(["vision", "tiles", str(path)]) == 0
    out = json.loads(capsys.readouterr().out)
    got = {t["id"]: (tuple(t["cell"]), t["rotation"]) for t in out["tiles"]}
    assert got == {t.tile: (t.cell, t.rotation) for t in scene.tiles}
    assert all(set(t) == {"id", "cell", "rotation", "confidence", "source"} for t in out["tiles"])


def test_markers_writes_png_and_pdf_sheets(tmp_path, capsys):
    assert main(["vision", "markers", str(tmp_path / "sheet.png")]) == 0
    assert cv2.imread(str(tmp_path / "sheet.png")) is not None
    assert main(["vision", "markers", str(tmp_path / "sheet.pdf")]) == 0
    pdf = (tmp_path / "sheet.pdf").read_bytes()
    assert pdf.startswith(b"%PDF-1.4") and pdf.rstrip().endswith(b"%%EOF")
    assert main(["vision", "markers", str(tmp_path / "sheet.doc")]) == 2
    assert "give a .png or .pdf" in capsys.readouterr().err


def test_enroll_from_an_image_file(tmp_path, capsys):
    from vision.synth import tile_art

    import numpy as np

    photo = np.full((600, 800, 3), (60, 110, 60), np.uint8)
    photo[180:420, 280:520] = tile_art("kitchen", ("north",), 240)
    path = tmp_path / "kitchen.jpg"
    cv2.imwrite(str(path), photo)
    refs = tmp_path / "refs"
    assert main(["vision", "enroll", "--tile", "kitchen", "--image", str(path),
                 "--refs", str(refs)]) == 0
    assert json.loads(capsys.readouterr().out) == {"tile": "kitchen",
                                                   "saved": str(refs / "kitchen.png")}


def test_a_large_die_at_the_frames_top_edge_has_its_value_drawn_whole():
    from vision.dice import DiceReading, Die, draw_dice

    frame = np.full((480, 640, 3), 128, np.uint8)
    die = Die(6, (100, 0, 400, 300), ((100, 0), (400, 0), (400, 300), (100, 300)), 0.99, ())
    out = draw_dice(frame, DiceReading((die,), 0.99))
    yellow = np.argwhere((out == (0, 255, 255)).all(axis=2))
    assert len(yellow) > 50
    top, left = yellow.min(axis=0)
    assert top > 0, "the value runs off the frame's top edge"
    assert 100 <= left < 400  # inside the die's box
