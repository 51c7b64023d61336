"""Shared pictures for the tile and dice tests."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np
import pytest

import vision.dice as dice


def _tile_at_an_angle(art: np.ndarray, quarter: int) -> np.ndarray:
    """A 240 px tile picture turned ``quarter`` times clockwise, seen a little smaller and at an
    angle on a plain 1280x720 table, in grey."""
    turned = np.ascontiguousarray(np.rot90(art, -quarter))
    frame = np.full((720, 1280, 3), (90, 80, 70), np.uint8)
    src = np.float32([[0, 0], [240, 0], [240, 240], [0, 240]])
    dst = np.float32([[500, 200], [700, 220], [690, 420], [490, 400]])
    h = cv2.getPerspectiveTransform(src, dst)
    warped = cv2.warpPerspective(turned, h, (1280, 720))
    mask = cv2.warpPerspective(np.full((240, 240), 255, np.uint8), h, (1280, 720)) > 0
    frame[mask] = warped[mask]
    return cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)


@pytest.fixture
def tile_at_an_angle() -> Callable[[np.ndarray, int], np.ndarray]:
    return _tile_at_an_angle


CAMERAS = Path(__file__).resolve().parents[1] / "data" / "dice-cameras"


def _camera_photo(name: str) -> tuple[np.ndarray, list[int]]:
    want = json.loads((CAMERAS / "labels.json").read_text())[name]
    return cv2.imread(str(CAMERAS / name)), want


@pytest.fixture
def camera_photo() -> Callable[[str], tuple[np.ndarray, list[int]]]:
    """A photo of tests/data/dice-cameras by name, and its label (the sorted values)."""
    return _camera_photo


def _drawn_pips(img: np.ndarray):
    """A drawn face's dark pips as _read_at finds and describes them, linked (not lone), and
    the smoothed frame and contrast they were measured on: (pips, smooth, con)."""
    gray = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    bright, dim = dice._levels(img, gray)
    con = dice._contrast(dim, bright, dice.KERNEL)
    pips = [p for p in dice._find_pips(con, dice.KERNEL, 1.0, dice.MIN_PIP_AREA, bridged=True)
            if p.dark]
    smooth = cv2.blur(img, (3, 3))
    dice._describe_faces(pips, smooth, con)
    con.found = pips
    for p in pips:
        p.unlinked = False
    return pips, smooth, con


@pytest.fixture
def drawn_pips():
    return _drawn_pips


@pytest.fixture
def reads_right(monkeypatch):
    """reads_right(condition, seed, without=None): whether read_dice reads a synthetic frame's
    values exactly; ``without`` is (name, answer): that vision.dice function made to answer
    ``answer`` whatever it is asked (the reader as it was before the function came in)."""
    from vision.synth import render_dice

    def reads(condition: str, seed: int, without: tuple[str, object] | None = None) -> bool:
        scene = render_dice(seed, condition)
        with monkeypatch.context() as patch:
            if without is not None:
                name, answer = without
                patch.setattr(dice, name, lambda *args, **kwargs: answer)
            return dice.read_dice(scene.image).values == scene.values

    return reads


@pytest.fixture
def caught(monkeypatch):
    """caught(name, condition, seed): the calls of vision.dice's function ``name`` that
    answered other than None or False while _read_at read that synthetic frame at WORK_SIDE,
    each as (arguments, answer)."""
    from vision.synth import render_dice

    def catch(name: str, condition: str, seed: int) -> list[tuple[tuple, object]]:
        calls = []
        asked = getattr(dice, name)

        def spy(*args):
            answer = asked(*args)
            if answer is not None and answer is not False:
                calls.append((args, answer))
            return answer

        with monkeypatch.context() as patch:
            patch.setattr(dice, name, spy)
            dice._read_at(render_dice(seed, condition).image, dice.WORK_SIDE)
        return calls

    return catch
