"""A reading is called sure only when nothing in view says it is wrong, and a second look
does not take a die apart that the first read whole. Light falling off across the tray (a
cheap lens's vignette, a soft shadow) dims a missed 1's face but keeps its colour balance; a
lone pip on a read 1's own face makes it a 2 or more; a tiny pip clear of every die's side
faces is as round as the pixel grid lets it be; a face read alone off the table's plane,
squashed and lit less than a top face beside it, is a side face whose top went unread
(vision.dice: _unread_one, _clear_of_sides, _pip_on_a_one, _came_apart, _lone_side_face)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.dice import SURE_READING, read_dice
from vision.synth import render_dice, shadow_band, vignette


def _warm(image: np.ndarray) -> np.ndarray:
    """A warm lamp: blue down a quarter, red up a fifth."""
    return cv2.transform(image, np.diag(np.float32([0.75, 0.95, 1.2])))


def _farther(image: np.ndarray, zoom: float) -> np.ndarray:
    """The table seen from farther off: the photo shrunk in the middle of the frame."""
    h, w = image.shape[:2]
    small = cv2.resize(image, (int(w * zoom), int(h * zoom)), interpolation=cv2.INTER_AREA)
    top, left = (h - small.shape[0]) // 2, (w - small.shape[1]) // 2
    return cv2.copyMakeBorder(small, top, h - small.shape[0] - top, left,
                              w - small.shape[1] - left, cv2.BORDER_REPLICATE)


@pytest.mark.parametrize("name, shift", [("dice_26.jpg", vignette),
                                         ("dice_18.jpg", shadow_band)])
def test_a_one_missed_where_the_light_falls_off_leaves_the_reading_unsure(camera_photo, name, shift):
    # The missed 1's face is 0.72..0.74 as bright as the read 1s' faces, with their balance.
    photo, want = camera_photo(name)
    assert set(want) == {1}
    reading = read_dice(shift(photo))
    if reading.values != want:
        assert reading.confidence < SURE_READING
    # Unshifted, the same photo is read in full.
    assert read_dice(photo).values == want


def test_a_two_read_as_a_one_beside_its_second_pip_is_unsure(camera_photo):
    # Far off, a 2's pips are 1.4 pixels and did not link: the 1 read on one of them has the
    # other, its twin, on its own face.
    photo, want = camera_photo("two_44.jpg")
    reading = read_dice(_farther(photo, 0.45))
    if reading.values != want:
        assert reading.confidence < SURE_READING


def test_a_far_one_whose_pip_is_a_few_pixels_is_read(camera_photo):
    photo, want = camera_photo("dice_49.jpg")
    reading = read_dice(_farther(photo, 0.6))
    assert reading.values == want == [1, 1, 1, 1, 1]


def test_an_enlarged_look_does_not_take_apart_a_six_the_first_read_surely(camera_photo):
    # Under a warm lamp the first look is unsure (a mark the frame's edge cuts) but reads three
    # sure 6s; enlarged, one 6's middle pips were lost and it read a 4.
    photo, want = camera_photo("six_22.jpg")
    assert read_dice(_warm(photo)).values == want == [6, 6, 6]


def test_a_side_face_read_alone_off_the_table_plane_leaves_the_reading_unsure():
    # A 1 by the frame's top edge went unread and its front side face was read as a 3: 0.58
    # off the 5's plane, 0.54 round to the 5's 0.85, its pips 0.57 as bright. Top faces share
    # the table's plane; a side face stands at right angles to it, squashed and lit less.
    scene = render_dice(206, "close")
    reading = read_dice(scene.image)
    if reading.values != scene.values:
        assert reading.confidence < SURE_READING


# Right readings the checks above must leave sure:
# - many269, rough207: near a read die its side faces' pips are as small as a far top face's
#   and squashed (1.9..2.7 pixels, 0.51..0.69 round), and seen steeply (rough207's 4, at 40
#   degrees) they lie out to 1 + 2 tan t of its half-size: no grid allowance there, no unread 1;
# - close282: a far 5 is 0.32 off a near 4's plane and 0.65 round to its 0.91, but lit alike;
#   clutter394: a far 4 shares its plane with a far 6 (neither cue alone is a side face).
@pytest.mark.parametrize(("seed", "condition"),
                         [(269, "many"), (207, "rough"), (282, "close"), (394, "clutter")])
def test_right_readings_stay_sure(seed, condition):
    scene = render_dice(seed, condition)
    reading = read_dice(scene.image)
    assert reading.values == scene.values
    assert reading.confidence >= SURE_READING
