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
