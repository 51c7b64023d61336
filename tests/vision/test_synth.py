"""The synthetic dice pictures: deterministic, every condition and style, and ground truth (values
and top-face boxes) that agrees with what the picture shows."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.synth import DICE_CONDITIONS, DICE_STYLES, DiceScene, render_dice


def _dark_spots(image: np.ndarray) -> list[tuple[float, float, float]]:
    """Round spots much darker than their surroundings (pips on a light face, not the dark strip
    of a shaded edge): (area, x, y), largest first."""
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY).astype(np.float32)
    around = cv2.blur(gray, (21, 21))
    dark = (gray < around - 60).astype(np.uint8)
    n, _, stats, centroids = cv2.connectedComponentsWithStats(dark)
    spots = []
    for i in range(1, n):
        w, h = stats[i, cv2.CC_STAT_WIDTH], stats[i, cv2.CC_STAT_HEIGHT]
        area = stats[i, cv2.CC_STAT_AREA]
        if max(w, h) <= 1.6 * min(w, h) and area >= 0.5 * w * h:
            spots.append((float(area), *map(float, centroids[i])))
    return sorted(spots, reverse=True)


def test_the_same_seed_gives_the_same_picture_and_truth():
    for condition in DICE_CONDITIONS:
        a, b = render_dice(7, condition), render_dice(7, condition)
        assert np.array_equal(a.image, b.image)
        assert (a.values, a.boxes, a.style) == (b.values, b.boxes, b.style)
    assert not np.array_equal(render_dice(7, "clean").image, render_dice(8, "clean").image)


@pytest.mark.parametrize("condition", DICE_CONDITIONS)
def test_every_condition_renders_every_style(condition):
    for style in DICE_STYLES:
        scene = render_dice(3, condition, style)
        assert scene.image.shape == (480, 640, 3) and scene.image.dtype == np.uint8
        assert (scene.condition, scene.style) == (condition, style)
        assert len(scene.boxes) == len(scene.values)
        assert scene.values == sorted(scene.values)
        assert all(1 <= v <= 6 for v in scene.values)


def test_the_style_is_drawn_from_the_seed_when_not_given():
    styles = {render_dice(seed, "clean").style for seed in range(12)}
    assert styles == set(DICE_STYLES)


def test_values_match_the_count_asked_for_or_the_condition():
    for count in (1, 2, 3, 6, 8):
        assert len(render_dice(5, "clean", count=count).values) == count
    counts = {len(render_dice(seed, "many").values) for seed in range(12)}
    assert counts <= {6, 7, 8} and len(counts) > 1
    counts = {len(render_dice(seed, "clean").values) for seed in range(24)}
    assert counts <= set(range(1, 7)) and len(counts) >= 4


def _boxes_inside(scene: DiceScene, w: int, h: int) -> None:
    for x1, y1, x2, y2 in scene.boxes:
        assert 0 <= x1 < x2 < w and 0 <= y1 < y2 < h


def test_every_top_face_lies_in_the_frame_at_a_webcam_size():
    for condition in DICE_CONDITIONS:
        for seed in range(6):
            scene = render_dice(seed, condition)
            _boxes_inside(scene, 640, 480)
            # A webcam on a stand shows a die 25 to 100 px across; "close" one up to half the
            # frame's height (a camera a hand's breadth over the tray).
            low, high = (80, 240) if condition == "close" else (25, 100)
            for x1, y1, x2, y2 in scene.boxes:
                assert low <= max(x2 - x1, y2 - y1) <= high, (condition, seed)
    small = render_dice(2, "many", size=(320, 240))
    assert small.image.shape == (240, 320, 3)
    _boxes_inside(small, 320, 240)


def test_the_box_is_around_the_top_face_pips():
    """With one white die, the largest dark spots are the top face's pips (a side face's pips are
    squashed smaller): there are as many as the value, inside the box, centred in it."""
    for seed in range(12):
        scene = render_dice(seed, "clean", "white", count=1)
        (value,), ((x1, y1, x2, y2),) = scene.values, scene.boxes
        spots = _dark_spots(scene.image)
        pips = [s for s in spots if s[0] >= 0.5 * spots[0][0]]
        assert len(pips) == value, (seed, value, spots[:8])
        for _, x, y in pips:
            assert x1 < x < x2 and y1 < y < y2, (seed, (x, y), scene.boxes)
        if value > 1:  # every layout is symmetric about the face's centre
            cx, cy = np.mean([p[1:] for p in pips], axis=0)
            assert abs(cx - (x1 + x2) / 2) < 0.12 * (x2 - x1), seed
            assert abs(cy - (y1 + y2) / 2) < 0.12 * (y2 - y1), seed


def _apart(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> int:
    """Pixels between two boxes (0 when they touch or overlap)."""
    return max(a[0] - b[2], b[0] - a[2], a[1] - b[3], b[1] - a[3], 0)


def test_touching_dice_touch_and_the_others_keep_apart():
    for seed in range(8):
        touching = render_dice(seed, "touching", count=3)
        for i, box in enumerate(touching.boxes):
            assert min(_apart(box, other) for j, other in enumerate(touching.boxes) if j != i) == 0
        for condition in ("clean", "many"):
            apart = render_dice(seed, condition)
            for i, box in enumerate(apart.boxes):
                assert all(_apart(box, other) > 0 for other in apart.boxes[i + 1:]), (
                    condition, seed)


def test_an_unknown_condition_or_style_is_refused():
    with pytest.raises(ValueError, match="unknown condition 'foggy'.*clean"):
        render_dice(1, "foggy")
    with pytest.raises(ValueError, match="unknown dice style 'glass'.*white"):
        render_dice(1, "clean", "glass")


def test_the_dice_are_standard_right_handed_dice():
    """Opposite faces sum to 7, and 1, 2, 3 run counter-clockwise round their corner."""
    from vision.synth import _FACES

    normals = {value: np.array(normal) for value, (normal, _) in _FACES.items()}
    for value, normal in normals.items():
        assert np.array_equal(normals[7 - value], -normal)
        assert np.array(_FACES[value][1]) @ normal == 0
    assert np.linalg.det(np.array([normals[1], normals[2], normals[3]])) > 0


def test_camera_shifts_keep_the_frame_and_are_repeatable():
    from vision.synth import CAMERA_SHIFTS

    photo = cv2.imread("tests/data/dice/dice_11.jpg")
    for name, shift in CAMERA_SHIFTS.items():
        shifted = shift(photo, 7)
        want = photo.shape if name != "quarter turn" else (photo.shape[1], photo.shape[0], 3)
        assert shifted.shape == want and shifted.dtype == np.uint8, name
        assert np.array_equal(shifted, shift(photo, 7)), f"{name} is not repeatable"
        if shifted.shape == photo.shape:
            assert np.abs(shifted.astype(int) - photo).mean() > 0.3, f"{name} changes nothing"


def test_camera_shifts_change_light_and_colour_the_way_they_say():
    from vision.synth import CAMERA_SHIFTS

    photo = cv2.imread("tests/data/dice/dice_11.jpg")
    mean = np.array(cv2.mean(photo)[:3])
    warm = np.array(cv2.mean(CAMERA_SHIFTS["warm light"](photo, 0))[:3])
    assert warm[0] < 0.75 * mean[0] and warm[2] > mean[2]  # less blue, more red
    assert cv2.mean(CAMERA_SHIFTS["dim room"](photo, 0))[1] < 0.7 * mean[1]
    over = cv2.cvtColor(CAMERA_SHIFTS["over-exposed"](photo, 0), cv2.COLOR_BGR2GRAY)
    assert (over == 255).mean() > (cv2.cvtColor(photo, cv2.COLOR_BGR2GRAY) == 255).mean()
    mirrored = CAMERA_SHIFTS["mirrored"](photo, 0)
    assert np.array_equal(mirrored[:, 0], photo[:, -1])
    sharpness = cv2.Laplacian(cv2.cvtColor(photo, cv2.COLOR_BGR2GRAY), cv2.CV_32F).var()
    for name in ("soft focus", "half resolution"):
        soft = cv2.cvtColor(CAMERA_SHIFTS[name](photo, 0), cv2.COLOR_BGR2GRAY)
        assert cv2.Laplacian(soft, cv2.CV_32F).var() < 0.6 * sharpness, name
