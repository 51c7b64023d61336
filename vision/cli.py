"""``companion vision``: read dice and room tiles from image files, print stickers, enrol tiles.

Each command prints JSON (one line per image for ``dice``); this output is a contract documented
in the README. Errors about a file go into that file's line, so a batch never stops half-way.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any


def register(subparsers: Any) -> None:
    vision = subparsers.add_parser("vision", help="read dice and room tiles from camera images")
    vision.set_defaults(func=lambda args: _print_help(vision))
    sub = vision.add_subparsers(dest="vision_command", metavar="COMMAND")

    dice = sub.add_parser("dice", help="read the dice in image files (one JSON line each)")
    dice.add_argument("images", nargs="+", metavar="IMAGE")
    dice.add_argument("--overlay", metavar="DIR",
                      help="also write each image with the dice outlined and valued into DIR")
    dice.set_defaults(func=run_dice)

    tiles = sub.add_parser("tiles", help="read the room tiles in an image (JSON)")
    tiles.add_argument("image", metavar="IMAGE")
    tiles.add_argument("--refs", metavar="DIR",
                       help="enrolled tile pictures (default: the enrolment folder, if any)")
    tiles.set_defaults(func=run_tiles)

    markers = sub.add_parser("markers", help="write the printable sheet of tile stickers")
    markers.add_argument("out", metavar="OUT", help="a .png or .pdf file")
    markers.set_defaults(func=run_markers)

    enroll = sub.add_parser("enroll", help="photograph each room tile once, for tiles "
                            "without stickers")
    enroll.add_argument("--tile", metavar="ID", action="append",
                        help="the tile to enrol (repeatable; default: every tile of the catalog)")
    enroll.add_argument("--image", metavar="FILE", action="append",
                        help="use this photo instead of the camera (one per --tile, in order)")
    enroll.add_argument("--refs", metavar="DIR", help="where to keep the pictures "
                        "(default: $XDG_DATA_HOME/dreamtable/tiles)")
    enroll.set_defaults(func=run_enroll)


def _print_help(parser: argparse.ArgumentParser) -> int:
    parser.print_help()
    return 0


def _emit(line: dict[str, Any]) -> None:
    print(json.dumps(line), flush=True)


def _load(path: str) -> Any:
    """The image at path as a BGR array, or a sentence saying why it cannot be read."""
    import cv2
    import numpy as np

    p = Path(path)
    if not p.is_file():
        return "no such file"
    try:
        data = np.fromfile(str(p), dtype=np.uint8)
    except OSError as err:
        return f"cannot be read: {err.strerror or err}"
    img = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None
    if img is None:
        return "not an image OpenCV can decode"
    return img


def run_dice(args: argparse.Namespace) -> int:
    import cv2

    from vision.dice import draw_dice, read_dice

    overlay = Path(args.overlay) if args.overlay else None
    if overlay is not None:
        try:
            overlay.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            print(f"companion vision dice: --overlay {overlay}: {err.strerror or err}",
                  file=sys.stderr)
            return 2
    failed = False
    for path in args.images:
        img = _load(path)
        if isinstance(img, str):
            _emit({"image": path, "error": f"{path}: {img}"})
            failed = True
            continue
        reading = read_dice(img)
        _emit({
            "image": path,
            "dice": reading.values,
            "boxes": reading.boxes,
            "confidence": reading.confidence,
            "ms": round(reading.ms, 1),
        })
        if overlay is not None:
            target = overlay / (Path(path).stem + ".png")
            if not cv2.imwrite(str(target), draw_dice(img, reading)):
                print(f"companion vision dice: cannot write {target}", file=sys.stderr)
    return 1 if failed else 0


def default_refs_dir() -> Path:
    from companion.config import xdg_data_home

    return xdg_data_home() / "dreamtable" / "tiles"


def run_tiles(args: argparse.Namespace) -> int:
    from vision.tiles import ReferenceSet, TileError, read_tiles

    img = _load(args.image)
    if isinstance(img, str):
        _emit({"image": args.image, "error": f"{args.image}: {img}"})
        return 1
    refs = None
    folder = Path(args.refs) if args.refs else default_refs_dir()
    try:
        if args.refs or folder.is_dir():
            refs = ReferenceSet(folder)
    except TileError as err:
        print(f"companion vision tiles: --refs: {err}", file=sys.stderr)
        return 2
    reading = read_tiles(img, refs)
    _emit({"image": args.image, "tiles": [t.as_json() for t in reading.tiles],
           "ms": round(reading.ms, 1)})
    return 0


def run_markers(args: argparse.Namespace) -> int:
    import cv2

    from vision.tiles import marker_sheet

    out = Path(args.out)
    sheet = marker_sheet()
    suffix = out.suffix.lower()
    try:
        if suffix == ".pdf":
            out.write_bytes(_pdf_of(sheet))
        elif suffix in (".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff"):
            if not cv2.imwrite(str(out), sheet):
                raise OSError("OpenCV could not write it")
        else:
            print(f"companion vision markers: {out}: give a .png or .pdf file name",
                  file=sys.stderr)
            return 2
    except OSError as err:
        print(f"companion vision markers: {out}: {getattr(err, 'strerror', None) or err}",
              file=sys.stderr)
        return 2
    _emit({"sheet": str(out), "width": int(sheet.shape[1]), "height": int(sheet.shape[0])})
    return 0


def _pdf_of(sheet: Any) -> bytes:
    """A one-page PDF holding the grey sheet as an image, printed at 300 dpi."""
    import zlib

    h, w = sheet.shape
    data = zlib.compress(sheet.tobytes())
    pw, ph = w * 72 / 300, h * 72 / 300
    content = f"q {pw:.2f} 0 0 {ph:.2f} 0 0 cm /Im0 Do Q".encode()
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {pw:.2f} {ph:.2f}] "
        f"/Resources << /XObject << /Im0 4 0 R >> >> /Contents 5 0 R >>".encode(),
        f"<< /Type /XObject /Subtype /Image /Width {w} /Height {h} /ColorSpace /DeviceGray "
        f"/BitsPerComponent 8 /Filter /FlateDecode /Length {len(data)} >>\nstream\n".encode()
        + data + b"\nendstream",
        f"<< /Length {len(content)} >>\nstream\n".encode() + content + b"\nendstream",
    ]
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for i, obj in enumerate(objects, 1):
        offsets.append(len(out))
        out += f"{i} 0 obj\n".encode() + obj + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    for off in offsets:
        out += f"{off:010d} 00000 n \n".encode()
    out += f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    return bytes(out)


def run_enroll(args: argparse.Namespace) -> int:
    from vision.tiles import TileError, enroll_tile, load_marker_map

    folder = Path(args.refs) if args.refs else default_refs_dir()
    tiles = args.tile or list(load_marker_map().tiles.values())
    images = args.image or []
    if images and len(images) != len(tiles):
        print("companion vision enroll: give one --image per --tile", file=sys.stderr)
        return 2
    camera = None
    if not images:
        from hardware.camera import make_camera

        camera = make_camera(args.config_obj.camera)
        if camera is None:
            print("companion vision enroll: no camera configured ([camera] source); "
                  "give --image files instead", file=sys.stderr)
            return 2
        camera.start()
    failed = False
    try:
        for k, tile in enumerate(tiles):
            if images:
                frame = _load(images[k])
                if isinstance(frame, str):
                    _emit({"tile": tile, "error": f"{images[k]}: {frame}"})
                    failed = True
                    continue
            else:
                input(f"Lay the tile '{tile}' alone, name upright, and press Enter... ")
                frame = camera.still() if camera else None
                if frame is None:
                    _emit({"tile": tile, "error": "the camera gave no picture"})
                    failed = True
                    continue
            try:
                path = enroll_tile(frame, tile, folder)
            except TileError as err:
                _emit({"tile": tile, "error": str(err)})
                failed = True
                continue
            _emit({"tile": tile, "saved": str(path)})
    finally:
        if camera is not None:
            camera.stop()
    return 1 if failed else 0
