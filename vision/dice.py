"""Reading the physical dice: the pips on each top face, checked against the six legal layouts.

The reader is a pure function of one frame: ``read_dice(frame) -> DiceReading``. It works from the
pips outwards, so it does not care what colour the dice or the table are:

1. Pip candidates are small blobs much darker (or much lighter) than their surroundings, found by
   a black-hat / top-hat and a contrast *ratio*, so uneven light and shadows do not matter.
2. Round candidates of one die face are linked when they are alike (size, polarity, face colour)
   and the face between them is plain; each linked group is one top face, or touching dice
   that a straight line cuts apart into legal faces.
3. A group is accepted only when an affine map (the camera may look at up to ~30 degrees) takes
   one of the six legal pip layouts onto it, and the places where that layout has no pip are empty.
   A group that fits no layout (a cocked die, a face half hidden) is kept as ``unread`` and lowers
   the reading's confidence instead of being guessed.

``DiceSettler`` sits on a live camera: it hands out a reading only when several consecutive frames
agree and the picture is still, so a rolling die is never read.
"""

from __future__ import annotations

import itertools
import math
import statistics
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace

import cv2
import numpy as np

# The frame is read at this size (its long side); larger frames are shrunk first, which keeps the
# time per frame bounded and the pip-size limits below meaningful.
WORK_SIDE = 640
# Pip candidates: contrast ratio of a pip against the face around it (0..1).
PIP_CONTRAST = 0.28
# Pips can be up to about this wide (pixels at WORK_SIDE) at the fine level; wider ones are found
# on a half-size copy.
KERNEL = 23
MIN_PIP_AREA = 5
MIN_PIP_STEP = 22.0
# A lone blob must be a clear, round pip to be read as a 1 (or, on a steep camera, as squashed as
# the table plane the other dice show, see _rescue_ones, or lit above a read side face, see
# _rescue_lit_ones).
LONE_PIP_CONTRAST = 0.45
LONE_ROUNDNESS = 0.7
# ... and a filled ellipse, as a drilled or painted disc is seen from any angle (fill 1, see
# _blob_pip). A hole left where drawn strokes cross (or the counter of a printed letter) is a
# polygon whose corners the strokes cut off: a triangle fills 0.83 of its moments' ellipse, a
# square 0.95; blob outlines of a few pixels measure fill to about +-0.05. So must both pips
# of a 2 (see _part_unlike_twos): any two alike blobs fit its layout (synthetic tuning seeds:
# true 1s and 2s fill >= 0.9).
LONE_FILL = 0.88
# Where a layout has no pip, the face may show at most this fraction of its pips' contrast.
BLANK_MAX = 0.45
# A top-face pip seen at <= 30 degrees is nearly round; pips on the side faces are squashed.
MIN_ROUNDNESS = 0.5
# How far (in face half-sizes from a read face's centre) its own side faces can show.
SIDE_BAND = 1.75
SQUASHED_BAND = 2.3
# A side face's pips look at most this much as round as the top face's (0.66 at 30 degrees,
# 0.84 at 40: webcams on a stand look that steeply; small pips measure roundness to ~0.1).
SQUASH_RATIO = 0.86
# A lone pip at least this much as round as a face's pips beside it is seen as squarely as
# that face: a top face of its own, not the face's side.
ROUND_AS_TOP = 0.95
# One die's top and side faces are square to each other, so the cosines of the angles at which
# the camera sees them (their pips' roundness, see _flatness) square to no more than 1 between
# them: a face seen at 11 degrees (0.98 round) has its side faces at 79 degrees or more (0.19
# round). Small, blurred pips look rounder than they are (tune photos, far dice: a 1 and its
# die's side 5, 0.70 and 0.71 round, 0.99; synthetic clutter570, a 2 and its side 4, 0.72 and
# 0.73, 1.05), and rendered or blurred side faces can measure as round as their tops
# (synthetic clean358, a 4 and its side 2, 0.92 and 0.96, 1.77; rough221 enlarged, a 2 and
# its side 1, 0.90 and 0.98, 1.77: both told apart by the earlier tests, the plane and the
# light, never by this one). So the limit is used in one test only, for pips that _beside
# finds squashed beside a face, where nothing but their shape says side face: two faces
# squarer than this between them are two dice's. (Synthetic touching837: a 2, 0.84 round,
# touching a 1, 0.98: 1.67, taken for the 1's side face, sure; the one tune frame over the
# limit in that test.)
ONE_DIE_VIEW = 1.5
# A 1 dropped as a side face for a roundness within this of that cut is dropped, but the
# reading is not sure (a synthetic 1 of a touching die measured 0.909 of its neighbour's, the
# cut 0.912: small pips measure roundness only roughly, see SQUASH_RATIO).
SIDE_ONE_NOISE = 0.05
# Two pips of one face differ in roundness by at most this much (measurement noise on small pips).
SHAPE_TOLERANCE = 0.2
# A dark pip's part at half its own depth is at least this much as wide across as its blob
# where a smear along one direction made the blob long (see _unsmeared): the tune photos'
# lone 1s smeared 7 pixels keep 0.93..1.03 of their short axis (of all clear lone pips under
# LONE_ROUNDNESS whose half-depth part is rounder, median 0.92, 10th percentile 0.85); a blur
# alike in every direction narrows it (the unsmeared photos' such pips: median 0.89).
SMEAR_WIDTH = 0.92
# Pip spacing (centre to neighbour) over pip radius on real dice is about 2.5..4.
# All top faces lie in the table plane, so their pips share one foreshortening; a face whose pips
# differ from the table's (see _shape_vector) by more than OFF_TABLE lies in another plane, one
# within ON_TABLE agrees. Measured spread on real photos: top faces 95% within 0.16.
ON_TABLE = 0.22
OFF_TABLE = 0.3
# A face's spacing is judged too large against its pips' larger radius, the blob's or the
# half-height one (see _half_height_radii; not in linking, see _groups): a faint pip's blob is
# cut high up its profile and measures too small, and its face's pips then look too far apart
# (synthetic tuning scenes: 2s, 3s and a 6 of contrast 0.34..0.45 at 4.5..5.4 blob radii,
# 3.4..4.5 half-height radii). Too small a spacing is judged against the blob's: a larger
# radius would only reject more (a 3's middle and corner pip, read first as a 2 and then
# completed, see _completed_threes: synthetic old seeds, one 3 lost so).
SPACING_RANGE = (1.8, 4.5)
# Pips all at least this round show their face no tilt (see _tilt: their mean roundness gives
# no direction to take off, see _squash_direction); a squash from the view then shrinks each
# blob's area radius but not the layout fitted to their centres, and too far is judged against
# their long radius (see _judge_afresh). (A blob of a few pixels is squashed by the pixel grid,
# which leaves its area radius as it is: for such pips the long radius overstates by up to 1.1,
# and the limit loosens to about 4.9 radii.) A group with a pip more squashed than that is
# judged as before: it may hold a side face's pip (synthetic clutter209: a 4 and its side
# face's pips, one 0.63 round, linked into a 6).
UNTILTED = 0.8
# Across one face, light may fall off by this factor (a shadow's soft edge over a die), seen
# on pips at least SQUARE_ON round.
LIGHT_STEP = 1.2
SQUARE_ON = 0.85
# A hard shadow's edge (a hand, a lamp's arm, the tray's rim) across a face dims the part in
# it by a single factor, as much as this: such pips are not linked, as the face's own tests
# cannot tell them from a dimmer side face's by colour, but their groups may rejoin into one
# legal face (see _rejoin), for pips seen square-on only (SQUARE_ON: tune photos under a
# shadow band of 0.55, faces split along its edge into two groups 1.6..1.9 apart in level;
# with pips down to LONE_ROUNDNESS, synthetic light213, clutter258 and touching382 read a 4
# and its side face's pips, 0.7..0.85 round in a render, as a 6 or lost a die).
SHADOW_STEP = 2.2
# A cast shadow's edge is one straight line over the dice and the table alike (a die's own
# edge between its top and a side face ends with the die): beyond the die, the table either
# side of the line differs by the face's own step. Two pips a shadow's step apart are a face
# split by it, not a 1 and its side face's pip, where the table shows that step at each of
# these distances along the edge from where it crosses between them (in the pips' spacing: a
# face reaches about 1.3 spacings from there), on either side of the die (its own shadow or a
# neighbour may hide the other), sampled this far (in spacings) either side of the line.
CAST_REACH = np.array([2.0, 2.25, 2.5, 2.75, 3.0, -2.0, -2.25, -2.5, -2.75, -3.0])
CAST_SIDES = 1
CAST_SIDE = 0.3
# The directions tried for the edge's line (every 10 degrees), of those crossing the pips' join
# at 10 degrees or more (the cosine of their angle with it at most CAST_ACROSS): a shadow's
# edge may run nearly along a 2's diagonal (tune photo two_38.jpg under a shadow band: 23
# degrees off it).
_CAST_ANGLES = np.radians(np.arange(0, 180, 10))
CAST_ACROSS = math.cos(math.radians(10))
# A face smaller than this fraction of the other dice's (median) is not a die of the roll.
SIZE_RATIO = 0.5

# Canonical layouts in units of the pip offset from the face centre.
LAYOUTS: dict[int, np.ndarray] = {
    1: np.array([[0, 0]], float),
    2: np.array([[-1, -1], [1, 1]], float),
    3: np.array([[-1, -1], [0, 0], [1, 1]], float),
    4: np.array([[-1, -1], [1, -1], [-1, 1], [1, 1]], float),
    5: np.array([[-1, -1], [1, -1], [0, 0], [-1, 1], [1, 1]], float),
    6: np.array([[-1, -1], [1, -1], [-1, 0], [1, 0], [-1, 1], [1, 1]], float),
}
_GRID = np.array([[x, y] for y in (-1, 0, 1) for x in (-1, 0, 1)], float)
_LAYOUT_GRAM_INV = {n: np.linalg.inv(l.T @ l) for n, l in LAYOUTS.items() if n >= 4}
# Where each layout has no pip (the blank spots that must stay plain).
_BLANKS = {n: np.array([g for g in _GRID if not (np.abs(l - g).sum(axis=1) < 1e-6).any()])
           for n, l in LAYOUTS.items()}
# Face half-size in units of the pip offset (measured dice range about 1.6..2.0).
FACE_HALF = 1.8


@dataclass(frozen=True)
class Die:
    """One die whose top face was read."""

    value: int
    box: tuple[int, int, int, int]  # x1, y1, x2, y2 in frame pixels
    outline: tuple[tuple[float, float], ...]  # the top face's four corners
    confidence: float
    pips: tuple[tuple[float, float], ...]


@dataclass(frozen=True)
class DiceReading:
    """What the camera saw: the dice read, faces seen but not readable, and how sure it is.

    >>> import numpy as np
    >>> read_dice(np.full((480, 640, 3), 200, np.uint8)).values
    []
    """

    dice: tuple[Die, ...]
    confidence: float
    unread: tuple[tuple[int, int, int, int], ...] = ()  # boxes of faces that fit no layout
    ms: float = 0.0
    pip_radius: float = 0.0  # median radius of the read dice's pips, in frame pixels
    # The radius of the largest round lone pip left unread (no 1 by itself), in frame pixels.
    lone_radius: float = 0.0
    # The median radius of the read dice's pips as the fine level's blobs take them, in frame
    # pixels: a light pip's whole blob, its glow with it (see _glow_radius), a dark pip's own.
    glow_radius: float = 0.0

    @property
    def values(self) -> list[int]:
        return sorted(d.value for d in self.dice)

    @property
    def boxes(self) -> list[list[int]]:
        """Boxes in the same order as ``values`` (ascending value, then left to right)."""
        ordered = sorted(self.dice, key=lambda d: (d.value, d.box[0], d.box[1]))
        return [list(d.box) for d in ordered]


# A pip is itself: pips are told apart by identity (``in``, ``==``), never by their fields, which
# two marks can share (and a numpy field cannot be compared as a truth value).
@dataclass(eq=False)
class _Pip:
    x: float
    y: float
    r: float
    roundness: float
    squash: float  # direction (radians) in which the pip looks compressed
    dark: bool
    contrast: float
    face: np.ndarray = field(default_factory=lambda: np.zeros(3))
    face_grey: float = 0.0
    linked: bool = False  # split off a face it was linked to
    side: bool = False  # explained as a pip of a read face's side face
    # Taken at half maximum (see _cores): ``whole`` is the pip its full blob makes, if any;
    # a lone 1 is judged on that, as a core trimmed round could be any blotch.
    cored: bool = False
    # Linked (see _groups) to no other pip: a 1 of its own, or a pip whose face lost the rest.
    unlinked: bool = True
    # Area over that of the ellipse its moments give (see _blob_pip): 1 for a disc at any view.
    fill: float = 1.0
    # The colour noise of the face around it (see _describe_faces): a standard deviation.
    noise: float = 0.0
    # The pip's own level at its centre (on the image its polarity is measured on).
    peak: float = 0.0
    # Its radius at half its own height over the face level (see _half_height_radii), or 0.
    r_half: float = 0.0
    # Its face colour with the ring's samples beyond the face's edge left out, whatever its
    # roundness (see _describe_faces; for a pip whose blob ran into that edge, see _groups).
    edge_face: np.ndarray = field(default_factory=lambda: np.zeros(3))

    @property
    def spaced_r(self) -> float:
        """The radius pips are too far apart for (see SPACING_RANGE): the larger of the
        blob's and the half-height radius."""
        return max(self.r, self.r_half)


@dataclass
class _Contrast:
    """Where a frame has pip-like marks: per polarity, a mask and the level around each pixel."""

    gray: np.ndarray  # light marks are measured here
    # Dark marks are measured on each pixel's brightest colour channel: a red or blue face is
    # dim in grey, close to its dark pips, but bright in its own channel.
    bright: np.ndarray
    closed: np.ndarray  # the face level around dark marks
    opened: np.ndarray  # the face level around light marks
    masks: tuple[np.ndarray, np.ndarray]  # dark marks, light marks
    # _judge's verdicts on the pip groups of this frame, by the groups' pips: the search for
    # faces (dropping a pip, cutting, peeling) asks about the same groups many times.
    judged: dict = field(default_factory=dict)
    rounded: _Contrast | None = None  # see _round_light
    # The grey step over its level a light mark needs at each pixel (see _step_need).
    light_need: np.ndarray | None = None
    # Where ``opened`` and the light marks are worked out, if only in parts (see _round_light).
    worked: np.ndarray | None = None
    # The pips found in this frame (see _read_at): what lies at a place, for a 1's walk past
    # specks (see _walk_past_specks) and for tests.
    found: list = field(default_factory=list)

    def ratio(self, dark: bool, x0: int, y0: int, x1: int, y1: int) -> np.ndarray:
        """Contrast ratio (0..1) of a window: how far a mark is from its face level."""
        if dark:
            return _RATIO[self.closed[y0:y1, x0:x1], self.bright[y0:y1, x0:x1]]
        return _RATIO[self.gray[y0:y1, x0:x1], self.opened[y0:y1, x0:x1]]

    def level(self, dark: bool) -> np.ndarray:
        """The image marks of this polarity are measured on."""
        return self.bright if dark else self.gray


# The contrast ratio of a mark, looked up by its two 8-bit levels: _RATIO[a, b] = (a - b) / (a + 12)
# in float32, the brighter level ``a`` first (the same float32 arithmetic, done once for all pairs).
_LEVELS = np.arange(256, dtype=np.float32)
_RATIO = (_LEVELS[:, None] - _LEVELS[None, :]) / (_LEVELS[:, None] + 12.0)


def _levels(img: np.ndarray, gray: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The images pips are found on, each averaged with grey: each pixel's brightest channel
    for dark pips (a red or blue face is dim in grey but bright in its own channel), its
    dimmest for light pips (white pips on a lime or yellow face: bright in grey, dim in one
    channel, as white pips on a black face are)."""
    # (Split into arrays of our own: OpenCV writes each channel straight into it, where its own
    # outputs are each copied once more into a new array; the same bytes, at a quarter the cost.)
    b, g, r = cv2.split(img, [np.empty(img.shape[:2], np.uint8) for _ in range(3)])
    top = cv2.max(cv2.max(b, g), r)
    low = cv2.min(cv2.min(b, g), r)
    # The brightest channel alone loses red pips on white dice (synthetic tuning seeds: white
    # 228 -> 196 of 241); half and half keeps them and still lifts coloured faces.
    return cv2.addWeighted(top, 0.5, gray, 0.5, 0), cv2.addWeighted(low, 0.5, gray, 0.5, 0)


# Levels (8-bit) within which the darkest dark mark, and the darkest pixel's brightest channel,
# count as lying at the frame's black point: a few levels of sensor noise and JPEG (tune
# photos veiled, their contrast squeezed to 0.6 and lifted 60 levels: 0..2 apart).
VEIL_SLACK = 3


def _veil(img: np.ndarray, bright: np.ndarray, con: _Contrast) -> float:
    """The level a veil (haze, flare, a washed-out camera) adds over the whole frame, or 0.

    A veil lifts every pixel alike, so a dark pip's printed black reads as the veil's level
    and its contrast ratio against its face (see _RATIO) falls: its blob is cut at a
    different depth of its blurred edge and comes out smaller and less round than the
    face's other pips, and a 1's pip no longer tells a side face's pips from its own (tune
    photos veiled, contrast squeezed to 0.6 and lifted 60 levels: four photos of 1s lost).
    Measured above the black point, the ratio is the unveiled one again.

    The frame's darkest level is a veil only when it is (a) neutral: every channel of the
    darkest pixel at it (a veil is grey; the darkest pixel of dark coloured dice has one
    channel far below the others: tune negatives over-exposed, darkest channel 49..62, its
    brightest channel 66..80, and there three_33 was lost), (b) the black of dark pips: the
    darkest dark mark at it, not a dark face or cloth, and (c) above MIN_PIP_STEP: smaller
    lifts are every scene's own darkest shading (synthetic tuning seeds: up to 31; tune
    negatives 10..46), and taking them off lost frames there (rough237, the negative of
    dice_21)."""
    black = float(img.min())
    if black < MIN_PIP_STEP:
        return 0.0
    low = cv2.minMaxLoc(bright)[0]
    marks = cv2.minMaxLoc(bright, con.masks[0])[0]
    return black if low <= black + VEIL_SLACK and marks <= low + VEIL_SLACK else 0.0


def _contrast(gray: np.ndarray, bright: np.ndarray, kernel: int,
              same_grey: _Contrast | None = None) -> _Contrast:
    """Pip-like marks of both polarities; with ``same_grey`` (a contrast of this very ``gray``
    at this ``kernel``, only its ``bright`` other: see _veil), its light marks are kept as
    they are, not worked out again (they are measured on grey alone)."""
    se = cv2.getStructuringElement(cv2.MORPH_RECT, (kernel, kernel))
    closed = cv2.morphologyEx(bright, cv2.MORPH_CLOSE, se)
    # A ratio, not a difference: a pip in shadow is as dark *relative to its face* as in light;
    # the step floor keeps sensor noise on a dark cloth from looking like pips.
    # (All in 8-bit OpenCV arithmetic: this runs on every frame of a live camera.)
    dark_step = cv2.subtract(closed, bright)
    dark_need = _step_need(closed)
    dark = cv2.compare(dark_step, dark_need, cv2.CMP_GT)
    if same_grey is not None:
        return _Contrast(gray, bright, closed, same_grey.opened, (dark, same_grey.masks[1]),
                         light_need=same_grey.light_need)
    opened = cv2.morphologyEx(gray, cv2.MORPH_OPEN, se)
    light_need = _step_need(gray)
    return _Contrast(gray, bright, closed, opened, (dark, _light_marks(gray, opened, light_need)),
                     light_need=light_need)


def _step_need(level: np.ndarray) -> np.ndarray:
    """The step from a pixel's ``level`` a mark needs: PIP_CONTRAST times level + 12 (the
    contrast ratio's denominator, see _RATIO), and at least MIN_PIP_STEP. (A light mark's,
    for any level a pixel is opened to, is worked out once per frame: see _round_light.)"""
    # (convertScaleAbs rounds level * PIP_CONTRAST + PIP_CONTRAST * 12 to 8 bits as addWeighted
    # with a zero second term does, at two thirds of its cost: no value is negative, and none of
    # the 256 lies nearer than 0.02 to a rounding tie, so float error rounds none differently.)
    return cv2.max(cv2.convertScaleAbs(level, alpha=PIP_CONTRAST, beta=PIP_CONTRAST * 12),
                   MIN_PIP_STEP)


def _light_marks(gray: np.ndarray, opened: np.ndarray, light_need: np.ndarray) -> np.ndarray:
    light_step = cv2.subtract(gray, opened)
    return cv2.compare(light_step, light_need, cv2.CMP_GT)


# An octagon KERNEL wide (see _round_light), near a disc: a square 9 wide grown by a diamond
# 15 wide (two diagonal lines 7 long and a cross), at the cost of about 1.5 square openings.
_ROUND = (cv2.getStructuringElement(cv2.MORPH_RECT, (9, 9)), np.eye(7, dtype=np.uint8),
          np.fliplr(np.eye(7, dtype=np.uint8)).copy(),
          cv2.getStructuringElement(cv2.MORPH_CROSS, (3, 3)))
# How far (pixels) the octagon's opening looks: each erosion and then each dilation looks as
# far as its element's half-width (4, 3, 3 and 1).
_ROUND_REACH = 2 * sum(se.shape[0] // 2 for se in _ROUND)


def _round_light(con: _Contrast, window: tuple[int, int, int, int]) -> _Contrast:
    """``con`` with its light marks measured against an opening by an octagon (near a disc)
    instead of a square, on the fine level, in ``window`` (x0, y0, x1, y1) at least.

    A face is a square at any angle, and the square opening fits into a tilted one only well
    inside its corners: a pale face's corners on a darker table stand out from that level as
    far as its light pips do, and join the pips beside them into blobs that are no pip. An
    octagon fits into the corners at any angle, so against it the pips stand alone. (Only
    blobs that are no pip are looked at again against it, see _off_corner: an octagon also
    fits further into the sharp corners of the table between dark dice or clutter, and leaves
    their tips as small as pips.)

    Only a few blobs per frame are looked at so, so the opening is worked out only in the
    windows asked for, each once per frame, on a crop _ROUND_REACH larger all round: exact in
    the window (the crop's own edges, where the frame has more, change only what lies within
    that reach of them).
    """
    if con.rounded is None:
        con.rounded = replace(con, opened=np.zeros_like(con.gray),
                              masks=(con.masks[0], np.zeros_like(con.gray)), judged={},
                              worked=np.zeros(con.gray.shape, bool))
    part = con.rounded
    x0, y0, x1, y1 = window
    if part.worked[y0:y1, x0:x1].all():
        return part
    h, w = con.gray.shape
    cx, cy = max(0, x0 - _ROUND_REACH), max(0, y0 - _ROUND_REACH)
    opened = con.gray[cy : min(h, y1 + _ROUND_REACH), cx : min(w, x1 + _ROUND_REACH)]
    for se in _ROUND:
        opened = cv2.erode(opened, se)
    for se in _ROUND[::-1]:
        opened = cv2.dilate(opened, se)
    opened = opened[y0 - cy : y1 - cy, x0 - cx : x1 - cx]
    need = con.light_need if con.light_need is not None else _step_need(con.gray)
    part.opened[y0:y1, x0:x1] = opened
    part.masks[1][y0:y1, x0:x1] = _light_marks(con.gray[y0:y1, x0:x1], opened,
                                               need[y0:y1, x0:x1])
    part.worked[y0:y1, x0:x1] = True
    return part


# Half-maximum cores look this far (pixels) for the pip's extreme: past a one or two pixel gap
# between neighbouring pips, within one pip.
_PEAK = cv2.getStructuringElement(cv2.MORPH_RECT, (5, 5))


def _cores(con: _Contrast, dark: bool,
           window: tuple[int, int, int, int] | None = None) -> np.ndarray:
    """Where a mark is more than halfway from its face level to its own extreme: the pip's
    own area (edge at half maximum), without the blur and noise that join neighbours; with
    ``window`` (x0, y0, x1, y1), in that part of the frame only.

    The contrast ratio is relative to the *brighter* side, so on a dark face (light pips) the
    blurred gap between two pips and the sensor speckle around them pass it easily.
    """
    if window is not None:
        # Worked out on a crop 2 pixels larger (the reach of _PEAK), so exact in the window.
        x0, y0, x1, y1 = window
        h, w = con.gray.shape
        cx, cy = max(0, x0 - 2), max(0, y0 - 2)
        cx1, cy1 = min(w, x1 + 2), min(h, y1 + 2)
        crop = _Contrast(con.gray[cy:cy1, cx:cx1], con.bright[cy:cy1, cx:cx1],
                         con.closed[cy:cy1, cx:cx1], con.opened[cy:cy1, cx:cx1],
                         tuple(m[cy:cy1, cx:cx1] for m in con.masks))
        return _cores(crop, dark)[y0 - cy : y1 - cy, x0 - cx : x1 - cx]
    if dark:
        step = cv2.subtract(con.closed, con.bright)
        half = cv2.addWeighted(con.closed, 0.5, cv2.erode(con.bright, _PEAK), -0.5, 0)
    else:
        step = cv2.subtract(con.gray, con.opened)
        half = cv2.addWeighted(cv2.dilate(con.gray, _PEAK), 0.5, con.opened, -0.5, 0)
    return cv2.bitwise_and(cv2.compare(step, half, cv2.CMP_GT), con.masks[0 if dark else 1])


def _find_pips(con: _Contrast, kernel: int, scale: float, min_area: float,
               bridged: bool = False) -> list[_Pip]:
    """Blobs far darker or lighter than the face around them, as pip candidates; with
    ``bridged``, also pips that blur joined into one blob (small pips, the fine level), and
    light pips taken at half maximum (see _cores)."""
    found: list[_Pip] = []
    for mask, dark in ((con.masks[0], True), (con.masks[1], False)):
        if bridged and dark in _CORED:
            # Light pips on a dark face: their ratio blobs carry speckle and bridges, their
            # cores do not. A core whose whole blob is no pip is kept only for faces (cored).
            cores = _cores(con, dark)
            pips, rejected = _blobs(cores, con, dark, kernel, scale, min_area, True)
            if rejected:
                split = _split_bridged(cores, rejected, con, dark, kernel, scale, min_area)
                pips += split
                pips += _off_corners(rejected, con, kernel, min_area, pips)
                # Light pips blur into one another as dark ones do (a 6's column on a small
                # black die, a little motion blur): the saddle between them is as light as
                # half their height, so only their deep cores come apart (see _deep_pips).
                rest = [b for b in _unparted(rejected, cores, split, min_area)
                        if _on_darker_face(con.gray, *b)]
                pips += _deep_pips(rest, con, kernel, min_area, pips, dark)
                pips += _whole_of_unround_cores(rejected, cores, con, kernel, min_area, pips)
            for p in pips:
                p.cored = True
            found += pips
            continue
        pips, rejected = _blobs(mask, con, dark, kernel, scale, min_area, bridged,
                                reach=RIM_REACH * kernel if dark else 2 * kernel)
        found += pips
        # Pips bridged by blur lie within two pips' width; a pip joined to its face's
        # shaded rim lies in a blob as wide as the rim (see RIM_REACH): only for wells.
        wide = [b for b in rejected if max(b[2], b[3]) > 2 * kernel]
        rejected = [b for b in rejected if max(b[2], b[3]) <= 2 * kernel]
        split: list[_Pip] = []
        if rejected:
            split = _split_bridged(mask, rejected, con, dark, kernel, scale, min_area)
            found.extend(split)
        if dark and (rejected or wide):
            deep = _deep_pips(_unparted(rejected, mask, split, min_area), con, kernel,
                              min_area, found) if rejected else []
            found.extend(deep)
            found.extend(_well_pips(_unparted(rejected, mask, split + deep, min_area), con,
                                    kernel, min_area, found, _unparted(wide, mask, [], min_area)))
    return found


def _whole_of_unround_cores(boxes: list[tuple[int, int, int, int]], cores: np.ndarray,
                            con: _Contrast, kernel: int, min_area: float,
                            found: list[_Pip]) -> list[_Pip]:
    """Light pips whose core (see _cores) is no pip only for its shape, taken as their whole
    blob: one core alone in a whole blob that is a pip by itself.

    A core is cut at half its 5-pixel neighbourhood's maximum, not at half its own: across a
    pip's blurred profile that cut moves out roughly with the square of the blur's width, so
    a core comes out more elongated than its pip (a negative's drilled pip seen at an angle:
    core 0.49..0.54 round, its whole blob 0.64..0.68, half height 0.84). Its whole blob holds
    no bridge or speckle when it holds no other core. Only a pip as round at half its own
    height (see _shaped_at_half_height) as a lone 1 must be is taken: a side face's pip is
    squashed at every height, and left unfound as before."""
    pips: list[_Pip] = []
    mask = con.masks[1]
    for x, y, w, h in boxes:
        if w > kernel - 2 or h > kernel - 2:
            continue  # larger than a pip's core can be: bridged pips or a face's corner
        x0, y0, x1, y1 = max(0, x - kernel), max(0, y - kernel), x + w + kernel, y + h + kernel
        window = mask[y0:y1, x0:x1]
        # (Labels only, and the one box needed taken from them: the same labels, ten times
        # faster than with every blob's statistics.)
        n, labels = cv2.connectedComponents(window, connectivity=8)
        inside = labels[y - y0 : y - y0 + h, x - x0 : x - x0 + w][
            cores[y : y + h, x : x + w] > 0]
        if not len(inside):
            continue
        label = int(np.bincount(inside).argmax())
        part = cv2.compare(labels, int(label), cv2.CMP_EQ)  # (255 where labels == label)
        bx, by, bw, bh = cv2.boundingRect(part)
        if bx == 0 or by == 0 or bx + bw >= window.shape[1] or by + bh >= window.shape[0]:
            continue
        # (What _blob_pip below rejects by the box and area alone, cheap first.)
        if not (_pip_box(int(bw), int(bh), kernel, min_area)
                and _pip_area(cv2.countNonZero(part), int(bw), int(bh), min_area)):
            continue
        pip = _blob_pip(part, int(bx), int(by), int(bw), int(bh),
                        _Contrast(con.gray[y0:y1, x0:x1], con.bright[y0:y1, x0:x1],
                                  con.closed[y0:y1, x0:x1], con.opened[y0:y1, x0:x1],
                                  (part, part)), False, kernel, 1.0, min_area)
        if pip is None:
            continue
        # (After the shape: most whole blobs that get this far are no pip, and labelling the
        # cores costs more than measuring the blob.)
        own = labels[by : by + bh, bx : bx + bw] == label
        n_cores, _ = cv2.connectedComponents(
            (own & (cores[y0 + by : y0 + by + bh, x0 + bx : x0 + bx + bw] > 0)).astype(np.uint8))
        if n_cores != 2:  # (the background and one core)
            continue
        pip.x += x0
        pip.y += y0
        if (_shaped_at_half_height(pip, con).roundness >= LONE_ROUNDNESS
                and _clear_of(pip, found + pips)):
            pips.append(pip)
    return pips


def _unparted(boxes: list[tuple[int, int, int, int]], mask: np.ndarray, split: list[_Pip],
              min_area: float) -> list[tuple[int, int, int, int]]:
    """The blobs (``boxes``) worth trying deep in their wells (see _deep_pips): not those the
    opening parted (a pip of ``split`` inside), nor those too small for two wells whose
    deepest third is a pip's core of ``min_area`` (about a quarter of the pip)."""
    return [(x, y, w, h) for x, y, w, h in boxes
            if cv2.countNonZero(mask[y : y + h, x : x + w]) >= 8 * min_area
            and not any(x <= p.x < x + w and y <= p.y < y + h for p in split)]


# Deep in a dark pip's well (see _deep_pips): this far from the face level to its own extreme.
DEEP = 0.67
# ... its extreme sought this far (pixels): past the saddle of blur between two wells. Blur
# spreads that saddle over a few pixels (a gamma that darkens mid-tones darkens it towards the
# pips' depth): a saddle farther than _PEAK's two pixels from either pip's core would find no
# deeper extreme than itself, count as a well of its own and join the pips it lies between.
# Three pixels reach a core from the middle of a six pixel bridge; a pip's own well, a
# neighbour's pip step (at least 1.8 radii) away, keeps its own extreme.
_DEEP_PEAK = cv2.getStructuringElement(cv2.MORPH_RECT, (7, 7))
_DEEP_REACH = _DEEP_PEAK.shape[0] // 2  # (blobs are cropped with this margin for it)


def _deep_pips(boxes: list[tuple[int, int, int, int]], con: _Contrast, kernel: int,
               min_area: float, found: list[_Pip], dark: bool = True) -> list[_Pip]:
    """Dark pips in blobs (``boxes``) that are no pip and that the small opening did not part:
    on a small die the blur between big pips (a 6's column) is as wide as the pips' edges and
    as dark as a third of their depth, so only a mark taken deep in each well (two thirds of
    the way from the face level to its own extreme, see _cores) comes apart. A blob counts only
    when it all comes apart into alike pips (see _pieces), as bridged pips do; a face's shaded
    edge or a letter leaves pieces that are no pip. (Cores: they are smaller than the pip.)"""
    if not boxes:
        return []
    mask = con.masks[0 if dark else 1]
    inside = np.zeros_like(mask)
    h0, w0 = inside.shape
    for x, y, w, h in boxes:
        x0, y0 = max(0, x - _DEEP_REACH), max(0, y - _DEEP_REACH)
        x1, y1 = min(w0, x + w + _DEEP_REACH), min(h0, y + h + _DEEP_REACH)
        if dark:
            closed, level = con.closed[y0:y1, x0:x1], con.bright[y0:y1, x0:x1]
            step = cv2.subtract(closed, level)
            depth = cv2.subtract(closed, cv2.erode(level, _DEEP_PEAK))
        else:
            opened, level = con.opened[y0:y1, x0:x1], con.gray[y0:y1, x0:x1]
            step = cv2.subtract(level, opened)
            depth = cv2.subtract(cv2.dilate(level, _DEEP_PEAK), opened)
        deep = cv2.bitwise_and(cv2.compare(step, cv2.addWeighted(depth, DEEP, depth, 0, 0),
                                           cv2.CMP_GT), mask[y0:y1, x0:x1])
        inside[y : y + h, x : x + w] |= deep[y - y0 : y - y0 + h, x - x0 : x - x0 + w]
    span = (min(b[0] for b in boxes), min(b[1] for b in boxes),
            max(b[0] + b[2] for b in boxes), max(b[1] + b[3] for b in boxes))
    pips = []
    for p in _pieces(inside, inside, boxes, con, dark, kernel, 1.0, min_area, span):
        if _clear_of(p, found + pips):
            p.cored = True
            pips.append(p)
    return pips


# A dark pip joined to a shallower dark patch (see _well_pips) is cut this far from the face
# level to the blob's deepest point: about its half-height, where the patch stays below it
# (synthetic rough and light scenes, blue and purple dice: pips 0.7..0.8 against the face's
# shaded edge and side face at 0.3..0.45 median).
WELL = 0.5
# A blob holding such a pip can be as wide as the face's rim it joins, with the side faces'
# shade beyond it: up to this many KERNELs a side (a die of 58 pixels seen along its diagonal
# is 82 wide; synthetic light and rough scenes, purple and blue dice: corner pips in rim blobs
# 47..59 pixels a side, past the 2 KERNELs bridged pips are sought in).
RIM_REACH = 4


def _well_pips(boxes: list[tuple[int, int, int, int]], con: _Contrast, kernel: int,
               min_area: float, found: list[_Pip],
               wide: Sequence[tuple[int, int, int, int]] = ()) -> list[_Pip]:
    """Dark pips in blobs (``boxes``) that are no pip and that neither the small opening nor
    the deep wells parted: a pip joined to a shallower dark patch around it. A saturated face
    (blue, purple) is dim in grey, and its rim comes out dark in the level dark pips are found
    on (see _levels), as a shaded side face beyond it does; a corner pip a pixel or two from
    that edge joins it into one blob, wider than any pip, whose other parts (a strip, a
    slab) are no pips, so the deep wells do not count it (see _deep_pips).

    The blob is cut at WELL of its own deepest contrast, and the pieces that are pips by
    themselves as a lone 1 must be (round and a filled ellipse, LONE_ROUNDNESS and LONE_FILL:
    a side face's squashed pips, or the polygon where touching dice's seams meet, are not)
    are kept, as cores: a lone one is judged on its whole blob, which is no pip, so none
    becomes a 1 by itself. A blob that is a single pip, only too wide for this level, is left
    to the half-size copy (see KERNEL).

    Blobs wider than bridged pips (``wide``, up to RIM_REACH kernels: a rim runs round its
    face) give only pips that lie on their face (see _ringed_by_face): a face in shade (a
    side face in the shadow band) is a wide blob too, and its own pips lie inside it."""
    pips: list[_Pip] = []
    mask = con.masks[0]
    part = None
    for k, (x, y, w, h) in enumerate([*boxes, *wide]):
        if _blob_pip(mask, x, y, w, h, con, True, 2 * kernel + 3, 1.0, min_area) is not None:
            continue
        ratio = con.ratio(True, x, y, x + w, y + h)
        blob = mask[y : y + h, x : x + w]
        top = cv2.minMaxLoc(ratio, blob)[1]  # (the largest where blob > 0)
        if k >= len(boxes) and WELL * top <= PIP_CONTRAST:
            continue  # (the cut would keep the whole blob, which is no pip: cheap first)
        if part is None:
            part = np.zeros_like(con.gray)
        part[y : y + h, x : x + w] = ((ratio > WELL * top) & (blob > 0)).astype(np.uint8) * 255
        more, _ = _blobs(part, con, True, kernel, 1.0, min_area, False, (x, y, x + w, y + h))
        part[y : y + h, x : x + w] = 0
        for p in more:
            if (p.roundness >= LONE_ROUNDNESS and p.fill >= LONE_FILL
                    and _clear_of(p, found + pips)
                    and (k < len(boxes) or _ringed_by_face(p, con))):
                p.cored = True
                pips.append(p)
    return pips


def _ringed_by_face(pip: _Pip, con: _Contrast) -> bool:
    """Whether most of the ring round a dark pip (where _describe_faces takes its face) is
    no dark mark itself: a pip joined to its face's shaded rim has the rim on one side only,
    and the face it lies on all round the rest (synthetic light and rough scenes, purple and
    blue dice: ring medians 0.07..0.21 against PIP_CONTRAST); a pip on a face in shade lies
    inside that patch, its ring as dark as the patch (a white die's side faces in the shadow
    band: 0.26..0.33)."""
    rad = max(pip.r * 1.9, pip.r + 2.0)
    at = _pixel_index(con.gray.shape, pip.x + _RING[:, 0] * rad, pip.y + _RING[:, 1] * rad)
    return statistics.median(_RATIO[con.closed[at], con.bright[at]].tolist()) < PIP_CONTRAST


def _on_darker_face(gray: np.ndarray, x: int, y: int, w: int, h: int) -> bool:
    """Whether a light blob (box x, y, w, h) is ringed by a face darker than its peak as a
    face is than its light pips: pips bridged by blur lie inside one face, while a blob that
    runs on into light (a pale face's edge, a glint's streak, a light table) is no such pips.
    (Nine tenths of the ring two pixels out: a neighbouring pip's glow may touch it.)"""
    h0, w0 = gray.shape
    x0, y0, x1, y1 = max(0, x - 2), max(0, y - 2), min(w0, x + w + 2), min(h0, y + h + 2)
    crop = gray[y0:y1, x0:x1]
    ring = np.concatenate([crop[0], crop[-1], crop[1:-1, 0], crop[1:-1, -1]])
    k = int(0.9 * (len(ring) - 1))
    return _lighter_as_a_pip(float(crop.max()), float(np.partition(ring, k)[k]))


def _blobs(mask: np.ndarray, con: _Contrast, dark: bool, kernel: int, scale: float,
           min_area: float, bridged: bool, span: tuple[int, int, int, int] | None = None,
           reach: int | None = None
           ) -> tuple[list[_Pip], list[tuple[int, int, int, int]]]:
    """The blobs of a mask that are pips, and (with ``bridged``) the boxes of those that are
    not but could be pips joined by blur or to a shaded rim, up to ``reach`` pixels a side
    (2 ``kernel`` unless given); ``span`` (x0, y0, x1, y1), where ``mask`` is blank outside
    it, is all that is searched."""
    reach = 2 * kernel if reach is None else reach
    found: list[_Pip] = []
    x0, y0, x1, y1 = span or (0, 0, mask.shape[1], mask.shape[0])
    # Every blob's outer boundary, those inside another blob's hole too: a white die's shaded
    # edges and shadow can ring its whole face in the dark mask, and its pips lie in that hole.
    contours, hierarchy = cv2.findContours(mask[y0:y1, x0:x1], cv2.RETR_CCOMP,
                                           cv2.CHAIN_APPROX_SIMPLE, offset=(x0, y0))
    rejected = []
    parents = hierarchy[0][:, 3].tolist() if contours else ()
    for contour, parent in zip(contours, parents):
        if parent >= 0:
            continue  # a hole's boundary
        if len(contour) < 3 and min_area > 2:
            continue
        x, y, w, h = cv2.boundingRect(contour)
        pip = _blob_pip(mask, x, y, w, h, con, dark, kernel, scale, min_area)
        if pip is not None:
            found.append(pip)
        elif bridged and 2 * min_area <= w * h and w <= reach and h <= reach:
            rejected.append((x, y, w, h))
    return found, rejected


# Light pips are taken at half maximum on the fine level (see _cores); dark pips on a light
# face are measured against the bright face, so blur and speckle between them stay below it.
_CORED = (False,)


def _off_corners(boxes: list[tuple[int, int, int, int]], con: _Contrast, kernel: int,
                 min_area: float, found: list[_Pip]) -> list[_Pip]:
    """Light pips (cores, on the fine level) in the blobs (``boxes``) that are no pip, against
    an opening that fits into a face's corners (see _round_light); not those already
    ``found``, and only those that came apart from a face's corner (see _off_corner)."""
    # Cheap first: a blob with no part darker than its lightest pixel as a face is than its
    # pip holds no pip apart from a corner (_off_corner asks that of the corner's median).
    keep = []
    for x, y, w, h in boxes:
        # (minMaxLoc: the least grey where marked, its place (-1, -1) where none is.)
        low, _, at, _ = cv2.minMaxLoc(con.gray[y : y + h, x : x + w],
                                      con.masks[1][y : y + h, x : x + w])
        low = low if at[0] >= 0 else 255.0
        peak = cv2.minMaxLoc(con.gray[max(0, y - 1) : y + h + 1, max(0, x - 1) : x + w + 1])[1]
        if _lighter_as_a_pip(peak, low):
            keep.append((x, y, w, h))
    if not keep:
        return []
    x0, y0, x1, y1 = span = _span(keep, con.gray.shape)
    # (Cores are worked out on a crop 2 pixels larger, see _cores.)
    fh, fw = con.gray.shape
    part = _round_light(con, (max(0, x0 - 2), max(0, y0 - 2), min(fw, x1 + 2), min(fh, y1 + 2)))
    cores = _cores(part, False, span)
    inside = np.zeros_like(con.gray)
    for x, y, w, h in keep:
        inside[y : y + h, x : x + w] = cores[y - y0 : y - y0 + h, x - x0 : x - x0 + w]
    more, _ = _blobs(inside, part, False, kernel, 1.0, min_area, False, span)
    pips: list[_Pip] = []
    for p in more:
        # (A piece joining two touching boxes may have its centre in neither: none of ours.)
        box = next((b for b in keep if b[0] <= p.x < b[0] + b[2] and b[1] <= p.y < b[1] + b[3]),
                   None)
        p.cored = True
        if box is not None and _off_corner(p, con, part, box, min_area) and _clear_of(
                p, found + pips):
            pips.append(p)
    return pips


def _off_corner(pip: _Pip, con: _Contrast, part: _Contrast, box: tuple[int, int, int, int],
                min_area: float) -> bool:
    """Whether a light pip found against the round level (``part``, see _round_light) came
    apart from a face's corner in its blob (``box``): the corner is the blob's part that is
    light only against the square's level, and the pip is lighter than that corner (its own
    face) as a pip is than its face. A sharp tip of table between dark dice or clutter, left
    by the octagon, is as light as the rest of its wedge."""
    x, y, w, h = box
    corner = (con.masks[1][y : y + h, x : x + w] > 0) & (part.masks[1][y : y + h, x : x + w] == 0)
    if corner.sum() < min_area:
        return False
    level = float(np.median(con.gray[y : y + h, x : x + w][corner]))
    px, py = int(round(pip.x)), int(round(pip.y))
    peak = float(con.gray[max(0, py - 1) : py + 2, max(0, px - 1) : px + 2].max())
    return _lighter_as_a_pip(peak, level)


def _lighter_as_a_pip(peak: float, level: float) -> bool:
    """Whether a grey ``peak`` stands out from a ``level`` as a light pip from its face (the
    light-mark test of _contrast, for one pixel)."""
    return peak - level > max(PIP_CONTRAST * (peak + 12.0), MIN_PIP_STEP)


def _clear_of(pip: _Pip, others: list[_Pip]) -> bool:
    """Whether a pip overlaps none of ``others`` (a pip found again by another look)."""
    return all(math.hypot(pip.x - q.x, pip.y - q.y) > q.r + pip.r for q in others)


def _gap_between(pip: _Pip, big: list[_Pip]) -> bool:
    """Whether a big mark (see _read_at: found on the half-size copy) is the face between big
    pips, not a pip: it overlaps two or more of the other polarity (``big``), each of higher
    contrast. Big light pips on a dark face set the level around the strip of face between
    them (see _contrast), and that strip then stands out as a dark mark (dark pips on a light
    face likewise leave light ones); taken first, it blocked the place of the pips it lies
    between (synthetic close702: a 6 of big white pips read as a 2 of the two it did not
    touch). A gap stands out only as far as the level around it is raised by the pips beside
    it, which blur and the level's wider window spread thin, so its contrast stays below
    theirs; a real pip is overlapped by at most one mark of the other polarity (its face,
    seen whole)."""
    over = [q for q in big if q.dark != pip.dark and q.contrast > pip.contrast
            and math.hypot(pip.x - q.x, pip.y - q.y) <= q.r + pip.r]
    return len(over) >= 2


def _clear_of_all(group: list[_Pip], places: list[_Pip]) -> bool:
    """Whether no pip of ``group`` has its centre inside any of ``places`` (pips a face was
    completed with, see _completed_sixes)."""
    return all(math.hypot(q.x - t.x, q.y - t.y) >= t.r for q in group for t in places)


_BRIDGE = cv2.getStructuringElement(cv2.MORPH_RECT, (3, 3))


def _split_bridged(mask: np.ndarray, boxes: list[tuple[int, int, int, int]], con: _Contrast,
                   dark: bool, kernel: int, scale: float, min_area: float) -> list[_Pip]:
    """Pips in blobs that are not one pip (bounding ``boxes``): neighbouring pips of a small
    face that blur and JPEG bridge by a pixel or two come apart under a small opening.

    Only the blobs' boxes, each with a pixel around it, are opened: a piece that lies in a
    box lies in it whole, as a piece running on out of the box shows a pixel beside it, in
    that ring (and one cut off at the ring's outer edge has a pixel in the ring, in no box).
    The opening is worked out on a crop two pixels larger still (the reach of its erosion
    and its dilation), so it is exact where it is kept."""
    x0, y0, x1, y1 = span = _span(boxes, mask.shape)
    h, w = mask.shape
    cx, cy = max(0, x0 - 2), max(0, y0 - 2)
    opened = cv2.morphologyEx(mask[cy : min(h, y1 + 2), cx : min(w, x1 + 2)], cv2.MORPH_OPEN,
                              _BRIDGE)
    parted = np.zeros_like(mask)
    for x, y, bw, bh in boxes:
        bx, by, bx1, by1 = max(0, x - 1), max(0, y - 1), min(w, x + bw + 1), min(h, y + bh + 1)
        parted[by:by1, bx:bx1] = opened[by - cy : by1 - cy, bx - cx : bx1 - cx]
    return _pieces(parted, mask, boxes, con, dark, kernel, scale, min_area, span)


def _span(boxes: list[tuple[int, int, int, int]], shape: tuple[int, ...]
          ) -> tuple[int, int, int, int]:
    """The part of a frame (x0, y0, x1, y1) that holds ``boxes`` with a pixel around them."""
    return (max(0, min(b[0] for b in boxes) - 1), max(0, min(b[1] for b in boxes) - 1),
            min(shape[1], max(b[0] + b[2] for b in boxes) + 1),
            min(shape[0], max(b[1] + b[3] for b in boxes) + 1))


def _pieces(parted: np.ndarray, whole: np.ndarray, boxes: list[tuple[int, int, int, int]],
            con: _Contrast, dark: bool, kernel: int, scale: float,
            min_area: float, span: tuple[int, int, int, int] | None = None) -> list[_Pip]:
    """The pips that the blobs in ``boxes`` come apart into in ``parted``, when the pieces are
    all alike pips covering most of the blob's pixels in ``whole``; ``span`` (x0, y0, x1, y1),
    where ``parted`` is blank outside it, is all that is searched."""
    x0, y0, x1, y1 = span or (0, 0, parted.shape[1], parted.shape[0])
    contours, _ = cv2.findContours(parted[y0:y1, x0:x1], cv2.RETR_EXTERNAL,
                                   cv2.CHAIN_APPROX_SIMPLE, offset=(x0, y0))
    # Specks of sensor noise left beside the pieces are no pieces (the cover test counts them).
    parts = np.array([r for r in map(cv2.boundingRect, contours) if r[2] * r[3] >= min_area])
    if len(parts) < 2:
        return []
    blobs = np.array(boxes)
    # Which pieces lie inside which blob (all pairs at once).
    inside = ((parts[None, :, 0] >= blobs[:, None, 0]) & (parts[None, :, 1] >= blobs[:, None, 1])
              & (parts[None, :, 0] + parts[None, :, 2] <= (blobs[:, 0] + blobs[:, 2])[:, None])
              & (parts[None, :, 1] + parts[None, :, 3] <= (blobs[:, 1] + blobs[:, 3])[:, None]))
    # Cheap first: the pieces' boxes must cover most of the blob (a pip fills most of its box).
    covers = inside @ (parts[:, 2] * parts[:, 3])
    found: list[_Pip] = []
    for b in np.nonzero(inside.sum(axis=1) >= 2)[0]:
        x, y, w, h = (int(v) for v in blobs[b])
        count = cv2.countNonZero(whole[y : y + h, x : x + w])
        if covers[b] < 0.75 * count:
            continue
        pips = []
        for k in np.nonzero(inside[b])[0]:
            pip = _blob_pip(parted, *(int(v) for v in parts[k]), con, dark, kernel, scale,
                            min_area)
            if pip is None:
                break  # a piece that is no pip: an edge or a shape, not bridged pips
            pips.append(pip)
        else:
            # Bridged pips are alike and lose only the bridge; a letter broken up does not.
            radii = [p.r for p in pips]
            covered = sum(math.pi * r * r for r in radii) / scale**2
            if min(radii) >= 0.7 * max(radii) and covered >= 0.75 * count:
                found.extend(pips)
    return found


def _pip_box(w: int, h: int, kernel: int, min_area: float) -> bool:
    """Whether a blob's box could hold a pip: not too big, too small or too long."""
    return w <= kernel - 2 and h <= kernel - 2 and w * h >= min_area and max(w, h) <= 3 * min(
        w, h) + 2


def _pip_area(area: float, w: int, h: int, min_area: float) -> bool:
    """Whether a blob's area could be a pip's: large enough, and filling enough of its box."""
    return area >= min_area and area >= 0.4 * w * h


def _blob_pip(mask: np.ndarray, x: int, y: int, w: int, h: int, con: _Contrast, dark: bool,
              kernel: int, scale: float, min_area: float) -> _Pip | None:
    """The pip a blob (bounding box x, y, w, h in ``mask``) is, or None if it is no pip: too
    big, too small, too long, not a filled ellipse."""
    if not _pip_box(w, h, kernel, min_area):
        return None
    patch = mask[y : y + h, x : x + w]
    m = cv2.moments(patch, binaryImage=True)
    area = m["m00"]
    if not _pip_area(area, w, h, min_area):
        return None
    mu20, mu02, mu11 = m["mu20"] / area, m["mu02"] / area, m["mu11"] / area
    common = math.sqrt(max(0.0, ((mu20 - mu02) / 2) ** 2 + mu11**2))
    lam1 = (mu20 + mu02) / 2 + common
    lam2 = (mu20 + mu02) / 2 - common
    if lam1 <= 0:
        return None
    roundness = math.sqrt(max(lam2, 0.0) / lam1)
    if roundness < MIN_ROUNDNESS:
        return None
    # A filled ellipse has area pi*a*b with a,b = 2*sqrt(lambda): rings and letters do not.
    fill = area / (4 * math.pi * math.sqrt(max(lam1 * lam2, 1e-6)))
    if fill < 0.75 or fill > 1.35:
        return None
    squash = 0.5 * math.atan2(2 * mu11, mu20 - mu02) + math.pi / 2
    cx, cy = x + m["m10"] / area, y + m["m01"] / area
    peak = cv2.minMaxLoc(con.ratio(dark, x, y, x + w, y + h), patch)[1]  # max where patch > 0
    return _Pip(
        x=cx * scale,
        y=cy * scale,
        r=math.sqrt(area / math.pi) * scale,
        roundness=roundness,
        squash=squash,
        dark=dark,
        contrast=peak,
        fill=fill,
    )


def _alone(pip: _Pip, con: _Contrast, img: np.ndarray) -> _Pip | None:
    """The pip a lone pip (a 1) is judged as: a core (see _cores) by the whole blob it was
    trimmed from, which must be a pip by itself (a ragged blotch trimmed round is not); its
    contrast is the larger of its own and its colour contrast (see _colour_contrast); a clear
    dark pip too long for a 1 takes the shape a camera's smear leaves at half its depth (see
    _unsmeared)."""
    lone = pip
    if pip.cored:
        lone, seen = _whole_blob(pip, con), con
        if lone is None and not pip.dark:
            # A light pip on a pale face joined to the face's corners (see _round_light).
            window = x0, y0, x1, y1 = _pip_window(pip, con.gray.shape)
            part = _round_light(con, window)
            if _off_corner(pip, con, part, (x0, y0, x1 - x0, y1 - y0), MIN_PIP_AREA):
                lone, seen = _whole_blob(pip, part), part
                if lone is not None:
                    # (Its shape is taken in its own window, see _shaped_at_half_height.)
                    _round_light(con, _pip_window(lone, con.gray.shape))
        if lone is not None and not pip.dark:
            lone = _shaped_at_half_height(lone, seen)
    if lone is None:
        return None
    if lone.contrast < LONE_PIP_CONTRAST:
        lone = replace(lone, contrast=max(lone.contrast, _colour_contrast(pip, img)))
    if (lone.dark and lone.roundness < LONE_ROUNDNESS and lone.contrast >= LONE_PIP_CONTRAST
            and lone.fill >= LONE_FILL):
        # A clear dark pip, only not round enough where its blob is cut.
        lone = _unsmeared(lone, con)
    return lone


def _shaped_at_half_height(lone: _Pip, con: _Contrast) -> _Pip:
    """A light lone pip (its whole blob, see _alone) with the shape its blob has at half its
    own height over the face level.

    The contrast ratio is taken relative to the brighter side (see _cores): a dark pip's blob
    is cut at about 30..40% of its depth below the face, but a light pip's on a dark face at
    only about 15% of its height, down in the glow that blur, JPEG ringing and a drilled
    pip's shaded rim spread round it, unevenly (a smear along the camera's motion, the rim
    seen at an angle): a round white pip on a black die measures as squashed as a side face's.
    At half height it is cut nearer where a dark pip is; but a flat, saturated top or a glint
    off its centre can in turn distort that cut. A pip squashed by the view (a side face) is
    squashed at every height, so a cut clearly rounder than the whole blob (by more than
    SHAPE_TOLERANCE) gives the pip's shape, and one rounder within that tolerance half of
    it. A blotch whose half-height part is no pip (two peaks, a ragged patch: see _blob_pip)
    keeps its whole blob's shape. A cut that gives no shape may still give the fill (see
    below)."""
    cut = _half_height_cut(lone, con)
    # A cut too small to measure its shape (see SMALL_PIP) shows the whole blob's: the grid
    # alone makes a speck look round; so does a cut no rounder than the blob. Cuts within
    # measurement noise (SHAPE_TOLERANCE) of each other are one shape measured twice (a
    # blurred letter on a black key is as unround at both): its roundness is their mean. (The
    # whole blob's alone made a rounder blob the worse pip: a negative's round pip, its blob
    # 0.67..0.69 round and its cut 0.76..0.84, failed LONE_ROUNDNESS through camera shifts
    # where, without them, a blob 0.61..0.63 round took its cut's 0.84..0.86.)
    if cut is None:
        return lone
    if cut.r < SMALL_PIP or cut.roundness <= lone.roundness:
        # Its shape stays the whole blob's, but a fuller cut still gives the fill: noise
        # that joins a speck or two to a light pip's faint glow leaves a ragged blob whose
        # fill fails LONE_FILL, while the pip's top is a filled disc (synthetic rough413: a
        # lone 1's blob 0.86 full, its cut 0.99, read at the smoothed look, see _calmed). A
        # ring or a hole where strokes cross is no fuller at half height (see below). Not a
        # cut both too small (SMALL_PIP) and too unround (LONE_ROUNDNESS) to be a pip's top:
        # the pixel grid makes a speck of a cut look full as it makes it look round (cuts of
        # 1.3..2 pixels measure fills of 1.05..1.17; fresh synthetic frames: a 6's side pip,
        # its blob 0.81 full, took 1.03 from a cut of 1.95 pixels, 0.5 round, and was read
        # as a lone 1 that left the reading in doubt).
        if cut.r < SMALL_PIP and cut.roundness < LONE_ROUNDNESS:
            return lone
        return replace(lone, fill=max(lone.fill, cut.fill))
    # The glow is ragged where noise or a rough face's grain breaks its faint edge, and its
    # fill measures that; a hole left where strokes cross is a polygon at every height, and
    # its cut fills no more of its ellipse than its whole blob does. So a rounder cut gives
    # the fill, if it is the fuller.
    if cut.roundness <= lone.roundness + SHAPE_TOLERANCE:
        return replace(lone, roundness=(lone.roundness + cut.roundness) / 2,
                       fill=max(lone.fill, cut.fill))
    return replace(lone, roundness=cut.roundness, squash=cut.squash, fill=cut.fill)


def _half_height_cut(lone: _Pip, con: _Contrast) -> _Pip | None:
    """The part of a lone pip's blob more than half its own height (a dark pip's: depth)
    from the face level, measured as a pip (in its window, see _pip_window); None if there
    is no blob at its centre or the part is no pip (see _blob_pip)."""
    mask = con.masks[0 if lone.dark else 1]
    x0, y0, x1, y1 = _pip_window(lone, mask.shape)
    _, labels = cv2.connectedComponents(mask[y0:y1, x0:x1])
    label = labels[min(int(round(lone.y)), y1 - 1) - y0, min(int(round(lone.x)), x1 - 1) - x0]
    if label == 0:
        return None
    if lone.dark:
        step = cv2.subtract(con.closed[y0:y1, x0:x1], con.bright[y0:y1, x0:x1])
    else:
        step = cv2.subtract(con.gray[y0:y1, x0:x1], con.opened[y0:y1, x0:x1])
    blob = labels == label
    top = int(step[blob].max())
    half = ((step.astype(np.int16) * 2 > top) & blob).astype(np.uint8) * 255
    x, y, w, h = cv2.boundingRect(half)
    return _blob_pip(half, x, y, w, h, _Contrast(step, step, step, step, (half, half)), False,
                     KERNEL, 1.0, MIN_PIP_AREA)


def _unsmeared(lone: _Pip, con: _Contrast) -> _Pip:
    """A dark lone pip (its blob, see _alone) not round enough for a 1, with the shape it has
    at half its own depth when that shape is what a smear along one direction leaves.

    A dark pip's blob is cut at about a third of its depth (see _CUT_BELOW_HALF), where blur
    has spread the pip's edge outward; a camera moving during the exposure spreads it along
    its motion only, by most of the smear's length, and a round pip's blob comes out long
    along the smear (tune photos smeared 7 pixels: lone 1s 0.53..0.69 round). Any blur that
    is even along its reach leaves a pip's edge where it is at half the pip's own depth: the
    half-depth part is as wide across the smear as the blob, and shorter along it, by about
    the spread, so it is rounder. A blur alike in every direction (lens, JPEG, a low
    resolution) spreads the blob as far across as along, so its half-depth part is narrower
    both ways, and seldom rounder; a side face's pip is squashed at every depth; a deep spot
    in a shaded well is narrower than its blob across too. So the half-depth part gives the
    pip's shape only when it is rounder and kept the blob's width (SMEAR_WIDTH); its size
    stays the blob's, as the other pips' do. (A pip of a group keeps its blob's shape: alike
    shapes link a face's pips, see _groups, and a smear stretches them all alike.)"""
    if lone.r < SMALL_PIP:
        return lone  # (its half-depth part, smaller still, has the grid's shape: SMALL_PIP)
    cut = _half_height_cut(lone, con)
    if cut is None or cut.r < SMALL_PIP or cut.roundness <= lone.roundness:
        return lone
    # Its short axis (a filled ellipse's: r * r = long * short, roundness = short / long).
    if cut.r * math.sqrt(cut.roundness) < SMEAR_WIDTH * lone.r * math.sqrt(lone.roundness):
        return lone
    return replace(lone, roundness=cut.roundness, squash=cut.squash)


# A blob is cut at PIP_CONTRAST (see _contrast): for a dark pip a ratio to its face level, so
# a pip of at least twice that contrast is cut at or below half its depth; for a light pip a
# ratio to the pixel's own level, and so at or below half its height from 2P / (1 + P) (0.44).
_CUT_BELOW_HALF = (2 * PIP_CONTRAST / (1 + PIP_CONTRAST), 2 * PIP_CONTRAST)  # light, dark


def _half_height_radii(pips: list[_Pip], con: _Contrast) -> None:
    """Sets the radius at half its own height (``r_half``) of each pip whose blob was cut
    higher than that: the part around it more than halfway from the face level
    (_Contrast.closed or opened) to its own extreme.

    A blob is cut at a fixed contrast ratio (PIP_CONTRAST), so a faint pip's blob is cut high
    up its blurred profile: a pip of contrast 0.37 (light pips on a pale face, a pip in a dim
    corner) keeps only the part above about two thirds of its height, and measures about half
    its radius (synthetic scenes: 1.7..2.0 pixels where the pip is 3..3.5). Its face's pips
    then look too far apart for their size (see SPACING_RANGE). At half height the cut lies
    where it lies for any pip, faint or not. A blob cut at or below half height (most pips,
    see _CUT_BELOW_HALF) already measures that size or more, and a larger part at half height
    there is only the texture round it joining in (two specks on a dark cloth, contrast 0.6
    and 0.7, in a tuning photo's camera shift: at half height one measured 3.1 pixels, its
    blob 2.5, and they read as a 2). A pip whose half-height part runs out of its window or
    is no pip by itself (it joins a neighbour or the face's edge: see _blob_pip) keeps no such
    radius (0). Only the spacing tests take it (see SPACING_RANGE); a pip's size elsewhere
    (its reading's pip radius, the scale it is read at) stays its blob's."""
    h, w = con.gray.shape
    for p in pips:
        if p.contrast >= _CUT_BELOW_HALF[p.dark]:
            continue
        x, y = int(round(p.x)), int(round(p.y))
        if not (0 <= x < w and 0 <= y < h):
            continue
        x0, y0, x1, y1 = _depth_window(p, x, y, (h, w))
        if p.dark:
            step = cv2.subtract(con.closed[y0:y1, x0:x1], con.bright[y0:y1, x0:x1])
        else:
            step = cv2.subtract(con.gray[y0:y1, x0:x1], con.opened[y0:y1, x0:x1])
        # Its own extreme: the largest step within its blob's radius of its centre.
        k = max(1, int(round(p.r)))
        cx, cy = x - x0, y - y0
        top = int(step[max(0, cy - k) : cy + k + 1, max(0, cx - k) : cx + k + 1].max())
        at_half = _above_half(step, top, cx, cy)
        if at_half is not None:
            p.r_half = at_half.r


def _depth_window(p: _Pip, x: int, y: int, shape: tuple[int, int]
                  ) -> tuple[int, int, int, int]:
    """The window (x0, y0, x1, y1) round a pip at frame pixel (x, y) in which its depth is
    measured: three of its radii and a few pixels each way (its blob and the face round it),
    no farther than half a kernel, within the frame."""
    reach = min(KERNEL // 2, int(3 * p.r) + 3)
    return (max(0, x - reach), max(0, y - reach),
            min(shape[1], x + reach + 1), min(shape[0], y + reach + 1))


def _above_half(step: np.ndarray, top: float, x: int, y: int) -> _Pip | None:
    """The part of a mark more than half its ``top`` step above its face level (``step``, a
    window round it), holding window pixel (x, y), measured as a pip; None when there is no
    such part there, or it runs out of the window (no whole mark). The cut is no lower than
    any mark's step (MIN_PIP_STEP): below it lies the sensor's noise on a dark cloth, into
    which a speck's half-height part spreads."""
    half = ((step > max(top / 2, MIN_PIP_STEP)) * 255).astype(np.uint8)
    _, labels = cv2.connectedComponents(half, connectivity=8)  # (box: see below)
    label = labels[y, x]
    if label == 0:
        return None
    part = cv2.compare(labels, int(label), cv2.CMP_EQ)  # (255 where labels == label)
    bx, by, bw, bh = cv2.boundingRect(part)
    if bx == 0 or by == 0 or bx + bw >= half.shape[1] or by + bh >= half.shape[0]:
        return None
    return _blob_pip(part, int(bx), int(by), int(bw), int(bh),
                     _Contrast(step, step, step, step, (part, part)), False, KERNEL, 1.0,
                     MIN_PIP_AREA)


def _rounded_at_half_depth(pips: list[_Pip], con: _Contrast) -> None:
    """Re-measures, in place, the deep dark pips whose blob is stretched (no filled ellipse,
    see LONE_FILL: a disc is one from any view): its place, size and shape become those of
    the part more than halfway from the face level to its own extreme, when that part is
    clearly (SHAPE_TOLERANCE) rounder than the whole blob. (A pip whose blob is a filled
    ellipse keeps the shape it has: its face's other pips are measured as it is, and alike
    shapes link them, see _groups.)

    A deep pip's blob is cut at PIP_CONTRAST, at or below a third of its depth (see
    _CUT_BELOW_HALF), down in the blur round it: a corner pip a pixel or two from its face's
    shaded rim (a saturated face is dim at its edge in the level dark pips are found on, see
    _well_pips) joins that rim there, and its blob runs out onto it, off round and off centre,
    its ring (see _describe_faces) off the face (synthetic rough scenes: a blue 5's corner
    pip, 0.62 round, its face ring half table; at half depth 1.0 round, 1.5 pixels inward).
    The rim is shallower than the pip, so half the pip's own depth leaves it out. A pip
    squashed by the view (a side face's) is squashed at every depth, and stays as it was;
    so does one whose half-depth part is no pip by itself or runs out of its window."""
    h, w = con.gray.shape
    for p in pips:
        if (not p.dark or p.contrast < _CUT_BELOW_HALF[True] or p.fill >= LONE_FILL
                or p.roundness > 1.0 - SHAPE_TOLERANCE):
            continue
        x, y = int(round(p.x)), int(round(p.y))
        if not (0 <= x < w and 0 <= y < h):
            continue
        x0, y0, x1, y1 = _depth_window(p, x, y, (h, w))
        step = cv2.subtract(con.closed[y0:y1, x0:x1], con.bright[y0:y1, x0:x1])
        # Its own extreme: the deepest point within its blob's radius of its centre.
        k = max(1, int(round(p.r)))
        cx0, cy0 = max(0, x - x0 - k), max(0, y - y0 - k)
        _, top, _, at = cv2.minMaxLoc(step[cy0 : y - y0 + k + 1, cx0 : x - x0 + k + 1])
        cut = _above_half(step, top, cx0 + at[0], cy0 + at[1])
        if cut is None or cut.roundness <= p.roundness + SHAPE_TOLERANCE:
            continue
        p.x, p.y, p.r = cut.x + x0, cut.y + y0, cut.r
        p.roundness, p.squash, p.fill = cut.roundness, cut.squash, cut.fill


def _pip_window(pip: _Pip, shape: tuple[int, ...]) -> tuple[int, int, int, int]:
    """The part of the frame (x0, y0, x1, y1) a pip is looked at in by itself: KERNEL pixels
    each way from it, within the frame."""
    x0, y0 = max(0, int(pip.x) - KERNEL), max(0, int(pip.y) - KERNEL)
    return x0, y0, min(shape[1], x0 + 2 * KERNEL), min(shape[0], y0 + 2 * KERNEL)


def _blob_at(pip: _Pip, mask: np.ndarray) -> tuple[np.ndarray, int, int, tuple[int, ...]] | None:
    """The outline of ``mask``'s blob that holds a pip's centre, in the pip's window (see
    _pip_window), with the window's corner and the outline's bounding box (x, y, w, h, in the
    window); None if no blob holds it or the blob runs to the window's edge (larger than a
    pip's window)."""
    x0, y0, x1, y1 = _pip_window(pip, mask.shape)
    window = mask[y0:y1, x0:x1]
    contours, _ = cv2.findContours(window, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    for contour in contours:
        if cv2.pointPolygonTest(contour, (pip.x - x0, pip.y - y0), False) < 0:
            continue
        x, y, w, h = cv2.boundingRect(contour)
        if x == 0 or y == 0 or x + w >= window.shape[1] or y + h >= window.shape[0]:
            return None
        return contour, x0, y0, (x, y, w, h)
    return None


def _whole_blob(pip: _Pip, con: _Contrast) -> _Pip | None:
    """The pip that the whole blob around a core (see _cores) is; None if it is none or
    larger than a pip's window."""
    mask = con.masks[0 if pip.dark else 1]
    blob = _blob_at(pip, mask)
    if blob is None:
        return None
    _, x0, y0, (x, y, w, h) = blob
    return _blob_pip(mask, x0 + x, y0 + y, w, h, con, pip.dark, KERNEL, 1.0, MIN_PIP_AREA)


def _colour_contrast(pip: _Pip, img: np.ndarray) -> float:
    """A pip's contrast ratio against its face in the colour channel where the two differ
    most, when it lies on the pip's side of the face in every channel: lighter for a light
    pip, darker for a dark one (0 when not).

    White paint is lighter than any face in every channel, and a camera sees three: a white pip
    on a yellow face is far lighter than the face in blue, barely in grey (and in the blend of
    grey and dimmest channel pips are found on). A patch of another hue (the table in a loop of
    cable, a sticker) is darker than its surround in some channel. Likewise a coloured pip
    painted on a white face (the red 1 of many dice) is darker than the face in every channel,
    far darker in the ones its hue lacks, but barely in the blend of grey and brightest channel
    dark pips are found on (see _levels; synthetic white dice with red pips: lone pips of
    contrast 0.40..0.44 there, 0.64..0.79 by channel). The face is the ring colour
    _describe_faces took; the pip, the mean of a small square at its centre.
    """
    k = max(1, int(round(0.4 * pip.r)))
    x, y = int(round(pip.x)), int(round(pip.y))
    patch = img[max(0, y - k): y + k + 1, max(0, x - k): x + k + 1]
    if not patch.size:
        return 0.0
    centre = np.array(cv2.mean(patch)[:3], np.float32)
    tol = _colour_tolerance(float(pip.face.max()))
    if pip.dark:
        if (centre > pip.face + tol).any():
            return 0.0  # lighter than the face in some channel: no paint darker than it
        return float(((pip.face - centre) / (pip.face + 12.0)).max())
    if (centre < pip.face - tol).any():
        return 0.0  # darker than the face in some channel: no white paint
    return float(((centre - pip.face) / (centre + 12.0)).max())


def _sample(img: np.ndarray, xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
    """The pixels of ``img`` nearest to points (xs, ys), the frame's edge for those outside."""
    return img[_pixel_index(img.shape, xs, ys)]


def _on_frame(points: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """Which of ``points`` (N x 2, x and y) lie on a frame of ``shape``."""
    h, w = shape[:2]
    x, y = np.rint(points[:, 0]), np.rint(points[:, 1])
    return (x >= 0) & (x < w) & (y >= 0) & (y < h)


_RING = np.stack([np.cos(np.linspace(0, 2 * math.pi, 12, endpoint=False)),
                  np.sin(np.linspace(0, 2 * math.pi, 12, endpoint=False))], axis=1)


def _pixel_index(shape: tuple[int, ...], xs: np.ndarray, ys: np.ndarray
                 ) -> tuple[np.ndarray, np.ndarray]:
    """The rows and columns of the pixels _sample takes at points (nearest, inside the frame)."""
    h, w = shape[:2]
    # (np.minimum/np.maximum: np.clip costs several times as much on a few points.)
    return (np.minimum(np.maximum(np.rint(ys).astype(int), 0), h - 1),
            np.minimum(np.maximum(np.rint(xs).astype(int), 0), w - 1))


def _beyond_edge(colours: np.ndarray) -> np.ndarray:
    """Which of each ring's 12 samples (pips x 12 x 3, in order round the ring) lie off the
    ring's largest set of one colour (the samples within _same_colour's tolerance of one
    sample, the first such sample on a tie), when those make one unbroken arc, as a straight
    edge cuts a circle; none otherwise. Marks on the face itself cut it in several arcs: a
    stray dark mark between two rows of light pips has pips on either side of it, and its
    ring's colour mixed with theirs is what keeps it off the pips' face (clean276)."""
    diff = _channel_max(np.abs(colours[:, :, None] - colours[:, None, :]))  # pips x 12 x 12
    tol = _colour_tolerance(_channel_max(colours))
    member = diff <= tol[:, :, None]  # [p, k, j]: sample j is within sample k's tolerance
    best = np.argmax(member.sum(axis=2), axis=1)
    off = ~member[np.arange(len(colours)), best]
    starts = (off & ~np.roll(off, 1, axis=1)).sum(axis=1)
    return off & (starts == 1)[:, None]


def _within_face(dist: np.ndarray, rr: np.ndarray) -> np.ndarray:
    """Whether pips ``dist`` apart, of mean radius ``rr``, can lie on one face: no closer than
    its spacing allows, no farther than its farthest two pips (a 4, 5 or 6's opposite corners,
    2*sqrt(2) spacings)."""
    return (dist >= SPACING_RANGE[0] * rr) & (dist <= SPACING_RANGE[1] * 2 * math.sqrt(2) * rr)


def _outward(which: np.ndarray, xy: np.ndarray, r: np.ndarray, dark: np.ndarray,
             off: np.ndarray) -> np.ndarray:
    """Whether the arc ``off`` (len(which) x 12) of each pip ``which`` points away from its
    nearest alike pip (as _groups pairs them: of one polarity, as far apart as pips of one face
    can be), the side its own face lies on. A shadow's edge across a face cuts a ring as a
    die's edge does, but as often towards the face's other pips as away (light361: there the
    ring's larger part is the shade, and the face taken from it too dark to link)."""
    gap = xy[None] - xy[which][:, None]  # [i, j]: from pip which[i] to pip j
    dist = np.sqrt(gap[..., 0] * gap[..., 0] + gap[..., 1] * gap[..., 1])
    rr = (r[which][:, None] + r[None]) / 2
    alike = _within_face(dist, rr) & (dark[which][:, None] == dark[None])
    dist = np.where(alike, dist, np.inf)
    rows = np.arange(len(which))
    nearest = np.argmin(dist, axis=1)
    arc = off.astype(np.float32) @ _RING  # the arc's direction (its samples' summed)
    return np.isfinite(dist[rows, nearest]) & ((arc * gap[rows, nearest]).sum(axis=1) < 0)


# A pip's face colour is the mean of this many samples of its ring.
RING_SAMPLES = 5


def _face_ranks(off: np.ndarray) -> np.ndarray:
    """Which 5 of each ring's 12 samples (ordered away from the pip first, see _describe_faces)
    give its face colour: the 4th to 8th, the first samples beyond the face's edge (``off``,
    in the same order) left out and the next ones on the face taken in their place (then the
    3rd, 2nd, 1st: a ring more than half off its face)."""
    n = off.shape[1]
    rank = np.arange(n)[None]
    key = np.where(rank >= 3, rank, 2 * n - rank)
    key = np.where(off, 3 * n + rank, key)
    return np.argsort(key, axis=1, kind="stable")[:, :RING_SAMPLES]


def _describe_faces(pips: list[_Pip], img: np.ndarray, con: _Contrast) -> None:
    """The face colour around each pip, from a ring just outside it (and its level on the image
    its polarity is measured on, see _Contrast).

    A corner pip's ring can cross the face's bevelled edge, or the edge and the side face
    beyond it when blur spreads them; those mostly lie on the pip's side of the face (darker
    round a dark pip, lighter round a light one). So the face is the mean of the ring's 4th to
    8th samples of 12 counted from the other side (a glint or the table may be the first few).
    A table brighter than the face (or of another hue) breaks that when the ring crosses onto
    it: round a dark pip it then comes first, but may take more than 3 samples, and the face
    takes in some of it; the pips of one face then differ (light249: a blue 2 on beige, its
    corner pip's face (114, 104, 43) against the other's (93, 80, 11), not linked). There the
    samples beyond the edge are left out (see below).
    """
    if not pips:
        return
    xy = np.array([[p.x, p.y] for p in pips])
    dark = np.array([p.dark for p in pips])
    r = np.array([p.r for p in pips])
    # A light pip's glow reaches further onto its dark face (see _plain_between).
    rad = np.maximum(r * 1.9, r + np.where(dark, 2.0, 3.0))
    xs = xy[:, :1] + _RING[None, :, 0] * rad[:, None]
    ys = xy[:, 1:] + _RING[None, :, 1] * rad[:, None]
    at = _pixel_index(img.shape, xs, ys)  # (as _sample, for the three images at once)
    colours = img[at].astype(np.float32)  # pips x 12 x 3
    levels = np.where(dark[:, None], con.bright[at], con.gray[at]).astype(np.float32)
    # Away from the pip: brightest first round a dark pip, darkest first round a light one.
    order = np.argsort(np.where(dark[:, None], -levels, levels), axis=1, kind="stable")
    # (Medians of 12 as the middle two sorted: np.median costs several times as much.)
    ordered = np.sort(colours, axis=1)
    median = (ordered[:, 5:6] + ordered[:, 6:7]) / 2
    spread = np.abs(colours - median)
    # The face's edge: samples off the ring's largest set of one colour, on one arc that points
    # away from the face's other pips (see _beyond_edge, _outward). Only for pips seen
    # square-on: a side face's pip has its die's brighter top face just beyond its edge, and
    # its face colour mixed with that keeps the side face's pips from being linked and read
    # as a face of their own (clutter326: a false 2; with roundness down to 0.7 allowed,
    # rough312 was lost). A ring all within a face's tolerance of its median has no edge: most
    # are skipped so, and the test costs under 1% of a frame's time. Measured: old scenes 690
    # -> 692 of 700 (light249, oblique275), every other set as before; with the largest set
    # alone (no arc or direction test), 684 and 688 of 700 fresh and old.
    rho = np.array([p.roundness for p in pips])
    tol = _colour_tolerance(_channel_max(median[:, 0]))
    which = np.nonzero(_channel_max(spread).max(axis=1) > tol)[0]
    if len(which):
        off = _beyond_edge(colours[which])
        cut = off.any(axis=1)
        which, off = which[cut], off[cut]
    each = np.arange(len(pips))[:, None]
    edge = np.zeros(colours.shape[:2], bool)
    if len(which):
        off &= _outward(which, xy, r, dark, off)[:, None]
        edge[which] = off
    # Every pip's face with the samples beyond an edge left out, whatever its roundness (for a
    # pip whose blob ran into its die's edge, see _groups); its face proper leaves them out
    # only for pips seen square-on (see above).
    edge_order = order[each, _face_ranks(edge[each, order])]
    edge_faces = colours[each, edge_order].mean(axis=1)
    edge &= (rho >= SQUARE_ON)[:, None]
    if edge.any():
        order = order[each, _face_ranks(edge[each, order])]
    else:
        order = order[:, 3:8]
    faces = colours[each, order].mean(axis=1)
    greys = levels[each, order].mean(axis=1)
    # The ring's spread about its median (robust to the few samples on a glint, the halo or
    # the edge): the sensor's and JPEG's noise on this face, in its noisiest channel. A pip
    # stands out from its face by many times a camera's noise; a spread as large against the
    # blob's own step is the surface's texture (a blotch on wood or cloth), not noise, and
    # widens no tolerance.
    ordered = np.sort(spread, axis=1)
    noises = MAD_SIGMA * _channel_max((ordered[:, 5] + ordered[:, 6]) / 2)
    centres = _pixel_index(img.shape, xy[:, 0], xy[:, 1])
    steps = _channel_max(np.abs(img[centres].astype(np.float32) - faces))
    noises = np.where(steps >= PIP_OVER_NOISE * noises, noises, 0.0)
    peaks = np.where(dark, con.bright[centres], con.gray[centres]).astype(np.float32)
    for p, face, grey, noise, peak, edge_face in zip(pips, faces, greys, noises, peaks,
                                                     edge_faces):
        p.face = face
        p.edge_face = edge_face
        p.face_grey = float(grey)
        p.noise = float(noise)
        p.peak = float(peak)


def _standing_out(pips: list[_Pip], con: _Contrast) -> list[_Pip]:
    """The pips that differ from the face ring around them as a pip does from its face. A core
    (see _cores) can be trimmed from a strip of face that only looks light (or dark) against a
    level pulled down (or up) by real pips beside it; its own ring then shows the same face."""
    if not any(p.cored for p in pips):
        return pips
    return [p for p, k in zip(pips, _stand_out(pips, con)) if k or not p.cored]


def _stand_out(pips: list[_Pip], con: _Contrast) -> np.ndarray:
    """Which pips differ from the face ring around them (see _describe_faces) as a pip does
    from its face. Marks are found against the level around them (_Contrast.closed or opened),
    which the brightest (darkest) few pixels nearby set: a patch of black at the frame's edge
    below a thin light line (a key's gap under dim light) stands out from that line, but is as
    dark as its own ring, and no pip (see _judge_afresh for a 1, _standing_out for cores)."""
    xs, ys = np.array([p.x for p in pips]), np.array([p.y for p in pips])
    dark = np.array([p.dark for p in pips])
    at = _pixel_index(con.gray.shape, xs, ys)
    g = np.where(dark, con.bright[at], con.gray[at]).astype(np.float32)
    face = np.array([p.face_grey for p in pips], np.float32)
    step = np.where(dark, face - g, g - face)
    return step >= PIP_CONTRAST * (np.maximum(g, face) + 12.0)


# A median absolute deviation is this many standard deviations of normal noise.
MAD_SIGMA = 1.4826
# A pip's step from its face is at least this many times the face's noise (see _describe_faces).
PIP_OVER_NOISE = 4.0
# Single pixels of a plain face stay within this many standard deviations of its noise (see
# _describe_faces) in every channel: 2.0 leaves about 1 pixel in 8 outside in one of three.
NOISE_SPREAD = 2.0


def _colour_tolerance(level):
    """How far a plain face's colour may stray (per channel, 8-bit) from ``level``, its
    brightest channel (a float or an array): light falling off across a face scales it by up
    to 13%, and the sensor adds a few levels on any face."""
    return 0.13 * level + 8.0


def _same_colour(colours: np.ndarray, face: np.ndarray, noise: float = 0.0) -> np.ndarray:
    """Which colours (N x 3) could be the same plain face, allowing for light falling off and,
    where given, for the face's measured noise: on a dark face, sensor and JPEG chroma noise
    are large against its level, and a tolerance scaled by the level alone is too tight."""
    tol = max(_colour_tolerance(float(face.max())), NOISE_SPREAD * noise)
    return _channel_max(np.abs(colours - face)) <= tol


def _channel_max(values: np.ndarray) -> np.ndarray:
    """values.max(axis=-1) over three channels, as two elementwise maxima: numpy reduces a
    short last axis several times slower."""
    return np.maximum(np.maximum(values[..., 0], values[..., 1]), values[..., 2])


def _leaves_face(colours: np.ndarray, face: np.ndarray) -> np.ndarray:
    """Which colours (N x 3) are off a plain face of colour ``face``: where a walk out from its
    pips finds its edge (see _face_evidence).

    Light falling off scales every channel by one factor, so each channel is allowed the same
    fraction of its own level (as _same_colour allows of the brightest), or of its distance
    from the brightest, whichever is more (see below). A colour cast (tungsten
    light, a camera's white balance) scales the channels unequally, the face's and the table's
    alike: a step between them in a channel the cast dims shrinks with it, and a tolerance
    taken from the brightest channel would swallow it."""
    # A strongly coloured face's dim channel carries JPEG's chroma error (and a textured
    # table's), which grows with the face's saturation, not its level: there the tolerance
    # stays near the brightest channel's.
    tol = _colour_tolerance(np.maximum(face, face.max() - face))
    off = np.abs(colours - face) > tol
    return off[..., 0] | off[..., 1] | off[..., 2]  # (any(axis=-1), as for _channel_max)


def _plain_between(pips: list[_Pip], pairs: np.ndarray, img: np.ndarray,
                   dist: np.ndarray, stepped: bool = False) -> np.ndarray:
    """For each pair of pips (P x 2 indices), whether the face between them is plain: no seam,
    gap or edge of another die. All pairs are sampled in one pass. ``stepped``: the pips' faces
    differ by a hard shadow's edge (see SHADOW_STEP), and the face between them may be the
    colour of either one's."""
    # (x and y apart: numpy's loops over a short last axis cost more than the arithmetic.)
    x, y = np.array([p.x for p in pips]), np.array([p.y for p in pips])
    r = np.array([p.r for p in pips])
    faces = np.array([p.face for p in pips], np.float32)
    i, j = pairs[:, 0], pairs[:, 1]
    d = dist[i, j]
    # Samples start clear of both pips' halo. A light pip on a dark face spreads a few pixels
    # whatever its size (blur and the smoothing of ``img``) and the dark face's colour
    # tolerance is small; a dark pip's halo on a light face is well inside the tolerance,
    # and there the samples must come close to the pip to see a seam beside it.
    light = np.array([not p.dark for p in pips])
    clear = np.where(light, np.maximum(r * 1.5, r + 4.0), r * 1.5)
    t0, t1 = clear[i] / d, 1 - clear[j] / d
    long_enough = t1 > t0
    n = np.where(long_enough, np.maximum(4, ((t1 - t0) * d).astype(int)), 0)
    which = np.repeat(np.arange(len(pairs)), n)
    step = np.arange(len(which)) - np.repeat(np.cumsum(n) - n, n)
    t = t0[which] + (t1 - t0)[which] * step / np.maximum(n - 1, 1)[which]
    px = x[i][which] + (x[j] - x[i])[which] * t
    py = y[i][which] + (y[j] - y[i])[which] * t
    # The middle pip of a 3 or 5 lies on the diagonal: samples on the pips near the pair's
    # first one do not count.
    others = dist[i] < (d + r[i] * 2)[:, None]
    others[np.arange(len(pairs)), i] = False
    others[np.arange(len(pairs)), j] = False
    # (Measured only for the samples and pips ``others`` pairs up: few of all.)
    sample, pip = np.nonzero(others[which])
    on_pip = (px[sample] - x[pip]) ** 2 + (py[sample] - y[pip]) ** 2 <= ((r * 1.6) ** 2)[pip]
    keep = np.ones(len(which), bool)
    keep[sample[on_pip]] = False
    kept = np.bincount(which[keep], minlength=len(pairs))
    # A seam or a strip of table shows as samples off the face colour.
    face = (faces[i] + faces[j]) / 2
    vals = _sample(img, px, py).astype(np.float32)
    # A noisy (dark) face's single pixels stray from it by its noise, as in _face_evidence.
    noise = np.array([p.noise for p in pips])
    tol = np.maximum(_colour_tolerance(_channel_max(face)), NOISE_SPREAD * (noise[i] + noise[j]) / 2)
    off = (_channel_max(np.abs(vals - face[which])) > tol[which]) & keep
    if stepped:
        for k in (i, j):
            own = np.maximum(_colour_tolerance(_channel_max(faces[k])), NOISE_SPREAD * noise[k])
            off &= _channel_max(np.abs(vals - faces[k][which])) > own[which]
    offs = np.bincount(which[off], minlength=len(pairs))
    return ~long_enough | (kept < 2) | (offs <= np.maximum(1, n // 10))


def _cast_edge(a: _Pip, b: _Pip, img: np.ndarray) -> bool:
    """Whether the step in light between two dark pips' faces is a cast shadow's edge: the
    table beyond their die shows the same step across the same line (see CAST_REACH).

    The line crosses where the face between the pips turns from the lit pip's level to the
    shaded one's (their geometric middle); its direction is not measured on the face, where
    the pips, the die's own edges and its shading lie close (on a tune photo under a shadow
    band, the grey gradient there was 30 degrees off the band's edge): every direction (of
    _CAST_ANGLES) is tried, and the table decides."""
    la, lb = float(a.face.sum()) + 1.0, float(b.face.sum()) + 1.0
    lit, dim = (a, b) if la >= lb else (b, a)
    step = max(la, lb) / min(la, lb)
    if step < LIGHT_STEP * LIGHT_STEP:
        # No deeper than light falls off across a face, give or take the table step's
        # tolerance (below): the table's own fall-off along a line could match it.
        return False
    p0, p1 = np.array([lit.x, lit.y]), np.array([dim.x, dim.y])
    spacing = _length(p1 - p0)
    # The two are a 2's diagonal apart, 2 * sqrt(2) pip offsets (see SPACING_RANGE; CAST_REACH
    # counts in this distance between the two): it reaches beyond such a die, not beyond two
    # neighbouring pips of a larger face.
    if spacing < 2 * math.sqrt(2) * SPACING_RANGE[0] * max(lit.r, dim.r):
        return False
    t = np.linspace(1.5 * lit.r / spacing, 1 - 1.5 * dim.r / spacing, 16)
    pts = p0 + t[:, None] * (p1 - p0)
    levels = _sample(img, pts[:, 0], pts[:, 1]).astype(np.float32).sum(axis=1)
    below = np.flatnonzero(levels < math.sqrt(la * lb))
    if not len(below):
        return False
    at = pts[below[0]]
    across = (p1 - p0) / spacing
    for angle in _CAST_ANGLES:
        along = np.array([math.cos(angle), math.sin(angle)])
        if abs(along @ across) > CAST_ACROSS:
            continue
        normal = np.array([along[1], -along[0]])
        if normal @ across > 0:
            normal = -normal  # toward the lit pip
        side = max(3.0, CAST_SIDE * spacing) * normal  # (at least 3 pixels off the blurred line)
        q = at + CAST_REACH[:, None] * spacing * along
        lit_q, dim_q = q + side, q - side
        on_lit = _sample(img, lit_q[:, 0], lit_q[:, 1]).astype(np.float32).sum(axis=1) + 1.0
        on_dim = _sample(img, dim_q[:, 0], dim_q[:, 1]).astype(np.float32).sum(axis=1) + 1.0
        ratio = on_lit / on_dim
        # (A point off the frame shows no table: _sample would give the frame's edge.)
        match = ((np.abs(np.log(ratio / step)) <= math.log(LIGHT_STEP))
                 & _on_frame(lit_q, img.shape) & _on_frame(dim_q, img.shape))
        half = len(CAST_REACH) // 2
        if int(match[:half].all()) + int(match[half:].all()) >= CAST_SIDES:
            return True
    return False


def _in_shade(colours: np.ndarray, face: np.ndarray, other: np.ndarray) -> np.ndarray:
    """Which colours (N x 3) are a face's across a cast shadow's edge (``face`` on one side,
    ``other`` on the other): its balance (see BALANCE_STEP), at a level from the one's to
    the other's, within the tolerance light falling off across a face allows (see
    _colour_tolerance); the edge's blur lies between the two."""
    # (Levels as sums of the three channels, each allowed _colour_tolerance.)
    sums = colours.sum(axis=1)
    a, b = float(face.sum()), float(other.sum())
    lo, hi = min(a, b), max(a, b)
    level = ((sums >= lo - 3 * _colour_tolerance(lo / 3))
             & (sums <= hi + 3 * _colour_tolerance(hi / 3)))
    return level & _balanced_as(colours, face)


def _cast_shade(fit: _Fit, img: np.ndarray, face: np.ndarray, pip: _Pip) -> np.ndarray | None:
    """The colour of a 1's face across a cast shadow's edge from its pip, or None.

    A hard shadow's edge across a 1's face dims the part beyond it by one factor (LIGHT_STEP
    squared to SHADOW_STEP) and leaves its balance (see BALANCE_STEP); that part then seems
    no face of the pip's, near on one side, and the pip a spot on something not die-shaped.
    The samples of the 1's plain spots and first walk steps of the face's balance but off its
    level by such a step are taken as that part, if the step is a cast shadow's: the table
    beyond the die shows it across the same line (see _cast_edge, asked of the pip and a point
    of that part a 2's diagonal away)."""
    if float(face.max()) >= UNCLIPPED:
        return None
    inside = _EVIDENCE_POINTS[1][0]
    n = len(inside) + 4 * len(_CIRCLE16)  # the plain spots and the walk's first four steps
    pts = _EVIDENCE_STACKED[1][:n] @ fit.axes.T + fit.centre
    colours = _sample(img, pts[:, 0], pts[:, 1]).astype(np.float32)
    level = colours.sum(axis=1) / max(float(face.sum()), 1.0)
    alike = _balanced_as(colours, face)
    lo_step = LIGHT_STEP * LIGHT_STEP
    stepped = alike & _on_frame(pts, img.shape) & (
        ((level >= lo_step) & (level <= SHADOW_STEP))
        | ((level <= 1 / lo_step) & (level >= 1 / SHADOW_STEP)))
    if np.count_nonzero(stepped) < 4:
        return None
    # (Samples both dimmer and brighter than the face give a step between the two, which
    # _cast_edge refuses as no shadow's. Keeping to one side of the edge was tried: it let in
    # more 1s from other dice's pips, lab: 11 synthetic and tune frames lost.)
    ratio = float(np.median(level[stepped]))
    where = pts[stepped].mean(axis=0) - fit.centre
    if _length(where) < 1e-6:
        return None
    # (Just past the least distance _cast_edge asks of a 2's diagonal, so that its table
    # samples lie beyond the die.)
    reach = 2 * math.sqrt(2) * SPACING_RANGE[0] * pip.r * 1.05
    at = fit.centre + where / _length(where) * reach
    other = replace(pip, x=float(at[0]), y=float(at[1]), face=face * ratio)
    return face * ratio if _cast_edge(pip, other, img) else None


def _groups(pips: list[_Pip], img: np.ndarray, black: float = 0.0
            ) -> tuple[list[list[_Pip]], list[tuple[_Pip, _Pip]]]:
    """Pips linked into faces: alike, close enough, and plain face between them; and the pairs
    that were alike and close enough but not plain between, or unlike only in the way a pip
    whose blob ran into its surroundings is (see ``merged``), for _rejoin. Dark pips' faces
    are compared above the veil's black point ``black`` (see _veil): the light falling off
    across a face scales what the face reflects, not the veil added over it."""
    n = len(pips)
    parent = list(range(n))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    if n < 2:
        return [[p] for p in pips], []
    xy = np.array([[p.x, p.y] for p in pips])
    r = np.array([p.r for p in pips])
    dark = np.array([p.dark for p in pips])
    faces = np.array([p.face for p in pips])
    # (np.linalg.norm's arithmetic, the root of the summed squares, without its reduction over
    # a short axis; x and y apart, as numpy's loops over a short last axis cost more than the
    # arithmetic.)
    gap_x, gap_y = xy[:, :1] - xy[:, 0], xy[:, 1:] - xy[:, 1]
    dist = np.sqrt(gap_x * gap_x + gap_y * gap_y)
    rr = (r[:, None] + r[None]) / 2
    size_ok = np.minimum(r[:, None], r[None]) / np.maximum(r[:, None], r[None]) >= 0.55
    # Pips of one face are the same circle seen through the same tilt: alike in shape. A side
    # face's pips are squashed much more than the top face's beside them.
    rho = np.array([p.roundness for p in pips])
    shape_ok = np.abs(rho[:, None] - rho[None]) <= SHAPE_TOLERANCE
    # The farthest two pips of one face are the corners of a 4, 5 or 6: 2*sqrt(2) spacings.
    # (Of the blobs' radii, not the larger half-height ones of faint pips, see SPACING_RANGE:
    # a faint face of three or more pips links through its nearer pairs all the same, and a
    # faint 2's pips left alone are paired by _pair_twos. Reaching farther links faint specks
    # to what is near: in a tuning photo's negative, a speck of contrast 0.36 joined a side
    # face's row of pips, and the group was left unread.)
    near = _within_face(dist, rr)
    # A pip whose blob ran into a dark neighbour (the die's edge or shadow, the table beyond a
    # face's edge) is larger and less round than its face's other pips; a pip on another plane
    # (a side face) is less round and smaller, as foreshortening shrinks its area (synthetic
    # close scenes: a 5's corner pip by its die's shaded edge measured 0.58 round and 7.2
    # pixels, the face's other pips 0.94..1.0 and 5.6..5.9). Pairs unlike
    # only so are no links, but may rejoin (see _rejoin). Only pips large enough to measure
    # their shape (see SMALL_PIP) tell so: a smaller pip's roundness is the pixel grid's (a far
    # die's side 5 of 1.7 pixel pips rejoined a stray pip, in a tuning photo shrunk 0.45).
    merged = (~shape_ok & ((rho[:, None] < rho[None]) == (r[:, None] > r[None]))
              & (np.minimum(r[:, None], r[None]) >= SMALL_PIP))
    # Colours are compared only for the pairs alike so far (few of all).
    one, two = np.nonzero(np.triu(size_ok & (shape_ok | merged) & near
                                  & (dark[:, None] == dark[None]), 1))
    brightest = _channel_max(faces) - np.where(dark, black, 0.0)
    tol = _colour_tolerance(np.maximum(brightest[one], brightest[two]))
    colour_ok = _channel_max(np.abs(faces[one] - faces[two])) <= tol
    # A shadow's soft edge across a die dims one pip's face against the other's: the same colour
    # scaled by up to LIGHT_STEP still counts (the dimmer brought up first), for pips seen
    # square-on only. A side face is dimmer too, but its pips are squashed.
    level = faces.sum(axis=1) + 1.0
    gain = np.minimum(np.maximum(level[one] / level[two], 1 / LIGHT_STEP), LIGHT_STEP)
    square_on = np.minimum(rho[one], rho[two]) >= SQUARE_ON
    colour_ok |= square_on & (_channel_max(np.abs(faces[one] - faces[two] * gain[:, None])) <= tol)
    # A pip whose blob ran into its die's edge (less round and larger than the other, see
    # ``merged``) has that edge, and the table beyond it, in its face ring too; seen less than
    # square-on, its face keeps those samples (see _describe_faces). It is compared with its
    # ring's samples beyond the edge left out (synthetic rough3007: a 3's corner pip by its
    # red die's edge, 0.66 round against 0.88, its face mixed with the grey table, was left
    # alone and the die read as a 1; rough3031, rough3182 alike). Only beside a pip round
    # enough for a 1 (LONE_ROUNDNESS), whose own ring is a fair sample of the face: two ragged
    # marks are no pip and its face's (synthetic clutter3452: gaps in a coiled cable, 0.56 and
    # 0.67 round, linked so read as a 4).
    edge_faces = np.array([p.edge_face for p in pips])
    # [i, j]: pip j ran into an edge, not pip i (pips large enough to measure, as ``merged``)
    ran = ((rho < rho[:, None]) & (r > r[:, None])
           & (np.minimum(r[:, None], r[None]) >= SMALL_PIP))
    ran_one, ran_two = ran[two, one], ran[one, two]
    by_edge = (~colour_ok & (ran_one | ran_two)
               & (np.maximum(rho[one], rho[two]) >= LONE_ROUNDNESS))
    if by_edge.any():
        near_face = np.where(ran_one[:, None], edge_faces[one], faces[one])
        far_face = np.where(ran_two[:, None], edge_faces[two], faces[two])
        by_edge &= _channel_max(np.abs(near_face - far_face)) <= tol
        colour_ok |= by_edge
    # Across a hard shadow's edge (see SHADOW_STEP): alike in shape as well, and the face
    # between them plain but for one step from the one's colour to the other's; for _rejoin
    # only.
    shade = np.minimum(np.maximum(level[one] / level[two], 1 / SHADOW_STEP), SHADOW_STEP)
    # (Pips less than square-on but round enough for a 1 may still be a face a cast shadow's
    # edge splits, see _cast_edge.)
    shaded = (~colour_ok & (np.minimum(rho[one], rho[two]) >= LONE_ROUNDNESS)
              & shape_ok[one, two]
              & (_channel_max(np.abs(faces[one] - faces[two] * shade[:, None])) <= tol))
    steps = np.stack([one[shaded], two[shaded]], axis=1)
    if len(steps):
        steps = steps[_plain_between(pips, steps, img, dist, stepped=True)]
    unplain: list[tuple[_Pip, _Pip]] = []
    pairs = np.stack([one[colour_ok], two[colour_ok]], axis=1)
    if len(pairs):
        plain = _plain_between(pips, pairs, img, dist)
        links = plain & shape_ok[pairs[:, 0], pairs[:, 1]]
        for i, j in pairs[links]:
            parent[root(int(i))] = root(int(j))
        unplain += [(pips[int(i)], pips[int(j)]) for i, j in pairs[~links]]
    out: dict[int, list[_Pip]] = {}
    for i in range(n):
        out.setdefault(root(i), []).append(pips[i])
    # Two lone pips a shadow's step apart are as likely two dice's 1s, or a top face's pip and
    # its side face's (synthetic clutter383: a 1 and its side pip, 0.90 round, twice as dim),
    # as a 2 across the edge: a face split by a shadow rejoins only from a part that linked.
    # Unless the step is a cast shadow's edge, seen on the table beyond the die (_cast_edge);
    # pips less than square-on need that too, as a side face is dimmer and less round.
    sizes = {k: len(g) for k, g in out.items()}
    unplain += [(pips[int(i)], pips[int(j)]) for i, j in steps
                if (max(sizes[root(int(i))], sizes[root(int(j))]) > 1
                    and min(rho[i], rho[j]) >= SQUARE_ON)
                or (dark[i] and max(sizes[root(int(i))], sizes[root(int(j))]) == 1
                    and _cast_edge(pips[int(i)], pips[int(j)], img))]
    return list(out.values()), unplain


def _rejoin(groups: list[list[_Pip]], explained: list[list[_Face | list[_Pip]]],
            unplain: list[tuple[_Pip, _Pip]], img: np.ndarray, con: _Contrast) -> None:
    """Joins two groups that a pair of alike pips only just failed to link (see _plain_between,
    and the pairs unlike in shape only as a merged blob is, see _groups) when their
    explanations leave pips unread and together they make one legal face.

    Close pips (a 3's middle and corner) leave only a pixel or two of face between their
    halos, so the plainness test there rests on one or two pixels of sensor noise; the layout's
    own tests on the joined face (its blank spots, its edges all round) sample far more of it.
    A reading that explains every pip of both groups as one face beats one that leaves some
    unread. In place: joined groups move into the first, the second is left empty."""
    where = {id(p): k for k, g in enumerate(groups) for p in g}
    for a, b in unplain:
        i, j = where[id(a)], where[id(b)]
        if i == j or len(groups[i]) + len(groups[j]) > 6:
            continue
        both = groups[i] + groups[j]
        read = {id(p) for part in explained[i] + explained[j] if isinstance(part, _Face)
                for p in part.group}
        if all(id(p) in read or p.side for p in both):
            continue
        # A pair unlike in shape (one pip's blob ran into a dark neighbour, see _groups)
        # rejoins only groups that both leave pips unread: a read 4 and two pips of its side
        # face beside it can make a legal 6, though the 4 explains all its own pips
        # (synthetic tuning seeds: three 4s read as 6s so, their side pips measuring larger).
        if abs(a.roundness - b.roundness) > SHAPE_TOLERANCE and any(
                all(id(p) in read or p.side for p in groups[k]) for k in (i, j)):
            continue
        face, _ = _judge(both, img, con)
        if face is None:
            # Or only the pips both explanations leave unread: a pip that linked to a
            # touching die's face across the seam instead of to its own face's other pip.
            unread = [p for p in both if id(p) not in read and not p.side]
            if a not in unread or b not in unread or len(unread) == len(both):
                continue
            face, _ = _judge(unread, img, con)
            if face is None:
                continue
            taken = {id(p) for p in unread}
            parts = [part if isinstance(part, _Face) else [p for p in part if id(p) not in taken]
                     for part in explained[i] + explained[j]]
            for p in both:
                where[id(p)] = i
            for p in unread:
                p.linked = p.side = False
            groups[i], groups[j] = both, []
            explained[i], explained[j] = [part for part in parts if part] + [face], []
            continue
        for p in both:
            p.linked = p.side = False
            where[id(p)] = i
        groups[i], groups[j] = both, []
        explained[i], explained[j] = [face], []


@dataclass
class _Fit:
    value: int
    centre: np.ndarray
    axes: np.ndarray  # 2x2: columns are the images of canonical x and y
    residual: float  # worst pip error over pip spacing


def _singular_values(a: np.ndarray) -> np.ndarray:
    """The singular values (larger first) of 2x2 matrices (..., 2, 2), in closed form: the
    face search asks for thousands of them per frame, each a LAPACK call through numpy."""
    sq = (a * a).sum(axis=(-2, -1))
    det = np.abs(a[..., 0, 0] * a[..., 1, 1] - a[..., 0, 1] * a[..., 1, 0])
    big = np.sqrt((sq + np.sqrt(np.maximum(sq * sq - 4 * det * det, 0.0))) / 2)
    small = np.divide(det, big, out=np.zeros_like(big), where=big > 0)
    return np.stack([big, small], axis=-1)


def _mean_scale(a: np.ndarray) -> float:
    """The mean of one 2x2 matrix's singular values (see _singular_values), in plain floats."""
    (p, q), (r, t) = a.tolist()
    sq = p * p + q * q + r * r + t * t
    det = abs(p * t - q * r)
    big = math.sqrt((sq + math.sqrt(max(sq * sq - 4 * det * det, 0.0))) / 2)
    return (big + (det / big if big > 0 else 0.0)) / 2


def _length(v: np.ndarray) -> float:
    """np.linalg.norm of a float vector, as it computes it (the root of its dot product with
    itself), without its overhead."""
    v = v.ravel(order="K")
    return math.sqrt(v.dot(v))


def _rot(angle: float) -> np.ndarray:
    c, s = math.cos(angle), math.sin(angle)
    return np.array([[c, -s], [s, c]])


def _white_layout(layout: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A layout whitened, as each way of laying a pip onto it may need it: one copy per
    candidate (plain or mirrored, for each pip off the centre), as its x and its y
    coordinates, and that pip's angle."""
    el, vl = np.linalg.eigh(np.cov(layout.T, bias=True))
    wl = layout @ vl @ np.diag(el**-0.5) @ vl.T
    radii_l = np.linalg.norm(wl, axis=1)
    cands = [(m, j) for m in (1.0, -1.0) for j in range(len(layout)) if radii_l[j] >= 0.3]
    flips = np.array([m for m, _ in cands])
    wl_m = wl[None] * np.stack([np.ones_like(flips), flips], axis=1)[:, None, :]
    picked = wl_m[np.arange(len(cands)), [j for _, j in cands]]
    return wl_m[..., 0].copy(), wl_m[..., 1].copy(), np.arctan2(picked[:, 1], picked[:, 0])


_WHITE_LAYOUTS = {n: _white_layout(layout) for n, layout in LAYOUTS.items() if n >= 4}


# How far (in pip offsets) a 3's middle pip may lie off the midpoint of its corner pips.
BENT_THREE = 0.25


# A face's map may be squashed (smaller over larger scale) to this much (~57 degrees off
# vertical) ...
MAX_SQUASH = 0.55
# ... or to PIP_SQUASH_FLOOR when its pips' tilt undoes all but ALIKE_SQUASH of it.
PIP_SQUASH_FLOOR = 0.4
ALIKE_SQUASH = 0.85


def _fit_layout(pts: np.ndarray, tilt: np.ndarray) -> _Fit | None:
    """The legal layout an affine map takes onto these pip centres, or None.

    ``tilt`` is the face's foreshortening as the round pips show it; it fixes the axis that one,
    two or three pips in a row leave open.
    """
    n = len(pts)
    if n == 0 or n > 6:
        return None
    centre = np.add.reduce(pts, axis=0) / n  # pts.mean(axis=0), without its overhead
    if n == 1:
        return _Fit(1, centre, tilt.copy(), 0.0)
    if n in (2, 3):
        order = np.argsort(((pts - centre) ** 2).sum(axis=1))
        ends = pts[order[-2:]]
        diag = (ends[1] - ends[0]) / 2  # image of canonical (1, 1)
        if n == 3:
            mid = pts[order[0]]
            residual = _length(mid - (ends[0] + ends[1]) / 2) / max(_length(diag), 1e-9)
            # A 3's pips are one straight line at any view (an affine map keeps lines and
            # midpoints): real 3s put the middle pip within 0.05 pip offsets of the ends'
            # midpoint. Three specks in a bent line (a cable's glints) are no 3.
            if residual > BENT_THREE:
                return None
            centre = (ends[0] + ends[1]) / 2
        else:
            residual = 0.0
        flat = np.linalg.solve(tilt, diag)  # the diagonal as it lies on the face
        turn = _rot(math.atan2(flat[1], flat[0]) - math.pi / 4)
        axes = tilt @ turn * (_length(flat) / math.sqrt(2))
        return _Fit(n, centre, axes, residual)
    layout = LAYOUTS[n]
    x = pts - centre
    # Whitening both point sets leaves only a rotation (or mirror) between them.
    # (The inverse square root of the 2x2 covariance in closed form, as numpy's eigh would
    # give it, at a fraction of the cost; in plain floats, the same arithmetic as on numpy's.)
    (a00, a01), (_, a11) = (x.T @ x / n).tolist()
    det = a00 * a11 - a01 * a01
    top = (a00 + a11) / 2 + math.hypot((a00 - a11) / 2, a01)
    if top <= 0 or det / top <= 1e-9 * max(top, 1e-9):
        return None
    root = math.sqrt(det)
    m00, m11 = a00 + root, a11 + root
    unwhite = math.sqrt(a00 + a11 + 2 * root) / (m00 * m11 - a01 * a01)
    wx = x @ (np.array([[m11, -a01], [-a01, m00]]) * unwhite)
    spread = [u * u + v * v for u, v in wx.tolist()]
    i0 = spread.index(max(spread))  # as np.argmax: the first of the farthest
    # Every way of laying the farthest pip onto a layout pip (mirrored or not), all at once:
    # turn the whitened layout so that pip lands on it, then pair each pip with its nearest.
    wl_x, wl_y, picked_angle = _WHITE_LAYOUTS[n]
    wx0, wx1 = wx[:, 0], wx[:, 1]
    ang = math.atan2(wx1[i0], wx0[i0]) - picked_angle
    c, sn = np.cos(ang)[:, None], np.sin(ang)[:, None]
    # x and y apart (a sum of two squares is the same in any order).
    gap_x = wx0[None, :, None] - (wl_x * c - wl_y * sn)[:, None, :]
    gap_y = wx1[None, :, None] - (wl_x * sn + wl_y * c)[:, None, :]
    dist = np.sqrt(gap_x * gap_x + gap_y * gap_y)
    assign = dist.argmin(axis=2)
    near = dist.min(axis=2).max(axis=1)
    ordered = np.sort(assign, axis=1)
    one_each = (ordered[:, 1:] != ordered[:, :-1]).all(axis=1)
    ks = np.nonzero(one_each & (near <= 0.35))[0]
    if not len(ks):
        return None
    # Least squares x ≈ src @ a for all pairings at once: each pairs every layout pip with one
    # pip, so src^T src is the layout's own and only src^T x changes.
    src = layout[assign[ks]]
    a = _LAYOUT_GRAM_INV[n] @ np.einsum("kni,nj->kij", src, x)
    miss = src @ a - x[None]
    miss_x, miss_y = miss[..., 0], miss[..., 1]
    err = np.sqrt((miss_x * miss_x + miss_y * miss_y).max(axis=1))
    axes = a.transpose(0, 2, 1)
    sv = _singular_values(axes)
    aspect = sv[:, 1] / sv[:, 0]
    ok = aspect >= MAX_SQUASH
    steep = ~ok & (aspect >= PIP_SQUASH_FLOOR)
    if steep.any() and tilt[0, 0] + tilt[1, 1] < 2.0:
        # A face seen more steeply than MAX_SQUASH is still one when its pips are squashed
        # alike, along the same axis: one plane gives the face and its round pips one shape.
        # Undone by the pips' own tilt, such a face's map is nearly square; a 4 or 6 cut from
        # a larger group, or pips of two planes, is not.
        flat = _singular_values(np.linalg.inv(tilt) @ axes[steep])
        ok[steep] = flat[:, 1] / flat[:, 0] >= ALIKE_SQUASH
    if not ok.any():
        return None
    residual = np.where(ok, err / ((sv[:, 0] + sv[:, 1]) / 2), np.inf)  # over the mean scale
    k = int(np.argmin(residual))
    return _Fit(n, centre, axes[k], float(residual[k]))


def _face_level(group: list[_Pip], con: _Contrast) -> tuple[np.ndarray, float, float, int]:
    """What a face's marks are measured on: the level image of its pips' polarity, the face's
    grey level there, the sign that makes a pip positive, and the half-side of the small square
    a mark is the median of (0.6 pip radii)."""
    rad = max(1, int(round(statistics.median([p.r for p in group]) * 0.6)))
    level = statistics.median([p.face_grey for p in group])
    return con.level(group[0].dark), level, -1.0 if group[0].dark else 1.0, rad


def _empty_where_no_pip(fit: _Fit, group: list[_Pip], con: _Contrast,
                        shaded: bool = False) -> float:
    """The strongest mark where the layout says the face is blank, as a fraction of how far
    this face's own pips stand out from it (0 = clean, 1 = as strong as a pip).

    Measured against the face's own pips, not an absolute ratio: on a dark die the noise is a
    large fraction of the grey level, while the pips still stand far above it.
    ``shaded``: a hard shadow's edge crosses the face (see _shadow_split). Each pip is then
    measured against the face level around it, and the blank spots against the shaded level:
    one by the edge may lie across it from its nearest pip, and a mark on the lit part still
    stands out from the shaded face by most of a pip's step.
    """
    if fit.value == 1:
        return 0.0  # the pip offset is unknown on a 1; its ring is checked by the caller
    empty = _BLANKS[fit.value]
    image, level, sign, rad = _face_level(group, con)
    h, w = image.shape
    # The pips and the blank spots, measured in one pass: median grey of a small square at each
    # point, minus the face level (signed so that a pip is positive); inf for points off the
    # frame.
    xy = np.vstack([[[p.x, p.y] for p in group], empty @ fit.axes.T + fit.centre])
    xi, yi = np.rint(xy[:, 0]).astype(int), np.rint(xy[:, 1]).astype(int)
    steps = np.full(len(xy), math.inf)
    inner = (xi >= rad) & (xi < w - rad) & (yi >= rad) & (yi < h - rad)
    levels = np.full(len(xy), level)
    if shaded:
        own = np.array([p.face_grey for p in group])
        levels[: len(group)] = own
        levels[len(group):] = own.min()  # (dark pips only)
    if inner.any():
        steps[inner] = sign * (_square_medians(image, xi[inner], yi[inner], rad) - levels[inner])
    for k in np.nonzero(~inner & (xi >= 0) & (xi < w) & (yi >= 0) & (yi < h))[0]:
        patch = image[max(0, yi[k] - rad): yi[k] + rad + 1,
                      max(0, xi[k] - rad): xi[k] + rad + 1]
        steps[k] = sign * (float(np.median(patch)) - levels[k])
    # (statistics.median: np.median's value, the middle one or the mean of the middle two.)
    pip_step = statistics.median(steps[: len(group)].tolist())
    if pip_step <= 0:
        return 1.0
    return max(0.0, float(steps[len(group):].max()) / pip_step)


def _square_medians(image: np.ndarray, xi: np.ndarray, yi: np.ndarray, rad: int) -> np.ndarray:
    """The median of the (2 rad + 1)-wide square of ``image`` at each point (integer centres,
    all at least ``rad`` inside the image), as floats."""
    d = np.arange(-rad, rad + 1)
    w = image.shape[1]
    # (One gather from the flat image, each square's pixels at fixed offsets from its centre:
    # the same pixels in the same order as by row and column, at two thirds of the cost.)
    patches = image.reshape(-1)[(yi * w + xi)[:, None] + (d[:, None] * w + d).ravel()]
    # An odd-sized square: its median is its middle value.
    mid = patches.shape[1] // 2
    return np.partition(patches, mid, axis=1)[:, mid].astype(float)


def _outline(fit: _Fit, half: float) -> np.ndarray:
    corners = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], float) * half
    return corners @ fit.axes.T + fit.centre


def read_dice(frame: np.ndarray, closer: bool = True) -> DiceReading:
    """Reads the top faces of the dice in a BGR frame.

    Returns every die whose face fits a legal layout, the boxes of faces that fit none, and a
    confidence in 0..1 for the whole reading (low when anything was unreadable).

    The frame is read at WORK_SIDE first; a noisy frame read unsurely there, or surely but not
    near certainly, is read again smoothed (see _calmed). A large frame in which the dice come
    out too small there to read, or unsure (a phone's photo of the whole table), is read again
    at twice and then four times that, as long as the frame has the pixels for it; a smaller
    frame is read once more enlarged to twice WORK_SIDE (dice far from the camera). A reading
    that is empty, unsure, or whose pips are too large for WORK_SIDE is read again at half and a
    quarter of it (dice close to the camera). ``closer=False`` skips these second looks (a live
    camera's picture that is still moving) and the smoothed look. A first look that stands
    unsure is put to a vote of five looks at nearby scales (see VOTE_SIDES), unless every larger
    or smaller look that read dice read its very values (see _seconded).
    """
    start = time.perf_counter()
    if (frame is None or frame.ndim != 3 or frame.shape[2] != 3 or frame.dtype != np.uint8
            or min(frame.shape[:2]) < 8):
        raise ValueError("read_dice needs an 8-bit BGR colour frame (height x width x 3), at "
                         "least 8 pixels a side")
    reading = _read_at(frame, WORK_SIDE)
    if closer and reading.confidence < NEAR_CERTAIN:
        reading = _calmed(frame, reading)
    first = reading
    passed, passed_side = None, 0  # the last larger reading that did not stand
    # The readings at other sides than WORK_SIDE, by side: the larger and smaller looks, then
    # the vote's and _agreed_elsewhere's.
    by_side: dict[int, DiceReading] = {}
    seen_at = WORK_SIDE  # the side the reading was made at
    long_side = max(frame.shape[:2])
    for side in (2 * WORK_SIDE, 4 * WORK_SIDE) if closer else ():
        if not (_too_small(reading, frame, side // 2) or reading.confidence < SURE_READING):
            break
        # A frame without the pixels for this size is enlarged, once: it adds no detail, but
        # pips of two or three pixels come out round enough to be measured.
        enlarged = long_side < 0.75 * side
        # Pips already too large for the kernels (see LARGE_PIP) come out twice as large
        # enlarged: a face they leave unread is lost there, not read, and the larger look
        # would seem surer for it (synthetic close520: a 1's big pip left unread at
        # WORK_SIDE, not found at all at twice that). The smaller looks below read them.
        if _large_pips(reading, frame, side // 2):
            break
        if enlarged and side > 2 * WORK_SIDE:
            break
        larger = by_side[side] = _read_at(frame, side)
        passed, passed_side = larger, side
        # A reading whose dice were too small to tell their pips apart is no judge of one
        # that has the frame's real pixels for them: its faces came apart into 1s as sure as
        # any die, or were lost, so neither its count of dice nor its confidence means much.
        # (A phone's photo of the whole table: at WORK_SIDE its pips are one or two pixels.)
        if not enlarged and larger.dice and _too_small(reading, frame, side // 2):
            reading, seen_at = larger, side
            continue
        if not larger.dice and reading.unread:
            break  # seeing nothing is no surer than seeing a face that could not be read
        # Enlarged, pips that were already large come out too large for the kernels (see
        # LARGE_PIP): a face keeps only the pips still found, its middle one a sure 1, or
        # none, and is lost whole (a die's side face may then read in its place).
        if _large_pips(larger, frame, side) and (_lost_pips(larger, reading)
                                                 or _lost_faces(larger, reading)):
            break
        # Enlarged, the frame adds no pips: a sure face read with fewer of the very pips the
        # first look read it with has come apart (see _came_apart), and the first stands.
        # So it does when the first look is unsure for something else: each of its dice read
        # surely was read whole (tune photo six_22 under a warm cast: three sure 6s and a mark
        # the frame's edge cuts; enlarged, a 6's middle pips were lost and it read a 4).
        if enlarged and _came_apart(larger, reading, SURE_READING):
            break
        # So has a face the first look read surely, with nothing left unread, that the
        # enlarged look leaves unread (see _unread_where_sure).
        if enlarged and not reading.unread and _unread_where_sure(larger, reading):
            break
        # A face the first look read surely, its pips at a size it measures well, that the
        # larger look reads as a 1 on one of those pips came apart there (its pips linked
        # with a side face's instead): enlarging adds no pip and loses none, so the larger
        # look is no surer of that die, however sure it is of the 1.
        if not _too_small(reading, frame, side // 2) and _lost_pips(larger, reading,
                                                                    SURE_READING):
            break
        # A larger reading that accounts for the first die by die (see _accounts_for) stands
        # even when it is no surer: two readings that left faces unread are equally unsure,
        # and this one read more of them.
        if _accounts_for(larger, reading):
            reading, seen_at = larger, side
            continue
        # An enlarged reading stands only if it is surer; a larger one if it reads more dice,
        # or as many more surely. Pips too small to measure (see SMALL_PIP) are measured
        # better enlarged, so there it stands as a larger one would; but a face that came
        # apart at the first size leaves 1s as sure as any die, so sure readings'
        # confidences are not compared: a sure one stands if it reads as many dice.
        if enlarged and _small_pips(reading, frame, side // 2):
            new = (len(larger.dice), min(larger.confidence, SURE_READING))
            old = (len(reading.dice), min(reading.confidence, SURE_READING))
            if new < old or (new == old and larger.confidence < SURE_READING):
                break
            # As many dice, but not one of the first look's sure dice at its place: the
            # enlarged look moved a die (a side face read in place of its top, whose pip it
            # lost) rather than read a face the first missed. Enlarging adds no pixel, and
            # the first look's reading of that place stands (see _lost_faces; synthetic
            # oblique654: a sure 1 above its die's side 5, enlarged read as a second 5).
            if new == old and _lost_faces(larger, reading):
                break
            # So it does where the enlarged look read a 2 on a 1 the first read surely,
            # leaving no mark unread: the first found the 2's other pip too, and put it on
            # the die's side face; the enlarged look linked it with the 1's pip instead
            # (synthetic light190: a sure 1 beside its side face's pip, enlarged a 2 of 0.937;
            # see _outgrown_ones).
            if new == old and not reading.unread and _outgrown_ones(larger, reading):
                break
        elif (enlarged and larger.confidence <= reading.confidence
              and not _explains_more(larger, reading)) or (
                (len(larger.dice), larger.confidence) < (len(reading.dice), reading.confidence)):
            break
        # So with pips measured well at the first size: an enlarged look that reads no more
        # dice than the first, and nothing at or beside the place of one of its sure dice
        # (see _left_bare), lost that die whole rather than put right a misreading (a side
        # face read in place of its top is put right by a die beside it); however sure it
        # is, the look it was weighed against stands (the first look, or its smoothed one:
        # see _calmed; synthetic oblique472: a sure top 2 read at WORK_SIDE,
        # its pips twice as large enlarged passed for no face and the place was left bare).
        elif enlarged and len(larger.dice) <= len(reading.dice) and _left_bare(larger, reading):
            break
        reading, seen_at = larger, side
    # Dice close to the camera (a low stand, a phone held over the tray) have pips too big
    # for the kernels at WORK_SIDE: they are read at half that, then a quarter, while the
    # reading is empty, unsure, or its pips (or a lone pip it left) are large. A smaller
    # reading stands only if its pips are not too small to measure there, and then: in place
    # of one whose pips were too large, if it is sure or no less sure than that one; else if
    # it is sure and reads more dice, or as many more surely.
    at = WORK_SIDE
    farther = reading
    for side in (WORK_SIDE // 2, WORK_SIDE // 4) if closer else ():
        if min(frame.shape[:2]) * side < 8 * long_side:
            break  # a strip too thin to shrink
        if (reading.dice and reading.confidence >= SURE_READING
                and not _large_pips(reading, frame, at)
                and not _large_lone_pip(reading, frame, at)):
            break
        # The quarter-size look stands only if its pips are not too small to measure there;
        # when the half-size look found dice and measured its pips, and its largest lone pip,
        # too small for that (allowing SIDE_RADII for a radius measured at another side),
        # the quarter-size look cannot stand.
        if (side < WORK_SIDE // 2 and reading.dice and farther.dice
                and max(farther.pip_radius, farther.lone_radius) * side / long_side
                < SIDE_RADII * SMALL_PIP):
            break
        farther = by_side[side] = _read_at(frame, side)
        # A smaller reading that accounts for this one die by die stands too. Where this one
        # left a lone pip too large for its side (a 1 or a face whose big pips it could not
        # read), the smaller one's further sure dice need not lie on its unread faces.
        if farther.dice and not _small_pips(farther, frame, side) and _accounts_for(
                farther, reading, lone=_large_lone_pip(reading, frame, at)):
            reading, at = farther, side
            seen_at = at
            continue
        # A larger reading passed over above stands after all when this smaller one reads
        # the very same dice, die for die at the same places, and it accounts for this
        # reading's dice, though its own are unsure or not on faces this one left unread:
        # two looks at four times each other's scale seldom make the same mistakes. (Not
        # one whose pips were too large for its side: see LARGE_PIP.)
        if (passed is not None and passed is not reading and farther.dice
                and not _large_pips(passed, frame, passed_side) and _agrees(farther, passed)
                and _accounts_for(passed, reading, loose=True)):
            reading, at = passed, passed_side
            seen_at = at
            continue
        # In place of one whose pips were too large it stands, as sure or not, when it reads
        # each of that one's dice at its place, with as many pips or more, and more dice
        # besides, no more faces left unread (see _accounts_for): pips too large for the
        # kernels lose a face whole, leaving no mark, and the look that lost it is then no
        # surer for it (synthetic close749: a 3 of big pips not seen at all, [1] at 0.868;
        # half the size read [1, 3] at 0.863, and so did a quarter).
        # (Not when it reads fewer pips at the place of a die this one read, its pips large
        # enough there to measure (see SMALL_PIP): shrunk, a small die's whole face blurs into
        # one blob, a sure 1 over the face's pips.)
        if farther.dice and not _small_pips(farther, frame, side) and (
                (_large_pips(reading, frame, at)
                 and (farther.confidence >= min(SURE_READING, reading.confidence)
                      or _accounts_for(farther, reading, loose=True, surer=False)))
                or (farther.confidence >= SURE_READING
                    and (len(farther.dice), farther.confidence)
                    > (len(reading.dice), reading.confidence)
                    and not (_fewer_pips(farther, reading)
                             and not _small_pips(reading, frame, seen_at)))):
            reading, at = farther, side
            seen_at = at
    if (closer and reading is first and reading.confidence < SURE_READING
            and not _seconded(first, list(by_side.values()))):
        reading = _outvoted(frame, reading, by_side)
    # (Counting the vote's looks too changes no outcome: it is taken only where the larger and
    # smaller looks did not second the first, and the dice it puts in stand against the rest.)
    if (closer and reading.confidence < SURE_READING
            and not _seconded(reading, list(by_side.values()))):
        reading = _agreed_elsewhere(frame, reading, by_side)
    return replace(reading, ms=(time.perf_counter() - start) * 1000)


# Sensor noise (grey levels, one standard deviation) in the quietest tenth of a frame above which
# its pips are looked for again on a smoothed copy (see _calmed). Measured (see _noise_floor):
# synthetic "rough" frames (noise 6, JPEG 45..75) 1.56..2.2; the other synthetic conditions
# 0.66..1.77 (about one frame in twenty over 1.5); the tune photos 0.37..0.43 (through noise 8
# they pass it, through "grainy", noise 7 and JPEG 55, they do not).
NOISY_FRAME = 1.5
# The smoothing (Gaussian sigma, work pixels) of that copy: a speck of one pixel keeps a sixth
# of its step (1 / (2 pi sigma^2)), while the middle of a pip of 2 pixels' radius keeps 0.86 of
# its depth (1 - exp(-r^2 / (2 sigma^2))), of 1.5 pixels (near the smallest read, MIN_PIP_AREA)
# 0.68: pips come out as blobs where specks sink below the contrast a pip needs.
CALM_SIGMA = 1.0
# A first look in a noisy frame sure only below this is looked at smoothed as well, and the
# surer of the two stands, whatever their count of dice. Noise that breaks a pip into specks
# leaves a face a pip short, or adds one, and the wrong face still fits a layout: over the
# noisy tune frames (1,160 of the 7,200, seeds 0..899), five of the seven first looks read
# wrong and sure were sure at 0.947..0.963 (a 1 read as a 2, a 5 as a 3, a side face's 4 as a
# die), and the smoothed look read each right and surer. Of the 385 right first looks below
# 0.98 there, none was read otherwise and as surely smoothed; above it, three of 237 were
# (a 5's pips smoothed into one blob, a sure 1).
NEAR_CERTAIN = 0.98
# The quietest part of a frame is its plainest: a die's face, bare table. Blocks of this side.
NOISE_BLOCK = 16
# The quietest tenth of the blocks (a percentile): a frame's plain faces and bare table are
# seldom fewer, and pips, edges and texture raise the rest.
QUIETEST_BLOCKS = 10


def _noise_floor(gray: np.ndarray) -> float:
    """The sensor's noise in ``gray`` (standard deviation, grey levels, of each pixel about its
    3 x 3 mean), at the QUIETEST_BLOCKS percentile of NOISE_BLOCK-square blocks: texture,
    edges and pips raise the rest, but a camera's noise lies on the plainest parts too.
    (Worked out only for a first look below NEAR_CERTAIN, see read_dice.)"""
    res = cv2.subtract(gray, cv2.blur(gray, (3, 3)), dtype=cv2.CV_32F)
    half = NOISE_BLOCK // 2
    var = cv2.blur(res * res, (NOISE_BLOCK, NOISE_BLOCK))[half::NOISE_BLOCK, half::NOISE_BLOCK]
    if not var.size:
        return 0.0  # a strip too thin for one block: no noise measured, no smoothed look
    return math.sqrt(float(np.percentile(var, QUIETEST_BLOCKS)))


def _calmed(frame: np.ndarray, reading: DiceReading) -> DiceReading:
    """A first look that is unsure, or sure but not near certain (see NEAR_CERTAIN), taken
    again on a smoothed copy of a noisy frame: an unsure one gives way to that look if it is
    sure and reads as many dice or more, or keeps every die the first read surely, and adds no
    die beside one the first read (see _read_beside); a sure one gives way if the smoothed look
    is at least as sure, whatever its count of dice; else ``reading``.

    Sensor noise and strong JPEG break a faint pip's blob into specks, each too small or
    unround to be a pip, and sprinkle specks as dark as a pip's edge over plain faces: faces
    lose pips or gain specks and are left unread (synthetic rough frames: dark blue dice, their
    pips of contrast 0.3..0.45). Smoothed as much as a pip is small (CALM_SIGMA), the pip comes
    back as one blob, and specks sink below the contrast a pip needs. In place of an unsure
    look the smoothed one stands only if sure, with no die fewer, or none fewer of the dice the
    first look read surely (see _lost_faces): smoothing also blurs the smallest pips of a face
    into its neighbours, which leaves it unread, or reads fewer dice (synthetic rough285: the
    smoothed look read a sure [4, 6] for [3, 4, 6], the 3 read at 0.92 before); the specks that
    noise on a grained table sprinkles are read as unsure dice, and smoothed they are gone
    (synthetic rough177: a sure 1 and 6 among four such and five unread marks). (Synthetic rough
    seeds 200..399 and 500..799: 44 right readings unsure before now sure, none lost, no wrong
    one made sure. Sure looks below NEAR_CERTAIN, tune seeds 0..899: five wrong and sure now
    right, none lost; synthetic rough825 was a side face's sure 4 too many, read at 0.95,
    which is why a sure look's dice are not held to the first's.)"""
    img, _ = _resized(frame, WORK_SIDE)
    if _noise_floor(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)) <= NOISY_FRAME:
        return reading
    calm = _read_at(frame, WORK_SIDE, smooth=CALM_SIGMA)
    if reading.confidence >= SURE_READING:
        # Sure, but not near certain (see NEAR_CERTAIN): the surer look stands.
        return calm if calm.dice and calm.confidence >= reading.confidence else reading
    # Dice fewer only where the first look read some die surely and the smoothed one keeps
    # each such die: a first look with no sure die vouches for none.
    fewer = (any(d.confidence >= SURE_READING for d in reading.dice)
             and not _lost_faces(calm, reading))
    if calm.dice and calm.confidence >= SURE_READING and (
            len(calm.dice) >= len(reading.dice) or fewer) and not _read_beside(calm, reading):
        return calm
    return reading


def _read_beside(second: DiceReading, first: DiceReading) -> bool:
    """Whether a second look reads more dice than the first, one of them at no place of the
    first's dice (see _pairs) and on no face it left unread, its box meeting the box of a die
    the first read. A die's box takes in its side faces: such a further die may be a side
    face of the first's die, which the first look told from its top (unsurely, by nothing
    but their place: see _shape_only) and the smoothed look, its pips' shapes blurred, did
    not (synthetic oblique866: a 1 and its side 3, read as two sure dice smoothed). As many
    dice, one moved beside the first's, are a face read anew, not one added (synthetic
    rough164: a 2 the first look read, smoothed a 1, its pips joined, right)."""
    if len(second.dice) <= len(first.dice):
        return False
    placed = {j for _, j in _pairs(first.dice, second.dice) if j is not None}
    return any(
        j not in placed
        and not any(_inside(_centre(u), b.box) or _inside(_centre(b.box), u)
                    for u in first.unread)
        and any(_meet(a.box, b.box) for a in first.dice)
        for j, b in enumerate(second.dice))


# A first look that stands unsure is looked at again at five nearby scales. Pips a few pixels
# across fall on the pixel grid differently at each, so a face that came apart, a speck taken
# for a pip, or blobs that ran together at one scale seldom do so at the others: when four of
# the five looks read the same dice, and not these, theirs stand. The reading stays as unsure
# as it was, for the players to check. (Lab, round 22: 27 frames won and 1 lost over 12,000
# tuning frames and shifted photos; held-out shifted photos 10 more read of 3,080. A look at
# another size than WORK_SIDE already had its second look, and is not put to a vote.)
VOTE_SIDES = (480, 560, 720, 800, 960)
VOTES_NEEDED = 4
# The dice of one roll are one size; seen obliquely, near ones are up to about a third larger
# than far ones. A face of two or more pips half again as large as the others' (the median)
# is a pattern in the clutter the first look found no face in (a card's letters: synthetic
# clutter287), and the vote does not stand. (A 1's face size is guessed from its pip alone.)
VOTE_OVERSIZE = 1.4


def _seconded(first: DiceReading, looks: Sequence[DiceReading]) -> bool:
    """Whether the looks already taken at other sizes (``looks``: the larger and smaller
    looks, at twice and half WORK_SIDE and beyond, either side of the vote's scales) second
    the first look: one or more read dice, and each that did read the first look's very
    values.

    The vote stands against the first look only when four of five looks at nearby scales
    read other dice, alike: a face that came apart or ran together at WORK_SIDE does so at
    one scale and not at the others. Where the looks at twice and half the size read the same
    dice as the first, what leaves it unsure is in the frame at every scale (a mark no face
    explains, a face in doubt), and the nearby scales read it as they did (lab, round 26: the
    192 such votes over the p5..p7, close and far sets, the tune photos, their negatives and
    negshifts changed no reading; tune photo five_39, its four 5s read alike at 640, 1280
    and 320, unsure at each for a mark left unread)."""
    read = [look.values for look in looks if look.dice]
    return bool(read) and all(values == first.values for values in read)


def _face_side(die: Die) -> float:
    """The mean side of a die's outline (frame pixels; its box's, for a die without one)."""
    o = die.outline
    if len(o) < 3:
        return float(max(die.box[2] - die.box[0], die.box[3] - die.box[1]))
    return statistics.fmean(math.dist(o[i], o[(i + 1) % len(o)]) for i in range(len(o)))


def _oversized(reading: DiceReading) -> bool:
    """Whether a die of two or more pips is far larger than the reading's other dice."""
    sides = [_face_side(d) for d in reading.dice]
    return len(sides) >= 3 and any(
        d.value > 1 and sides[k] > VOTE_OVERSIZE * statistics.median(sides[:k] + sides[k + 1:])
        for k, d in enumerate(reading.dice))


def _look_at(frame: np.ndarray, side: int, by_side: dict[int, DiceReading]) -> DiceReading:
    """The frame read at ``side``, once: ``by_side`` keeps the looks already taken."""
    if side not in by_side:
        by_side[side] = _read_at(frame, side)
    return by_side[side]


def _outvoted(frame: np.ndarray, reading: DiceReading,
              by_side: dict[int, DiceReading] | None = None) -> DiceReading:
    """The reading most looks at nearby scales agree on, if enough do and it is not this one.
    ``by_side``: the looks already taken, by side; the vote's are added to it."""
    by_side = {} if by_side is None else by_side
    votes: Counter[tuple[int, ...]] = Counter()
    looks: dict[tuple[int, ...], DiceReading] = {}
    own = tuple(reading.values)
    for i, side in enumerate(VOTE_SIDES):
        look = _look_at(frame, side, by_side)
        values = tuple(look.values)
        if look.dice and values != own:
            votes[values] += 1
            looks.setdefault(values, look)
        best = max(votes.values(), default=0)
        if best >= VOTES_NEEDED:
            chosen = looks[max(votes, key=votes.__getitem__)]
            if _oversized(chosen):
                break
            return replace(chosen, confidence=min(chosen.confidence, reading.confidence))
        if best + len(VOTE_SIDES) - i - 1 < VOTES_NEEDED:
            break
    return reading


# A reading that stands unsure is still the players' best guess, shown for them to check: where
# looks at other scales, from half to twice WORK_SIDE, read other dice with nothing left unread
# and no face in doubt (confidence above DOUBTED), two or more of them alike and more than read
# the unsure reading's (itself one of them, if it is as clear), theirs is the better guess. It
# stays as unsure. (Lab, round 30: of the 727 frames read unsurely over seeds 3000..3899, 19
# changed, 15 of them put right, none of the 646 read right lost; the check seeds 4000..4449
# 3549 -> 3562 of 3,600, none lost; the old seeds 0..899 7139 -> 7144, two unsure 1s lost
# (clutter181, touching172: looks from 720 up all miss the 1); the real photos and their
# variants 2597 -> 2602 of 2,658, one lost. Not counting the reading itself won 2 more fresh
# frames but lost tune photo dice_24 over-exposed: three 1s read at 0.89, and so at 560, two of
# them at 960 and 1280.)
AGREE_SIDES = (WORK_SIDE // 2, *VOTE_SIDES, 2 * WORK_SIDE)
AGREEING_LOOKS = 2
DOUBTED = 0.6


def _agreed_elsewhere(frame: np.ndarray, reading: DiceReading,
                      by_side: dict[int, DiceReading]) -> DiceReading:
    """The dice that most looks at AGREE_SIDES read clearly (see above), if they are not this
    reading's and no other dice are read so as often; else this reading."""
    votes: Counter[tuple[int, ...]] = Counter()
    first: dict[tuple[int, ...], DiceReading] = {}
    if reading.confidence > DOUBTED:
        votes[tuple(reading.values)] += 1  # the reading is a look too
    for side in AGREE_SIDES:
        look = _look_at(frame, side, by_side)
        if look.dice and look.confidence > DOUBTED and not _oversized(look):
            values = tuple(look.values)
            votes[values] += 1
            first.setdefault(values, look)
    top = votes.most_common(2)
    if not top:
        return reading
    values, count = top[0]
    if (count < AGREEING_LOOKS or (len(top) > 1 and top[1][1] == count)
            or count <= votes[tuple(reading.values)]):
        return reading
    chosen = first[values]
    return replace(chosen, confidence=min(chosen.confidence, reading.confidence))


# Pips of a larger radius (work pixels) are two thirds of KERNEL across and more: the fine
# level's blobs may be no wider than KERNEL - 2, and a pip's whole blob (its blur, a light
# pip's glow) is wider than the pip, so such pips are found only on the half-size copy or not
# at all, and a lone one's whole blob is no pip (see _alone). At half the size they are as the
# development photos' pips are (the largest of those are 6.8).
LARGE_PIP = 8.0


def _large_pips(reading: DiceReading, frame: np.ndarray, side: int) -> bool:
    """Whether the dice of a reading have pips too large to read them at ``side``."""
    radius = max(reading.pip_radius, reading.glow_radius)
    return bool(reading.dice) and radius * side / max(frame.shape[:2]) > LARGE_PIP


def _large_lone_pip(reading: DiceReading, frame: np.ndarray, side: int) -> bool:
    """Whether a round lone pip that a reading at ``side`` left unread is too large for it:
    the big pip of a 1 close to the camera, whose whole blob (with a light pip's glow) is
    wider than a pip may be there, beside dice read by their smaller pips."""
    return reading.lone_radius * side / max(frame.shape[:2]) > LARGE_PIP


def _centre(box: Sequence[float]) -> tuple[float, float]:
    """The middle of a box (x1, y1, x2, y2)."""
    return (box[0] + box[2]) / 2, (box[1] + box[3]) / 2


def _inside(p: Sequence[float], box: Sequence[float]) -> bool:
    """Whether a point lies in a box (x1, y1, x2, y2), its edges included."""
    return box[0] <= p[0] <= box[2] and box[1] <= p[1] <= box[3]


def _pair(die: Die, others: tuple[Die, ...], used: set[int]) -> int | None:
    """The index of the die of ``others`` (not in ``used``) at the place of ``die``: whose box
    holds its centre, or whose centre its box holds; the nearest such. None if there is none."""
    c = _centre(die.box)
    near = [(math.dist(c, _centre(o.box)), j) for j, o in enumerate(others)
            if j not in used and (_inside(c, o.box) or _inside(_centre(o.box), die.box))]
    return min(near)[1] if near else None


def _pairs(dice: Sequence[Die], others: tuple[Die, ...]) -> Iterator[tuple[Die, int | None]]:
    """Each of ``dice`` with the index of the die of ``others`` at its place (see _pair), each
    of ``others`` taken once; None where there is none."""
    used: set[int] = set()
    for die in dice:
        j = _pair(die, others, used)
        if j is not None:
            used.add(j)
        yield die, j


def _agrees(x: DiceReading, y: DiceReading) -> bool:
    """Whether two readings read the same dice, die for die at the same places."""
    if not x.dice or len(x.dice) != len(y.dice):
        return False
    return all(j is not None and y.dice[j].value == a.value for a, j in _pairs(x.dice, y.dice))


def _accounts_for(second: DiceReading, first: DiceReading, lone: bool = False,
                  loose: bool = False, surer: bool = True) -> bool:
    """Whether a second look reads, die by die, all that the first read and more, as surely
    and with no more faces left unread: each of the first's dice as a die at its place of
    the same value, or of more pips (a face the first saw in part, or that came apart into
    1s); and each further die on a face the first left unread. Dice it reads anew (further,
    or with more pips) must be sure ones (SURE_READING). ``lone``: further dice may lie
    anywhere (the first left a pip it could not read); ``loose``: neither condition on the
    dice read anew, for a second look that a third one confirms (see read_dice); without
    ``surer``, the second need not be as sure (the first's pips too large for it, see
    read_dice)."""
    if len(second.unread) > len(first.unread) or (surer and second.confidence < first.confidence):
        return False
    sure = 0.0 if loose else SURE_READING
    lone = lone or loose
    used: set[int] = set()
    more = False
    for a, j in _pairs(first.dice, second.dice):
        if j is None:
            return False
        used.add(j)
        b = second.dice[j]
        if b.value < a.value or (b.value > a.value and b.confidence < sure):
            return False
        more |= b.value > a.value
    for j, b in enumerate(second.dice):
        if j in used:
            continue
        cb = _centre(b.box)
        if b.confidence < sure or not (lone or any(
                _inside(cb, u) or _inside(_centre(u), b.box) for u in first.unread)):
            return False
        more = True
    return more


def _lost_faces(larger: DiceReading, reading: DiceReading) -> bool:
    """Whether a second look read no die at the place of one of the first look's sure dice
    (tune photo four_22 zoomed 1.35: enlarged to twice WORK_SIDE, pips of radius 12 lost a 4
    whole and read a side face's 2 for another, surely, where half the size read all three
    4s). An unsure die may be a misreading that the second look puts right (synthetic
    oblique252: a 4 of 0.84 beside unread pips, a sure 5 at twice the size)."""
    sure = [die for die in reading.dice if die.confidence >= SURE_READING]
    return any(j is None for _, j in _pairs(sure, larger.dice))


def _left_bare(larger: DiceReading, reading: DiceReading) -> bool:
    """Whether a second look read no die whose box meets the box of one of the first look's
    sure dice. A die's box takes in its side faces, so another face of the same die read in
    its place meets it (synthetic clutter206: a side face's sure 3 at WORK_SIDE, its top 5
    enlarged, their boxes overlapping); a place left bare had its die lost."""
    return any(die.confidence >= SURE_READING and not any(_meet(o.box, die.box)
                                                          for o in larger.dice)
               for die in reading.dice)


def _meet(a: Sequence[float], b: Sequence[float]) -> bool:
    """Whether two boxes (x1, y1, x2, y2) overlap or touch."""
    return a[0] <= b[2] and a[2] >= b[0] and a[1] <= b[3] and a[3] >= b[1]


def _outgrown_ones(larger: DiceReading, reading: DiceReading) -> bool:
    """Whether a second look read a 2 at the place of a 1 the first look read at least
    SURE_READING, the 1's pip one of the 2's (within a third of the two's gap, as in
    _lost_pips): the reverse of _lost_pips, a 1 and its side face's pip linked as a 2. Only a
    2: any two alike marks fit one, while a face of more pips built on the 1 is more likely
    the face whole, which came apart at the first size into a sure 1 and pips it did not
    read (test photo dice-far four_14 shrunk to 0.45: kept, a 4 stayed a 1)."""
    sure = [die for die in reading.dice if die.value == 1 and die.confidence >= SURE_READING]
    for one, j in _pairs(sure, larger.dice):
        if j is None or larger.dice[j].value != 2:
            continue
        pts, near = _pip_reach(larger.dice[j])
        x, y = one.pips[0]
        if (np.hypot(pts[:, 0] - x, pts[:, 1] - y) < near).any():
            return True
    return False


def _fewer_pips(second: DiceReading, first: DiceReading) -> bool:
    """Whether a second look reads a die of fewer pips at the place of one of the first's."""
    return any(j is not None and second.dice[j].value < a.value
               for a, j in _pairs(first.dice, second.dice))


def _pip_reach(die: Die) -> tuple[np.ndarray, float]:
    """A die's pips (N x 2) and how near a point must lie to one of them to be that pip: a
    third of the closest two's gap, and 2 pixels at least."""
    pts = np.array(die.pips)
    gaps = np.hypot(*(pts[:, None] - pts[None]).T)
    return pts, max(2.0, float(gaps[np.triu_indices(len(pts), 1)].min()) / 3)


def _lost_pips(larger: DiceReading, reading: DiceReading, sure: float = 0.0) -> bool:
    """Whether a second look read a 1 whose pip the first look read as one of a larger face's
    (within a third of the closest two of that face's pips); with ``sure``, only a face of
    three pips or more that the first look read at least that surely counts (any two alike
    marks fit a 2, a 1 beside its side face's pip too: synthetic oblique318)."""
    for one in larger.dice:
        if one.value != 1:
            continue
        x, y = one.pips[0]
        for die in reading.dice:
            if die.value > (2 if sure else 1) and die.confidence >= sure:
                pts, near = _pip_reach(die)
                if (np.hypot(pts[:, 0] - x, pts[:, 1] - y) < near).any():
                    return True
    return False


def _explains_more(second: DiceReading, first: DiceReading) -> bool:
    """Whether a second look, as unsure as the first, reads more dice and leaves fewer faces
    unread, each die it reads where the first read none a sure one (SURE_READING) on a face
    the first left unread: of two looks that both left faces they could not read (see
    read_dice), the one that read those faces is the better account of the frame, enlarged
    or not. (Synthetic oblique562: at WORK_SIDE a 6's side face read as a 1 and three faces
    left unread; enlarged, the 6 and a 3 read surely on two of them, one speck left, both
    looks 0.4. Not unsure dice anew: tune photo four_16 darkened, enlarged, read five tiny
    unsure 2s and 3s in the noise of its dark corners.) Dice of the first look the second
    does not read may go, sure or not, as oblique562's 1 does: a look this unsure whose other
    faces went unread is no sure account of any one die."""
    if (second.confidence != first.confidence or len(second.dice) <= len(first.dice)
            or len(second.unread) >= len(first.unread)):
        return False
    for die, j in _pairs(second.dice, first.dice):
        if j is not None:
            continue
        c = _centre(die.box)
        if die.confidence < SURE_READING or not any(
                _inside(c, u) or _inside(_centre(u), die.box) for u in first.unread):
            return False
    return True


def _unread_where_sure(larger: DiceReading, reading: DiceReading) -> bool:
    """Whether a second look left a face unread at the place of a die the first read at
    least SURE_READING (the unread box's centre inside that die's box). An enlarged frame has
    no pip the first look lacked: a face read surely there and not read enlarged was measured
    worse enlarged (its pips' shapes and gaps, see _came_apart), however many dice the
    second look read around it. (Synthetic clutter702: a sure 3 and 5 at WORK_SIDE; enlarged,
    the 5's pips split into a 2, a 4 and three unread groups, more dice read, 0.4.)"""
    sure = [die.box for die in reading.dice if die.confidence >= SURE_READING]
    return any(_inside(_centre(u), box) for u in larger.unread for box in sure)


def _came_apart(larger: DiceReading, reading: DiceReading, sure: float = 0.0) -> bool:
    """Whether a second look read a die with fewer pips than a die of the first look (one it
    read at least ``sure``ly), every one of them on a pip of that die (within a third of the
    closest two of its pips, as in _lost_pips): it read part of the face the first read
    whole, its other pips left out.

    An enlarged frame has no pip the first look lacked, but its pips' shapes and gaps are
    measured anew, and a face whose pips are squashed on a tilted camera can fail to link
    whole there (synthetic p7 oblique723: a 5 read at WORK_SIDE, the enlarged look linking
    two of its pips as a sure 2 and leaving the other three as lone pips)."""
    for die in reading.dice:
        if die.value < 3 or die.confidence < sure:
            continue
        pts, near = _pip_reach(die)
        for part in larger.dice:
            if not 2 <= part.value < die.value:
                continue  # (a lone 1 on a face's pip: see _lost_pips)
            if all(np.hypot(pts[:, 0] - x, pts[:, 1] - y).min() < near for x, y in part.pips):
                return True
    return False


# A die whose top face spans fewer work pixels than this is read again larger, if it can be;
# so is a reading less sure than SURE_READING.
SMALL_DIE = 26
# Pips of a smaller radius (work pixels) measure their roundness no better than the pixel grid
# allows (SHAPE_GRID / r > SHAPE_TOLERANCE): two pips of one face differ by more than
# SHAPE_TOLERANCE by quantisation alone, and a face comes apart into 1s or is lost.
# Enlarged (cubic), their blobs are smooth enough to measure.
SHAPE_GRID = 0.55
SMALL_PIP = SHAPE_GRID / SHAPE_TOLERANCE
SURE_READING = 0.9
# A pip radius measured at one side is within this factor of the same pip's at another.
SIDE_RADII = 0.9


def _too_small(reading: DiceReading, frame: np.ndarray, side: int) -> bool:
    """Whether a reading at ``side`` saw nothing, or only dice too small for their pips to be
    told apart well."""
    if not reading.dice:
        return True
    per_pixel = side / max(frame.shape[:2])
    sizes = [max(d.box[2] - d.box[0], d.box[3] - d.box[1]) * per_pixel for d in reading.dice]
    return statistics.median(sizes) < SMALL_DIE or _small_pips(reading, frame, side)


def _small_pips(reading: DiceReading, frame: np.ndarray, side: int) -> bool:
    """Whether the dice read at ``side`` have pips too small to measure their shape."""
    return bool(reading.dice) and reading.pip_radius * side / max(frame.shape[:2]) < SMALL_PIP


def _resized(frame: np.ndarray, work_side: int) -> tuple[np.ndarray, float]:
    """The frame resized to ``work_side`` on its long side, and the scale it was divided by."""
    h0, w0 = frame.shape[:2]
    scale = max(h0, w0) / work_side
    img = frame if scale == 1.0 else cv2.resize(
        frame, (round(w0 / scale), round(h0 / scale)),
        interpolation=cv2.INTER_AREA if scale > 1 else cv2.INTER_CUBIC)
    return img, scale


def _read_at(frame: np.ndarray, work_side: int, smooth: float = 0.0) -> DiceReading:
    """One reading of the frame, resized to ``work_side`` on its long side (and then smoothed
    by a Gaussian of ``smooth`` pixels, if given: see _calmed)."""
    start = time.perf_counter()
    img, scale = _resized(frame, work_side)
    if smooth:
        img = cv2.GaussianBlur(img, (0, 0), smooth)
    gray = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    bright, dim = _levels(img, gray)
    con = _contrast(dim, bright, KERNEL)
    # Under a veil (haze, flare) dark pips are measured above its black point (see _veil).
    black = _veil(img, bright, con)
    if black:
        con = _contrast(dim, cv2.subtract(bright, black), KERNEL, same_grey=con)
    pips = _find_pips(con, KERNEL, 1.0, MIN_PIP_AREA, bridged=True)
    # Big pips (dice close to the camera) are found on a half-size copy.
    big = _find_pips(_contrast(cv2.pyrDown(dim), cv2.pyrDown(bright), KERNEL), KERNEL, 2.0,
                     (KERNEL * 0.45) ** 2 * math.pi / 4)
    big = [p for p in big if not _gap_between(p, big)]
    for p in big:
        if _clear_of(p, pips):
            pips.append(p)
    _rounded_at_half_depth(pips, con)
    # Face colours are compared on a lightly smoothed copy: single pixels of a dark die carry
    # sensor and JPEG noise as large as the tolerance itself.
    img = cv2.blur(img, (3, 3))
    _describe_faces(pips, img, con)
    pips = _standing_out(pips, con)
    con.found = pips
    _half_height_radii(pips, con)
    faces: list[_Face] = []
    loose: list[list[_Pip]] = []
    alone: list[_Pip] = []  # pips linked to none and no 1 by themselves
    groups, unplain = _groups(pips, img, black)
    for group in groups:
        for p in group:
            p.unlinked = len(group) == 1
    explained = [_explain(group, img, con) for group in groups]
    _rejoin(groups, explained, unplain, img, con)
    for group, parts in zip(groups, explained):
        used: set[int] = set()
        if len(group) == 1 and not any(isinstance(part, _Face) for part in parts):
            alone.append(group[0])
        read_some = len(group) > 1 and any(isinstance(part, _Face) for part in parts)
        for part in parts:
            if isinstance(part, _Face):
                faces.append(part)
                used.update(id(p) for p in part.group)
                continue
            one = _left_as_a_one(part, img, con) if read_some else None
            if one is not None:
                faces.append(one)
                used.add(id(one.group[0]))
                continue
            loose.append(part)
            used.update(id(p) for p in part)
        # Pips linked into a face that none of the parts explain leave that face unread.
        rest = [p for p in group if id(p) not in used and not p.side]
        if rest and len(group) > 1:
            for p in rest:
                p.linked = True
            loose.append(rest)
    _swapped_pips(faces, loose, img, con)
    _pair_twos(faces, alone, loose, img, con)
    _rescue_ones(faces, pips, loose, img, con)
    _rescue_lit_ones(faces, pips, loose, img, con)
    _part_unlike_twos(faces, loose, img, con)
    _completed_threes(faces, img, con)
    _completed_fours(faces, loose, img, con)
    _completed_sixes(faces, loose, img, con)
    _drop_rows(faces, loose, pips)
    faces, doubt, near = _drop_off_table_faces(faces)
    in_doubt: list[_Face] = []
    faces = _drop_side_faces(faces, img, near, pips, in_doubt)
    doubt |= any(any(f is g for g in faces) for f in in_doubt)
    # A 1 in the band around another face is that die's side face, unless its pip looks at
    # the camera as squarely as that face's own pips: then it is a die lying against it.
    # Within roundness noise (SIDE_ONE_NOISE) of that, the 1 is dropped, but not surely.
    # Or, seen however squarely, if it is lit as a side face turned from the light is: then
    # surely.
    turned = {id(f) for f in faces
              if f.die.value == 1 and any(_turned_from_light(f, g) for g in faces if g is not f)}
    side_ones = [f for f in faces
                 if f.die.value == 1 and (id(f) in turned or any(
                     (_beside(f.group, g) or _near_side_one(f, g, near))
                     and f.flatness < ROUND_AS_TOP * g.flatness for g in faces if g is not f))]
    dropped = {id(f) for f in side_ones}
    unsure_side_one = any(
        f.flatness >= (ROUND_AS_TOP - SIDE_ONE_NOISE) * g.flatness and _beside(f.group, g)
        for f in side_ones if id(f) not in turned for g in faces if id(g) not in dropped)
    faces = [f for f in faces if id(f) not in dropped]
    faces = _drop_undersized_faces(faces)
    faces = _drop_cut_faces(faces, loose, img.shape)
    faces = _drop_odd_ones(faces)
    # Pips beside a read face and more squashed than it are that die's side faces: expected,
    # so they neither become dice nor lower the confidence.
    loose = [g for g in loose if not any(_beside(g, f) or _own_face_between(g, f)
                                         for f in faces)]
    size = (frame.shape[1], frame.shape[0])  # the frame's width and height
    unread = [_clip_box(tuple(v * scale for v in _group_box(g)), size) for g in loose]
    dice = [_scaled(f.die, scale, size) for f in faces]
    confidence = min([d.confidence for d in dice], default=1.0 if not unread else 0.0)
    if unread:
        confidence = min(confidence, 0.4)
    if doubt:
        confidence = min(confidence, 0.6)
    if confidence >= SURE_READING and (unsure_side_one or _unread_twos(faces, alone)
                                       or _unread_one(faces, alone, img.shape)
                                       or _only_a_lone_pip(faces, alone, img.shape)
                                       or _lone_pip_on_a_die(faces, alone, img)
                                       or _pip_on_a_one(faces, alone)
                                       or _lone_side_face(faces)):
        confidence = min(confidence, 0.6)
    ms = (time.perf_counter() - start) * 1000
    radius = statistics.median([p.r for f in faces for p in f.group]) * scale if faces else 0.0
    glow = statistics.median([_glow_radius(p, con) for f in faces for p in f.group]
                             ) * scale if faces else 0.0
    read = {id(p) for f in faces for p in f.group}
    lone = max((p.r for p in alone if id(p) not in read and p.roundness >= LONE_ROUNDNESS),
               default=0.0) * scale
    return DiceReading(tuple(dice), round(confidence, 3), tuple(unread), ms, radius, lone, glow)


def _left_as_a_one(part: list[_Pip], img: np.ndarray, con: _Contrast) -> _Face | None:
    """A pip left over when the rest of its group was read as a face (or faces), judged as a
    1 as a pip that linked to none is (see _judge_afresh's ``side_arc``), or None.

    A 1's pip links with pips of its own size and light: its die's side face beside it (a
    steep camera, or a big 1 and its side face's row), or a touching die's face. When those
    are read as a face of their own, the pip is left over, and was judged only as a pip of a
    linked face, whose walk out may not run on along one arc: that arc is the face just read
    beside it (synthetic oblique3854: a white die's big 1 linked with its side 3's row, the 3
    read and dropped as a side face, the 1 lost, surely; touching3166: a dark 1 linked with
    the pips of a touching die's 5 and of another's 2). Which of the 1 and a side face beside
    it is the die's top is left to the side-face rules, as for any two faces (see
    _drop_side_faces)."""
    if len(part) != 1 or part[0].side:
        return None
    pip = part[0]
    pip.unlinked = True
    # (Judged afresh: the group's explanation judged it as a linked pip, and kept that.)
    one, _ = _judge_afresh([pip], img, con, LONE_ROUNDNESS)
    if one is None or one.die.value != 1:
        pip.unlinked = False
        return None
    return one


def _glow_radius(pip: _Pip, con: _Contrast) -> float:
    """A pip's radius as the fine level's blobs take it (see LARGE_PIP), by area: a light
    pip's core (see _cores) is cut at half its height, but its whole blob takes in the glow
    around it, to where it is PIP_CONTRAST over the face, as a dark pip's blob takes in its
    blur. The core's own radius where the whole blob is more than this pip's: larger than its
    window, or holding another pip found (two pips joined by their glow)."""
    if not pip.cored or pip.dark:
        return pip.r
    blob = _blob_at(pip, con.masks[1])
    if blob is None:
        return pip.r
    contour, x0, y0, (x, y, w, h) = blob
    if any(q is not pip and x0 + x <= q.x <= x0 + x + w and y0 + y <= q.y <= y0 + y + h
           and cv2.pointPolygonTest(contour, (q.x - x0, q.y - y0), False) >= 0
           for q in con.found):
        return pip.r
    return max(pip.r, math.sqrt(cv2.contourArea(contour) / math.pi))


# How far past a 2's widest spacing (see SPACING_RANGE) two unread twin pips may lie and still
# look like a 2 no layout took (synthetic seeds 400..499: three 2s of small pips, about 4.5
# radii apart per spacing, just past the limit, left unread in a sure reading).
UNREAD_TWO_REACH = 1.25


def _unread_twos(faces: list[_Face], alone: list[_Pip]) -> bool:
    """Whether two lone pips left unread look like a 2 that no layout took: round (seen as the
    read faces' pips are, not squashed like a side face's), twins of each other and of the
    read dice's pips (one printed dot, one light), and about a 2's diagonal apart (up to
    UNREAD_TWO_REACH past what a 2 may span, see SPACING_RANGE: a die with small pips spaces
    them wider than the layout check allows). A die left unread so is missing from a reading
    that would otherwise look sure."""
    read = {id(p) for f in faces for p in f.group}
    shown = [p for f in faces for p in f.group]
    left = [p for p in alone if id(p) not in read and p.roundness >= LONE_ROUNDNESS
            and not any(_beside([p], f) for f in faces)
            and (not shown or any(_twins(p, q) and p.dark == q.dark for q in shown))]
    for i, a in enumerate(left):
        for b in left[i + 1 :]:
            if a.dark != b.dark or not _twins(a, b) or not _alike_lit(a, b):
                continue
            d = math.hypot(a.x - b.x, a.y - b.y)
            rr = (a.r + b.r) / 2
            if (2 * SPACING_RANGE[0] * rr <= d
                    <= 2 * math.sqrt(2) * SPACING_RANGE[1] * UNREAD_TWO_REACH * rr):
                return True
    return False


# The dice of one roll land together in the tray: a mark farther than this from every read face
# (in face half-sizes, centre to centre: three dice across) is clutter beside it, not a die of
# it (tune photos: 1s missed under a vignette, blur or a shadow band lay 1.4..5.7 half-sizes
# from the nearest read die; dots printed on a card and a logo beside the tray, 6.9..7.4).
NEAR_ROLL = 6.0


def _unread_one(faces: list[_Face], alone: list[_Pip], shape: tuple[int, ...]) -> bool:
    """Whether a lone pip left unread looks like a 1 of the roll that its face tests missed
    (the face's edge lost in a vignette, blur or a soft shadow): a disc (LONE_FILL) as round
    as a 1's pip must be (LONE_ROUNDNESS) or as the read dice's pips are (within SQUASH_RATIO
    of their median: motion blur squashes every pip alike), a twin of a read die's pip (one
    printed dot, see _twins) on a face of the read dice's colour (see _alike_lit), lying near
    them (NEAR_ROLL) and wholly in the frame (a mark the frame's edge cuts measures no shape).
    Clear of every read die's side faces (see _clear_of_sides), a pip too small to measure its
    shape is allowed the pixel grid's roundness (SHAPE_GRID / r), and its face may be the
    roll's at another light level with the roll's colour balance (see _balanced_as). Not a pip
    in the band around a read face where its die's side faces show (see _beside,
    _side_pip). A die left unread so is missing from a reading that would otherwise look
    sure (synthetic close636: a 3 left unread beside a sure 2; tune photos under a vignette,
    a shadow band or motion blur: 1s whose face edge was lost beside sure 1s)."""
    shown = [p for f in faces for p in f.group]
    for p in _unread_discs(faces, alone, shape, MIN_ROUNDNESS):
        kind = [q for q in shown if q.dark == p.dark]
        if not kind:
            continue
        # Clear of every read die's side faces, a pip lies on a top face (or is no pip): a
        # pip too small to measure its shape (see SMALL_PIP) is then as round as the pixel
        # grid lets it seem, within SHAPE_GRID / r; nearer, a side face's pips are as small,
        # and squashed (synthetic many269, rough207: side pips of 1.9..2.7 pixels, 0.51..0.69
        # round). Its face may then be theirs at another light level (see _alike_colour,
        # and below); nearer, a side face is dimmer by its own shading, and must match as
        # _alike_lit asks (synthetic oblique375: a 3's side pip, its face 0.6 as bright as
        # the 3's; tune photos under a vignette or a shadow band: 1s missed beside sure 1s,
        # their faces 0.72..0.74 as bright).
        clear = all(_clear_of_sides(p, f) for f in faces)
        grid = SHAPE_GRID / p.r if clear and p.r < SMALL_PIP else 0.0
        if p.roundness + grid < min(LONE_ROUNDNESS, SQUASH_RATIO * statistics.median(
                q.roundness for q in kind)):
            continue
        # Light falling off across the tray (a vignette, a soft shadow) scales a face's colour
        # and leaves its balance (see BALANCE_STEP), the roll's (its read pips' faces, in the
        # median: one ring's mean is noisy); a wooden or tinted table, as light as a die's face
        # where it is lit, differs in balance (tune photo four_16 at half resolution: the
        # wood in the ring of a dark mark where a cable meets its ferrite, 0.032 off).
        fallen = clear and bool(_balanced_as(
            p.face[None], _column_median(np.array([q.face for q in kind])))[0])
        if not any(_twins(p, q) and (_alike_lit(p, q)
                                     or (fallen and _alike_colour(p.face, q.face)))
                   for q in kind):
            continue
        if not any(_length(f.centre - (p.x, p.y)) <= NEAR_ROLL * f.half * f.spacing
                   for f in faces):
            continue
        if any(_beside([p], f) or _side_pip(p, f) for f in faces):
            continue
        return True
    return False


# A lone pip past NEAR_ROLL is a die of the roll thrown apart from it only where it lies on a
# patch of the roll's face colour the size of a die: at least DIE_PATCH_INNER of a ring half a
# face half-size around it is that colour (the pip lies on such a face, not on a dot or a
# letter's counter printed on a card, whose ring crosses the letter's strokes; 7..12 for
# unread dice's pips in the synthetic tuning set, synthetic rough380's 7), and at most
# DIE_PATCH_OUTER of a ring 2.5 face half-sizes around it (past any face or side face of a die
# whose pip it is: a face half-size from its centre at most, the die's side faces about as
# far again), where a card or a table of the roll's colour would be (rough380: none of 12).
# (No tuning frame has yet tested either ring against a card: clutter367's letter, on a card,
# is turned away first, its face lit unlike the dice's, see _alike_lit.)
DIE_PATCH_INNER = 6 / 12
DIE_PATCH_OUTER = 2 / 12
DIE_PATCH_REACH = 2.5


def _lone_pip_on_a_die(faces: list[_Face], alone: list[_Pip], img: np.ndarray) -> bool:
    """Whether a lone pip left unread far from the roll (past NEAR_ROLL, where _unread_one
    takes it for clutter beside the tray) is a die thrown apart from it: round as a 1's pip
    must be (LONE_ROUNDNESS), a disc (LONE_FILL) wholly in the frame, a twin of a read die's
    pip (one printed dot, see _twins) on a face lit as that pip's (see _alike_lit), and lying
    on a patch of the roll's face colour the size of a die (see DIE_PATCH_INNER): a die whose
    other pips or face edge were lost. The reading without it is not sure. (Synthetic
    rough380: a blue 2 on a noisy pink table, 11 face half-sizes from a sure 1, one pip found,
    a twin of the 1's, read as [1] at 1.0.)"""
    if not faces:
        return False
    shown = [p for f in faces for p in f.group]
    half = statistics.median(f.half * f.spacing for f in faces)  # in pixels
    for p in _unread_discs(faces, alone, img.shape, LONE_ROUNDNESS):
        kind = [q for q in shown if q.dark == p.dark]
        if not any(_twins(p, q) and _alike_lit(p, q) for q in kind):
            continue
        if any(_length(f.centre - (p.x, p.y)) <= NEAR_ROLL * f.half * f.spacing for f in faces):
            continue  # near the roll: see _unread_one
        roll = _column_median(np.array([q.face for q in kind])).astype(np.float32)
        if (_ring_share(img, p, 0.5 * half, roll) >= DIE_PATCH_INNER
                and _ring_share(img, p, DIE_PATCH_REACH * half, roll) <= DIE_PATCH_OUTER):
            return True
    return False


def _ring_share(img: np.ndarray, p: _Pip, radius: float, colour: np.ndarray) -> float:
    """The share of a ring of ``radius`` pixels round a pip that could be a face of ``colour``
    (see _alike_colour); samples off the frame count as not."""
    xs, ys = p.x + _RING[:, 0] * radius, p.y + _RING[:, 1] * radius
    ring = _sample(img, xs, ys).astype(np.float32)
    on = _on_frame(np.stack([xs, ys], axis=1), img.shape)
    return sum(bool(o) and _alike_colour(c, colour) for c, o in zip(ring, on)) / len(ring)


def _unread_discs(faces: list[_Face], alone: list[_Pip], shape: tuple[int, ...],
                  least_round: float) -> list[_Pip]:
    """The lone pips that no read face holds and no side face explains, at least
    ``least_round`` round, discs (LONE_FILL) wholly in the frame: where _unread_one and
    _lone_pip_on_a_die look for a die left unread."""
    read = {id(p) for f in faces for p in f.group}
    return [p for p in alone
            if not (id(p) in read or p.side or p.roundness < least_round or p.fill < LONE_FILL)
            and _wholly_in_frame(p, shape)]


def _wholly_in_frame(p: _Pip, shape: tuple[int, ...]) -> bool:
    """Whether a pip lies wholly inside a frame of ``shape``: one its edge cuts may be any mark's
    part, and its shape and size are not its own."""
    h, w = shape[:2]
    return p.r < p.x < w - 1 - p.r and p.r < p.y < h - 1 - p.r


def _only_a_lone_pip(faces: list[_Face], alone: list[_Pip], shape: tuple[int, ...]) -> bool:
    """Whether a reading that read no die left a lone pip that looks like one: a clear (see
    LONE_PIP_CONTRAST), round (LONE_ROUNDNESS) disc (LONE_FILL) wholly in the frame. With no
    read die to compare it with (see _unread_one), its size, colour and place tell nothing;
    but a frame the camera is pointed at holds a roll, and a pip as clear and round as a 1's
    that no face test took is a die whose other pips or face edge were lost (a white 2 seen
    obliquely, one pip run into its side face's shading): reading "no dice" is then not
    sure. (Synthetic clutter547: a white 2, one pip found, 0.93 round, read as no dice, 1.0.)"""
    if faces:
        return False
    return any(p.contrast >= LONE_PIP_CONTRAST and p.roundness >= LONE_ROUNDNESS
               and p.fill >= LONE_FILL and _wholly_in_frame(p, shape)
               for p in alone)


def _lone_side_face(faces: list[_Face]) -> bool:
    """Whether a read face stands alone off the table plane the roll's top faces share, and
    looks like a side face beside one of them by both the geometry and the light: clearly off
    the plane (OFF_TABLE, see _shape_vector) where that face is on it (ON_TABLE), squashed as a
    side face is beside it (SQUASH_RATIO of its roundness: a camera sees the table no more
    squashed than a side face, see _table_shape), and clearly lit less (see _lit_above: light
    falls from above). Every top face lies in the table plane; a side face is perpendicular to
    it, and one with no top face beside it (no pair for _drop_off_table_faces to settle) is the
    side face of a die whose top went unread (its pip lost to the frame's edge or the light):
    the reading is not sure. Neither cue alone: a close camera's perspective spreads the top
    faces' foreshortening (synthetic close282: a far 5, 0.32 off a near 4's plane and 0.65
    round to its 0.91, lit alike), and a lamp's fall-off spreads their light. Nor a face in
    one plane with another read face (within OFF_TABLE): dice at one range from the camera
    share their foreshortening, and two such are two far dice's tops, not one's side
    (synthetic clutter394: a far 4, 0.33 off a near 4's plane, lit 0.83 as bright, 0.28 off
    a far 6's). (Synthetic close206: a 1 at the frame's top left unread, its front side face
    read as a 3, 0.58 off the 5's plane, 0.54 round to the 5's 0.85, its light pips 0.57 as
    bright.)"""
    if len(faces) < 2:
        return False
    shapes = np.array([_shape_vector(f) for f in faces])
    table, _ = _table_shape(shapes)
    off = np.linalg.norm(shapes - table, axis=1)
    apart = np.linalg.norm(shapes[:, None] - shapes[None], axis=2)
    return any(off[i] > OFF_TABLE and off[k] <= ON_TABLE
               and (np.delete(apart[i], i) > OFF_TABLE).all()
               and f.flatness < SQUASH_RATIO * g.flatness and _lit_above(g, f) is True
               for i, f in enumerate(faces) for k, g in enumerate(faces) if k != i)


def _pip_on_a_one(faces: list[_Face], alone: list[_Pip]) -> bool:
    """Whether a lone pip lies on a read 1's own face (inside its edge: no side face's pip
    can, see _side_reach) and is a twin of the 1's pip (see _twins), a disc (LONE_FILL) on a
    face lit as the 1's (see _alike_lit): one printed dot twice on one face, so the face is a
    2 or more whose pips did not link (a far die's 2 seen obliquely, its pips 1.4 pixels:
    their shapes, and so their link, are the pixel grid's, see SMALL_PIP), not a 1. A mark of
    the face's rounded rim is fainter than its pips, or no disc, or not the pip's size. Its
    shape is not asked: it lies on the very face the 1's pip does, seen as that pip is, and a
    small pip's roundness is the pixel grid's. (Tune photo two_44 shrunk 0.45: a 2 read as
    a sure 1, its second pip left alone on its face.)"""
    read = {id(p) for f in faces for p in f.group}
    ones = [f for f in faces if f.die.value == 1]
    for p in alone:
        if id(p) in read or p.side or p.fill < LONE_FILL:
            continue
        for f in ones:
            one = f.group[0]
            if (p.dark == one.dark and _twins(p, one) and _alike_lit(p, one)
                    and not _surely_beyond([p], f, 1.0) and _side_reach([p], f) is None):
                return True
    return False


def _clear_of_sides(p: _Pip, face: _Face) -> bool:
    """Whether a pip lies off a read face and beyond where its die's side faces show: out to
    SQUASHED_BAND (see _beside), or, seen steeply, to the side face's far edge, 1 + 2 tan t
    face half-sizes out for a camera tilted by t (cos t = the face's flatness: the side face
    is foreshortened by sin t where the top face is by cos t; synthetic rough207: a 4 seen at
    40 degrees, its side face's 2 pips 2.4 half-sizes out)."""
    band = max(SQUASHED_BAND, 1.0 + 2.0 * _tilt_tan(face))
    if _surely_beyond([p], face, band):
        return True
    reach = _side_reach([p], face)
    return reach is not None and reach > band


def _tilt_tan(face: _Face) -> float:
    """tan t for the camera's tilt t off a face seen square-on: cos t is the face's flatness
    (its pips' foreshortening, see _Face)."""
    return math.tan(math.acos(min(face.flatness, 1.0)))


def _side_pip(p: _Pip, face: _Face) -> bool:
    """Whether a lone pip may be a pip of a read face's side face, where _beside does not
    say so: out to SQUASHED_BAND from the face (or on a 1's face, whose size the 1's pip
    alone only guesses) and not seen as squarely as the face's pips (SQUASH_RATIO), or too
    small to measure its shape at all (SMALL_PIP; _beside goes by a squash such a pip does
    not show). Beside a 1, _beside cannot tell for a lone pip (see there). A side face seen
    steeply shows its pips as far out as a squashed side face's (synthetic rough387: a 1's
    side 3, pips of two pixels 0.83 round, 2.2 of its half-sizes out; rough528 and rough678:
    a 3's and a 6's side pips of 2.3 pixels, 1.9..2.0 out; many386: the dark rim of a 1's
    face, on it, 0.77 round by the 1's 0.99)."""
    reach = _side_reach([p], face)
    if reach is None and face.die.value > 1:
        return False  # a mark on the face that is not one of its pips: the reading is in doubt
    if reach is not None and reach > SQUASHED_BAND:
        return False
    return p.r < SMALL_PIP or p.roundness < SQUASH_RATIO * face.flatness


# The confidence of a completed 6 that a 4 and a stray pip explain as well.
AMBIGUOUS_SIX = 0.6


def _top_and_its_side(peeled: list[tuple[_Face, list[_Pip]]], least: float,
                      skip: Sequence[set[int]] = ()) -> tuple[_Face, list[_Pip]] | None:
    """The first face peeled off (see _peel_faces), read at least ``least`` surely, whose rest
    lies in its side band and is more squashed than it (see _beside, _squarely_seen): a die's
    top face and its side face's pips, seen steeply; or None. Faces whose pips are one of the
    sets in ``skip`` (by id) are passed over."""
    return next(((face, rest) for face, rest in peeled
                 if {id(p) for p in face.group} not in skip and face.die.confidence >= least
                 and _beside(rest, face) and not _squarely_seen(rest, face)), None)


def _explain(group: list[_Pip], img: np.ndarray, con: _Contrast,
             depth: int = 0) -> list[_Face | list[_Pip]]:
    """The dice in one linked group: the whole group as one face if it fits a layout, else the
    group split where it is most loosely linked (two touching dice, a side face's pips).

    Parts that are faces but fit no layout come back as their pips (unread).
    """
    die, unreadable = _judge(group, img, con)
    if die is not None and die.die.confidence < UNSURE_FACE and len(group) >= 5:
        # A 4 or 5 with a side face's pips beside it can fit a 6 loosely: those pips are
        # smaller (farther off and foreshortened). Without them, a much surer face stands and
        # they are its side face, as expected as any.
        r = statistics.median(p.r for p in group)
        smaller = [p for p in group if p.r < SMALLER_PIP * r]
        if 1 <= len(smaller) <= 2:
            alone, _ = _judge([p for p in group if p not in smaller], img, con)
            if alone is not None and alone.die.confidence >= die.die.confidence + 0.2:
                for p in smaller:
                    p.side = True
                return [alone]
    if die is not None and len(group) >= 5 and _mixed_planes(die):
        # The face's own map and its pips' ellipses disagree on how it is foreshortened: one
        # plane seen by one camera gives both one shape, so some pips lie in another plane (a
        # side face's, on a tilted camera). A face left without them that agrees with its pips,
        # and that they lie off, is the top face; they are its side face.
        top = _without_side_pips(group, die, img, con)
        if top is not None:
            return [top]
    if die is not None:
        return [die]
    if len(group) == 1 or depth > 4:
        return [group] if unreadable else []
    # Three corners of a 4 whose fourth pip blur or noise lost (or kept from linking), or of
    # a 5 with its middle pip.
    if 3 <= len(group) <= 4:
        die = _completed_corner(group, img, con)
        if die is not None:
            return [die]
    # Five pips of a 6 whose sixth blur or its face's shaded rim kept from being found.
    if len(group) == 5:
        die = _completed_six(group, img, con)
        if die is not None:
            # A 4 and a side face's pip beside it complete a 6 as well as five pips of a 6 do
            # (the side pip and the mark found past it stand in for a column): where dropping
            # one pip leaves a sure 4, the image does not tell the two apart, and the 6, one
            # pip of it not found as a pip, is read but not sure.
            for k in _odd_ones_out(group):
                four, _ = _judge(group[:k] + group[k + 1 :], img, con)
                if four is not None and four.die.value == 4 and (
                        four.die.confidence >= UNSURE_FACE):
                    die.die = replace(die.die, confidence=min(die.die.confidence,
                                                              AMBIGUOUS_SIX))
                    break
            return [die]
    # Dropping one stray pip (a side face's, a speck) often leaves a legal face.
    if 3 <= len(group) <= 7:
        # The stray is the pip least like the others (a face's pips are one dot on one plane):
        # tried first, so that a 3's worth of pips does not leave whichever two come first.
        for k in _odd_ones_out(group):
            rest = group[:k] + group[k + 1 :]
            die, _ = _judge(rest, img, con)
            if die is not None:
                # The dropped pip shared a plain face with these: it may only be silenced as
                # a side face when it looks squashed, not for lying in the band.
                group[k].linked = True
                return [die] + (_explain([group[k]], img, con, depth + 1) or [[group[k]]])
    # Two touching dice: one straight cut leaves two faces. Three or more: one die at a time;
    # with 12 pips or fewer (three small faces), only if the rest then cuts into two faces:
    # a top face and its side faces can be peeled into faces too, and must not be.
    if len(group) <= 12:
        both = _split_into_faces(group, img, con)
        if both is not None and _cut_across_planes(*both):
            # The cut took a face's pips with its side face's (see _cut_across_planes): a
            # sure face peeled off whose rest lies in its side band, more squashed (see steep
            # below), is the die's top and the rest its side face.
            # (Not a face the cut itself made: its pips measured alike it mixes no two planes;
            # small pips' shapes are noisy pip by pip, see ON_TABLE.)
            weaker = min(f.die.confidence for f in both)
            top = _top_and_its_side(_peel_faces(group, img, con)[:3], max(UNSURE_FACE, weaker),
                                    skip=[{id(p) for p in f.group} for f in both])
            if top is not None:
                face, rest = top
                for p in rest:
                    p.side = True
                return [face]
        if both is not None:
            top = _top_over_cut(group, both, img, con)
            return list(both) if top is None else [top]
        peeled = _peel_faces(group, img, con)[:3]
        # A cut that leaves an unsure face is weighed against the stray pip below: beside
        # touching dice a side face's pip is common, and cutting it in with a corner or two
        # of a 4 or 6 makes a poor 2 or 3 of what is one sure face and a stray.
        cut: tuple[float, list[_Face | list[_Pip]]] | None = None
        for face, rest in peeled:
            both = _split_into_faces(rest, img, con)
            if both is not None:
                weakest = min(f.die.confidence for f in (face, *both))
                if weakest >= UNSURE_FACE:
                    return [face, *both]
                cut = (weakest, [face, *both])
                break
        # Two touching dice and a stray pip linked to them (a side face's pip, a speck): the
        # rest is one face once the stray is dropped, as for one face above. Cutting such a
        # group at its loosest link instead can halve a 6 into two 3s. Two top faces lie in
        # the table's one plane; a die's side faces, peeled the same way, do not.
        # One die seen steeply: its top face and a side face whose pips continue the top
        # face's rows link into one group. A face peeled off whose rest lies in its side band
        # and is more squashed than it (see _beside) is the top face; the rest its side face.
        # Only a sure face silences pips: side faces' pips peel into unsure faces too. Such a
        # face explains every pip: it beats an unsure face with a stray left over (a top face
        # and side pips read as one 6).
        steep = _top_and_its_side(peeled, UNSURE_FACE)
        for face, rest in peeled:
            if not 2 <= len(rest) - 1 <= 6:
                continue
            for k in _odd_ones_out(rest):
                other, _ = _judge(rest[:k] + rest[k + 1 :], img, con)
                if other is None or (steep is not None
                                     and min(face.die.confidence, other.die.confidence)
                                     < UNSURE_FACE):
                    continue
                if _length(_shape_vector(face) - _shape_vector(other)) <= ON_TABLE and (
                        cut is None or min(face.die.confidence, other.die.confidence) > cut[0]):
                    rest[k].linked = True
                    return [face, other] + (_explain([rest[k]], img, con, depth + 1)
                                            or [[rest[k]]])
        if cut is not None:
            return cut[1]
        if steep is not None:
            face, rest = steep
            other = _top_in_side(face, rest, peeled)
            if other is not None:
                # A touching die's top face and stray marks, not the face's side face: the
                # marks left over are explained apart (or left unread).
                taken = {id(p) for p in other.group}
                left = [p for p in rest if id(p) not in taken]
                for p in left:
                    p.linked = True
                return [face, other] + (_explain(left, img, con, depth + 1) or [left])
            for p in rest:
                p.side = True
            return [face]
        # Two touching dice and a side face of one of them between them (a tilted camera sees
        # a die's near side face just in front of the die below it; over-exposure or a colour
        # cast can leave that side face's pips as alike to the top faces' as to link): a sure
        # face peeled off whose rest is one sure top face and its side face's pips (see steep
        # above). Both faces lie in the table's one plane; a top face and its own side face,
        # peeled so, do not.
        for face, rest in peeled:
            if face.die.confidence < UNSURE_FACE or len(rest) > 8:
                continue
            kept = [(p.linked, p.side) for p in rest]
            parts = _explain(rest, img, con, depth + 1)
            others = [part for part in parts if isinstance(part, _Face)]
            read = {id(p) for part in others for p in part.group}
            if (others and len(others) == len(parts)
                    and all(id(p) in read or p.side for p in rest)
                    and all(o.die.confidence >= UNSURE_FACE
                            and _length(_shape_vector(face) - _shape_vector(o)) <= ON_TABLE
                            for o in others)):
                return [face, *others]
            for p, (linked, side) in zip(rest, kept):
                p.linked, p.side = linked, side
        # The same with pips left that are not squashed (a side face seen at a slant like
        # the top, a speck): all just beyond the face's edge and making no face among
        # themselves. They stay unread.
        if peeled:
            face, rest = peeled[0]
            reach = [_side_reach([p], face) for p in rest]
            if all(r is not None and r <= SQUASHED_BAND for r in reach):
                parts = _explain(rest, img, con, depth + 1)
                if not any(isinstance(part, _Face) for part in parts):
                    return [face, *parts]
    else:
        peeled = _peel_faces(group, img, con)
        if peeled:
            face, rest = peeled[0]
            return [face] + _explain(rest, img, con, depth + 1)
    left, right = _split_loosest(group)
    flags = [(p.linked, p.side) for p in group]
    parts = _explain(left, img, con, depth + 1) + _explain(right, img, con, depth + 1)
    two = _far_two(left, right, parts, img, con)
    if two is None:
        return parts
    # The cut pip and its partner read as a sure 2: the rest explained without them, and the
    # reading that puts more of the group's pips in faces kept.
    cut = [(p.linked, p.side) for p in group]
    for p, (linked, side) in zip(group, flags):
        p.linked, p.side = linked, side
    rest = [p for p in group if p not in two.group]
    alt = [two] + _explain(rest, img, con, depth + 1)
    if _pips_read(alt) > _pips_read(parts):
        return alt
    for p, (linked, side) in zip(group, cut):
        p.linked, p.side = linked, side
    return parts


def _top_in_side(face: _Face, rest: list[_Pip], peeled: list[tuple[_Face, list[_Pip]]]
                 ) -> _Face | None:
    """A sure face peeled off the same group (see _peel_faces) whose pips all lie in the rest
    a steep camera's top face would silence as its side face (see _top_and_its_side), and
    that lies in the table's plane with that face (ON_TABLE, as two top faces do): a touching
    die's top face, or None. Its pips lie in the band round the face and may be less round
    on average once stray marks are counted with them, but a side face seen so steeply is
    squashed, and this is not (synthetic touching3178: five touching dark dice linked into
    one group of 21 pips; a 1 was peeled off last with a sure 3 and two marks between the
    dice left, and the 3 was silenced as the 1's side face, surely)."""
    inside = {id(p) for p in rest}
    for other, _ in peeled:
        if (other is not face and other.die.confidence >= UNSURE_FACE
                and all(id(p) in inside for p in other.group)
                and _length(_shape_vector(face) - _shape_vector(other)) <= ON_TABLE):
            return other
    return None


def _top_over_cut(group: list[_Pip], both: tuple[_Face, _Face], img: np.ndarray,
                  con: _Contrast) -> _Face | None:
    """A face peeled off the group (see _peel_faces) with as many pips as the larger of the
    two faces a straight cut made, read more surely than the cut's weaker face, and whose
    other pips make no face and all lie within its side band (SIDE_BAND): the die's top face,
    and those pips its side face's marks, now marked so; or None.

    A top face and the column of its side face's marks beside it are rows of a grid: a cut
    can take the side marks with the top face's near pips as one face and leave its far pips
    as another (a 4 and its side marks in two columns of three: a "4" of two planes and a
    "2" of the top's far column). A touching die's top face lies two half-sizes out at the
    nearest, and its pips make a face of their own."""
    # (Only the cuts that could pass are judged: they leave 1 to 3 pips and take as many as the
    # larger face; _peel_faces ranks by pips first, so its best among them is its best.)
    face, rest = next(iter(_peel_faces(group, img, con, range(
        max(len(group) - 3, *(len(f.group) for f in both)), len(group)))), (None, []))
    if (face is None or not 1 <= len(rest) <= 3
            or len(face.group) < max(len(f.group) for f in both)
            or face.die.confidence <= min(f.die.confidence for f in both)
            or _mixed_planes(face) or _judge(rest, img, con)[0] is not None):
        return None
    for p in rest:
        reach = _side_reach([p], face)
        if reach is None or reach > SIDE_BAND:
            return None
    for p in rest:
        p.side = True
    return face


def _cut_across_planes(a: _Face, b: _Face) -> bool:
    """Whether two faces cut from one pip group are no two top faces but one die's top and side
    faces mixed: they lie in two planes (see _shape_vector, ON_TABLE), and one of them holds
    pips of both (its pips' ellipses differ by as much).

    A straight cut through a top face and its side face's pips beside it can leave two legal
    faces, each sure: half the top face's pips alone, and the other half with the side face's
    squashed marks (synthetic clean166: a 4 seen nearly square-on, cut into a 2 and a "4" of
    two of its pips and two side marks 0.72..0.90 round; the "4" was dropped later as a side
    face, and the 2 stood). Two touching dice's top faces are each in the table's plane; a
    die's top and side faces, cut apart cleanly, are two planes but each one alike within
    (oblique550: a 3 and its side 2, both read; the side 2 is dropped later by the frame's
    other dice, see _drop_side_faces)."""
    if _length(_shape_vector(a) - _shape_vector(b)) <= ON_TABLE:
        return False
    for face in (a, b):
        shapes = np.array([_pip_shape(p) for p in face.group])
        if np.linalg.norm(shapes[:, None] - shapes[None], axis=2).max() > ON_TABLE:
            return True
    return False


def _pips_read(parts: list[_Face | list[_Pip]]) -> int:
    """How many pips an explanation puts in faces."""
    return sum(len(part.group) for part in parts if isinstance(part, _Face))


def _far_two(left: list[_Pip], right: list[_Pip], parts: list[_Face | list[_Pip]],
             img: np.ndarray, con: _Contrast) -> _Face | None:
    """A sure 2 of the pip a loosest-link cut left alone and its nearest pip across the cut.

    A 2's pips lie across its face's diagonal, the widest spacing any face has (twice a 3's
    step), so among touching dice its link is the longest and the first cut (see
    _split_loosest): the pip cut off reads as nothing alone, and its partner is left a stray
    beside the dice it touches."""
    if len(left) == 1:
        lone, other = left[0], right
    elif len(right) == 1:
        lone, other = right[0], left
    else:
        return None
    if any(isinstance(part, _Face) and lone in part.group for part in parts):
        return None
    partner = min(other, key=lambda q: math.hypot(q.x - lone.x, q.y - lone.y))
    face, _ = _judge([lone, partner], img, con)
    if face is None or face.die.value != 2 or face.die.confidence < SURE_READING:
        return None
    return face


# A face read less surely than this is tried again without its smaller pips.
UNSURE_FACE = 0.8
SMALLER_PIP = 0.85


def _mixed_planes(face: _Face) -> bool:
    """Whether a face's layout map and its pips' ellipses disagree on its foreshortening by more
    than faces in two planes do (see _shape_vector)."""
    return _length(_shape_vector(face) - _pips_shape(face.group)) > OFF_TABLE


def _without_side_pips(group: list[_Pip], face: _Face, img: np.ndarray,
                       con: _Contrast) -> _Face | None:
    """The face left when one or two of the group's most unlike pips (see _odd_ones_out) are
    dropped, if it agrees with its own pips' shape, is at least as sure, and the dropped pips
    lie off it (a 5's middle pip, dropped, leaves a 4 that it lies on); the surest such face.
    The dropped pips are marked as side-face pips."""
    odd = _odd_ones_out(group)[:3]
    best: tuple[float, _Face, list[_Pip]] | None = None
    for drop in [[k] for k in odd] + [[a, b] for i, a in enumerate(odd) for b in odd[i + 1:]]:
        gone = [group[k] for k in drop]
        rest, _ = _judge([p for k, p in enumerate(group) if k not in drop], img, con)
        if (rest is None or rest.die.confidence < face.die.confidence or _mixed_planes(rest)
                or any(_side_reach([p], rest) is None for p in gone)):
            continue
        if best is None or rest.die.confidence > best[0]:
            best = (rest.die.confidence, rest, gone)
    if best is None:
        return None
    for p in best[2]:
        p.side = True
    return best[1]


def _odd_ones_out(group: list[_Pip]) -> list[int]:
    """The pips of a group by how unlike the others they are (size, contrast, the shape the
    plane gives them), the most unlike first."""
    r = np.array([p.r for p in group])
    c = np.array([p.contrast for p in group])
    shapes = np.array([_pip_shape(p) for p in group])
    unlike = (np.abs(r[:, None] - r[None]) / ((r[:, None] + r[None]) / 2)
              + np.abs(c[:, None] - c[None])
              + np.linalg.norm(shapes[:, None] - shapes[None], axis=2))
    return [int(k) for k in np.argsort(-unlike.sum(axis=1), kind="stable")]


def _mark_steps(group: list[_Pip], con: _Contrast, xy: np.ndarray) -> np.ndarray:
    """How far the image at each point (median of a small square) stands out from the group's
    face level, towards its pips' polarity."""
    image, level, sign, rad = _face_level(group, con)
    h, w = image.shape
    out = np.full(len(xy), -math.inf)
    xi, yi = np.rint(xy[:, 0]).astype(int), np.rint(xy[:, 1]).astype(int)
    inner = (xi >= rad) & (xi < w - rad) & (yi >= rad) & (yi < h - rad)
    if inner.any():
        out[inner] = sign * (_square_medians(image, xi[inner], yi[inner], rad) - level)
    return out


def _completed_corner(group: list[_Pip], img: np.ndarray, con: _Contrast) -> _Face | None:
    """Three pips at three corners of a square (under the camera's tilt) whose fourth corner the
    image shows as a mark about as strong as they are: a 4 whose fourth pip blur, noise or a
    glint kept from being found or linked; or, with a fourth pip in the square's middle, a 5.
    A corner pip by the face's edge is the one most often lost: its blob runs into the table
    or shadow beyond the edge and is no pip (a close die's big pips come within a few pixels
    of the edge). Read only if the 4 or 5 then passes every test."""
    if len(group) == 3:
        return _completed_four(group, img, con) or _completed_five(group, img, con)
    for mid in range(len(group)):
        face = _completed_four(group[:mid] + group[mid + 1 :], img, con, group)
        if face is not None:
            return face
    return None


# One face's pips are one size (the same circle through the same tilt). A blob at a face's
# missing corner this much larger than its largest pip is no pip of another plane (a side
# face's are smaller, foreshortened) but the corner pip run into its rim (synthetic many787: a
# purple 5's corner pip joined to its shaded edge, a blob of 6.7 pixels radius against the
# face's other pips' 3.9..4.2).
MERGED_PIP = 1.3


def _completed_four(group: list[_Pip], img: np.ndarray, con: _Contrast,
                    whole: list[_Pip] | None = None) -> _Face | None:
    """The face ``whole`` (by default the three corners ``group``) makes with the fourth
    corner of ``group``'s square added, if the image shows a pip there (see
    _completed_corner) and the face is a 4 (or, with a middle pip, a 5)."""
    whole = group if whole is None else whole
    pts = np.array([[p.x, p.y] for p in group])
    reach = max(p.r for p in group)  # a found pip this near (plus its own radius) is there
    for k in range(3):
        b = pts[k]
        a, c = pts[(k + 1) % 3], pts[(k + 2) % 3]
        u, v = a - b, c - b
        nu, nv = _length(u), _length(v)
        if min(nu, nv) < 0.6 * max(nu, nv) or abs(float(u @ v)) > 0.5 * nu * nv:
            continue
        d = a + c - b
        # A 5's corner pip that was found but kept apart by the grouping is unlike its pips
        # (another plane's, a speck), or rejoins them (see _rejoin): only a pip not found at
        # all is completed so. (A far die's side 5, whose corner pip was found but left
        # unlinked, was completed so and read beside its top face: a tuning photo shrunk 0.45.)
        # But a blob found there larger than the face's pips (see MERGED_PIP) is the corner
        # pip itself, run into its face's shaded rim or the table beyond the edge: the face
        # closes round it on its inward side only, as round a 6's (see _completed_six).
        there = [p for p in con.found if math.hypot(p.x - d[0], p.y - d[1]) < p.r + reach]
        merged = bool(there) and all(p.r >= MERGED_PIP * reach for p in there)
        if whole is not group and there and not merged:
            continue
        if not _pip_mark_at(group, con, d, inward=merged):
            continue
        twin = replace(group[k], x=float(d[0]), y=float(d[1]),
                       contrast=min(p.contrast for p in group))
        face, _ = _judge([*whole, twin], img, con)
        if face is not None and face.die.value == len(whole) + 1:
            return face
    return None


# The confidence of a 5 read with two of its pips completed (see _completed_five): read, as
# the image shows them, but not surely, for the players to check; a face missing two pips to
# its rim may stand beside a die missing one (a 2's corner pip, lost the same way and left a
# lone pip that reads as nothing: synthetic clutter356).
TWICE_COMPLETED = 0.85


def _completed_five(group: list[_Pip], img: np.ndarray, con: _Contrast) -> _Face | None:
    """The 5 whose middle pip and two neighbouring corners are these three pips (a right
    angle at the middle, under the camera's tilt, legs alike), its other two corners mirrored
    through the middle, where the image shows a pip on each one's inward side (see
    _pip_mark_at) that was not found: on a saturated or shaded face both corners on the side
    away from the light run into its dark rim and are lost alike (synthetic many787, a purple
    5). Each completed corner is where only a blob larger than the pips (MERGED_PIP: the
    corner pip run into the rim) or nothing was found. Read only if the 5 passes every test."""
    pts = np.array([[p.x, p.y] for p in group])
    reach = max(p.r for p in group)
    for k in range(3):
        m = pts[k]
        u, v = pts[(k + 1) % 3] - m, pts[(k + 2) % 3] - m
        nu, nv = _length(u), _length(v)
        if min(nu, nv) < 0.6 * max(nu, nv) or abs(float(u @ v)) > 0.5 * nu * nv:
            continue
        twins = []
        for d in (m - u, m - v):
            there = [p for p in con.found if math.hypot(p.x - d[0], p.y - d[1]) < p.r + reach]
            if any(p.r < MERGED_PIP * reach for p in there) or not _pip_mark_at(
                    group, con, d, inward=True):
                break
            twins.append(replace(group[k], x=float(d[0]), y=float(d[1]),
                                 contrast=min(p.contrast for p in group)))
        else:
            face, _ = _judge([*group, *twins], img, con)
            if face is not None and face.die.value == 5:
                face.die = replace(face.die, confidence=min(face.die.confidence,
                                                            TWICE_COMPLETED))
                return face
    return None


def _completed_six(group: list[_Pip], img: np.ndarray, con: _Contrast) -> _Face | None:
    """Five pips of a 6 whose sixth the image shows as a pip on its inward side (see
    _pip_mark_at), found or not: a corner pip a pixel or two from its face's shaded rim (a
    tilted face's corner, where the square level dark pips are measured against dips to the
    rim's shade) stands out from that level too little to make a round blob (synthetic light
    scenes: a white 6's corner pip, a ragged blob of contrast 0.39 where its face gives it
    0.5). Five pips of a 6 fit no layout, and a 6's every pip completes a parallelogram with
    three others (its two columns are parallel, its rows too), so the places tried are those
    completions. Read only if the 6 passes every test (a 5 is no 6: its middle pip lies off
    a 6's places)."""
    pts = np.array([[p.x, p.y] for p in group])
    r = statistics.median(p.r for p in group)
    places: list[tuple[np.ndarray, int]] = []
    for b in range(len(group)):
        for a in range(len(group)):
            for c in range(a + 1, len(group)):
                if b in (a, c):
                    continue
                d = pts[a] + pts[c] - pts[b]
                # (Not where a pip is, nor a place already taken.)
                if all(_length(d - q) >= 2 * r for q in [*pts, *(t for t, _ in places)]):
                    places.append((d, b))
    if not places:
        return None
    # Cheap first: the marks at all the places in one pass (as _pip_mark_at measures them).
    steps = _mark_steps(group, con, np.vstack([pts, [d for d, _ in places]])).tolist()
    pip_step = statistics.median(steps[: len(group)])
    for (d, b), step in zip(places, steps[len(group) :]):
        if step < (1 - BLANK_MAX) * pip_step or not _pip_mark_at(group, con, d, inward=True):
            continue
        twin = replace(group[b], x=float(d[0]), y=float(d[1]),
                       contrast=min(p.contrast for p in group))
        face, _ = _judge([*group, twin], img, con)
        if face is not None and face.die.value == 6:
            return face
    return None


def _pip_mark_at(group: list[_Pip], con: _Contrast, d: np.ndarray,
                 inward: bool = False) -> bool:
    """Whether the image shows a pip of this group's kind at ``d``, found or not: a mark
    about as strong as the group's pips, that the face closes round; with ``inward``, on
    the side towards the group's pips (the face's middle) only, and clear of them: a corner
    pip's outer side is its face's margin and shaded rim, which may stand out as far, and a
    small die's pips lie closer to their neighbours than the ring (1.6 radii: the halo
    _plain_between leaves out)."""
    # The group's pips, the point and the ring round it (see below) in one pass; medians by
    # statistics.median, np.median's value without its cost.
    r = statistics.median([p.r for p in group])
    n = len(group)
    steps = _mark_steps(group, con, np.vstack([[[p.x, p.y] for p in group], d,
                                               d + _RING * 2.0 * r])).tolist()
    pip_step = statistics.median(steps[:n])
    if pip_step <= 0 or steps[n] < (1 - BLANK_MAX) * pip_step:
        return False
    # A pip is a spot: the face closes round it (the table or a side face beyond a
    # corner would stand out as far, but not as a spot).
    ring = steps[n + 1 :]
    if inward:
        pts = np.array([[p.x, p.y] for p in group])
        spots = d + _RING * 2.0 * r
        clear = np.hypot(spots[:, None, 0] - pts[None, :, 0],
                         spots[:, None, 1] - pts[None, :, 1]).min(axis=1) > 1.6 * r
        facing = _RING @ (pts.mean(axis=0) - d) > 0
        ring = [v for v, keep in zip(ring, clear & facing) if keep]
        if len(ring) < 3:
            return False
    return statistics.median(ring) <= BLANK_MAX * pip_step


def _swapped_pips(faces: list[_Face], loose: list[list[_Pip]], img: np.ndarray,
                  con: _Contrast) -> None:
    """Reads again the unsure faces that a loose pip lies on, with that pip in place of one
    of their own, when the face then reads surely (SURE_READING) and surer: a face peeled from
    a huddle of touching dice can take a neighbour's pip or a rim mark beside it in place of
    its own corner pip (its blob run into the rim, or linked elsewhere), and fit a legal
    layout loosely so, leaving its own pip loose on it; no face has a pip on it that is not
    one of its own. The pip it gave up is left loose."""
    for k, f in enumerate(faces):
        if f.die.confidence >= SURE_READING or f.die.value < 2:
            continue
        best: tuple[float, _Face, list[_Pip], _Pip] | None = None
        for g in loose:
            for q in g:
                if q.dark != f.group[0].dark or not _on_face_or_rim(q, f):
                    continue
                for i in range(len(f.group)):
                    face, _ = _judge(f.group[:i] + [q] + f.group[i + 1 :], img, con)
                    if (face is not None and face.die.value == f.die.value
                            and face.die.confidence >= SURE_READING
                            and (best is None or face.die.confidence > best[0])):
                        best = (face.die.confidence, face, g, f.group[i])
        if best is None:
            continue
        _, face, g, given = best
        faces[k] = face
        g[:] = [p for p in g if not any(p is q for q in face.group)]
        loose.append([given])
    loose[:] = [g for g in loose if g]


def _layout_coords(face: _Face, pips: Sequence[_Pip]) -> np.ndarray | None:
    """The pips' places (N x 2) in a read face's layout units (its axes, about its centre);
    None when the face's axes are degenerate."""
    pts = np.array([[p.x, p.y] for p in pips]) - face.centre
    try:
        return np.linalg.solve(face.axes, pts.T).T
    except np.linalg.LinAlgError:
        return None


def _margin(face: _Face) -> float:
    """How far out (layout units) a face's margin reaches: halfway from its outer pips'
    places to its edge."""
    return (1.0 + face.half) / 2


# A face's rim reaches this far (layout units: half a pip step) past its edge.
RIM_STEPS = 0.5


def _on_face_or_rim(pip: _Pip, face: _Face) -> bool:
    """Whether a pip lies on a read face or its rim, within half a pip step of its edge (a
    loose fit of the wrong pips puts the face's own lost pip at its edge, see
    _swapped_pips)."""
    local = _layout_coords(face, [pip])
    return local is not None and float(np.abs(local).max()) <= face.half + RIM_STEPS


def _completed_threes(faces: list[_Face], img: np.ndarray, con: _Contrast) -> None:
    """Reads as 3s the 2s that are a 3's middle pip and one corner: the other corner, just
    past one end of the 2 as far again, blur or noise kept from being found or linked, but
    the image shows it as a pip (see _pip_mark_at). Read only if the 3 passes every test; a
    true 2's line continued that far leaves its face, which the 3's face tests see."""
    for k, f in enumerate(faces):
        if f.die.value != 2:
            continue
        a, b = (np.array([p.x, p.y]) for p in f.group)
        for d in (2 * a - b, 2 * b - a):
            if not _pip_mark_at(f.group, con, d):
                continue
            twin = replace(f.group[0], x=float(d[0]), y=float(d[1]),
                           contrast=min(p.contrast for p in f.group))
            three, _ = _judge([*f.group, twin], img, con)
            if three is not None and three.die.value == 3:
                faces[k] = three
                break


_NUDGE = np.linspace(-0.4, 0.4, 5)


def _columns_across(group: list[_Pip], step: np.ndarray,
                    con: _Contrast) -> Iterator[list[_Pip]]:
    """The pips of the face's other column, for a group that is one column of it (``step``:
    one pip step along it, a layout unit: a 3's from pip to pip, a 4's side's half its
    length), each side in turn: two pip steps across, square to the column in the face's plane
    (the pips' ellipses give its foreshortening, see _tilt), where the image shows each as a
    pip (see _pip_mark_at). As twins of the group's pips, in its order."""
    pts = np.array([[p.x, p.y] for p in group])
    tilt = _tilt(group)
    flat = np.linalg.solve(tilt, step)
    across = tilt @ (2 * np.array([-flat[1], flat[0]]))
    # The pips' ellipses give the foreshortening only roughly (a die near the frame's edge is
    # seen in perspective too): the column is sought within 0.4 steps of where they put it, as
    # one rigid shift (the whole column is where its marks are strongest).
    shifts = np.array([[x, y] for x in _NUDGE for y in _NUDGE]) * _length(step)
    for d in (across, -across):
        # (Every shift's column in one pass: points are measured each on its own.)
        marks = _mark_steps(group, con, (pts[None] + (d + shifts)[:, None]).reshape(-1, 2))
        d = d + shifts[int(np.argmax(marks.reshape(len(shifts), len(pts)).min(axis=1)))]
        if all(_pip_mark_at(group, con, q + d) for q in pts):
            yield [replace(p, x=p.x + float(d[0]), y=p.y + float(d[1]),
                           contrast=min(q.contrast for q in group)) for p in group]


# (Lab, round 31: fresh tune seeds 3000..3899 7118 -> 7125 of 7,200 read exactly, none lost,
# wrong and sure 17 -> 15; old seeds 0..899 7144 -> 7147, none lost; the photos and their
# variants unchanged; the check seeds 4000..4449 one won and one lost, 3562 of 3,600 and 15 wrong
# and sure either way. Without the two guards below, fresh 6 won and 6 lost and three more wrong
# and sure; with the 4s read surely, the check seeds' wrong and sure 15 -> 16.)
def _completed_fours(faces: list[_Face], loose: list[list[_Pip]], img: np.ndarray,
                     con: _Contrast) -> None:
    """Reads as 4s the 2s that are one side of a 4: two pips fit a 2 (its diagonal) as well
    as a 4's side, and light pips on a noisy coloured face can leave the other side unfound
    (synthetic rough3196: an orange 4's left pips read as a 2, its right ones no pips).
    The other side lies two pip steps away (the 2's own length), square to it in the face's
    plane (see _completed_sixes, sought the same way), where the image shows each of its
    pips as a pip (see _pip_mark_at). Read only if the 4 passes every test: a true 2's
    diagonal shifted so far sideways leaves its face, and a 6's end pips completed so leave
    its middle pips on the 4's blank spots. Pips found there are the 4's."""
    completed: list[_Face] = []
    for f in [f for f in faces if f.die.value == 2]:
        if not any(g is f for g in faces):
            continue  # given up to a 4 completed before
        a, b = f.group
        for twins in _columns_across(f.group, np.array([b.x - a.x, b.y - a.y]) / 2, con):
            taken = [g for g in faces if g is not f and not _clear_of_all(g.group, twins)]
            # A face read surely with three or more pips explains them as well as a face
            # can: no 2 takes two of them (a 5 or 6 touching it, its pips beside the 2's).
            if any(g is c for g in taken for c in completed) or any(
                    g.die.value >= 3 and g.die.confidence >= SURE_READING for g in taken):
                continue
            # Where no pip was found, only marks, a 2 read surely stands: its blank spots
            # were clean, and the marks beside it may be a touching die's rim or shade.
            found = not any(_clear_of(t, con.found) for t in twins)
            if not found and f.die.confidence >= SURE_READING:
                continue
            four, _ = _judge([*f.group, *twins], img, con)
            if four is None or four.die.value != 4:
                continue
            # Two of its pips completed, as a 5's may be (see _completed_five): read as the
            # image shows it, but not surely, for the players to check.
            four.die = replace(four.die, confidence=min(four.die.confidence, TWICE_COMPLETED))
            completed.append(four)
            faces[:] = [four if g is f else g for g in faces
                        if g is f or _clear_of_all(g.group, twins)]
            loose[:] = [g for g in loose if _clear_of_all(g, twins)]
            # Faces that took one of the other side's pips (a touching die's 1, linked with
            # it as a 2) give it up; their other pips are read anew.
            for g in taken:
                rest = [p for p in g.group if _clear_of_all([p], twins)]
                for part in _explain(rest, img, con) if rest else []:
                    (faces if isinstance(part, _Face) else loose).append(part)
            break


def _completed_sixes(faces: list[_Face], loose: list[list[_Pip]], img: np.ndarray,
                     con: _Contrast) -> None:
    """Reads as 6s the 3s that are one column of a 6: three pips in a line fit a 3 (its
    diagonal) as well as a 6's column, and blur, noise or a colour cast can keep the other
    column from being found. A 6's columns are two pip steps apart, square to the column in
    the face's plane (the pips' ellipses give its foreshortening, see _tilt); the image shows
    each of the other column's pips as a pip (see _pip_mark_at). Read only if the 6 passes
    every test; a true 3's line shifted so far sideways leaves its face, which the 6's tests
    see (the face between the columns is not plain). The other column's pips, where they were
    found, are the 6's: whatever read them (a 3 of their own, a loose group) goes."""
    k = 0
    while k < len(faces):
        f = faces[k]
        k += 1
        if f.die.value != 3:
            continue
        pts = np.array([[p.x, p.y] for p in f.group])
        along = np.argsort(pts @ (pts[-1] - pts[0]))
        for twins in _columns_across(f.group, (pts[along[-1]] - pts[along[0]]) / 2, con):
            six, _ = _judge([*f.group, *twins], img, con)
            if six is not None and six.die.value == 6:
                faces[k - 1] = six
                faces[:] = [g for g in faces if g is six or _clear_of_all(g.group, twins)]
                loose[:] = [g for g in loose if _clear_of_all(g, twins)]
                k = faces.index(six) + 1
                break


def _drop_rows(faces: list[_Face], loose: list[list[_Pip]], pips: list[_Pip]) -> None:
    """Drops the 2s and 3s whose line of pips runs on, at the same step, into a row of four
    or more alike pips: no die face has more than three pips in a line, and past a 3's corner
    pip (or a 2's, both ways) as far again lies beyond its face's corner, where no die has a
    pip; a touching die's nearest pips lie farther off, past the margins of both faces. Such a
    row is a pattern (a woven cloth, a printed or moulded texture). Only pips found count,
    alike: the same polarity, radii within 0.7 of each other (as bridged pips in _pieces) and
    as round within SHAPE_TOLERANCE (one plane; a neighbour's side face pip can sit there, but
    squashed). A die's shaded corner can look like a mark there, so image marks do not.
    (A 2 with a mark at one end only is a 3's two pips, see _completed_threes.) Its pips are
    left unread. The pips of a read 4, 5 or 6 beside it are no such row's: those faces' pips
    run in two directions, a square, and touching dice can put one just where the 2's line
    runs on (synthetic p5 touching582: a 2 between a 5 and a 3, its diagonal meeting a pip of
    each)."""
    kept = []
    squares = {id(p) for g in faces if g.die.value >= 4 for p in g.group}
    for f in faces:
        if f.die.value in (2, 3):
            pts = np.array([[p.x, p.y] for p in f.group])
            ends = np.argsort(pts @ (pts[-1] - pts[0]))
            a, b = pts[ends[0]], pts[ends[-1]]
            step = (b - a) / (len(pts) - 1)
            r = statistics.median(p.r for p in f.group)
            near = 0.25 * _length(step)
            rd = statistics.median(p.roundness for p in f.group)
            own = {id(p) for p in f.group}
            alike = [q for q in pips if q.dark == f.group[0].dark and id(q) not in own
                     and id(q) not in squares
                     and 0.7 * r <= q.r <= r / 0.7 and abs(q.roundness - rd) <= SHAPE_TOLERANCE]
            marks = [any(math.hypot(q.x - e[0], q.y - e[1]) <= near for q in alike)
                     for e in (a - step, b + step)]
            if any(marks) if f.die.value == 3 else all(marks):
                loose.append(list(f.group))
                continue
        kept.append(f)
    faces[:] = kept


_CUT_DIRECTIONS = np.array([[math.cos(a), math.sin(a)]
                            for a in np.radians(np.arange(0.0, 180.0, 15.0))])
# A cut leaving two faces this sure ends the search.
SURE_CUT = 0.95


def _line_cuts(group: list[_Pip], sizes: range, both_ends: bool) -> Iterator[frozenset[int]]:
    """The parts of a group a straight line cuts off (12 directions, every gap along each): the
    pips on one side, by index, each part once. ``sizes`` says how many pips a part may have;
    ``both_ends`` also takes them from the far end of each direction."""
    xy = np.array([[p.x, p.y] for p in group])
    seen: set[frozenset[int]] = set()
    # The pips' order along each direction, all directions in one (stable) sort.
    for order in np.argsort(xy @ _CUT_DIRECTIONS.T, axis=0, kind="stable").T.tolist():
        for k in sizes:
            for end in (order[:k], order[-k:]) if both_ends else (order[:k],):
                part = frozenset(end)
                if part not in seen:
                    seen.add(part)
                    yield part


def _peel_faces(group: list[_Pip], img: np.ndarray, con: _Contrast,
                sizes: range = range(1, 7)) -> list[tuple[_Face, list[_Pip]]]:
    """Three or more touching dice linked into one group: the dice at the ends of the huddle
    that a straight line cuts off, best first (the most pips, then the surest: a lone 1 last),
    each with the pips left. ``sizes``: how many pips a die cut off may have (at most 6)."""
    found: list[tuple[tuple[int, float], _Face, frozenset[int]]] = []
    for part in _line_cuts(group, range(sizes.start, min(sizes.stop, 7)), both_ends=True):
        face, _ = _judge([group[i] for i in sorted(part)], img, con)
        if face is not None:
            found.append(((len(part), face.die.confidence), face, part))
    found.sort(key=lambda f: f[0], reverse=True)
    return [(face, [p for i, p in enumerate(group) if i not in part]) for _, face, part in found]


def _split_into_faces(group: list[_Pip], img: np.ndarray,
                      con: _Contrast) -> tuple[_Face, _Face] | None:
    """Two touching dice whose pips linked into one group: the faces of two dice lie on either
    side of a straight line, so the group's cuts by lines in 12 directions (see _line_cuts) are
    tried, and the cut leaving two legal faces, surest first, is taken."""
    best: tuple[float, _Face, _Face] | None = None
    n = len(group)
    for part in _line_cuts(group, range(max(1, n - 6), min(n, 7)), both_ends=False):
        a, _ = _judge([group[i] for i in sorted(part)], img, con)
        if a is None:
            continue
        b, _ = _judge([group[i] for i in range(n) if i not in part], img, con)
        if b is None:
            continue
        score = min(a.die.confidence, b.die.confidence)
        if score >= SURE_CUT:
            return a, b
        if best is None or score > best[0]:
            best = (score, a, b)
    return None if best is None else (best[1], best[2])


def _beside(group: Sequence[_Pip], face: _Face) -> bool:
    """True when these pips lie in the band just around a read face, where the same die's side
    faces show, and so are not a die of their own.

    A camera tilted by t sees a side face's middle about (1 + tan t) face half-sizes from the
    top face's centre (1.58 at 30 degrees, 2 at 45); the nearest a touching die's middle can be
    is 2. So a lone pip counts as a side face up to SIDE_BAND (a 1 there would put its die
    inside this one); pips squashed more than the face's own count up to SQUASHED_BAND (a
    touching die's top face is no more squashed than this one's).
    """
    if face.die.value == 1 and len(group) == 1:
        return False  # two lone pips: neither says where its face is
    if _surely_beyond(group, face, SQUASHED_BAND):
        return False  # far off, in either band's terms (the cheap test first)
    reach = _side_reach(group, face)
    if reach is None:
        return False  # a mark on the face that is not one of its pips: the reading is in doubt
    squashed = sum(p.roundness for p in group) / len(group) < SQUASH_RATIO * face.flatness
    if len(group) == 1 and not group[0].linked and reach <= SIDE_BAND:
        return True
    return squashed and reach <= SQUASHED_BAND


def _own_face_between(group: Sequence[_Pip], face: _Face) -> bool:
    """True when these marks are of the other polarity than a read face's pips and lie on
    that face, inside its margin (halfway from its outer pips' places to its edge, as in
    _side_reach): a dark face's plain surface seen between its light pips, whose glows light
    the face round them, stands out as dark against that light, and a light face between
    dark pips the other way; no other die's pips can show on a face the camera sees whole.
    (Synthetic close636: a dark 3's big light pips, two dark marks on its diagonal between
    them; clutter385: a dark 3's yellow pips, three dark specks by its empty corner.)"""
    dark = face.group[0].dark
    if any(p.dark == dark for p in group) or any(q.dark != dark for q in face.group):
        return False
    local = _layout_coords(face, group)
    return local is not None and bool((np.abs(local).max(axis=1) <= _margin(face)).all())


def _squarely_seen(group: Sequence[_Pip], face: _Face) -> bool:
    """Whether any of these pips looks at the camera as squarely as a face's own (ROUND_AS_TOP):
    one die's top and side faces are seen at angles that add up to 90 degrees, so such a pip is
    no pip of that face's side faces; it lies on a top face, of a die of its own. (_beside
    judges a group by its pips' mean roundness: a touching die's round pips and its neighbour's
    squashed side pips, linked into one group, average out as squashed. Tune photos in low
    contrast: a 4's three round pips, 0.85..0.91, beside a 1 read from its fourth, 0.92, and a
    side face's pips, 0.54..0.64.)"""
    return any(p.roundness >= ROUND_AS_TOP * face.flatness for p in group)


def _near_side_one(one: _Face, face: _Face, near: np.ndarray | None) -> bool:
    """Whether a 1 lies where the camera sees the near side face of ``face``'s die, by how far
    the camera's tilt puts that side face's middle out.

    The camera sees a die's side faces towards itself (``near``, see _toward_camera; never
    away from it). Tilted by t, it sees the near side face's middle 1 + tan t face half-sizes
    out from the top face's centre (see _beside), and t shows in the top face's own pips:
    cos t = its flatness. A touching die's top face lies 2 half-sizes out at the least, so a
    pip nearer the side face's middle than that (half way between the two) is the side face.
    At 45 degrees or more the two places meet and the place tells nothing: SIDE_BAND holds.
    (Tune photos blurred: a 3 seen at 39 degrees, flatness 0.78, and its die's side 1, 1.80
    half-sizes out towards the camera, where the side face's middle lies at 1.80.)"""
    if near is None or face.die.value == 1 or one.group[0].linked or not _toward(face, one, near):
        return False
    tan_t = _tilt_tan(face)
    if tan_t >= 1.0:
        return False
    reach = _side_reach(one.group, face)
    return reach is not None and reach <= (1.0 + tan_t + 2.0) / 2


def _surely_beyond(group: Sequence[_Pip], face: _Face, band: float) -> bool:
    """Whether _side_reach surely finds these pips farther out than ``band`` (or finds None),
    by a bound that spares its solve: in layout units their mean lies at least its image
    distance from the centre over the face's largest scale out, and its largest coordinate is
    at least 1 / sqrt(2) of that (the 1% margin is far beyond rounding)."""
    dx = sum(p.x for p in group) / len(group) - float(face.centre[0])
    dy = sum(p.y for p in group) / len(group) - float(face.centre[1])
    (p, q), (r, t) = face.axes.tolist()
    sq = p * p + q * q + r * r + t * t
    det = p * t - q * r
    largest = math.sqrt((sq + math.sqrt(max(sq * sq - 4 * det * det, 0.0))) / 2)
    return math.hypot(dx, dy) > 1.01 * math.sqrt(2) * band * face.half * largest


# A mark fainter than this fraction of a face's pips' (median) contrast is no pip of that face.
RIM_FAINT = 0.7


def _side_reach(group: Sequence[_Pip], face: _Face) -> float | None:
    """How far out from a face (in its half-sizes) pips lie, by their mean; None when any of
    them lies on the face."""
    local = _layout_coords(face, group)
    if local is None:
        return math.inf
    out = np.abs(local).max(axis=1)
    # A mark in the face's margin (beyond its outer pips' places, up to its edge: no pip is
    # painted there) far fainter than its pips is the rounded edge's shading or a speck, not a
    # pip: it casts no doubt on the reading. (Pips of one face are one paint in one light.)
    clear = RIM_FAINT * statistics.median(p.contrast for p in face.group)
    rim = np.array([p.contrast < clear for p in group]) & (out > _margin(face))
    if ((out < face.half) & ~rim).any():
        return None
    return float(np.abs(local.mean(axis=0)).max()) / face.half


def _group_box(group: list[_Pip]) -> tuple[float, float, float, float]:
    r = max(p.r for p in group)
    xs = [p.x for p in group]
    ys = [p.y for p in group]
    return (min(xs) - 3 * r, min(ys) - 3 * r, max(xs) + 3 * r, max(ys) + 3 * r)


def _split_loosest(group: list[_Pip]) -> tuple[list[_Pip], list[_Pip]]:
    """Cuts the longest edge of the group's minimum spanning tree."""
    xy = np.array([[p.x, p.y] for p in group])
    dist = np.linalg.norm(xy[:, None] - xy[None], axis=2)
    n = len(group)
    in_tree = [0]
    edges: list[tuple[float, int, int]] = []
    best = dist[0].copy()
    link = np.zeros(n, int)
    best[0] = np.inf
    for _ in range(n - 1):
        j = int(np.argmin(best))
        edges.append((float(dist[j, link[j]]), int(link[j]), j))
        in_tree.append(j)
        best[j] = np.inf
        closer = dist[j] < best
        closer[in_tree] = False
        best[closer] = dist[j][closer]
        link[closer] = j
    _, a, b = max(edges)
    # Everything still joined to a once the edge a-b is cut.
    adj: dict[int, list[int]] = {i: [] for i in range(n)}
    for _, u, v in edges:
        if {u, v} != {a, b}:
            adj[u].append(v)
            adj[v].append(u)
    side, todo = {a}, [a]
    while todo:
        u = todo.pop()
        for v in adj[u]:
            if v not in side:
                side.add(v)
                todo.append(v)
    return [group[i] for i in side], [group[i] for i in range(n) if i not in side]


def _clip_box(b: Sequence[float], size: tuple[int, int]) -> tuple[int, int, int, int]:
    w, h = size
    return (
        int(max(0, math.floor(b[0]))),
        int(max(0, math.floor(b[1]))),
        int(min(w - 1, math.ceil(b[2]))),
        int(min(h - 1, math.ceil(b[3]))),
    )


def _scaled(die: Die, scale: float, size: tuple[int, int]) -> Die:
    outline = tuple((x * scale, y * scale) for x, y in die.outline)
    xs = [p[0] for p in outline]
    ys = [p[1] for p in outline]
    return Die(
        value=die.value,
        box=_clip_box((min(xs), min(ys), max(xs), max(ys)), size),
        outline=tuple((round(x, 1), round(y, 1)) for x, y in outline),
        confidence=die.confidence,
        pips=tuple((round(x * scale, 1), round(y * scale, 1)) for x, y in die.pips),
    )


def _judge(group: list[_Pip], img: np.ndarray, con: _Contrast,
           lone_round: float = LONE_ROUNDNESS) -> tuple[_Face | None, bool]:
    """A die read from one pip group, or (None, True) for a face that fits no layout, or
    (None, False) for something that is not a die face at all. Asked once per group and frame
    (``img`` is the frame ``con`` was made from)."""
    key = (tuple(id(p) for p in group), lone_round)
    known = con.judged.get(key)
    if known is None:
        # The group is kept with its verdict so that its pips' ids stay theirs.
        known = con.judged[key] = (list(group), _judge_afresh(group, img, con, lone_round))
    return known[1]


def _alone_once(pip: _Pip, con: _Contrast, img: np.ndarray) -> _Pip | None:
    """_alone's answer for a pip, worked out once per frame (kept with _judge's verdicts, and
    with the pip, so that its id stays its own)."""
    key = ("alone", id(pip))
    known = con.judged.get(key)
    if known is None:
        known = con.judged[key] = (pip, _alone(pip, con, img))
    return known[1]


def _judge_afresh(group: list[_Pip], img: np.ndarray, con: _Contrast,
                  lone_round: float) -> tuple[_Face | None, bool]:
    lone = _alone_once(group[0], con, img) if len(group) == 1 else None
    if len(group) == 1 and (lone is None or lone.contrast < LONE_PIP_CONTRAST
                            or lone.roundness < lone_round or lone.fill < LONE_FILL
                            or not _stand_out(group, con)[0]):
        return None, False
    pts = np.array([[p.x, p.y] for p in group])
    # (Too close against the blobs' radius, too far against the larger, see SPACING_RANGE.)
    r = statistics.median([p.r for p in group])
    far = statistics.median([p.spaced_r for p in group])
    tilt = _tilt(group)
    fit = _fit_layout(pts, tilt)
    if fit is None:
        return None, len(group) > 1
    if tilt[0, 1] == 0.0 and tilt[0, 0] == 1.0 and min(p.roundness for p in group) >= UNTILTED:
        # Pips that show no tilt (see _tilt: round within 0.08, or squashed by up to 0.2 in
        # no one direction) are each measured by the area of an ellipse that may be squashed
        # all the same, by the view or by a small blob's pixels (see SQUASH_RATIO), while the
        # layout is fitted to their centres alone: a 2's or 3's diagonal is taken at its full
        # length in the image. Too far is then judged against the pips' long radius, as in
        # _pair_twos (synthetic many715: a 2's pips 0.88 round, 4.52 half-height radii per
        # spacing apart; light298: a lime 4's, 0.85..0.89 round, 4.55).
        far = statistics.median([p.spaced_r / math.sqrt(p.roundness) for p in group])
    if fit.value == 1:
        if lone is None or lone.contrast < LONE_PIP_CONTRAST or lone.roundness < lone_round:
            return None, False
        # A 1 has no pip offset: its unit is the pip's long radius (its true radius on a face
        # seen at an angle).
        fit.axes = tilt * (lone.r / math.sqrt(max(lone.roundness, 0.3)))
        # Its face's flatness, squash and shape (which tell its top from a side face, see
        # _Face) are the pip's it is judged as (see _alone), not its core's: a light pip's
        # core, cut at half its height over a level its own glow and glints set, measures the
        # shape worse than its whole blob cut at half height (see _shaped_at_half_height) does
        # (tune negatives tilted: a 1 0.54 round as a core, 0.74 so and in the positive). Its
        # fit's axes keep the core's tilt.
        shaped = [lone]
    spacing = _mean_scale(fit.axes)
    if fit.value > 1 and not (SPACING_RANGE[0] <= spacing / r
                              and spacing / far <= SPACING_RANGE[1]):
        return None, True
    faces = np.array([p.face for p in group])
    # A light pip's ring is the darker half of the samples round it (see _describe_faces): on a
    # dark face shaded across, the ring of a pip near the shaded side or the rounded edge comes
    # out darker than the face's middle; the lightest ring is the least off. A light face falls
    # off as much under a low light, and its dark pips' rings by the shaded side come out
    # darker too, for pips seen square-on only (SQUARE_ON, as for a shadow's soft edge in
    # _groups): a side face's squashed pips lie on a face in shade, whose lightest ring is no
    # measure of a plain top face (synthetic light788: a white 6 seen square-on, its rings
    # 195..226, its lit middle at 252, plain at 3 of 5 spots against the median ring alone).
    lit = not group[0].dark or min(p.roundness for p in group) >= SQUARE_ON
    least_off = faces[int(np.argmax(faces.sum(axis=1)))] if lit else None
    face = _column_median(faces)
    shaded = _shadow_split(group, faces, img)
    if shaded is not None:
        face, least_off = shaded
    # A lone blob's plain ring is most of what tells a 1 from any spot on a noisy or textured
    # surface: its tolerance is not widened by the noise its own ring measures.
    noise = statistics.median([p.noise for p in group]) if len(group) > 1 else 0.0
    big_one = False
    plain, bounded, face_half = _face_evidence(fit, img, face, least_off,
                                               side_arc=group[0].unlinked, noise=noise,
                                               found=con.found if group[0].unlinked else None)
    if fit.value == 1 and (plain < 0.75 or bounded < 0.5) and group[0].unlinked:
        # Perhaps a big pip, its face ending within the plain annulus (see _BIG_ONE_PLAIN).
        # Only a pip that linked to no alike pip: one that did lies among pips like it.
        big = _face_evidence(fit, img, face, least_off, side_arc=True, noise=noise,
                             found=con.found, big_one=True)
        if big[0] >= 0.75 and big[1] >= 0.5:
            plain, bounded, face_half = big
            big_one = True
    if (fit.value == 1 and not big_one and (plain < 0.75 or bounded < 0.5)
            and group[0].unlinked and group[0].dark):
        # Perhaps a face crossed by a cast shadow's edge (see _cast_shade): its other part
        # counts as the face, but a walk that stops at a pip like its own (see _meets_pips)
        # met a neighbour on a larger face split by the same edge (a 2 or a 6 whose pips did
        # not link across it: tune photos two_33 and six_37 under a shadow band).
        other = _cast_shade(fit, img, face, group[0])
        if other is not None:
            plain, bounded, face_half = _face_evidence(
                fit, img, face, least_off, side_arc=True, noise=noise, found=con.found,
                relit=other)
    if (fit.value == 1 and not big_one and (plain < 0.75 or bounded < 0.5)
            and _ringed_light_one(group[0], lone, lone_round)):
        again = _face_evidence(fit, img, face, least_off, side_arc=group[0].unlinked,
                               noise=noise, found=con.found if group[0].unlinked else None,
                               annulus_face=True)
        # Its face must reach past the walk's first step (the least half-size a 1's face is
        # given, see _ONE_EDGE_RADII): a pip of a 5 or 6 whose neighbours did not link finds
        # their glow there all round, and would pass for a 1 on a face that small (synthetic
        # old seeds touching463 and oblique399; the 1s so read reach 3.3..5.8 of their radii).
        if again[0] >= 0.75 and again[1] >= 0.5 and again[2] > _EVIDENCE_POINTS[1][3]:
            plain, bounded, face_half = again
    if fit.value > 1 and plain < 0.75 and _ringed_light_face(group, noise):
        again = _face_evidence(fit, img, face, least_off, side_arc=group[0].unlinked,
                               noise=noise, annulus_face=True)
        if again[0] >= PLAIN_AGAIN:
            plain, bounded, face_half = again
    if plain < 0.75:
        return None, fit.value >= 4
    if bounded < (0.5 if fit.value <= 3 else 0.0):
        return None, False
    blank = _empty_where_no_pip(fit, group, con, shaded is not None)
    if blank > BLANK_MAX:
        return None, True
    roundness = min(p.roundness for p in group)
    contrast = min(p.contrast for p in group)
    confidence = 1.0
    confidence *= max(0.0, 1.0 - max(0.0, fit.residual - 0.08) * 2.5)
    confidence *= max(0.0, 1.0 - blank / BLANK_MAX) ** 0.25
    confidence *= min(1.0, 0.5 + roundness)
    confidence *= min(1.0, 0.4 + contrast)
    confidence *= min(1.0, 0.5 + bounded)
    outline = [(x, y) for x, y in _outline(fit, face_half).tolist()]
    xs, ys = [x for x, _ in outline], [y for _, y in outline]
    die = Die(
        value=fit.value,
        box=(int(min(xs)), int(min(ys)), int(math.ceil(max(xs))), int(math.ceil(max(ys)))),
        outline=tuple(outline),
        confidence=round(float(confidence), 3),
        pips=tuple((float(p.x), float(p.y)) for p in group),
    )
    shaped = shaped if fit.value == 1 else group
    return _Face(die, group, fit.centre, fit.axes, spacing, face_half, _flatness(shaped),
                 _squash_direction(shaped), big_one=big_one,
                 shape=None if shaped is group else _pips_shape(shaped)), False


# A light lone pip whose face ring is judged again from its plain annulus (see
# _ringed_light_one) stands out from its face at least this much (see _Contrast): the 1s so
# read on the fresh tune seeds 3000..3899 stood out 0.78..0.81; the spots that would have
# passed with them, 0.49..0.62 (a table's blotch, a side face's pip).
CLEAR_LIGHT_PIP = 0.7


def _ringed_light_one(pip: _Pip, lone: _Pip | None, lone_round: float) -> bool:
    """Whether a lone light pip, round as a 1 must be and clear (CLEAR_LIGHT_PIP) on a face
    plain round it (its ring's spread is noise, not texture: see _describe_faces), has its 1's
    face judged again with the face colour its plain annulus shows (see _face_evidence).

    A light pip's ring is the darker half of the samples round it (see _describe_faces): on a
    dark die, whose channels carry JPEG's chroma noise as large as the face's tolerance, that
    half takes the samples low in a noisy channel, and the face it gives is off the face's
    middle in that channel (synthetic oblique3528: a dark brown 1, ring (13, 35, 52) against
    its annulus's (23, 30, 49); most of the face's spots lie outside its tolerance in blue,
    and the walk out "leaves" the face at its first step). The annulus's median is the face
    itself, where the two agree within a face's tolerance. Only the face colour is changed,
    not its tolerance, and only round a pip whose ring spreads as a plain face's noise does (a
    blotch on wood or cloth has a ring that spreads as its texture does, and is left out)."""
    return (lone is not None and not pip.dark and pip.noise > 0
            and lone_round >= LONE_ROUNDNESS and lone.contrast >= CLEAR_LIGHT_PIP)


# Judged against the colour its own plain spots show (see _ringed_light_face), a face must be
# plain at all but about one spot in ten, not the three in four asked of a face judged against
# its rings: that colour is fitted to those very spots. Spots that are not the face then stand
# out: two dark laptop keys with a light letter each and the light gap between them, plain at
# 13 of 17 spots (a real tune photo, five_34 turned 25 degrees: read as a 2 at 0.75); two
# touching dark dice's 1s and the seam between them, at 14 of 17 (synthetic touching3267); a
# 5's four corners read as a 4 round its middle pip, at 0.78 of their spots (oblique739, read
# unsure so). The faces so read on the synthetic tune seeds are plain at 16 or 17 of 17.
PLAIN_AGAIN = 0.9


def _ringed_light_face(group: list[_Pip], noise: float) -> bool:
    """Whether a face of two or more light pips, each clear (CLEAR_LIGHT_PIP) on a face whose
    rings spread like noise (see _describe_faces), has its plain spots judged again against
    their own median colour (see _face_evidence's ``annulus_face`` and PLAIN_AGAIN), as a
    light 1 is (see _ringed_light_one).

    Round a light pip on a dark die, JPEG's coarse colour (a quarter of the pixels, then
    quantised) carries the pip's own hue out past its ring: the ring is off the face in a
    channel by more than a face's tolerance, while the spots between the pips, farther out,
    are the face (synthetic rough3473: a dark green 2, rings (13, 36, 33) against the spots'
    (23, 37, 27); rough3128's 2, 24 against 40 in blue)."""
    return (not group[0].dark and noise > 0
            and min(p.contrast for p in group) >= CLEAR_LIGHT_PIP)


def _shadow_split(group: list[_Pip], faces: np.ndarray, img: np.ndarray
                  ) -> tuple[np.ndarray, np.ndarray] | None:
    """The lit and the shaded face colour of a group of three or more dark pips seen
    square-on (SQUARE_ON, in the median), or of a 2 whose step is a cast shadow's edge (two
    pips a shadow's step apart are otherwise no more a face than two lone ones, see _groups),
    whose rings (``faces``, N x 3) differ by more than
    light falls off across a face (LIGHT_STEP) but by no more than a hard shadow's edge dims
    (SHADOW_STEP), and only by that factor; None for any other. A face so split is plain where
    it is either colour (see _face_evidence), and its blank spots are measured against the
    shaded one (see _empty_where_no_pip); synthetic rough385: two blotches of a rough table
    linked as a 2 this way."""
    if len(group) < 2 or not group[0].dark:
        return None
    level = faces.sum(axis=1) + 1.0
    gain = level.max() / level.min()
    if not LIGHT_STEP < gain <= SHADOW_STEP:
        return None
    if len(group) == 2:
        # Unless the table shows the step is a cast shadow's edge (see _cast_edge).
        if min(p.roundness for p in group) < LONE_ROUNDNESS or not _cast_edge(*group, img):
            return None
    elif statistics.median([p.roundness for p in group]) < SQUARE_ON:
        return None
    lit, dim = faces[int(np.argmax(level))], faces[int(np.argmin(level))]
    if _channel_max(np.abs(lit - dim * gain)) > _colour_tolerance(float(lit.max())):
        return None
    return lit, dim


@dataclass
class _Face:
    """A read face with what is needed to tell a top face from a side face of the same die."""

    die: Die
    group: list[_Pip]
    centre: np.ndarray
    axes: np.ndarray
    spacing: float
    half: float  # face half-size in units of spacing
    flatness: float  # 1 = seen square-on; side faces at an angle are squashed
    squash: float | None  # direction in which the face looks compressed, if it does
    shape: np.ndarray | None = field(default=None, repr=False, compare=False)  # see _shape_vector
    big_one: bool = False  # a 1 read as a big pip on its face (see _BIG_ONE_PLAIN)


def _tilt(group: list[_Pip]) -> np.ndarray:
    """The foreshortening of a face (2x2, largest scale 1) read from the shape of its pips:
    a round pip seen at an angle is an ellipse squashed along the tilt."""
    k = sum(p.roundness for p in group) / len(group)
    angle = _squash_direction(group)
    if angle is None or k > 0.92:
        return np.eye(2)
    # eye(2) - (1 - k) * outer(u, u) for u = (c, s), in plain floats (the same operations).
    c, s = math.cos(angle), math.sin(angle)
    off = 0.0 - (1 - k) * (c * s)
    return np.array([[1.0 - (1 - k) * (c * c), off], [off, 1.0 - (1 - k) * (s * s)]])


def _flatness(group: list[_Pip]) -> float:
    return sum(p.roundness for p in group) / len(group)


def _squash_direction(group: list[_Pip]) -> float | None:
    weights = [1.0 - p.roundness for p in group]
    if sum(weights) / len(weights) < 0.2:
        return None
    return 0.5 * math.atan2(sum(w * math.sin(2 * p.squash) for w, p in zip(weights, group)),
                            sum(w * math.cos(2 * p.squash) for w, p in zip(weights, group)))


def _shape_vector(face: _Face) -> np.ndarray:
    """The foreshortening a face shows, as one point of a plane: the log of its aspect along twice
    the direction of its long axis. Squares and round pips in one plane seen by one camera land
    near one point whatever the die's rotation; a side face's land elsewhere.

    Four or more pips give the face's own affine map, which measures it best; fewer give only the
    pips' ellipses (big pips weigh more: they measure their shape better). Worked out once per
    face (it is asked for every pair of faces).
    """
    if face.shape is None:
        if len(face.group) >= 4:
            u, sv, _ = np.linalg.svd(face.axes)
            e = math.log(sv[0] / max(sv[1], 1e-6))
            twice = 2 * math.atan2(u[1, 0], u[0, 0])
            face.shape = np.array([e * math.cos(twice), e * math.sin(twice)])
        else:
            face.shape = _pips_shape(face.group)
        face.shape.flags.writeable = False
    return face.shape


def _pips_shape(group: list[_Pip]) -> np.ndarray:
    """The foreshortening the pips' ellipses show, as _shape_vector's point (big pips weigh more:
    they measure their shape better)."""
    w = np.array([p.r * p.r for p in group])
    es = -np.log(np.maximum([p.roundness for p in group], 0.2))
    twices = 2 * np.array([p.squash for p in group]) + math.pi  # long axis = squash + 90 degrees
    v = np.stack([es * np.cos(twices), es * np.sin(twices)], axis=1)
    return (v * w[:, None]).sum(axis=0) / w.sum()


def _pip_shape(p: _Pip) -> np.ndarray:
    e = -math.log(max(p.roundness, 0.2))
    return np.array([e * math.cos(2 * p.squash + math.pi), e * math.sin(2 * p.squash + math.pi)])


def _table_shape(shapes: np.ndarray) -> tuple[np.ndarray, int]:
    """The table plane's foreshortening by consensus of the read faces: the face most others
    agree with (averaged with them), and how many faces agree with it. Ties (two faces, one top and one side) go to
    the rounder one: a camera looking at up to ~45 degrees sees the table no more squashed than
    a side face."""
    dist = np.linalg.norm(shapes[:, None] - shapes[None], axis=2)
    cost = np.minimum(dist, OFF_TABLE).sum(axis=1) + np.linalg.norm(shapes, axis=1)
    agree = dist[int(np.argmin(cost))] <= ON_TABLE
    return shapes[agree].mean(axis=0), int(agree.sum())


# A plane across the picture is fitted to no three faces closer together than this (pixels
# of triangle area at 640 wide: a triangle about 60 pixels a side).
SPREAD_AREA = 1600.0
# ... and stands over one foreshortening for the whole table only when it fits the faces this
# much better (summed distances, each capped at OFF_TABLE, see _table_shape), and when this
# many faces agree with it: three fix it, and with four a side face can be one of the three
# (synthetic oblique430: two 2s, a 5 and its die's side 3 fitted through the 2s and the 3).
PLANE_GAIN = 0.25
PLANE_SUPPORT = 5


def _tables_across(faces: list[_Face]) -> np.ndarray | None:
    """The table plane's foreshortening at each face's place, when it changes across the
    picture; else None (one foreshortening holds, see _table_shape).

    A camera tilted 30 to 40 degrees with a wide lens sees the table's near edge nearly
    square-on and its far edge steeply: the faces' shapes (see _shape_vector) drift across
    the picture (synthetic oblique3459: top faces 0.06 squashed at the bottom, 0.45 at the
    top), and a die up the picture, seen beyond 45 degrees, shows a side face rounder than its
    top. Over the picture the drift is close to linear: the shape is fitted as an affine
    function of place, through the three faces (spread apart, SPREAD_AREA) that most others
    agree with, refitted to those that do (ON_TABLE). Kept only when it fits the faces
    clearly better than one shape for all (PLANE_GAIN), and when PLANE_SUPPORT faces agree."""
    if len(faces) < PLANE_SUPPORT:
        return None
    shapes = np.array([_shape_vector(f) for f in faces])
    places = np.array([[float(f.centre[0]), float(f.centre[1]), 1.0] for f in faces])
    table, _ = _table_shape(shapes)
    flat = float(np.minimum(np.linalg.norm(shapes - table, axis=1), OFF_TABLE).sum())
    # Every three faces at once (a frame of eight dice and their side faces has over 100).
    threes = np.array(list(itertools.combinations(range(len(faces)), 3)))
    corners = places[threes]
    threes = threes[np.abs(np.linalg.det(corners)) / 2 >= SPREAD_AREA]
    if not len(threes):
        return None
    fits = np.linalg.solve(places[threes], shapes[threes])
    costs = np.minimum(np.linalg.norm(shapes[None] - places[None] @ fits, axis=2),
                       OFF_TABLE).sum(axis=1)
    best = int(np.argmin(costs))
    if float(costs[best]) > flat - PLANE_GAIN:
        return None
    agree = np.linalg.norm(shapes - places @ fits[best], axis=1) <= ON_TABLE
    if agree.sum() < PLANE_SUPPORT:
        return None
    fit = np.linalg.lstsq(places[agree], shapes[agree], rcond=None)[0]
    return places @ fit


def _pair_twos(faces: list[_Face], alone: list[_Pip], loose: list[list[_Pip]],
               img: np.ndarray, con: _Contrast) -> None:
    """Reads as 2s the pairs of lone pips that are twins in all but shape: a speck of shadow or
    glare on one pip's outline can keep two pips of one face from linking (their roundness
    differs by more than SHAPE_TOLERANCE), and neither is a 1 by itself. Twins: alike in size
    and contrast (see _twins), the same face colour, roundness within twice the tolerance;
    the most alike pairs are tried first.

    A pip read unlinked as a 1 by itself is a candidate too: the round pip of a 2 whose twin
    a speck made less round passes as a 1 on its own. Its twin must then lie in its plane
    (pip shapes within OFF_TABLE, see _shape_vector): a 1's own side pip, often its size and
    contrast (a 1's pip is large), is foreshortened by the side face's other plane (tune
    photos through the camera shifts: such pairs 0.38..0.62 apart, true 2s 0.24..0.28),
    unless the twin is at least as round as the 1's pip (see _rounder_than_one)."""
    ones = {id(f.group[0]): f for f in faces if f.die.value == 1 and f.group[0].unlinked}
    alone = alone + [f.group[0] for f in ones.values()]
    pairs: list[tuple[float, int, int]] = []
    for i, a in enumerate(alone):
        for j in range(i + 1, len(alone)):
            b = alone[j]
            if (a.dark != b.dark or not _twins(a, b)
                    or abs(a.roundness - b.roundness) > 2 * SHAPE_TOLERANCE
                    or not _alike_lit(a, b)):
                continue
            if ((id(a) in ones or id(b) in ones)
                    and _length(_pip_shape(a) - _pip_shape(b)) > OFF_TABLE
                    and not _rounder_than_one(a, b, ones)):
                continue
            d = math.hypot(a.x - b.x, a.y - b.y)
            # (Too close against the blobs' radius, too far against the larger: SPACING_RANGE.)
            # Too far is judged against the pips' long radius: seen at a slant, a pip keeps its
            # width across the tilt but its area, and so its blob's radius, shrinks with the
            # squash, while the pips' distance is at most its unforeshortened length.
            # (Synthetic close scenes: a 2 at the frame's edge, pips 0.75 round, lay 4.6 blob
            # radii per spacing apart, 4.0 long radii. Not in linking, see _groups: reaching
            # farther there links side faces' squashed pips, synthetic tuning seeds and a tuning
            # photo lost so.)
            rr = (a.r + b.r) / 2
            far = (a.spaced_r / math.sqrt(a.roundness) + b.spaced_r / math.sqrt(b.roundness)) / 2
            if not 2 * SPACING_RANGE[0] * rr <= d <= 2 * math.sqrt(2) * SPACING_RANGE[1] * far:
                continue
            unlike = (abs(a.r - b.r) / rr + abs(a.contrast - b.contrast)
                      + abs(a.roundness - b.roundness))
            pairs.append((unlike, i, j))
    taken: set[int] = set()
    for _, i, j in sorted(pairs):
        if i in taken or j in taken:
            continue
        two, _ = _judge([alone[i], alone[j]], img, con)
        if two is None or two.die.value != 2:
            continue
        faces[:] = [f for f in faces if id(f.group[0]) not in (id(alone[i]), id(alone[j]))
                    or f.die.value != 1]
        faces.append(two)
        taken.update((i, j))
    if taken:
        gone = {id(alone[k]) for k in taken}
        for g in loose:
            g[:] = [p for p in g if id(p) not in gone]
        loose[:] = [g for g in loose if g]


# A top face seen within 45 degrees of square-on (its pips at least this round): its side
# faces are then seen more steeply than it is, and their pips are the less round.
WITHIN_45 = math.sqrt(0.5)


def _rounder_than_one(a: _Pip, b: _Pip, ones: dict) -> bool:
    """Whether of two pips, one read as a 1 by itself, the other is no 1 and at least as round
    as the 1's pip, the 1 seen nearer square-on than not (WITHIN_45): then it is no side pip
    of that 1, as such a 1's side faces are foreshortened more than its top face, and their
    pips are less round (from a lower camera a side face may be the rounder). Pips of one 2
    whose shapes differ past OFF_TABLE are measurement noise of small pips (synthetic rough734:
    a 2 of 3.3 pixel pips, 0.74 and 0.98 round, 0.32 apart; the less round one read as a sure
    1)."""
    if (id(a) in ones) == (id(b) in ones):
        return False
    one, other = (a, b) if id(a) in ones else (b, a)
    return one.roundness >= WITHIN_45 and other.roundness >= one.roundness


# Twin pips may sit in light TWIN_STEP times brighter one than the other (a die's own shading).
TWIN_STEP = 1.6
# The two pips of a 2 are one printed dot twice, on one flat face in one light: radii within
# TWIN_SIZE of the larger plus TWIN_SLACK pixels (a blob's edge is a threshold across a blurred
# edge: half a pixel either way), contrasts within TWIN_CONTRAST. (Synthetic tuning set, true
# 2s: radii within 0.88 of each other in 99%; the worst, 2.0 and 2.7 pixels, is noise.)
TWIN_SIZE = 0.15
TWIN_SLACK = 0.5
TWIN_CONTRAST = 0.15


def _twins(a: _Pip, b: _Pip) -> bool:
    """Whether two pips are alike as a 2's are. A 1's pip paired with a pip of a side face
    (its own die's, seen obliquely, or a neighbour's) is not: the side pip is foreshortened and
    shaded, so smaller or blurred larger, and fainter; nor is a big 1's pip."""
    return (abs(a.r - b.r) <= TWIN_SIZE * max(a.r, b.r) + TWIN_SLACK
            and abs(a.contrast - b.contrast) <= TWIN_CONTRAST)


def _alike_lit(a: _Pip, b: _Pip) -> bool:
    """Whether two pips' faces are the same colour, the dimmer brought up to the brighter's
    light level (within TWIN_STEP) when both pips face the camera.

    Each face colour is a mean of a few ring samples, so on a noisy face (sensor noise, JPEG)
    the two means differ by the noise as well as by the light's fall-off: NOISE_SPREAD
    standard deviations of that difference are allowed on top of the fall-off's tolerance.
    (Synthetic rough725: a magenta 2's two faces, noise 7 and 10, 32 levels apart against a
    tolerance of 31.7, its pips left unread.) One camera puts the same noise on both faces:
    the smaller spread is taken, as a ring that crosses an edge or a side face spreads more
    (a tune photo's negative, grainy: a 1's two side pips, rings spread 8 and 19, their faces
    34 levels apart, read as a sure 2 with the mean)."""
    noise = min(a.noise, b.noise)
    slack = NOISE_SPREAD * math.sqrt(2 / RING_SAMPLES) * noise
    same = _channel_max(np.abs(a.face - b.face)) <= _colour_tolerance(float(b.face.max())) + slack
    return bool(same) or (
        min(a.roundness, b.roundness) >= 0.8 and _alike_colour(a.face, b.face))


def _part_unlike_twos(faces: list[_Face], loose: list[list[_Pip]], img: np.ndarray,
                      con: _Contrast) -> None:
    """Any two alike blobs fit a 2, so a 2's pips must be twins (see _twins); the layout checks
    three or more pips against each other by itself. A 2 whose pips are not is a 1 and a pip
    of a side face beside it (its own die's or a neighbour's): whichever pip is a 1 by itself
    is read, the other left unread unless it lies in the 1's side band; so is a 2 whose pips
    are not both discs (see LONE_FILL), and its blobs that are no disc are no pips at all.
    Done once the faces are read, not in _judge: a group of a top face and its side faces is
    explained best with the side faces read (and then dropped as such), twins or not."""
    kept: list[_Face] = []
    for f in faces:
        # (Or blobs that are no discs, see LONE_FILL: holes in strokes, letters' counters.)
        # (Or lit as a die's top and side face are, see _lit_apart.)
        if f.die.value != 2 or (_twins(*f.group) and min(p.fill for p in f.group) >= LONE_FILL
                                and not _lit_apart(*f.group)):
            kept.append(f)
            continue
        ones = [one for one in (_judge([p], img, con)[0] for p in f.group) if one is not None]
        kept += ones
        read = {id(p) for one in ones for p in one.group}
        # A pip in the band around the 1 is its die's side face (see _beside): expected.
        rest = [p for p in f.group if id(p) not in read and p.fill >= LONE_FILL
                and not any(_in_side_band(p, one) for one in ones)]
        if rest:
            loose.append(rest)
    faces[:] = kept


def _lit_apart(a: _Pip, b: _Pip) -> bool:
    """Whether two light pips of a dark die are lit further apart than one face's own shading
    allows (TWIN_STEP): a 2's two pips lie on one flat face in one light, and their matte
    paint shows that light, where the dark plastic's gloss hides it (so the face colours, see
    _alike_lit, pass). A 1's pip and a pip of its die's side face beside it pass as twins in
    size and contrast, the side pip foreshortened little under a steep camera, but its paint
    faces away from the light. (Synthetic oblique3430: a red die's top 1, its pip at 224, with
    a pip of its side face at 108, read as a 2 and dropped as the side of the 4 before it.
    True 2s on dark dice, in a light's fall-off or through grain, differ up to 1.59 times in
    the fresh tuning pool, rough3340: TOP_LIGHT, which judges whole faces, is too tight for
    single pips.)"""
    if a.dark or b.dark or min(float(p.face.max()) for p in (a, b)) >= DARK_FACE:
        return False
    lo, hi = sorted((a.peak, b.peak))
    return hi >= TWIN_STEP * lo + 2.0


def _turned_from_light(one: _Face, face: _Face) -> bool:
    """Whether a 1 of a light pip, within SIDE_TURN of a read face's middle (see _side_reach),
    is that die's side face by its light: its pip TWIN_STEP dimmer than the face's light pips,
    and the face round it TWIN_STEP dimmer than theirs. Paint shows the light it gets, and a
    side face turned from the light gets less, pip and face alike; a die lying against this
    one, its top face in the same light, is lit as this one is. A camera tilted by 45 degrees
    sees a side face's middle 2 half-sizes out (see _beside), past SIDE_BAND, and its pips as
    round as the top face's (synthetic rough3344: a dark die's 3, its side 1 1.88 half-sizes
    out, 0.86 round against the 3's 0.81, its pip at 70 against 165..170 and its face at
    half the 3's, read as a 1, surely). Not beside a 1 (which of two lone pips is whose side
    face, neither tells), nor for a pip split off a linked face."""
    pip = one.group[0]
    if (pip.dark or pip.linked or face.die.value == 1
            or any(q.dark for q in face.group)):
        return False
    reach = _side_reach(one.group, face)
    if reach is None or reach > SIDE_TURN:
        return False
    peak = statistics.median(q.peak for q in face.group)
    ring = statistics.median(float(q.face.sum()) for q in face.group)
    return peak >= TWIN_STEP * pip.peak + 2.0 and ring >= TWIN_STEP * float(pip.face.sum())


# The nearest a touching die's middle can be to a face's, in its half-sizes (see _beside): a
# 1 nearer is no die of its own, whatever its roundness says (see _turned_from_light).
SIDE_TURN = 2.0


def _in_side_band(p: _Pip, face: _Face) -> bool:
    reach = _side_reach([p], face)
    return reach is not None and reach <= SIDE_BAND


def _rescue_ones(faces: list[_Face], pips: list[_Pip], loose: list[list[_Pip]],
                 img: np.ndarray, con: _Contrast) -> None:
    """Reads as 1s the lone pips too squashed to pass as round on their own but squashed just
    like the table plane the other dice show (a steep camera), or nearer it than a read face
    beside them, or lying up the table from a read face off it (see _up_beside): the top face
    of a die whose side faces were read instead. Needs two faces agreeing on the table first."""
    if len(faces) < 2:
        return
    shapes = np.array([_shape_vector(f) for f in faces])
    table, support = _table_shape(shapes)
    if support < 2:
        return
    off = np.linalg.norm(shapes - table, axis=1)
    up = None
    if _length(table) > 0.1:  # a tilted camera (see _drop_off_table_faces)
        up = _squash_axis(table)
        if up[1] > 0:
            up = -up
    near = _drop_off_table_faces(faces)[2] if up is not None else None
    # Or squashed as the table plane is at the pip's place, where the read faces show it drift
    # up the table (see _table_drift).
    drift = _table_drift(faces, shapes, off, up, table) if up is not None else None
    for p, lone in _squashed_lone_pips(faces, pips, img, con):
        # Or squashed not far off it (OFF_TABLE), beside a read face clearly farther off it
        # (CLEAR_PLANE): that face is the die's side, the pip its top 1 (a steep camera in dim
        # light or through grain measures a small pip's shape roughly: 0.25..0.30 off the
        # table where the 1's side 2 lay 0.48..0.53 off it).
        # (Beside: as near as a die's top and side face, see _drop_off_table_faces.)
        # Or just up the table (away from the camera, see _drop_off_table_faces) from a read
        # face off the table plane, and nearer that plane than the face: a tilted camera sees a
        # die's side faces between its top face and itself, never beyond it, so the pip is no
        # side face of that face's die; it is a top face, that die's or a die's behind it. Here
        # the place decides, and the plane need only not contradict it: a small pip measures its
        # shape roughly (see above; tune photos through grain and JPEG: a 1's pip 0.23..0.32 off
        # the table, just beyond its die's side 5 or 2, 0.36..0.45 off it). Which of the two
        # faces is the top is left to _drop_off_table_faces.
        # Where the read dice show which way the camera sees their side faces (``near``, see
        # _toward_camera), rather than it being assumed, the place decides whatever the planes
        # say: a far die is seen more steeply than the near ones that set the table plane, so
        # its top face is squashed more than they are and its near side face less, the two
        # alike (tune photos over-exposed or turned 25 degrees: a 1's pip 0.27..0.32 off the
        # table, just beyond its die's side 5, 0.17..0.22 off it). Unless a read face lies just
        # up the table from the pip in turn: then the pip may be that face's side face. Where
        # the way up the table is only assumed (the far side at the top), the plane must still
        # not contradict it (tune negatives turned a quarter: the tilt runs across the picture,
        # and a pip between two 5s, taken by place alone, was read as an extra die's 1).
        lone_off = _length(_pip_shape(lone) - table)
        if drift is not None:
            lone_off = min(lone_off, _length(_pip_shape(lone) - drift(p)))
        if near is not None:
            beyond = [k for k, f in enumerate(faces)
                      if f.die.value > 1 and _up_beside(f, p, -near)]
            if beyond and any(_up_beside(f, p, near) for f in faces):
                beyond = []
        else:
            beyond = [k for k, f in enumerate(faces)
                      if up is not None and f.die.value > 1 and ON_TABLE < off[k]
                      and lone_off < off[k] and _up_beside(f, p, up)]
        if lone_off > OFF_TABLE and not beyond:
            continue
        one, _ = _judge([p], img, con, lone_round=MIN_ROUNDNESS)
        if one is None:
            continue
        if lone_off > ON_TABLE and not beyond and not any(
                f.die.value > 1 and off[k] >= lone_off + CLEAR_PLANE
                and _length(f.centre - one.centre)
                <= 1.3 * (f.half * f.spacing + one.half * one.spacing)
                for k, f in enumerate(faces)):
            continue
        _take_one(faces, loose, one, p)


# How far past the read faces (in their own spread up the table) the table's drift is carried
# to a pip (see _table_drift): a straight line holds near the faces that fix it, not far off.
DRIFT_REACH = 1.0


def _table_drift(faces: list[_Face], shapes: np.ndarray, off: np.ndarray, up: np.ndarray,
                 table: np.ndarray):
    """The table plane's foreshortening as a function of place up the table (``up``), where the
    read faces on it (ON_TABLE) show it growing that way: a tilted camera sees the table's far
    part more steeply than its near part, so a die farther up the picture shows its top face
    more squashed, along the same axis. Fitted as a straight line through the faces' shapes
    against their place along ``up`` (at least two faces, at least one face across apart), and
    carried no farther than DRIFT_REACH of their spread past them; None where the faces do
    not show the squash growing up the table (two dice side by side tell nothing of it).
    (Synthetic close3835: a 5 near the camera 0.01 squashed, a 4 up the picture 0.21, the
    far die's top 1, its pip 0.69 round, 0.26 off their mean plane but 0.05 off the line's
    0.34 at its place: read without it as a sure 4, 5.)"""
    on = off <= ON_TABLE
    if on.sum() < 2:
        return None
    along = np.array([float(f.centre @ up) for f in faces])[on]
    spread = float(along.max() - along.min())
    size = statistics.median(2 * f.half * f.spacing for f in faces)
    if spread < size:
        return None
    centred = along - along.mean()
    slope = (centred[:, None] * (shapes[on] - shapes[on].mean(axis=0))).sum(axis=0) / float(
        centred @ centred)
    if float(slope @ table) <= 0:
        return None  # the table not squashed more up it
    base = shapes[on].mean(axis=0)
    lo, hi = along.min() - DRIFT_REACH * spread, along.max() + DRIFT_REACH * spread

    def at(p: _Pip) -> np.ndarray:
        u = min(max(float(np.array([p.x, p.y]) @ up), lo), hi)
        return base + slope * (u - along.mean())
    return at


def _take_one(faces: list[_Face], loose: list[list[_Pip]], one: _Face, pip: _Pip) -> None:
    """Reads a 1 of a pip left out of every face: it joins the faces and leaves the unread
    marks (and a group left empty goes)."""
    faces.append(one)
    for g in loose:
        if pip in g:
            g.remove(pip)
    loose[:] = [g for g in loose if g]


def _squashed_lone_pips(faces: list[_Face], pips: list[_Pip], img: np.ndarray,
                        con: _Contrast) -> Iterator[tuple[_Pip, _Pip]]:
    """The pips in no read face that stand out as a 1's would but are too squashed to pass
    as one by themselves (LONE_ROUNDNESS), each with its lone look (see _alone)."""
    used = {id(p) for f in faces for p in f.group}
    for p in pips:
        if id(p) in used:
            continue
        lone = _alone_once(p, con, img)
        if (lone is not None and lone.contrast >= LONE_PIP_CONTRAST
                and lone.roundness < LONE_ROUNDNESS):
            yield p, lone


# A 1's face found by its walk (see _face_evidence) ends within this many of its pip's long
# radii (the walk stops at 10).
LONE_REACH = 12.0


def _rescue_lit_ones(faces: list[_Face], pips: list[_Pip], loose: list[list[_Pip]],
                     img: np.ndarray, con: _Contrast) -> None:
    """Reads as 1s the lone pips too squashed to pass as round on their own (see
    _rescue_ones) that lie on a face lit clearly more than a read face as close to them as
    one die's top and side face lie (SIDE_REACH, as in _drop_side_faces), see _lit_above:
    room light falls from above, so the pip's face is that die's top and the read face its
    side, whichever of the two the camera sees the rounder. A camera seeing a die from
    beyond 45 degrees sees its near side face squarely and the top face squashed, and a
    squashed 1 above a read side face is then all the top there is to read; _rescue_ones
    needs two faces agreeing on a table plane, and a side face seen so lies on that plane as
    well as any top. The side face is then left to _drop_side_faces, which goes by the same
    light (and the plane, where it clearly says otherwise, to _drop_off_table_faces). A
    squashed pip on a face not clearly lit more than the read face beside it may be that
    face's own side pip, and is left alone. (Synthetic oblique3024: a lone die's top 1, its
    pip 0.67 round on a face lit 1.5 times its side 2's, 0.76 round, read as a sure 2;
    oblique3616: a white die's top 1, 0.58 round, over its side 3 read as a sure 3;
    oblique3052: a 2's side pip, lit less, no 1.)"""
    for p, lone in _squashed_lone_pips(faces, pips, img, con):
        # (Judging a 1 walks its face: first the cheap test that a read face lies near enough
        # for any 1's face, whose walk ends within LONE_REACH long radii of its pip.)
        reach = LONE_REACH * lone.r / math.sqrt(max(lone.roundness, MIN_ROUNDNESS))
        if not any(f.die.value > 1 and math.hypot(float(f.centre[0]) - p.x,
                                                  float(f.centre[1]) - p.y)
                   < SIDE_REACH * (f.half * f.spacing + reach) for f in faces):
            continue
        one, _ = _judge([p], img, con, lone_round=MIN_ROUNDNESS)
        if one is None or not any(
                f.die.value > 1 and _lit_above(one, f) is True
                and _length(f.centre - one.centre)
                < SIDE_REACH * (f.half * f.spacing + one.half * one.spacing)
                for f in faces):
            continue
        _take_one(faces, loose, one, p)


def _up_beside(face: _Face, p: _Pip, up: np.ndarray) -> bool:
    """Whether a pip lies just beyond a face up the table (``up``): within 45 degrees of that
    direction, and no farther than a die's top and side face can lie (1.3 reaches, as in
    _drop_off_table_faces, the pip's face taken as large as this one: one die, one size).
    With the direction reversed: whether the face lies just beyond the pip."""
    d = np.array([p.x, p.y]) - face.centre
    along = float(d @ up)
    return (along >= math.cos(math.radians(45)) * _length(d)
            and _length(d) <= 1.3 * 2 * face.half * face.spacing)


def _drop_off_table_faces(faces: list[_Face]
                          ) -> tuple[list[_Face], bool, np.ndarray | None]:
    """Of two touching faces in different planes (one die's top and side), keeps the top one.

    Two cues pick it: the top face agrees with the table plane shared by all top faces in the
    image, and it lies farther from the camera (up the table) than its side faces. Returns the
    faces kept, whether the cues disagreed for some die (which lowers the confidence), and the
    image direction in which the camera sees the dice's side faces (see _toward_camera), if
    the pairs the planes tell apart clearly show it.
    """
    if len(faces) < 2:
        return faces, False, None
    shapes = np.array([_shape_vector(f) for f in faces])
    table, support = _table_shape(shapes)
    off = np.linalg.norm(shapes - table, axis=1)
    # "Up" the table: the direction in which it is squashed, taken away from the camera (smaller
    # y). Below ~10% squash there is no reliable direction (a camera looking straight down).
    tilted = _length(table) > 0.1
    up = _squash_axis(table)
    if up[1] > 0:
        up = -up
    pairs = []
    for i, a in enumerate(faces):
        for j in range(i + 1, len(faces)):
            b = faces[j]
            reach = a.half * a.spacing + b.half * b.spacing
            gap = a.centre - b.centre
            if _length(gap) > 1.3 * reach:
                continue
            if _length(shapes[i] - shapes[j]) <= OFF_TABLE:
                continue  # one plane: two dice side by side
            by_plane = float(off[j] - off[i])  # > 0: a is the top face
            rise = float(gap @ up) / reach  # > 0: a lies beyond b
            by_place = rise if tilted and abs(rise) > 0.15 else 0.0
            by_light = _lit_above(a, b)
            # Light from above is an assumption that a low sun or a lamp at the side breaks
            # (the side face turned to it is the brighter); the plane is geometry. A face on
            # the table plane beside one far off it is the top face whatever the light says,
            # unless where they lie on the table says otherwise too. (A table that no two
            # faces agree on is one face's plane, and a face measures its plane only roughly:
            # three 1s 0.21..0.23 apart. Near it then means not clearly off it, OFF_TABLE.)
            if (abs(by_plane) > OFF_TABLE
                    and min(off[i], off[j]) <= (ON_TABLE if support >= 2 else OFF_TABLE)
                    and (by_place == 0.0 or (by_place > 0) == (by_plane > 0))):
                by_light = None
            pairs.append((i, j, by_plane, by_place, by_light))
    # Only a table that two faces agree on, and pairs with a face near it whose light does
    # not say otherwise, show where the side faces lie: two side faces of one die differ in
    # plane too (synthetic tuning seeds: a 6's two side faces, 0.33 and 0.75 off a table no
    # other face agreed on), and a side face can pass for the table (a 3's side 2, 0.11 off
    # it, the 3 lit brighter).
    near = _toward_camera([(by_plane, by_place) for i, j, by_plane, by_place, by_light in pairs
                           if min(off[i], off[j]) <= OFF_TABLE
                           and by_light in (None, by_plane > 0)], up) if support >= 2 else None
    # A die has one top face: a face that the plane and the place both make one die's side
    # face (see above) is no top face to make a face beside it its side, whatever the light
    # says (a side face seen between two dice touches the other die too: tuning negatives, a
    # 5's side 3, 0.46 off the table, beside the next 5, 0.04 off it, and lit above it).
    sure_side = {j if by_plane > 0 else i for i, j, by_plane, by_place, by_light in pairs
                 if by_light is None and abs(by_plane) > OFF_TABLE
                 and min(off[i], off[j]) <= ON_TABLE
                 and (by_place == 0.0 or (by_place > 0) == (by_plane > 0))}
    side: set[int] = set()
    doubt = False
    for i, j, by_plane, by_place, by_light in pairs:
        a, b = faces[i], faces[j]
        if (i in sure_side) != (j in sure_side):
            side.add(i if i in sure_side else j)
            continue
        if by_light is not None:
            a_top = by_light
        elif near is not None and by_place != 0.0 and abs(by_plane) < CLEAR_PLANE:
            # Where the frame's other dice show their side faces, this die shows its own: a
            # plane cue within its noise does not overrule that (tuning negatives: a die's
            # side 5 and top 1, seen from a steep stand, lie 0.20 and 0.29 off the table,
            # the 5 0.9 face sizes towards the camera).
            a_top = float((b.centre - a.centre) @ near) > 0
        elif abs(by_plane) > 0.08:
            a_top = by_plane > 0
            doubt |= by_place != 0.0 and (by_place > 0) != a_top
        elif by_place != 0.0:
            a_top = by_place > 0
        else:
            a_top, doubt = by_plane >= 0, True
        side.add(j if a_top else i)
    return [f for k, f in enumerate(faces) if k not in side], doubt, near


# Two faces' offsets from the table plane (see _drop_off_table_faces) differing by this much
# tell their die's top face from its side clearly: top faces spread about 0.16 (see ON_TABLE).
CLEAR_PLANE = 0.15


def _toward_camera(pairs: list[tuple[float, float]], up: np.ndarray) -> np.ndarray | None:
    """The image direction from a die's top face towards the side faces the camera sees, by a
    majority of the touching pairs (plane cue, place cue: see _drop_off_table_faces)
    whose planes tell top from side clearly (CLEAR_PLANE) and that lie clearly one beyond
    the other along the camera's tilt; None if there are none, or as many each way.

    A tilted camera sees every die's near side faces, nearer the camera than its top face in
    the picture: one direction for the whole frame. Which way up the table runs in the
    picture is only assumed (the far side at the top); a camera turned to face the player
    sees it the other way round. The pairs that the planes tell apart show which."""
    votes = sum(1 if (by_plane > 0) == (by_place > 0) else -1
                for by_plane, by_place in pairs
                if by_place != 0.0 and abs(by_plane) >= CLEAR_PLANE)
    if votes == 0:
        return None
    return -up if votes > 0 else up


# The faces of one roll's dice are one colour: their channels' balance (see _balance), which
# light falling off leaves as it is, spread up to 0.033 over a tune photo's dice, 0.088 over
# their negatives' (dark faces, whose few levels balance noisily) and 0.18 over a synthetic
# oblique or cluttered roll's (shaded, tinted by the table); a true 1's face lay within 0.09
# of its roll's nearest die. A 1 on a face this far off every die read with more pips is of
# another colour (synthetic clutter537: a dark hole in a green drawn stroke, read as a sure 1
# beside blue dice, 0.85 off their balance; clutter639, a mark 0.47 off).
ODD_BALANCE = 0.3


def _drop_odd_ones(faces: list[_Face]) -> list[_Face]:
    """Drops the 1s whose pip is light where every die read with more pips has dark pips, or
    dark where they have light ones.

    The dice of one roll are one set (CHAINsomnia's three dice; see docs/RULINGS.md), so they
    are one kind: white dice with dark pips, or dark or coloured dice with light ones. A 1 of
    the other kind is a mark beside the roll that has a 1's look: a key's letter on the laptop
    beside the tray, light on its black key (the tune photos blurred, shrunk or turned: ten
    readings put right, none lost on any set). Faces of more pips show their kind by several
    pips; a 1 by one. So are they one colour: a 1 on a face whose colour balance is far off
    every such die's (ODD_BALANCE) is dropped too."""
    kinds = {f.group[0].dark for f in faces if f.die.value > 1}
    if len(kinds) != 1:
        return faces
    faces = [f for f in faces if f.die.value > 1 or f.group[0].dark in kinds]
    # One set, one colour: a 1 on a face of another colour than every die read with more
    # pips (see ODD_BALANCE) is a mark beside the roll too.
    colours = [_column_median(np.array([p.face for p in f.group]))
               for f in faces if f.die.value > 1]
    return [f for f in faces if f.die.value > 1 or (
        colours and _balanced_as(np.array(colours), f.group[0].face, ODD_BALANCE).any())]


def _drop_undersized_faces(faces: list[_Face]) -> list[_Face]:
    """Drops faces far smaller than the other dice: the dice of one roll are one size, and a
    camera looking at up to ~45 degrees makes near and far dice differ by well under
    SIZE_RATIO. A face-like mark that small (a dot on a cable, a key's letter, a pattern in the
    clutter) is not a die of this roll.

    The roll's size is taken from its faces of more than one pip where two or more show: a
    1's face is measured outward from its one pip (see _ONE_EDGE_RADII), a larger layout's by
    the spacing of several, and a round mark read as a 1 can be any size. Those faces are
    judged among themselves first, and the 1s then by the faces kept, or among themselves
    where none is, and those kept once more by all the faces kept: a 1 does not judge the
    dice of more pips where two or more show, and a mark of more pips dropped as undersized
    does not judge a 1. (Synthetic clutter886: a dark disc on a pink one, read
    as a 1 three times the size of the roll's two 4s, dropped them, and the reading was that
    1 alone, and sure. Tune photo dice_8 over-exposed: a 1, and small marks beside it read
    as a 1 and a 2 a ninth its size: the 2 is dropped first, and no longer keeps the small
    1.)"""
    if len(faces) < 2:
        return faces
    size = {id(f): f.half * f.spacing for f in faces}

    def kept(face: _Face, among: list[_Face]) -> bool:
        others = [size[id(g)] for g in among if g is not face]
        return not others or size[id(face)] >= SIZE_RATIO * statistics.median(others)

    many = [f for f in faces if f.die.value > 1]
    many = [f for f in many if kept(f, many if len(many) > 1 else faces)]
    ones = [f for f in faces if f.die.value == 1]
    ones = [f for f in ones if kept(f, many or ones)]
    keep = {id(f) for f in many} | {id(f) for f in ones if kept(f, many + ones)}
    faces = [f for f in faces if id(f) in keep]
    # Pips tell the size too, where a mark's face edge is a key's or a card's: a face whose pips
    # are under half the size of the other dice's is no die of this roll. A 1's pip is left out
    # on both sides, as many dice have a larger one.
    radii = [statistics.median(p.r for p in f.group) if f.die.value > 1 else None for f in faces]
    faces = [f for k, f in enumerate(faces)
             if radii[k] is None
             or len(others := [r for j, r in enumerate(radii) if j != k and r is not None]) == 0
             or radii[k] >= SIZE_RATIO * statistics.median(others)]
    # A 1 read as a big pip (see _BIG_ONE_PLAIN) is one only if its pip is big: larger than
    # the other dice's pips, where the roll shows any.
    # Its face, found so near, is the size of the other dice's faces too (see BIG_ONE_FACE).
    radii = [statistics.median(p.r for p in f.group) for f in faces if f.die.value > 1]
    sizes = [f.half * f.spacing for f in faces if not f.big_one]
    return [f for f in faces
            if not f.big_one
            or ((not radii or f.group[0].r >= BIG_ONE_PIP * statistics.median(radii))
                and (not sizes or f.half * f.spacing >= BIG_ONE_FACE * statistics.median(sizes)))]


# A face whose outline runs this far (in its half-sizes) past the frame's edge is cut by it.
CUT_FACE = 0.25
# Where a larger layout's pips lie beyond a face's own (layout units): a third row or column
# past either side. A face the frame cuts is part of a larger one only if one of them is off it.
_LARGER_PLACES = np.array([[-3, -1], [-3, 1], [3, -1], [3, 1], [-1, -3], [1, -3], [-1, 3], [1, 3]],
                          float)


def _drop_cut_faces(faces: list[_Face], loose: list[list[_Pip]],
                    shape: tuple[int, ...]) -> list[_Face]:
    """Leaves unread the 2s, 3s and 4s that the frame's edge cuts: a die partly out of view
    shows only part of its face, and part of a larger layout is a smaller one (a 6's two rows
    are a 4, one row or column a 2 or 3; a 4's or 5's corners a 2). Where the frame cuts the
    face, its edge is not seen, so the face tests cannot tell a whole face from such a part,
    when the places a larger layout's pips would take lie off the frame (_LARGER_PLACES).
    A 5 or 6 is part of no larger layout. A 1 is judged on its own face evidence, unless its
    pip linked to alike pips across a plain face (see _groups): it is then one pip of a face
    with more, and where its outline reaches past the frame at all, the edge its face evidence
    found is the frame's, not the face's (tune negatives turned 25 degrees: a 6's or 5's pip
    split off the rest of a face the frame's corner cuts, its outline 0.11..0.47 of its
    half-size past the edge)."""
    h, w = shape[:2]
    kept = []
    for f in faces:
        o = np.array(f.die.outline)
        over = max(-o[:, 0].min(), -o[:, 1].min(), o[:, 0].max() - w, o[:, 1].max() - h)
        if f.die.value == 1 and not f.group[0].unlinked and over > 0:
            loose.append(list(f.group))
            continue
        if 2 <= f.die.value <= 4:
            beyond = _LARGER_PLACES @ f.axes.T + f.centre
            if over > CUT_FACE * f.half * f.spacing and not (
                    (beyond >= 0).all() and (beyond[:, 0] < w).all() and (beyond[:, 1] < h).all()):
                loose.append(list(f.group))
                continue
        kept.append(f)
    return kept


# Two faces closer than this (in their half-sizes summed) are one die's (see _drop_side_faces).
ONE_DIE_GAP = 0.9
# Touching dice's top faces lie a side apart, their sizes measured to about a tenth each: two
# faces seen square-on this far apart or more are two dice's (synthetic tuning seeds: a
# touching 4 and 3, pips 0.91 and 0.92 round, lay 0.90 of one apart; a 1, 2, 4 or 5 and its
# die's side face in tilted photos, 0.88..0.90 apart, had pips only 0.60..0.71 round). Closer,
# square-on faces are pieces of one face (a 6 read as 2s, 0.34..0.41; a 4 and a 2 of
# misparted touching 4s, 0.76..0.78).
TOUCHING_GAP = 0.85


def _drop_side_faces(faces: list[_Face], img: np.ndarray,
                     near: np.ndarray | None = None,
                     pips: list[_Pip] | None = None,
                     in_doubt: list[_Face] | None = None) -> list[_Face]:
    """Of two readable faces of one die (top and a side seen at an angle), keeps the top one.

    The side face is the one squashed towards the other: its pips are foreshortened along the
    line joining the two faces. Two dice lying side by side both look square-on and are kept.
    ``near``, if known, is the direction in which the camera sees the dice's side faces (see
    _toward_camera): a face lying the other way from a face of its die is its top face.
    ``in_doubt``, if given, gets the faces kept over a face of their die that nothing but
    the assumed place told from them (see _shape_only).
    """
    side: set[int] = set()
    up = _tilt_axis(faces)
    tables = _tables_across(faces)
    aside = None if tables is None else np.linalg.norm(
        np.array([_shape_vector(f) for f in faces]) - tables, axis=1)
    for i, a in enumerate(faces):
        for j, b in enumerate(faces):
            if i == j:
                continue
            if aside is not None and _length(a.centre - b.centre) < SIDE_REACH * (
                    a.half * a.spacing + b.half * b.spacing):
                # Where the table's foreshortening drifts across the picture, a face on the
                # table where it lies beside a face clearly off it is its die's top face,
                # whatever else says (see _tables_across).
                if aside[j] <= ON_TABLE and aside[i] - aside[j] >= CLEAR_PLANE:
                    continue
                if aside[i] <= ON_TABLE and aside[j] - aside[i] >= CLEAR_PLANE:
                    side.add(j)
                    continue
            # One die's faces are one square, foreshortened alike within SIZE_RATIO: a mark far
            # smaller (a side pip read as a 1) is no face of b's die (see _drop_undersized_faces).
            if min(a.half * a.spacing, b.half * b.spacing) < SIZE_RATIO * max(
                    a.half * a.spacing, b.half * b.spacing):
                continue
            gap = _length(a.centre - b.centre)
            # Closer than two faces can lie side by side: one die, and b is the worse view.
            # (Touching dice's top faces lie a reach apart, their sizes measured to about a
            # tenth: a 1 and its die's side 2, over-exposed, lay 0.86 of one apart.)
            reach = a.half * a.spacing + b.half * b.spacing
            # Unless both are seen square-on and lie no closer than touching dice's top faces
            # can (see TOUCHING_GAP): one die's top and side face are seen at angles that add
            # up to 90 degrees, so their pips cannot both be SQUARE_ON round.
            if gap < ONE_DIE_GAP * reach and not (
                    gap >= TOUCHING_GAP * reach and min(a.flatness, b.flatness) >= SQUARE_ON):
                # Where nothing but their squash, alike within its noise, tells them apart
                # (see _shape_only), the frame's perspective may (see _nearer_by_size).
                nearer = _nearer_by_size(faces, a, b) if _shape_only(a, b, near) else None
                if _worse_view(b, a, near) if nearer is None else nearer:
                    side.add(j)
                continue
            # Closer than touching dice's top faces can lie (they are lit alike: one die's body
            # cannot shade the top face of another as tall): b, lit clearly less, is a's side;
            # unless a's pips are squashed in the band around b (see _beside): the shape is
            # geometry, light from above an assumption (a lamp at the side, the gloss of a dark
            # die), and the two would drop both faces of one die.
            if (gap < SIDE_REACH * reach and _lit_above(a, b)
                    and not (a.die.value > 1 and _beside(a.group, b))):
                side.add(j)
                continue
            if (i < j and gap < SIDE_REACH * reach and up is not None
                    and _one_die_along_tilt(a, b, up, img)):
                side.add(j if _worse_view(b, a, near) else i)
                continue
            # With no tilt the frame's faces agree on (a camera looking straight down, or too
            # few faces), a die seen steeply shows its own: one die's top and side face are
            # both foreshortened across the edge they share, so squashed alike along the line
            # joining them (see _shared_squash), and the table lies beyond both (see
            # _one_die_along_tilt). The worse view is its side (see _worse_view); where
            # nothing but an assumption tells them apart (see _shape_only), the one farther up
            # the picture is taken for the top (the camera sees a die's side faces on its own
            # side, and the far side of the table is assumed at the top of the picture, see
            # _toward_camera), and the reading is not sure. (Synthetic clutter570: a
            # white-pipped 2 and its die's side 4, 0.72 and 0.73 round, squashed at 59 and 54
            # degrees along their join at 51, 0.91 of a reach apart: read as two dice.)
            own = _shared_squash(a, b) if i < j and up is None else None
            if (own is not None and gap < SIDE_REACH * reach
                    and _one_die_along_tilt(a, b, own, img)):
                if _shape_only(a, b, near):
                    top = a if float((b.centre - a.centre) @ own) < 0 else b
                    if in_doubt is not None:
                        in_doubt.append(top)
                else:
                    top = b if _worse_view(a, b, near) else a
                side.add(j if top is a else i)
                continue
            if (gap < SIDE_REACH * reach and pips is not None and _toward(a, b, near)
                    and _bare_below(b, a, near, pips, img.shape)):
                side.add(j)
                continue
            # Squashed pips in the band just around a are a's side face; unless the two faces
            # are seen too squarely, between them, for one die's top and side (see ONE_DIE_VIEW):
            # b's pips are then a touching die's top face, only less round than a's.
            if (b.die.value > 1 and _beside(b.group, a)
                    and a.flatness ** 2 + b.flatness ** 2 <= ONE_DIE_VIEW):
                side.add(j)
                continue
            if b.squash is None or gap > 2.6 * FACE_HALF * max(a.spacing, b.spacing):
                continue
            if b.flatness > 0.82 * a.flatness or _toward(a, b, near) is False:
                continue
            along = math.atan2(a.centre[1] - b.centre[1], a.centre[0] - b.centre[0])
            off = abs((along - b.squash + math.pi / 2) % math.pi - math.pi / 2)
            if off < math.radians(40):
                side.add(j)
    return [f for k, f in enumerate(faces) if k not in side]


# Two faces whose squash directions differ by no more than this are squashed alike (pip
# squash directions of one face spread about +-10 degrees at 0.7 round).
ALIKE_SQUASH_ANGLE = math.radians(20)


def _shared_squash(a: _Face, b: _Face) -> np.ndarray | None:
    """The image direction, taken up the picture (smaller y), in which two faces are both
    squashed, when they are squashed alike (within ALIKE_SQUASH_ANGLE) and lie in one plane
    (their shapes within OFF_TABLE, see _shape_vector); else None."""
    if a.squash is None or b.squash is None:
        return None
    turn = abs((a.squash - b.squash + math.pi / 2) % math.pi - math.pi / 2)
    if turn > ALIKE_SQUASH_ANGLE or _length(_shape_vector(a) - _shape_vector(b)) > OFF_TABLE:
        return None
    mean = math.atan2(math.sin(2 * a.squash) + math.sin(2 * b.squash),
                      math.cos(2 * a.squash) + math.cos(2 * b.squash)) / 2
    axis = np.array([math.cos(mean), math.sin(mean)])
    return -axis if axis[1] > 0 else axis


def _bare_below(b: _Face, a: _Face, near: np.ndarray, pips: list[_Pip],
                shape: tuple[int, ...]) -> bool:
    """Whether no pip lies just beyond ``b`` towards the camera (``near``, see _toward_camera),
    where b's own near side face would show if b were a top face.

    A tilted camera sees every die's near side face, between its top face and itself, and
    every face has a pip. Seen at about 45 degrees a die's top and near side face are
    foreshortened alike and lie as far apart as two touching dice's top faces (tune photos,
    far dice: a 1 and its side 5, 0.70 and 0.71 flat, 0.91 of a reach apart, the table and
    the die one colour so what lies beyond them does not tell, see _one_die_along_tilt). But
    two touching dice in a line towards the camera show three faces, the near die's side
    face below its top; one die shows two. So of two such faces, the nearer one with no pip
    beyond it is no top face: it is the side face of the other (the place taken as far as a
    die's top and side face can lie, as in _up_beside; not where the frame cuts it off)."""
    h, w = shape[:2]
    reach = 1.3 * 2 * b.half * b.spacing
    end = b.centre + near * reach
    if not (0 <= end[0] < w and 0 <= end[1] < h):
        return False
    own = {id(p) for p in a.group + b.group}
    for p in pips:
        if id(p) in own:
            continue
        d = np.array([p.x, p.y]) - b.centre
        if _length(d) <= reach and float(d @ near) >= math.cos(math.radians(45)) * _length(d):
            return False
    return True


def _toward(a: _Face, b: _Face, near: np.ndarray | None) -> bool | None:
    """Whether ``b`` lies from ``a`` towards the camera's side (``near``, see _toward_camera):
    None when that is unknown or the two lie across it (more than 45 degrees off)."""
    if near is None:
        return None
    gap = b.centre - a.centre
    along = float(gap @ near)
    if abs(along) < math.cos(math.radians(45)) * _length(gap):
        return None
    return along > 0


def _tilt_axis(faces: list[_Face]) -> np.ndarray | None:
    """The image direction in which the table looks squashed (the camera's tilt), by consensus
    of the faces (see _table_shape); None when the camera looks nearly straight down."""
    if len(faces) < 2:
        return None
    table, support = _table_shape(np.array([_shape_vector(f) for f in faces]))
    if support < 2 or _length(table) <= 0.1:
        return None
    return _squash_axis(table)


def _squash_axis(shape: np.ndarray) -> np.ndarray:
    """The unit image direction (either way) in which a _shape_vector point is squashed."""
    half_angle = 0.5 * math.atan2(shape[1], shape[0]) + math.pi / 2
    return np.array([math.cos(half_angle), math.sin(half_angle)])


def _one_die_along_tilt(a: _Face, b: _Face, up: np.ndarray, img: np.ndarray) -> bool:
    """Whether two close faces in a line along the camera's tilt are one die's top and side
    face, by what lies just beyond each, away from the other.

    A tilted camera sees each die's side face on its near side: of two dice touching in a line
    along the tilt, the nearer one's top face continues into its own side face (die colour)
    beyond it. A die's top and near side face meet the table at both far ends: one surface,
    in more or less light, and not the die's colour. (Near 45 degrees of tilt the near side
    face is foreshortened as much as the top, so shape alone cannot tell them apart, see
    _drop_off_table_faces.)"""
    gap = b.centre - a.centre
    d = gap / max(_length(gap), 1e-6)
    if abs(float(d @ up)) < math.cos(math.radians(45)):
        return False  # side by side across the tilt: neither shows a side face beyond
    beyond = []
    for f, direction in ((a, -d), (b, d)):
        local = np.linalg.solve(f.axes, direction)
        p = f.centre + direction * 1.3 * f.half / float(np.abs(local).max())
        beyond.append(_sample(img, p[:1], p[1:]).astype(np.float32)[0])
    face = _column_median(np.array([p.face for p in a.group + b.group])).astype(np.float32)
    return (_alike_colour(beyond[0], beyond[1]) and not _alike_colour(beyond[0], face)
            and not _alike_colour(beyond[1], face))


def _alike_colour(c1: np.ndarray, c2: np.ndarray) -> bool:
    """Whether two colours could be one surface, the dimmer brought up to the brighter's
    light level (within TWIN_STEP)."""
    dim, lit = sorted((c1, c2), key=lambda c: float(c.sum()))
    gain = (float(lit.sum()) + 1.0) / (float(dim.sum()) + 1.0)
    return gain <= TWIN_STEP and bool(_same_colour((dim * gain)[None], lit)[0])


# A face lit this many times brighter than another face of its die is its top face.
TOP_LIGHT = 1.2
# ... but not on a dark die (light pips, both faces' brightest channel under this level): black
# or navy plastic scatters too little light for its faces to show the shading; what they show
# is mostly the surroundings mirrored in their gloss, and a side face, seen at a grazing angle,
# mirrors far more of it (Fresnel: ~2..4 times the top face's share at 60..70 degrees), and
# mirrors the lit table, where the top face mirrors a dimmer ceiling: the side face is often
# the brighter. Their pips, matte white paint, are lit as the faces would be if matte.
# The die's plastic shows in the darker of its two faces: gloss only adds light, and the side
# face mirrors the more of it; and a camera's tone curve lifts dark levels most (a gamma under
# 1 over-exposing a dark scene takes a black face's 80 to 130 and its glossy side face's 120
# to 170), so the brighter face passes this level first. One face under it makes the die dark.
# (Tune negatives over-exposed: a 1, 3 or 4 at 92..109 grey, its side face at 116..155, the
# brighter face over the level: the side face, lit more by its gloss, was kept as the top.)
DARK_FACE = 128.0
# Two faces whose centres are closer than this many face half-sizes (summed) may be one die's.
SIDE_REACH = 1.0


def _lit_above(a: _Face, b: _Face) -> bool | None:
    """Whether ``a`` rather than ``b`` is the top face of their die by the light: room light
    falls from above, so a top face is lit more than its sides. None when neither face is
    clearly (TOP_LIGHT times) the brighter.

    A face's grey level is taken on the image its pips' polarity is measured on (brightest
    channel for dark pips, dimmest for light ones, see _levels): on a coloured face the two
    differ by far more than TOP_LIGHT, so faces of unlike pips compare their ring colours."""
    if not (a.group[0].dark or b.group[0].dark) and min(
            float(_column_median(np.array([p.face for p in f.group])).max())
            for f in (a, b)) < DARK_FACE:
        # Dark dice (see DARK_FACE, by the darker face): their light pips, matte paint, show
        # the shading.
        grey_a = statistics.median(p.peak for p in a.group)
        grey_b = statistics.median(p.peak for p in b.group)
    elif a.group[0].dark == b.group[0].dark:
        grey_a = statistics.median(p.face_grey for p in a.group)
        grey_b = statistics.median(p.face_grey for p in b.group)
    else:
        grey_a = statistics.median(float(p.face.sum()) for p in a.group)
        grey_b = statistics.median(float(p.face.sum()) for p in b.group)
    if max(grey_a, grey_b) < TOP_LIGHT * min(grey_a, grey_b) + 2.0:
        return None
    return grey_a > grey_b


def _shape_only(a: _Face, b: _Face, near: np.ndarray | None) -> bool:
    """Whether nothing but an assumption tells which of two faces of one die is its top (see
    _worse_view: neither is clearly lit more, nor lies towards the camera from the other by
    the frame's other dice), and their squash differs within roundness noise
    (SIDE_ONE_NOISE). A die seen steeply or cocked against something shows two faces
    foreshortened alike, and which is up is then a guess: the reading is not sure. (Where
    the picture's top is assumed to be the table's far side, it fails for such dice:
    synthetic clutter206, a purple die cocked on the table, its top 5 below its side 3 in
    the picture, 0.74 and 0.75 round; oblique290, a 4 below its side 1.)"""
    return (_lit_above(a, b) is None and _toward(a, b, near) is None
            and abs(a.flatness - b.flatness) < SIDE_ONE_NOISE * max(a.flatness, b.flatness))


# The least change in face size across the faces' spread (its longer side), as a fraction of
# their mean size, that _nearer_by_size takes for perspective (a camera tilted 20 degrees, with
# a webcam's field of view, sees dice at the near edge of the picture about 1.3 times as large
# as at the far edge; at 45 degrees twice as large; faces measure their size to about a tenth).
PERSPECTIVE_STEP = 0.15


def _nearer_by_size(faces: list[_Face], a: _Face, b: _Face) -> bool | None:
    """Whether ``b`` lies from ``a`` towards the camera by the frame's perspective: None when
    the faces do not show it.

    A tilted camera sees the near part of the table larger than the far part, and the dice on
    it with it: the faces' sizes grow across the picture towards the camera, the direction in
    which it sees the dice's side faces. Seen at about 45 degrees, a die's top and near side
    face are foreshortened alike and lie at one distance, so that neither their shape nor
    their size tells which is up; the sizes of the frame's faces spread over the picture
    do. The sizes are fitted as an affine function of the place (as a plane's scale is, seen
    by a pinhole camera), over faces spread (root mean square) at least a face's half-size in
    every direction.
    (Synthetic tuning seeds: oblique165, a 2 and its die's side 4, 0.70 and 0.71 round,
    beside a 1 and a 6 a quarter larger nearer the camera; oblique829, a 2 and its side 6;
    clutter206, a 5 and its side 3 up the picture, towards dice a fifth to a half larger.)"""
    if len(faces) < 3:
        return None
    xy = np.array([f.centre for f in faces], float)
    size = np.array([f.half * f.spacing for f in faces], float)
    rel = xy - xy.mean(axis=0)
    if np.linalg.svd(rel, compute_uv=False)[-1] < math.sqrt(len(faces)) * float(size.mean()):
        return None
    coef = np.linalg.lstsq(np.column_stack([np.ones(len(faces)), rel]), size, rcond=None)[0]
    gap = b.centre - a.centre
    grow = float(coef[1:] @ gap) / max(_length(gap), 1e-6) / float(size.mean())
    if abs(grow) * max(float(np.ptp(xy[:, 0])), float(np.ptp(xy[:, 1]))) < PERSPECTIVE_STEP:
        return None
    return grow > 0


def _worse_view(b: _Face, a: _Face, near: np.ndarray | None = None) -> bool:
    """Of two faces read on one die, whether ``b`` is the side face and ``a`` the top: the one
    clearly lit less, else the one lying towards the camera (``near``, see _toward_camera),
    else the more squashed (pips less round), then the lower value; pips of two or three
    pixels measure their roundness only roughly. (Seen from about 45 degrees, top and side
    are squashed alike: synthetic tuning seeds, a 2 and its die's side 3, pips 0.74 and 0.76
    round.)"""
    a_top = _lit_above(a, b)
    if a_top is not None:
        return a_top
    b_side = _toward(a, b, near)
    if b_side is not None:
        return b_side
    return (b.flatness, b.die.value) < (a.flatness, a.die.value)


# The least step (grey levels, in some channel) between a face and what lies beyond it that
# _face_evidence takes for an edge where the colour does not leave the face's tolerance: twice
# the tolerance's noise floor (see _same_colour).
TURN_STEP = 2 * 8.0
# ... and for a 1 looked at as an ordinary pip: its walk ends at 10 of its radii, past the
# corners of the largest face it can have (see _ONE_EDGE_RADII), so what lies beyond is taken
# wholly off the face, and the face from 32 plain spots round the pip; the two medians are
# steady to a few levels, and a smaller step tells them apart. A die of the table's very hue
# needs it: its face and the table differ by 13 to 16 levels in one channel, the shaded side
# only edging the face where the light falls away from it (synthetic rough3438, a blue 1 on a
# blue cloth, 13.5; clutter3767, many3026, many3532: 14.5..15.5). (Not a big 1's look: its walk
# ends 4.75 radii out, at the corners of the face it looks for, which a table spot's own
# shading gradient can pass for: oblique3481, a die's shaded side face on a green table.)
ONE_TURN_STEP = 1.5 * 8.0
# Light falling off (a vignette, a shadow, a lamp's reach) scales a colour's channels by one
# factor and leaves their balance (each as a fraction of their sum) as it is; a white die and
# a wooden or tinted table differ in balance wherever they lie. (A neutral grey table does not:
# where its level lies between the face's lit and shaded levels, _in_shade takes it for face,
# the face then seems to end nowhere and the 1 stays unread.) A part of a 1's face beyond a cast
# shadow's edge (see _cast_shade) is the face's balance within this (the sum of the three
# fractions' differences; tune photos under a vignette: a face 0.033..0.055 off the table in
# balance, its own plain spots 0.012..0.017 off the face's).
BALANCE_STEP = 0.03
# ... unless the face is near white: a clipped channel stops scaling with the light, and an
# over-exposed face's balance runs to an even white (tune photo dice_24 over-exposed: its 1's
# face at 248 in blue).
UNCLIPPED = 240
_EDGE_RADII = np.arange(2.1, 5.2, 0.35)
# For a 1, in pip radii: real faces end 3 (big pip) to 7 radii from it at their sides, and
# their corners lie 1.41 times as far: the walk must reach them, or a face ending at 7 radii
# seems unbounded along its diagonals.
_ONE_EDGE_RADII = np.arange(3.0, 10.5, 0.5)
_ONE_SIDE_REACH = 9.0
# A 1's walk (see _face_evidence) that stops at a mark where no pip was found, while the walks
# either side of it reach at least this much farther, met a speck on the face (dust, a scratch,
# a chip in the paint) and is walked on past it, if the face resumes beyond it. A face's edge is
# a straight line: walks 22.5 degrees apart reach it within 1.08 of each other along a side,
# 1.31 where one turns the corner. A neighbouring pip (a small 4 or 6 seen from afar, its pips
# come apart into lone ones) was found, and stops the walk as before
# (synthetic oblique551: a dark 1 whose walk stopped at 3.0 radii in one direction, 5.5..6
# either side, 4..7.5 all round). Only a pip that linked to no alike pip (see _groups) is
# walked so: one that did lies among pips, some of which the finder may have lost (a side
# face's 5, its middle pip's walk stopped at a squashed corner pip not found: synthetic
# rough726, seen at 720).
SPECK_SHORT = 1.5
# Many dice mark the 1 with a larger pip than the other faces' (often red; on some, 0.3 to 0.45
# of the face's side): its face, rounded edge and all, then ends 2 to 3.3 of its radii out
# (its flat part from 1.4), inside the plain annulus and the walk's first step above. A lone
# pip whose face is not found so is looked at again at this scale, relative to the face: plain
# just outside the pip, and ending all round from 1.75 radii (past the plain spots) to a corner
# of a face 3.4 radii in half-side (1.41 times that), as near all round as a square's sides
# and corners. Being so near, its edge must be the face's: the walks do not come back onto the
# face past it (see _comes_back), nor stop at a pip its size (see _meets_pips)
# (synthetic clean617 with the 1's pip at 2.0 pip radii: its face ends 2.25 radii out).
_BIG_ONE_PLAIN = (1.3, 1.55)
_BIG_ONE_EDGE_RADII = np.arange(1.75, 5.0, 0.25)
_BIG_ONE_SIDE_REACH = 3.5
# A big 1's face is small, so its walk reaches all its edges and corners: it must end in every
# direction, no farther in any than a square's corner against its side (1.41) seen at a slant
# (its unit, the pip's long radius, shortens the walks across the slant by up to 0.8). A side
# face of its colour carries no walk past that: a flat shape round a dark spot (a triangle, a
# letter's bowl) ends farther along some directions.
BIG_ONE_SQUARE = 1.8
# A big 1's pip is larger than the other faces' pips (1.35 to 3 times their radius on real
# dice): a lone spot read as one on a face only a few of its radii across, but no larger than
# the pips of the other dice of the roll, is a plain mark on a small patch (a speck, a bowl).
BIG_ONE_PIP = 1.15
# The dice of one roll are one size, near and far ones within 1.3 of each other (see SIZE_RATIO,
# which also allows for faces measured short); a big 1's face is measured to where its rounded
# edge turns, 0.8 of its half-size or more.
BIG_ONE_FACE = 0.65
# One face's pips are one size: a pip beside a big 1 smaller than this (in its radius) is a
# side face's (a big 1's other pips are 0.4 to 0.7 of its radius, and foreshortened there).
NEIGHBOUR_PIP = 0.75
_BIG_ONE = 0  # the key of the big 1's look in _EVIDENCE_POINTS (no layout's value)
_CIRCLE16 = np.stack([np.cos(np.linspace(0, 2 * math.pi, 16, endpoint=False)),
                      np.sin(np.linspace(0, 2 * math.pi, 16, endpoint=False))], axis=1)


def _evidence_points(value: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, float, float]:
    """Where _face_evidence looks, in layout units: spots that must be plain, rings walking out
    (radii x directions, flattened), the radii, and the range of face half-sizes accepted."""
    if value == 1:
        inside = np.vstack([_CIRCLE16 * 1.9, _CIRCLE16 * 2.6])
        radii, lo, hi = _ONE_EDGE_RADII, 2.8, 8.0
    elif value == _BIG_ONE:
        inside = np.vstack([_CIRCLE16 * r for r in _BIG_ONE_PLAIN])
        radii, lo, hi = _BIG_ONE_EDGE_RADII, 1.65, 3.4
    else:
        layout = LAYOUTS[value]
        inside = _CIRCLE16 * 1.35
        clear = np.linalg.norm(inside[:, None] - layout[None], axis=2).min(axis=1) > 0.6
        inside = np.vstack([inside[clear], [g for g in _GRID
                                            if np.linalg.norm(layout - g, axis=1).min() > 0.9]])
        radii, lo, hi = _EDGE_RADII, 1.55, 3.4
    rings = (_CIRCLE16[None] * radii[:, None, None]).reshape(-1, 2)
    return inside, rings, radii, lo, hi


_EVIDENCE_POINTS = {value: _evidence_points(value) for value in (*LAYOUTS, _BIG_ONE)}
# The spots and rings of each in one array, as they are sampled.
_EVIDENCE_STACKED = {value: np.vstack(points[:2]) for value, points in _EVIDENCE_POINTS.items()}


def _quartile(values: np.ndarray) -> float:
    """The lower quartile, interpolated linearly (numpy's default percentile), without its cost."""
    ordered = sorted(values.tolist())
    pos = 0.25 * (len(ordered) - 1)
    lo = int(pos)
    if lo + 1 >= len(ordered):
        return ordered[lo]
    return ordered[lo] + (ordered[lo + 1] - ordered[lo]) * (pos - lo)


def _column_median(values: np.ndarray) -> np.ndarray:
    """np.median(values, axis=0) of a few rows, without its cost (it is asked per pip group)."""
    ordered = np.sort(values, axis=0)
    n = len(ordered)
    if n % 2:
        return ordered[n // 2]
    return (ordered[n // 2 - 1] + ordered[n // 2]) / 2


def _face_evidence(fit: _Fit, img: np.ndarray, face: np.ndarray,
                   least_off: np.ndarray | None = None,
                   side_arc: bool = False, noise: float = 0.0,
                   found: Sequence[_Pip] | None = None,
                   big_one: bool = False,
                   relit: np.ndarray | None = None,
                   annulus_face: bool = False) -> tuple[float, float, float]:
    """How plain the face is between its pips, how clearly it ends all round, and where.

    A spot between the pips is plain when it is the colour of ``face`` or of ``least_off``,
    the pip ring least biased away from the face (see _judge): light falls off across a face
    and a ring near the face's rounded edge takes some of the edge's shade, so the pips' rings
    can all differ from the face's middle.

    The first two are fractions of sample points (0..1), taken in the layout's own coordinates;
    the third is the face's half-size in those units (dice differ in how far out the pips sit).
    A 1 has no pip spacing: its unit is the pip's own radius, and its face must be plain in an
    annulus around the pip and end all round at a similar distance (a square, not a stripe).
    For a 1's pip that linked to no alike pip, ``found`` are the frame's pips: they tell its
    neighbours from specks on its face (see _walk_past_specks). With ``big_one``, a 1 is looked
    at as a big pip on a face only a few of its radii across (see _BIG_ONE_PLAIN). With
    ``annulus_face``, the face is the median colour of its plain spots (a 1's annulus)
    wherever that is within a face's tolerance of ``face`` (see _ringed_light_one); for a face
    of several pips, within their rings' noise too (see _ringed_light_face).
    """
    look = _BIG_ONE if big_one else fit.value
    inside, rings, radii, lo, hi = _EVIDENCE_POINTS[look]
    n_inside = len(inside)
    # The plain spots and the rings walking out, all sampled at once.
    pts = _EVIDENCE_STACKED[look] @ fit.axes.T + fit.centre
    colours = _sample(img, pts[:, 0], pts[:, 1]).astype(np.float32)
    if annulus_face:
        annulus = _column_median(colours[:n_inside])
        if _same_colour(annulus[None], face, noise if fit.value > 1 else 0.0)[0]:
            face = annulus
    plain_spots = _same_colour(colours[:n_inside], face, noise)
    if least_off is not None:
        plain_spots = plain_spots | _same_colour(colours[:n_inside], least_off, noise)
    if relit is not None:
        shade = _in_shade(colours, face, relit)
        plain_spots = plain_spots | shade[:n_inside]
    # (Fractions counted, not np.mean: the same division of the same count, without its cost.)
    plain = np.count_nonzero(plain_spots) / n_inside
    # Walking out from the centre, each direction should leave the face (for a side face, the
    # table or another die) somewhere between a tight and a wide pip spread.
    walk = colours[n_inside:]
    left = _leaves_face(walk, face).reshape(len(radii), len(_CIRCLE16))  # rings x directions
    if relit is not None:
        left &= ~shade[n_inside:].reshape(len(radii), len(_CIRCLE16))
    # A face also ends where the walk turns to what lies beyond it (the colour the walks end
    # on all round: the table, or the die's side faces), once the two differ by more than
    # noise: a step however small. Over-exposure (or a pale table, a tray the dice's colour)
    # leaves a white face's step to the table smaller than light falls off across a face.
    # The face is what its plain spots show: the pips' rings can take their dark halo (blur)
    # or a printed letter's strokes, and would put the face's own samples nearer the table.
    # Only directions the colour never left are walked again so: where it did, that edge is
    # the nearer one, and a small die's pip would otherwise find its neighbours' dark halo
    # nearer the table than its face all round, and stand alone as a 1.
    beyond = _column_median(walk[-len(_CIRCLE16):])
    own = _column_median(colours[:n_inside])
    if np.abs(beyond - own).max() > (ONE_TURN_STEP if look == 1 else TURN_STEP):
        open_ = ~left.any(axis=0)
        turned = np.abs(walk - beyond).sum(axis=1) < np.abs(walk - own).sum(axis=1)
        left[:, open_] = turned.reshape(len(radii), len(_CIRCLE16))[:, open_]
    if fit.value == 1 and found is not None:
        _walk_past_specks(left, radii, fit, found)
    bounded = left.any(axis=0)
    if (big_one or relit is not None) and _meets_pips(left, radii, fit, found):
        return plain, 0.0, lo
    if not bounded.any():
        return plain, 0.0, FACE_HALF if fit.value > 1 else lo
    first = radii[left.argmax(axis=0)[bounded]]
    if big_one and (not bounded.all() or first.max() > BIG_ONE_SQUARE * first.min()):
        return plain, 0.0, lo  # not a small square face all round the pip
    # Samples are taken past the edge; the near edges count (a side face of the same colour
    # makes the far ones look long).
    half = min(max(_quartile(first) - 0.2, lo), hi)
    if big_one and _comes_back(left) > len(_CIRCLE16) // 2:
        # Most walks came back onto the face past where they left it: they crossed a ring on
        # the face (a small pip's halo, a letter's strokes), not its edge.
        return plain, 0.0, half
    if fit.value == 1:
        # The walk's last steps reach a face's corners (see _ONE_EDGE_RADII); a direction
        # ending there counts only as near as the sides, as a side face of the same colour
        # can carry the walk that far.
        corner = first > (_BIG_ONE_SIDE_REACH if big_one else _ONE_SIDE_REACH)
        far = corner & (first > 2.2 * first.min())
        first = first[~far]
        bounded[np.flatnonzero(bounded)[far]] = False
        if bounded.mean() < 0.75:
            return plain, 0.0, half  # a lone dark spot on something that is not die-shaped
        # A 1's pip is the face's centre, so the face ends about as near all round; but a side
        # face of the die's colour (a tilted camera sees it) carries the walk on past the edge
        # on that side: one arc of directions, whose opposite ones end near, and by at most
        # 2 tan(45 degrees) face half-sizes more. A 3's or 5's pip meets its neighbours (near)
        # along one diagonal and the far corners along the other: no one arc. Only a pip that
        # linked to no alike pip (see _groups) is given this: a pip of a face that linked but
        # was not read meets its neighbours near and the face's far side beyond them.
        reach = np.full(len(_CIRCLE16), np.inf)
        reach[bounded] = first
        near = reach <= 2.2 * first.min()
        # The face must first be found: near edges all at the walk's first step (neighbouring
        # pips, a letter's strokes) leave no face for a side face to lengthen.
        if (bounded & ~near).any() and (not side_arc or half <= lo):
            return plain, 0.0, half
        if (bounded & ~near).any():
            long = ~near  # the unbounded directions too: the side face's arc or none
            half_turn = len(_CIRCLE16) // 2
            runs = np.count_nonzero(long & ~np.roll(long, 1))
            if (runs > 1 or np.count_nonzero(long) > half_turn // 2
                    or not near[np.roll(long, half_turn)].all()
                    or first.max() > 3.0 * first.min()):
                return plain, 0.0, half  # a lone dark spot on something that is not die-shaped
    return plain, np.count_nonzero(bounded) / len(bounded), half


def _balance(colours: np.ndarray) -> np.ndarray:
    """Each colour's channels as fractions of their sum: what light falling off leaves as
    it is."""
    return colours / np.maximum(colours.sum(axis=-1, keepdims=True), 1.0)


def _balanced_as(colours: np.ndarray, face: np.ndarray,
                 step: float = BALANCE_STEP) -> np.ndarray:
    """Which colours (N x 3) have a face's colour balance, at whatever level (within ``step``
    of it, BALANCE_STEP unless given)."""
    return np.abs(_balance(colours) - _balance(face)).sum(axis=1) <= step


def _comes_back(left: np.ndarray) -> int:
    """How many walks (``left``: rings x directions, where it left the face) are on the face
    again for two steps running after first leaving it."""
    on = ~left
    again = on[1:] & on[:-1]  # on the face at a step and the next
    off_before = np.cumsum(left, axis=0)[:-1] > 0
    return int(np.count_nonzero((again & off_before).any(axis=0)))


def _meets_pips(left: np.ndarray, radii: np.ndarray, fit: _Fit,
                found: Sequence[_Pip]) -> bool:
    """Whether a big 1's walk (``left``: rings x directions, where it left the face) stops at a
    found pip other than its own and about its size (see NEIGHBOUR_PIP): a 1's face holds no
    other pip, while a big pip among others (a large die's 4, 5 or 6 whose pips did not link)
    meets its neighbours a few radii out. A big 1's own side faces show smaller pips,
    foreshortened too, just past its edge."""
    at = left.any(axis=0)
    if not at.any():
        return False
    reach = radii[left.argmax(axis=0)[at]]
    stops = fit.centre + (_CIRCLE16[at] * reach[:, None]) @ fit.axes.T
    # (Smaller found pips are its side faces'.)
    return any(_neighbour_at(found, fit, stop, 0.5, NEIGHBOUR_PIP) for stop in stops.tolist())


def _neighbour_at(found: Sequence[_Pip], fit: _Fit, point: Sequence[float], margin: float,
                  least: float = 0.0) -> bool:
    """Whether a found pip other than the 1's own (the one at its centre), of a radius at least
    ``least``, lies within its radius plus ``margin`` of ``point``; ``margin`` and ``least`` in
    the 1's unit, its pip's radius (see _mean_scale)."""
    unit = _mean_scale(fit.axes)
    cx, cy = float(fit.centre[0]), float(fit.centre[1])
    return any(math.hypot(p.x - cx, p.y - cy) > unit and p.r >= least * unit
               and math.hypot(p.x - point[0], p.y - point[1]) < p.r + margin * unit
               for p in found)


def _walk_past_specks(left: np.ndarray, radii: np.ndarray, fit: _Fit,
                      found: Sequence[_Pip]) -> None:
    """Clears from a 1's walk (``left``: rings x directions, where it left the face) the marks
    it stopped at short of its neighbours that are no found pip and that it walks past onto its
    face again before leaving it for good (see SPECK_SHORT)."""
    n = len(radii)
    left_at = left.any(axis=0)
    stops = np.where(left_at, left.argmax(axis=0), n)
    reach = np.where(left_at, radii[np.minimum(stops, n - 1)], np.inf)
    for k in np.flatnonzero(left_at).tolist():
        if min(reach[k - 1], reach[(k + 1) % len(reach)]) < SPECK_SHORT * reach[k]:
            continue
        back = np.flatnonzero(~left[stops[k]:, k])
        if not len(back) or not left[stops[k] + back[0]:, k].any():
            continue  # no face past the mark, or no edge past that
        stop = (fit.centre + fit.axes @ (_CIRCLE16[k] * reach[k])).tolist()
        if _neighbour_at(found, fit, stop, 1.0):
            continue  # a neighbouring pip
        left[stops[k]:stops[k] + back[0], k] = False


def draw_dice(frame: np.ndarray, reading: DiceReading) -> np.ndarray:
    """A copy of the frame with each die's outline and value drawn, for people to check."""
    out = frame.copy()
    thick = max(1, round(max(frame.shape[:2]) / 400))
    for die in reading.dice:
        pts = np.array(die.outline, np.float32).round().astype(np.int32)
        cv2.polylines(out, [pts], True, (0, 200, 0), thick, cv2.LINE_AA)
        x1, y1 = die.box[0], die.box[1]
        # As tall as a third of the die, up to twice the header's size; above the die, or just
        # inside its box when the frame ends above it (a die close to the camera).
        scale = min(max(0.5, (die.box[3] - die.box[1]) / 40), 1.2 * thick)
        (_, high), _ = cv2.getTextSize(str(die.value), _FONT, scale, thick)
        org = (x1, y1 - 4) if y1 - 8 - high >= 0 else (x1 + 4, y1 + high + 8)
        _label(out, str(die.value), org, scale, thick, (0, 255, 255))
        for x, y in die.pips:
            cv2.circle(out, (round(x), round(y)), thick + 1, (255, 0, 255), -1)
    for x1, y1, x2, y2 in reading.unread:
        cv2.rectangle(out, (x1, y1), (x2, y2), (0, 0, 255), thick)
        cv2.putText(out, "?", (x1, max(12, y1 - 4)), _FONT, 0.7, (0, 0, 255), thick, cv2.LINE_AA)
    _label(out, f"{reading.values} conf {reading.confidence:.2f}", (8, 22), 0.6, 1,
           (255, 255, 255))
    return out


_FONT = cv2.FONT_HERSHEY_SIMPLEX


def _label(out: np.ndarray, text: str, org: tuple[int, int], scale: float, thick: int,
           colour: tuple[int, int, int]) -> None:
    """Text on a black plate, legible on any table. (A black outline drawn as thicker text
    does not line up: Hershey glyphs advance further the thicker they are drawn.)"""
    (wide, high), below = cv2.getTextSize(text, _FONT, scale, thick)
    x, y = org
    cv2.rectangle(out, (x - 3, y - high - 3), (x + wide + 3, y + below + 1), (0, 0, 0), -1)
    cv2.putText(out, text, org, _FONT, scale, colour, thick, cv2.LINE_AA)


class DiceSettler:
    """Reads a roll from a live camera only once the dice have come to rest.

    Feed it every frame's reading (and the frame, for a motion check); it returns a reading when
    the last ``frames`` readings agree (same values, dice within ``tolerance`` of a box size of
    where they were) and the picture has stopped changing, and then not again until the dice
    change. A tumbling die blurs, changes value and moves, so it never satisfies all of that.

    >>> settler = DiceSettler(frames=3)
    >>> still = DiceReading((Die(4, (10, 10, 40, 40), (), 1.0, ()),), 1.0)
    >>> [settler.feed(still) is not None for _ in range(4)]
    [False, False, True, False]
    """

    def __init__(self, frames: int = 4, tolerance: float = 0.25, motion: float = 4.0) -> None:
        self.frames = frames
        self.tolerance = tolerance
        self.motion = motion  # mean grey-level change between frames that counts as movement
        self._history: list[DiceReading] = []
        self._previous: np.ndarray | None = None
        self._moving = False  # whether the last frame looked at differed from the one before
        self._announced: list[int] | None = None

    def still(self, frame: np.ndarray) -> bool:
        """Looks at the next frame: whether the picture has stopped changing. A caller may ask
        this before reading the frame (a moving picture needs no closer look) and then feed the
        reading without the frame."""
        self._moving = self._is_moving(frame)
        return not self._moving

    def feed(self, reading: DiceReading, frame: np.ndarray | None = None) -> DiceReading | None:
        """The settled roll, or None; ``frame`` (if given) is looked at first, as by still()."""
        if frame is not None:
            self.still(frame)
        if self._moving:
            self._history.clear()
            self._announced = None
            return None
        if self._history and not self._agrees(self._history[-1], reading):
            self._history.clear()
            self._announced = None
        self._history.append(reading)
        del self._history[: -self.frames]
        if len(self._history) < self.frames or not reading.dice:
            return None
        if self._announced == reading.values:
            return None  # this roll was already handed out
        self._announced = reading.values
        best = max(self._history, key=lambda r: r.confidence)
        return best

    def _is_moving(self, frame: np.ndarray) -> bool:
        small = cv2.resize(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) if frame.ndim == 3 else frame,
                           (80, 60), interpolation=cv2.INTER_AREA).astype(np.float32)
        previous, self._previous = self._previous, small
        if previous is None or previous.shape != small.shape:
            return False
        return float(np.abs(small - previous).mean()) > self.motion

    def _agrees(self, a: DiceReading, b: DiceReading) -> bool:
        if a.values != b.values or len(a.dice) != len(b.dice):
            return False
        for box_a, box_b in zip(a.boxes, b.boxes):
            size = max(box_a[2] - box_a[0], box_a[3] - box_a[1], 1)
            if max(abs(p - q) for p, q in zip(box_a, box_b)) > self.tolerance * size:
                return False
        return True
