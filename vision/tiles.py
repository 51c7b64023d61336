"""Reading the castle: which CHAINsomnia room tile lies in which cell, turned which way.

Two ways to know a tile:

- a printed ArUco sticker in the middle of the tile (``vision/markers.toml`` maps sticker ids to
  tile ids); the sticker's corners give the tile's rotation and position directly;
- enrolled appearance, for tiles without stickers: a top-down reference picture of each tile
  (``companion vision enroll``). ORB features find a few tiles, which lay the castle's grid; every
  cell is then compared whole, doors included, with each reference at each quarter turn. When
  quarter turns look alike (symmetric art) the doors decide, and when the doors look alike too
  the rotation is reported as unknown (None) rather than guessed.

Cells and rotations are relative to the CHAINsomnia start tile: its cell is (0, 0), x grows to
its east and y to its south, and rotation is the clockwise quarter-turn (0, 90, 180, 270 degrees)
of a tile's north relative to the start tile's north. Without the start tile in view, cells and
rotations are None.
"""

from __future__ import annotations

import math
import time
import tomllib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

START_TILE = "chainsomnia"
MARKERS_FILE = Path(__file__).with_name("markers.toml")
REF_SIDE = 240  # enrolled references are stored as REF_SIDE x REF_SIDE top-down squares
CATALOG_FILE = Path(__file__).resolve().parents[1] / "companion" / "data" / "chainsomnia" / "tiles.toml"
SIDES = ("north", "east", "south", "west")
# A picture that correlates this well with itself turned is symmetric: the art cannot give the
# rotation, only the doors can.
ART_ALIKE = 0.9
# The doors must tell the best turn from the next by this fraction of the edge-band difference.
DOOR_MARGIN = 0.25


class TileError(ValueError):
    """Unusable marker map or reference folder; the message names the file and the entry."""


@dataclass(frozen=True)
class MarkerMap:
    """Sticker ids to tile ids, with the dictionary and the sticker's size on a tile."""

    dictionary: str
    sticker_fraction: float
    tiles: dict[int, str]


@dataclass(frozen=True)
class TileSighting:
    """One tile seen in the frame."""

    tile: str
    cell: tuple[int, int] | None
    rotation: int | None  # clockwise degrees relative to the start tile; None if unknown
    confidence: float
    corners: tuple[tuple[float, float], ...]  # the tile's NW, NE, SE, SW corners in the frame
    source: str  # "sticker" or "appearance"

    def as_json(self) -> dict[str, object]:
        return {
            "id": self.tile,
            "cell": list(self.cell) if self.cell is not None else None,
            "rotation": self.rotation,
            "confidence": round(self.confidence, 3),
            "source": self.source,
        }


@dataclass(frozen=True)
class TileReading:
    tiles: tuple[TileSighting, ...]
    ms: float


def load_marker_map(path: str | Path | None = None) -> MarkerMap:
    """Reads the sticker-to-tile map (default: the one shipped beside this module)."""
    path = Path(path) if path else MARKERS_FILE
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as err:
        raise TileError(f"{path}: cannot be read: {err}") from None
    name = raw.get("dictionary", "DICT_4X4_50")
    if not isinstance(name, str) or not hasattr(cv2.aruco, name):
        raise TileError(f"{path}: dictionary: unknown ArUco dictionary {name!r}")
    fraction = raw.get("sticker_fraction", 0.4)
    if not isinstance(fraction, (int, float)) or not 0.05 <= fraction <= 0.9:
        raise TileError(f"{path}: sticker_fraction: must be a number between 0.05 and 0.9")
    tiles: dict[int, str] = {}
    for key, tile in raw.get("markers", {}).items():
        if not key.isdigit():
            raise TileError(f"{path}: [markers] {key}: a sticker id must be a whole number")
        if not isinstance(tile, str) or not tile:
            raise TileError(f"{path}: [markers] {key}: must be a tile id string")
        if tile in tiles.values():
            raise TileError(f"{path}: [markers] {key}: tile {tile!r} already has a sticker")
        tiles[int(key)] = tile
    size = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, name)).bytesList.shape[0]
    for key in sorted(tiles):
        if key >= size:
            raise TileError(f"{path}: [markers] {key}: {name} has sticker ids 0 to {size - 1}")
    return MarkerMap(name, float(fraction), tiles)


# Stickers are printed at sticker_fraction of a tile, and a tile in view is at least this
# fraction of the frame's long side (40 px of 1280; a 20-tile castle at 1280x720 shows tiles of
# 53 px and more on its far side) and at most its short side. Outlines outside that range are
# not stickers; the small ones (art, table grain, noise) were most of the detector's work.
MIN_TILE_RATE = 1 / 32
MAX_TILE_RATE = 9 / 16


_SHIPPED: tuple[int, MarkerMap] | None = None


def _shipped_map() -> MarkerMap:
    """The shipped marker map, read again only when the file changes (not once per frame)."""
    global _SHIPPED
    stamp = MARKERS_FILE.stat().st_mtime_ns if MARKERS_FILE.exists() else -1
    if _SHIPPED is None or _SHIPPED[0] != stamp:
        _SHIPPED = (stamp, load_marker_map())
    return _SHIPPED[1]


def _detector(marker_map: MarkerMap) -> tuple[cv2.aruco.ArucoDetector, list[int]]:
    """A detector for the map's stickers only, and the sticker id of each of its indices."""
    full = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, marker_map.dictionary))
    ids = sorted(marker_map.tiles)
    # Only the stickers in use: a stray sticker of the same family is not even a candidate.
    dictionary = cv2.aruco.Dictionary(full.bytesList[ids], full.markerSize, full.maxCorrectionBits)
    params = cv2.aruco.DetectorParameters()
    # One threshold window: stickers are high-contrast and their border is found by its edge,
    # which a narrow window marks for stickers of 10 to 100 px alike; each extra window repeated
    # the whole search.
    params.adaptiveThreshWinSizeMin = 5
    params.adaptiveThreshWinSizeMax = 5
    params.adaptiveThreshWinSizeStep = 10
    params.minMarkerPerimeterRate = 4 * marker_map.sticker_fraction * MIN_TILE_RATE
    params.maxMarkerPerimeterRate = 4 * marker_map.sticker_fraction * MAX_TILE_RATE
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    return cv2.aruco.ArucoDetector(dictionary, params), ids


_DETECTORS: dict[tuple[object, ...], tuple[cv2.aruco.ArucoDetector, list[int]]] = {}


def marker_sheet(marker_map: MarkerMap | None = None, sticker_px: int = 236,
                 columns: int = 4) -> np.ndarray:
    """A printable sheet (grayscale) with every sticker, its id and its tile's name below it.

    At 300 dpi the default 236 px sticker is 2 cm wide, for tiles of 5 cm.
    """
    marker_map = marker_map or load_marker_map()
    dictionary = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, marker_map.dictionary))
    margin = sticker_px // 3
    cell_w, cell_h = sticker_px + 2 * margin, sticker_px + 2 * margin + 40
    items = sorted(marker_map.tiles.items())
    rows = max(1, math.ceil(len(items) / columns))
    sheet = np.full((rows * cell_h + margin, columns * cell_w), 255, np.uint8)
    for k, (marker_id, tile) in enumerate(items):
        r, c = divmod(k, columns)
        x, y = c * cell_w + margin, r * cell_h + margin
        img = cv2.aruco.generateImageMarker(dictionary, marker_id, sticker_px)
        sheet[y : y + sticker_px, x : x + sticker_px] = img
        # A thin cutting line around the white quiet zone.
        q = sticker_px // 6
        cv2.rectangle(sheet, (x - q, y - q), (x + sticker_px + q, y + sticker_px + q), 190, 1)
        cv2.putText(sheet, f"{marker_id}: {tile}  (this way up)", (x - q, y + sticker_px + q + 28),
                    cv2.FONT_HERSHEY_SIMPLEX, 0.6, 0, 1, cv2.LINE_AA)
    return sheet


@dataclass
class _Seen:
    tile: str
    centre: np.ndarray  # image
    up: np.ndarray  # image point on the tile's north edge direction (unit-ish)
    corners: np.ndarray  # 4x2 image: for stickers the sticker corners, else the tile corners
    tile_corners: np.ndarray | None
    confidence: float
    source: str
    rotation_known: bool = True


def read_tiles(frame: np.ndarray, refs: ReferenceSet | None = None,
               marker_map: MarkerMap | None = None) -> TileReading:
    """Finds every known tile in a BGR frame, with cell and rotation relative to the start tile."""
    start = time.perf_counter()
    if (frame is None or frame.ndim not in (2, 3) or frame.dtype != np.uint8
            or (frame.ndim == 3 and frame.shape[2] != 3) or min(frame.shape[:2]) < 8):
        raise ValueError("read_tiles needs an 8-bit image, grey (height x width) or BGR "
                         "(height x width x 3), at least 8 pixels a side")
    marker_map = marker_map or _shipped_map()
    gray = frame if frame.ndim == 2 else cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    seen = _stickers(gray, marker_map)
    if refs is not None and refs.tiles:
        have = {s.tile for s in seen}
        seen += [s for s in refs.find(frame, gray) if s.tile not in have]
    sightings = _place(seen, marker_map)
    return TileReading(tuple(sightings), (time.perf_counter() - start) * 1000)


def _stickers(gray: np.ndarray, marker_map: MarkerMap) -> list[_Seen]:
    key = _map_key(marker_map)
    if key not in _DETECTORS:
        _DETECTORS[key] = _detector(marker_map)
    detector, sticker_ids = _DETECTORS[key]
    corners, found, _ = detector.detectMarkers(gray)
    if found is None:
        return []
    # All stickers at once, each _Seen then holding its rows: on 4x2 arrays numpy's cost is its
    # calls, not its arithmetic, and a castle has twenty stickers a frame.
    quads = np.array(corners, np.float64).reshape(-1, 4, 2)  # TL, TR, BR, BL of each sticker
    centres = quads.mean(axis=1)
    ups = (quads[:, 0] + quads[:, 1]) / 2 - centres
    # The tile's corners: the sticker's, scaled out from the centre (an affine guess, good
    # enough to draw; cells come from the homography in _place).
    tile_corners = centres[:, None] + (quads - centres[:, None]) / marker_map.sticker_fraction
    top = np.linalg.norm(quads[:, 1] - quads[:, 0], axis=1)
    right = np.linalg.norm(quads[:, 2] - quads[:, 1], axis=1)
    confidences = np.minimum(1.0, (top + right) / 2 / 12).tolist()
    tiles = [marker_map.tiles[sticker_ids[index]] for index in found.ravel().tolist()]
    return [_Seen(tile, centres[i], ups[i], quads[i], tile_corners[i], confidences[i], "sticker")
            for i, tile in enumerate(tiles)]


def _map_key(marker_map: MarkerMap) -> tuple[object, ...]:
    return (marker_map.dictionary, marker_map.sticker_fraction, tuple(sorted(marker_map.tiles)))


# Clockwise on screen (y grows south), for each quarter turn.
_TURNS = np.array([[[math.cos(math.radians(90 * q)), -math.sin(math.radians(90 * q))],
                    [math.sin(math.radians(90 * q)), math.cos(math.radians(90 * q))]]
                   for q in range(4)])
# A square's corners NW, NE, SE, SW around its centre, half a side = 1.
_SQUARE = np.array([[-1.0, -1.0], [1.0, -1.0], [1.0, 1.0], [-1.0, 1.0]])


def _plane_points(half: np.ndarray, cells: np.ndarray, quarters: np.ndarray) -> np.ndarray:
    """Where the seen corners lie on the castle plane (tile side = 1, start tile at 0, 0):
    one 4x2 block per sighting, all at once (a castle has 20 of them, three times a frame).
    ``half`` is each sighting's half side on the plane: its sticker's or its whole tile's."""
    local = half[:, None, None] * _SQUARE
    return np.einsum("nkj,nij->nki", local, _TURNS[quarters]) + cells[:, None, :]


_Poses = tuple[np.ndarray, np.ndarray, np.ndarray]  # what _poses returns


def _poses(h: np.ndarray, centres: np.ndarray, ups: np.ndarray) -> _Poses:
    """Cells (N x 2), quarter turns and how far off the grid each tile lies, under plane
    homography h, for sightings at image points ``centres`` with north ``ups`` of them."""
    # Each centre followed by its north point, as one point list for one transform.
    pts = np.concatenate((centres, centres + ups), axis=1).reshape(1, -1, 2)
    pts = cv2.perspectiveTransform(pts, h)[0].reshape(-1, 2, 2)
    centre, up = pts[:, 0], pts[:, 1] - pts[:, 0]
    cells = np.rint(centre).astype(int)
    angle = np.degrees(np.arctan2(up[:, 0], -up[:, 1])) % 360
    quarters = np.rint(angle / 90).astype(int) % 4
    off = np.hypot(centre[:, 0] - cells[:, 0], centre[:, 1] - cells[:, 1])
    off_angle = np.abs((angle - quarters * 90 + 180) % 360 - 180)
    return cells, quarters, off + off_angle / 90


def _refine(h: np.ndarray, src: np.ndarray, centres: np.ndarray, ups: np.ndarray,
            half: np.ndarray) -> tuple[np.ndarray, _Poses | None]:
    """Every tile placed on the grid adds its corners (``src``) to one homography for the whole
    castle, which keeps far tiles right under perspective; twice, each time from the grid the
    last homography gives. Returns the homography and, when worked out on the way, the
    sightings' poses under it (else None)."""
    fitted = None  # the cells and quarters that h was fitted to
    for _ in range(2):
        poses = _poses(h, centres, ups)
        cells, quarters, _ = poses
        if (fitted is not None and np.array_equal(cells, fitted[0])
                and np.array_equal(quarters, fitted[1])):
            # The same grid again: fitting the same points would give the same homography
            # (RANSAC draws its samples from the same seed every call), so it is done.
            return h, poses
        dst = _plane_points(half, cells, quarters).reshape(-1, 2)
        h2, _ = cv2.findHomography(src, dst, cv2.RANSAC, 0.08)
        if h2 is None:
            return h, poses
        h, fitted = h2, (cells, quarters)
    return h, None


def _place(seen: list[_Seen], marker_map: MarkerMap) -> list[TileSighting]:
    anchor = next((i for i, s in enumerate(seen) if s.tile == START_TILE), None)  # an index
    if anchor is not None and not seen[anchor].rotation_known:
        # A start tile whose turn cannot be seen (symmetric art, four doors) gives the castle
        # no north: every cell and rotation relative to it would be a guess.
        anchor = None
    if anchor is None:
        return [TileSighting(s.tile, None, None, s.confidence * 0.5, corners, s.source)
                for s, corners in zip(seen, _corner_tuples(seen))]
    centres = np.array([s.centre for s in seen])
    ups = np.array([s.up for s in seen])
    fraction = marker_map.sticker_fraction
    half = np.array([fraction / 2 if s.source == "sticker" else 0.5 for s in seen])
    # The start tile's corners on the plane: in cell (0, 0), unturned.
    h, _ = cv2.findHomography(seen[anchor].corners, half[anchor] * _SQUARE)
    placeable = [i for i, s in enumerate(seen) if s.source != "appearance" or s.rotation_known]
    poses = None
    if len(placeable) >= 2:
        src = np.concatenate([seen[i].corners for i in placeable])
        h, poses = _refine(h, src, centres[placeable], ups[placeable], half[placeable])
    if poses is None or len(placeable) < len(seen):
        poses = _poses(h, centres, ups)
    cells, quarters, offs = poses
    out: list[TileSighting] = []
    for s, (cx, cy), quarter, off, corners in zip(seen, cells.tolist(), quarters.tolist(),
                                                  offs.tolist(), _corner_tuples(seen)):
        cell = (cx, cy)
        confidence = s.confidence * max(0.0, 1.0 - max(0.0, off - 0.15) * 1.5)
        rotation = quarter * 90 if s.rotation_known else None
        if s.tile == START_TILE:
            cell, rotation = (0, 0), 0
        out.append(TileSighting(s.tile, cell, rotation, round(confidence, 3), corners,
                                s.source))
    out.sort(key=lambda t: (t.cell is None, t.cell or (0, 0), t.tile))
    return out


def _corner_tuples(seen: list[_Seen]) -> list[tuple[tuple[float, float], ...]]:
    """Each sighting's tile corners (NW, NE, SE, SW), to a tenth of a pixel: all sightings'
    in one array, rounded at once."""
    pts = np.array([s.tile_corners if s.tile_corners is not None else s.corners for s in seen],
                   np.float64)
    return [tuple(map(tuple, quad)) for quad in _round_tenths(pts).tolist()]


def _round_tenths(values: np.ndarray) -> np.ndarray:
    """round(v, 1) of every value, exactly as Python's round gives it, all at once (a castle
    has 160 corner coordinates a frame, and round() on each, one by one, took a quarter of
    _place's time)."""
    tenths = values * 10
    whole = np.rint(tenths)
    out = whole / 10
    # round() decides on v's exact binary value, rint on v * 10 after that product has been
    # rounded to a double. The two can only disagree where v * 10 lies within that rounding
    # error (far below 1e-6 for pixel coordinates) of a half, at x.x5: those few values go
    # through round() itself.
    near = np.abs(np.abs(tenths - whole) - 0.5) < 1e-6
    for i in np.flatnonzero(near).tolist():
        out.flat[i] = round(float(values.flat[i]), 1)
    return out


# --- enrolled appearance -------------------------------------------------------------------
#
# A castle is a grid of equal squares on one plane. Local features find a few tiles, which is
# enough to know that grid; every cell of it is then cut out of the frame and compared, whole,
# with every reference at every quarter turn. The features only have to find some tiles, not
# all, and the comparison of whole cells is both cheaper and surer than matching each tile.

CELL_PX = 64  # a cell is cut out of the frame as a CELL_PX square (doors are read at this size)
THUMB_PX = 16  # ... and compared with the references as a THUMB_PX square (CELL_PX / 4)
# Colour is only for the thumbnails: cut at this size (a third of the pixels of the gray cut).
COLOUR_PX = 2 * THUMB_PX
# A cell holds a tile when its picture correlates at least this well with the tile's reference
# (bare table correlates well under 0.3 with any tile).
OCCUPIED = 0.5
# The whole picture must prefer its best quarter turn by this much to decide the rotation;
# closer turns are told apart by the doors, or not at all.
TURN_MARGIN = 0.12
# References keep their features at these sizes (px a side), about those of tiles in the frame
# of a castle of 4 to 20 tiles (the frame's own pyramid covers larger tiles; a frame shrunk to
# 0.6..0.67 for ORB lost castles, and at 0.8 saved no time).
REF_SIZES = (100, 72)
REF_FEATURES = 80  # per size
FRAME_FEATURES = 750  # with the anchors grown by ECC, 750 find enough; matching costs per feature
# Matching costs frame features times reference features, and most frames (71 of 80 castles)
# give their anchors from the strongest REF_FIRST of each reference size: these are matched
# first, and all of them only when they give fewer than FIRST_ENOUGH anchors.
REF_FIRST = 20
MAX_ANCHORS = 4  # found by features; the grid grows from tiles read beyond them
FIRST_ENOUGH = 1  # anchors from the first match that need no second (tiles read grow more)
FAST_THRESHOLD = 10
# ORB's pyramid levels on the frame: 5 find the anchors of every castle since anchors askew are
# refused (6 then lost none either; 8 cost 3-6% more a frame).
FRAME_LEVELS = 5
# Anchors (exact corners) enough to lay the grid, when not all in one row or column; fewer, or
# all in a line, and tiles read off that line are made anchors too.
SURE_ANCHORS = 3
ANCHOR_MATCHES = 6  # features agreeing on one tile's place, before its picture confirms it
GROWTH = (1, 2, 8)  # how far each pass reads beyond the cells known so far
FINAL_READS = 3  # at most, while each finds tiles beyond the last
ECC_SCALE = 2.0  # ECC shrinks a tile's patch to this many template sides at most (1.5 lost one)
# An anchor's outline is exact when ECC's alignment correlates this well with its picture
# (anchors correlate 0.79 to 0.97; one settled askew at 0.65 and sheared the grid).
ANCHOR_FIT = 0.75
ECC_STEPS, ECC_EPS = 30, 1e-4  # ECC stops after this many steps or moving this little
_UNIT = np.array([[-0.5, -0.5], [0.5, -0.5], [0.5, 0.5], [-0.5, 0.5]])  # a cell's NW, NE, SE, SW
_CELL_SQUARE = (_UNIT * CELL_PX + CELL_PX / 2).astype(np.float32)


@dataclass
class _Reference:
    tile: str
    image: np.ndarray  # REF_SIDE square, as enrolled (BGR or grayscale), north up
    keypoints: np.ndarray  # N x 2, on the grayscale REF_SIDE square
    descriptors: np.ndarray
    first: np.ndarray  # which features are the REF_FIRST strongest of their size
    cells: list[np.ndarray]  # grayscale CELL_PX squares at 0, 90, 180, 270 degrees
    thumbs: np.ndarray  # 4 x D: the picture at 0, 90, 180, 270 degrees clockwise, normalised
    gray_thumbs: np.ndarray  # the same in grayscale, for grayscale frames
    bands: list[np.ndarray]  # its edge bands N, E, S, W, each turned to lie along the top
    art_turns: frozenset[int]  # quarter turns under which the picture looks the same
    door_turns: frozenset[int] | None  # quarter turns that keep the catalog's doors; None: unknown


@dataclass(frozen=True)
class _Anchor:
    ref: int
    quad: np.ndarray  # the reference square's corners in the frame (in the reference's order)
    inliers: int


def _thumb(img: np.ndarray) -> np.ndarray:
    """A cell picture as a unit vector with each channel's mean light taken out."""
    small = cv2.resize(img, (THUMB_PX, THUMB_PX), interpolation=cv2.INTER_AREA).astype(np.float32)
    small = small.reshape(THUMB_PX * THUMB_PX, -1)
    small -= small.mean(axis=0)
    flat = small.ravel()
    return flat / (float(np.linalg.norm(flat)) + 1e-6)


def _gray(img: np.ndarray) -> np.ndarray:
    return img if img.ndim == 2 else cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)


class ReferenceSet:
    """Enrolled tile pictures (``<tile id>.png`` in a folder), ready for matching."""

    def __init__(self, folder: str | Path | None = None,
                 doors: Mapping[str, Sequence[str]] | None = None) -> None:
        self.folder = Path(folder) if folder else None
        # Which sides of each tile (laid name upright) have doors: the catalog's word, which
        # the rotation of a tile with symmetric art must come from.
        self.doors = {k: tuple(v) for k, v in (catalog_doors() if doors is None
                                               else doors).items()}
        self.tiles: list[_Reference] = []
        self._orb = cv2.ORB_create(nfeatures=REF_FEATURES, fastThreshold=FAST_THRESHOLD,
                                   nlevels=2)
        self._frame_orb = cv2.ORB_create(nfeatures=FRAME_FEATURES, fastThreshold=FAST_THRESHOLD,
                                         nlevels=FRAME_LEVELS)
        self._index: dict[bool, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}
        self._stack: tuple[np.ndarray, np.ndarray] | None = None
        if self.folder is not None:
            if not self.folder.is_dir():
                raise TileError(f"{self.folder}: no such folder of enrolled tiles")
            for path in sorted(self.folder.glob("*.png")):
                img = cv2.imread(str(path), cv2.IMREAD_COLOR)
                if img is None:
                    raise TileError(f"{path}: not a readable image")
                self.add(path.stem, img)

    def add(self, tile: str, image: np.ndarray) -> None:
        image = cv2.resize(image, (REF_SIDE, REF_SIDE), interpolation=cv2.INTER_AREA)
        gray = _gray(image)
        pts, desc, first = self._features(gray)
        if len(pts) < 15:
            raise TileError(f"{tile}: the picture has too little detail to recognise the tile")
        # Through the cell size first, so that the reference is blurred as a cell of the frame is.
        cell = cv2.resize(image, (CELL_PX, CELL_PX), interpolation=cv2.INTER_AREA)
        turned = [np.ascontiguousarray(np.rot90(cell, -k)) for k in range(4)]
        # Colour through COLOUR_PX, as the frame's cells are cut.
        thumbs = np.array([_thumb(cv2.resize(t, (COLOUR_PX, COLOUR_PX),
                                             interpolation=cv2.INTER_AREA)) for t in turned])
        gray_thumbs = np.array([_thumb(_gray(t)) for t in turned])
        art_turns = frozenset(k for k in range(1, 4)
                              if float(gray_thumbs[0] @ gray_thumbs[k]) >= ART_ALIKE)
        doors = self.doors.get(tile)
        door_turns = None if doors is None else frozenset(
            k for k in range(1, 4) if {(SIDES.index(d) + k) % 4 for d in doors}
            == {SIDES.index(d) for d in doors})
        self.tiles = [t for t in self.tiles if t.tile != tile]
        cells = [_gray(t).astype(np.float32) for t in turned]
        self.tiles.append(_Reference(tile, image, pts, desc, first, cells, thumbs, gray_thumbs,
                                     _edge_bands(_gray(cell)), art_turns, door_turns))
        self._index = {}
        self._stack = None

    def _features(self, gray: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The reference's features at the sizes tiles have in the frame, each with its
        place on the REF_SIDE square (one size alone matched too few: ORB's own pyramid only
        shrinks, and a reference's small levels hold few features)."""
        pts: list[np.ndarray] = []
        descs: list[np.ndarray] = []
        firsts: list[np.ndarray] = []
        pad = 32  # table around the picture, so features reach its edges and doors
        for side in REF_SIZES:
            img = cv2.resize(gray, (side, side), interpolation=cv2.INTER_AREA)
            img = cv2.copyMakeBorder(img, pad, pad, pad, pad, cv2.BORDER_REPLICATE)
            kps, desc = self._orb.detectAndCompute(img, None)
            if desc is None:
                continue
            pts.append((np.array([k.pt for k in kps], np.float32) - pad) * (REF_SIDE / side))
            descs.append(desc)
            first = np.zeros(len(kps), bool)
            first[np.argsort([-k.response for k in kps], kind="stable")[:REF_FIRST]] = True
            firsts.append(first)
        if not descs:
            return np.zeros((0, 2), np.float32), np.zeros((0, 32), np.uint8), np.zeros(0, bool)
        return np.vstack(pts), np.vstack(descs), np.concatenate(firsts)

    def find(self, frame: np.ndarray, gray: np.ndarray | None = None) -> list[_Seen]:
        """Every enrolled tile on the grid of the castle in the frame (BGR or grayscale)."""
        if not self.tiles:
            return []
        gray = _gray(frame) if gray is None else gray
        anchors = self._anchors(frame, gray)
        if not anchors:
            return []
        to_plane, known, fixed = _grid(anchors)
        anchored = set(known)
        colour = frame.ndim == 3 and all(t.image.ndim == 3 for t in self.tiles)
        # The grid grows from the anchors: read the cells near what is known, fit the grid to
        # every tile read (far tiles keep it right under perspective), read further.
        for grow in GROWTH:
            # Enough exact anchors fix the grid already: read every cell in view at once.
            sure = _spread(fixed[1])
            grow = GROWTH[-1] if sure else grow
            cuts = _cut_cells(frame, gray, to_plane, known, grow, colour)
            reads = self._read(cuts, colour)
            if not reads:
                return []
            if not sure:
                fixed = self._more_anchors(gray, to_plane, reads, cuts.cells, anchored, fixed)
            known = {cuts.cells[c] for c, _, _ in reads}
            to_plane = self._refit(to_plane, reads, cuts, fixed)
            if grow == GROWTH[-1]:
                break
        # The last read, next to the tiles read: tiles it finds beyond them (the grid laid
        # from three anchors can miss far cells) refit the grid and are read again.
        for last in range(FINAL_READS):
            cuts = _cut_cells(frame, gray, to_plane, known, 1, colour)
            reads = self._read(cuts, colour)
            found = {cuts.cells[c] for c, _, _ in reads}
            if found <= known or last == FINAL_READS - 1:
                break
            known = found
            to_plane = self._refit(to_plane, reads, cuts, fixed)
        from_plane = np.linalg.inv(to_plane)
        return [self._seen(self.tiles[r], scores, cuts.gray_cut(c), cuts.cells[c], from_plane,
                           gray)
                for c, r, scores in reads]

    def _read(self, cuts: _Cuts, colour: bool) -> list[tuple[int, int, np.ndarray]]:
        """Which reference each cell holds: (cell, reference, its score at each quarter turn)."""
        cells = cuts.cells
        if not cells:
            return []
        refs = self._thumbs(colour)
        seen = cuts.thumbs(colour)
        # scores[c, r, k]: cell c against reference r turned k quarters clockwise.
        # OpenCV's product, not numpy's: numpy hands a product this size to a BLAS that
        # starts threads of its own, which on a busy Raspberry Pi (or any shared core) cost
        # forty times the arithmetic.
        scores = cv2.gemm(seen, refs, 1.0, None, 0.0, flags=cv2.GEMM_2_T).reshape(
            len(cells), len(self.tiles), 4)
        best = scores.max(axis=2)
        out: list[tuple[int, int, np.ndarray]] = []
        used_cells: set[int] = set()
        used_refs: set[int] = set()
        # Each tile is in one cell and each cell holds one tile: the surest pairs first.
        cs, rs = np.nonzero(best >= OCCUPIED)
        for i in np.argsort(-best[cs, rs], kind="stable"):
            c, r = int(cs[i]), int(rs[i])
            if c in used_cells or r in used_refs:
                continue
            used_cells.add(c)
            used_refs.add(r)
            # How far ahead of every other tile this one fits the cell, for the confidence.
            others = np.delete(best[c], r)
            lead = float(best[c, r] - others.max()) if others.size else float(best[c, r])
            out.append((c, r, np.append(scores[c, r], lead)))
        return out

    def _refit(self, to_plane: np.ndarray, reads: list[tuple[int, int, np.ndarray]],
               cuts: _Cuts, fixed: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
        """The grid fitted to where each tile read really lies within its cut-out cell, and
        to the anchors' corners (``fixed``: frame and plane points), which ECC made exact."""
        from_plane = np.linalg.inv(to_plane)
        frame_pts, plane_pts = [], []
        for c, r, scores in reads:
            k = int(np.argmax(scores[:4]))
            (dx, dy), response = cv2.phaseCorrelate(self.tiles[r].cells[k],
                                                    cuts.gray_cut(c).astype(np.float32))
            if response < 0.1 or max(abs(dx), abs(dy)) > 0.4 * CELL_PX:
                continue
            # The tile shows shifted by (dx, dy) in its cut: its centre is there on the plane.
            at = np.array(cuts.cells[c], np.float64) + np.array([dx, dy]) / CELL_PX
            frame_pts.append(cv2.perspectiveTransform(at[None, None], from_plane)[0, 0])
            plane_pts.append(cuts.cells[c])
        if len(plane_pts) < 3:
            return to_plane
        src = np.vstack([fixed[0], np.array(frame_pts, np.float64)])
        dst = np.vstack([fixed[1], np.array(plane_pts, np.float64)])
        # The anchors' corners alone pin perspective down; the tiles read add reach.
        h, _ = cv2.findHomography(src, dst, cv2.RANSAC, 0.15)
        if not _usable(h):
            return to_plane
        # The new grid must still put the tiles read in their cells: a fit pulled off by a
        # bad read is refused.
        moved = cv2.perspectiveTransform(src[None], h)[0] - dst
        return h if float(np.median(np.abs(moved).max(axis=1))) < 0.2 else to_plane

    def _more_anchors(self, gray: np.ndarray, to_plane: np.ndarray,
                      reads: list[tuple[int, int, np.ndarray]], cells: list[tuple[int, int]],
                      anchored: set[tuple[int, int]], fixed: tuple[np.ndarray, np.ndarray]
                      ) -> tuple[np.ndarray, np.ndarray]:
        """Tiles read near too few anchors made anchors too (their corners made exact by ECC):
        one anchor's corners extrapolate the castle's perspective badly two cells away, and so
        do anchors all in one row (two side by side lost a castle's far row), so a tile on
        their line is taken only while there are fewer than two."""
        from_plane = np.linalg.inv(to_plane)
        src, dst = [fixed[0]], [fixed[1]]
        for c, r, scores in sorted(reads, key=lambda read: -float(read[2][:4].max())):
            if _spread(np.vstack(dst)):
                break
            centres = np.vstack(dst).reshape(-1, 4, 2).mean(axis=1)
            if cells[c] in anchored or (len(centres) >= 2 and _in_line(
                    np.vstack([centres, np.array(cells[c], np.float64)[None]]))):
                continue
            k = int(np.argmax(scores[:4]))
            plane = _UNIT + np.array(cells[c], np.float64)
            order = [(i + k) % 4 for i in range(4)]  # reference corner i lies at grid corner
            guess = cv2.perspectiveTransform(plane[order][None], from_plane)[0]
            quad = _sharpen(self.tiles[r].cells[0], gray, guess, strict=True, fit=ANCHOR_FIT)
            if quad is None or not _squarish(quad):
                continue
            src.append(quad)
            dst.append(plane[order])
            anchored.add(cells[c])
        return np.vstack(src), np.vstack(dst)

    def _thumbs(self, colour: bool) -> np.ndarray:
        if self._stack is None:
            self._stack = (np.vstack([t.thumbs for t in self.tiles]),
                           np.vstack([t.gray_thumbs for t in self.tiles]))
        return self._stack[0] if colour else self._stack[1]

    def _looks_like(self, k: int, frame: np.ndarray, quad: np.ndarray) -> bool:
        """Whether the frame inside ``quad`` is the picture of reference k at some quarter turn:
        a few features agreeing by chance do not make an anchor."""
        colour = frame.ndim == 3 and self.tiles[k].image.ndim == 3
        side = COLOUR_PX if colour else CELL_PX  # cut as the cells of a pass are
        square = _UNIT.astype(np.float32) * side + side / 2
        cut = cv2.warpPerspective(frame, cv2.getPerspectiveTransform(
            quad.astype(np.float32), square), (side, side))
        refs = self.tiles[k].thumbs if colour else self.tiles[k].gray_thumbs
        seen = _thumb(cut if colour else _gray(cut))[None]
        return float(cv2.gemm(seen, refs, 1.0, None, 0.0, flags=cv2.GEMM_2_T).max()) >= OCCUPIED

    def _anchors(self, frame: np.ndarray, gray: np.ndarray) -> list[_Anchor]:
        """Tiles found by their features: enough of them to lay the grid over the castle."""
        kps, desc = self._frame_orb.detectAndCompute(gray, None)
        if desc is None or len(kps) < 10:
            return []
        frame_pts = np.array([k.pt for k in kps], np.float32)
        anchors = self._match(frame, gray, desc, frame_pts, first=True)
        if len(anchors) >= FIRST_ENOUGH:
            return anchors
        return self._match(frame, gray, desc, frame_pts, first=False)

    def _match(self, frame: np.ndarray, gray: np.ndarray, desc: np.ndarray,
               frame_pts: np.ndarray, first: bool) -> list[_Anchor]:
        """The anchors the frame's features ``desc`` (at ``frame_pts``) give against every
        reference's features (``first``: the strongest REF_FIRST of each size only)."""
        if first not in self._index:
            # Every reference's features in one matrix, with the tile each belongs to: one
            # search of them all per frame feature.
            use = [t.first if first else np.ones(len(t.first), bool) for t in self.tiles]
            self._index[first] = (
                np.vstack([t.descriptors[u] for t, u in zip(self.tiles, use)]),
                np.concatenate([np.full(int(u.sum()), i) for i, u in enumerate(use)]),
                np.concatenate([np.flatnonzero(u) for u in use]))
        train, owner, row = self._index[first]
        # The three nearest reference features of each frame feature, as arrays (the
        # matcher's own search, without a Python object per match).
        dist, near = cv2.batchDistance(desc, train, cv2.CV_32S, normType=cv2.NORM_HAMMING,
                                       K=3)
        valid = near >= 0
        whose = np.where(valid, owner[np.maximum(near, 0)], -1)
        tile = whose[:, 0]
        # The ratio test against the nearest feature of another tile: the same tile's
        # features at its other sizes are near twins, not rivals.
        other = valid[:, 1:] & (whose[:, 1:] != tile[:, None])
        has_rival = other.any(axis=1)
        rival = dist[np.arange(len(dist)), 1 + np.argmax(other, axis=1)]
        keep = valid[:, 0] & (~has_rival | (dist[:, 0] < 0.8 * rival))
        query = np.flatnonzero(keep)
        by_tile: dict[int, list[tuple[int, int]]] = {}
        for q, t, r in zip(query.tolist(), tile[query].tolist(), row[near[query, 0]].tolist()):
            by_tile.setdefault(t, []).append((r, q))
        s = REF_SIDE
        square = np.array([[0, 0], [s, 0], [s, s], [0, s]], np.float64)
        anchors: list[_Anchor] = []
        found: list[tuple[int, int, np.ndarray]] = []
        for k, good in by_tile.items():
            if len(good) < ANCHOR_MATCHES:
                continue
            src = self.tiles[k].keypoints[[g[0] for g in good]]
            dst = frame_pts[[g[1] for g in good]]
            # A turn, a scale and a shift: a homography (or even an affine map) from a dozen
            # features bunched on one tile extrapolates its corners wildly, and on symmetric
            # art can take the mirror image. ECC then brings in the perspective. A tile is
            # found in few iterations or not at all.
            a, mask = cv2.estimateAffinePartial2D(src, dst, method=cv2.RANSAC,
                                                  ransacReprojThreshold=3.0, maxIters=300)
            if a is None or int(mask.sum()) < ANCHOR_MATCHES:
                continue
            found.append((int(mask.sum()), k, square @ a[:, :2].T + a[:, 2]))
        # The best supported first (ECC is the dearest step here); enough anchors end it.
        for inliers, k, rough in sorted(found, key=lambda f: -f[0]):
            if len(anchors) >= MAX_ANCHORS:
                break
            quad = _sharpen(self.tiles[k].cells[0], gray, rough, strict=True, fit=ANCHOR_FIT)
            if quad is not None and _squarish(quad) and self._looks_like(k, frame, quad):
                anchors.append(_Anchor(k, quad, inliers))
        anchors.sort(key=lambda a: -a.inliers)
        return anchors

    def _seen(self, ref: _Reference, scores: np.ndarray, cut: np.ndarray, cell: tuple[int, int],
              from_plane: np.ndarray, gray: np.ndarray) -> _Seen:
        grid = cv2.perspectiveTransform((_UNIT + np.array(cell, np.float64))[None], from_plane)[0]

        def exact(turn: int) -> np.ndarray | None:
            # The cell cut again along the tile's own outline (ECC): the doors lie in bands a
            # few pixels deep, which a grid two pixels off misses.
            quad = _sharpen(ref.cells[turn], gray, grid, strict=True)
            if quad is None:
                return None
            return cv2.warpPerspective(gray, cv2.getPerspectiveTransform(
                quad.astype(np.float32), _CELL_SQUARE), (CELL_PX, CELL_PX))

        k, known = _settle_turn(ref, scores[:4], cut, exact)
        # The tile's own corner i (NW, NE, SE, SW) lies, after k turns, at grid corner (i + k) % 4.
        corners = np.array([grid[(i + k) % 4] for i in range(4)])
        centre = corners.mean(axis=0)
        up = (corners[0] + corners[1]) / 2 - centre
        score, lead = float(scores[k]), float(scores[4])
        # Sure when the picture fits well and no other tile fits this cell nearly as well.
        confidence = min(1.0, score / 0.8) * min(1.0, 0.5 + lead * 2) * (1.0 if known else 0.5)
        return _Seen(ref.tile, centre, up, corners, corners, confidence, "appearance", known)


def _sharpen(template: np.ndarray, gray: np.ndarray, quad: np.ndarray,
             strict: bool = False, fit: float = 0.0) -> np.ndarray | None:
    """The tile's outline ``quad`` made exact by aligning the reference's picture with the frame
    (ECC): features bunched on part of a tile give its corners a few pixels off, which over
    a castle's width would put far cells half a tile out. ``strict``: None when ECC cannot
    sharpen it, rather than the outline as given; ``fit``: an alignment correlating less than
    this with the picture is none (ECC can settle a dozen degrees askew, which as an anchor
    shears the whole grid)."""
    x0, y0 = np.floor(quad.min(axis=0)).astype(int) - 4
    x1, y1 = np.ceil(quad.max(axis=0)).astype(int) + 4
    x0, y0 = max(x0, 0), max(y0, 0)
    patch = gray[y0:y1, x0:x1].astype(np.float32)
    if patch.shape[0] < 16 or patch.shape[1] < 16:
        return None if strict else quad
    side = template.shape[0]
    square = np.array([[0, 0], [side, 0], [side, side], [0, side]], np.float32)
    # ECC works on the whole patch each step: a tile much larger than the template is
    # aligned on the patch shrunk to about the template's scale (the template holds no
    # finer detail to align by).
    shrink = min(1.0, ECC_SCALE * side / float(np.ptp(quad, axis=0).max()))
    if shrink < 1.0:
        patch = cv2.resize(patch, None, fx=shrink, fy=shrink, interpolation=cv2.INTER_AREA)
    warp = cv2.getPerspectiveTransform(square, ((quad - [x0, y0]) * shrink).astype(np.float32))
    criteria = (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, ECC_STEPS, ECC_EPS)
    try:
        likeness, warp = cv2.findTransformECC(template, patch, warp.astype(np.float32),
                                              cv2.MOTION_HOMOGRAPHY, criteria, None, 3)
    except cv2.error:
        return None if strict else quad  # no convergence: keep the features' outline
    if likeness < fit:
        return None if strict else quad
    better = cv2.perspectiveTransform(square[None].astype(np.float64),
                                      warp.astype(np.float64))[0] / shrink
    # ECC wandering off to a neighbour is no sharpening.
    if float(np.abs(better + [x0, y0] - quad).max()) > 0.25 * float(np.ptp(quad[:, 0])):
        return None if strict else quad
    return better + [x0, y0]


def _in_line(centres: np.ndarray) -> bool:
    """Whether cell centres on the plane all lie in one line (a row, a column, a diagonal)."""
    d = centres[1:] - centres[0]
    return len(d) < 2 or bool(np.abs(np.outer(d[:, 0], d[:, 1])
                                     - np.outer(d[:, 1], d[:, 0])).max() < 0.5)


def _spread(plane_pts: np.ndarray) -> bool:
    """Whether anchors' corners on the plane (4 a tile) are of SURE_ANCHORS tiles or more, not
    all in one line: only then do they pin the grid's perspective down across the castle
    (tiles in a line leave it free across the line)."""
    centres = plane_pts.reshape(-1, 4, 2).mean(axis=1)
    return len(centres) >= SURE_ANCHORS and not _in_line(centres)


def _usable(h: np.ndarray | None) -> bool:
    return h is not None and bool(np.isfinite(h).all()) and abs(
        float(np.linalg.det(h))) > 1e-12


def _squarish(quad: np.ndarray) -> bool:
    """A tile's outline as a camera up to about 40 degrees off top-down can see it."""
    sides = np.linalg.norm(quad - np.roll(quad, -1, axis=0), axis=1)
    q32 = quad.astype(np.float32)
    return (cv2.isContourConvex(q32) and cv2.contourArea(q32) >= 400
            and float(sides.max()) <= 1.6 * float(sides.min()))


def _grid(anchors: list[_Anchor]) -> tuple[np.ndarray, set[tuple[int, int]],
                                          tuple[np.ndarray, np.ndarray]]:
    """The homography from the frame to the castle's plane, where a cell is a unit square,
    the cells of the anchors it agrees with, and their corners (frame and plane points).
    Two anchors' eight corners already pin perspective down, which an affine grid through
    them missed by a quarter tile near each. The anchor most others agree with sets the
    grid (a false anchor agrees with none)."""
    f32 = np.float32
    best: tuple[int, list[tuple[np.ndarray, np.ndarray]]] | None = None
    for seed in anchors:
        to_plane = cv2.getPerspectiveTransform(seed.quad.astype(f32), _UNIT.astype(f32))
        support = []
        for a in anchors:
            p = cv2.perspectiveTransform(a.quad[None], to_plane)[0]
            lattice = np.round(p - 0.5) + 0.5
            if np.abs(p - lattice).max() <= 0.25 and len({tuple(v) for v in lattice}) == 4:
                support.append((a.quad, lattice))
        if best is None or len(support) > len(best[1]):
            best = (len(support), support)
    assert best is not None
    src = np.vstack([q for q, _ in best[1]])
    dst = np.vstack([p for _, p in best[1]])
    cells = {tuple(int(v) for v in np.rint(p.mean(axis=0))) for _, p in best[1]}
    h, _ = cv2.findHomography(src, dst, 0)
    if not _usable(h):
        h = cv2.getPerspectiveTransform(anchors[0].quad.astype(f32), _UNIT.astype(f32))
    return h, cells, (src, dst)  # type: ignore[return-value]


@dataclass
class _Cuts:
    """The cells of one pass, all cut out of one top-down picture of the castle's plane
    (CELL_PX a cell): one warp of the frame instead of one per cell."""

    cells: list[tuple[int, int]]
    at: list[tuple[int, int]]  # each cell's top-left pixel (x, y) in the plane's picture
    gray: np.ndarray | None  # the plane in grayscale, CELL_PX a cell (None: cut per cell)
    colour: np.ndarray | None  # ... and in colour, COLOUR_PX a cell (colour is for thumbnails)
    source: np.ndarray  # the frame in grayscale
    to_picture: np.ndarray  # frame to the plane's picture at CELL_PX a cell

    def gray_cut(self, i: int) -> np.ndarray:
        x, y = self.at[i]
        if self.gray is not None:
            return self.gray[y : y + CELL_PX, x : x + CELL_PX]
        # With colour thumbnails only the cells read are wanted in grayscale: each on its own.
        shift = np.array([[1.0, 0, -x], [0, 1, -y], [0, 0, 1]])
        return cv2.warpPerspective(self.source, shift @ self.to_picture, (CELL_PX, CELL_PX),
                                   flags=cv2.INTER_LINEAR)

    def thumbs(self, colour: bool) -> np.ndarray:
        """Every cell's thumbnail as _thumb makes it, all at once: a cell's side is a whole
        multiple of THUMB_PX, so shrinking the whole plane shrinks each cell on its own."""
        img = self.colour if colour and self.colour is not None else self.gray
        assert img is not None
        step = (COLOUR_PX if img is self.colour else CELL_PX) // THUMB_PX
        small = cv2.resize(img, (img.shape[1] // step, img.shape[0] // step),
                           interpolation=cv2.INTER_AREA)
        t = THUMB_PX
        blocks = np.stack([small[y // CELL_PX * t : (y // CELL_PX + 1) * t,
                                 x // CELL_PX * t : (x // CELL_PX + 1) * t]
                           for x, y in self.at]).astype(np.float32)
        blocks = blocks.reshape(len(self.at), THUMB_PX * THUMB_PX, -1)
        blocks -= blocks.mean(axis=1, keepdims=True)
        flat = blocks.reshape(len(self.at), -1)
        return flat / (np.linalg.norm(flat, axis=1, keepdims=True) + 1e-6)


def _cut_cells(frame: np.ndarray, gray: np.ndarray, to_plane: np.ndarray,
               near: set[tuple[int, int]], grow: int, colour: bool) -> _Cuts:
    """Every grid cell within ``grow`` cells of ``near`` that lies wholly in the frame, cut
    out top-down as a CELL_PX square."""
    from_plane = np.linalg.inv(to_plane)
    empty = np.zeros((0, 0), np.uint8)
    if not near:
        return _Cuts([], [], empty, None, empty, np.eye(3))
    want = sorted({(x + dx, y + dy) for x, y in near for dx in range(-grow, grow + 1)
                   for dy in range(-grow, grow + 1)})
    centres = np.array(want, np.float64)
    corners = (centres[:, None, :] + _UNIT[None]).reshape(1, -1, 2)
    # Corners behind the camera's horizon come out with a negative w: not on the table.
    w = (from_plane[2, :2] @ corners[0].T + from_plane[2, 2]).reshape(-1, 4)
    quads = cv2.perspectiveTransform(corners, from_plane)[0].reshape(-1, 4, 2)
    height, width = frame.shape[:2]
    inside = ((w > 0).all(axis=1) & (quads[..., 0] >= 0).all(axis=1)
              & (quads[..., 0] <= width - 1).all(axis=1) & (quads[..., 1] >= 0).all(axis=1)
              & (quads[..., 1] <= height - 1).all(axis=1))
    cells = [cell for cell, quad, ok in zip(want, quads, inside.tolist())
             if ok and cv2.contourArea(quad.astype(np.float32)) >= 400]
    if not cells:
        return _Cuts([], [], empty, None, empty, np.eye(3))
    x0, y0 = min(x for x, _ in cells), min(y for _, y in cells)
    x1, y1 = max(x for x, _ in cells), max(y for _, y in cells)

    def to_picture(side: int) -> np.ndarray:
        # The plane onto one picture: cell (x0, y0) at its top-left, ``side`` px a cell.
        return np.array([[side, 0, side * (0.5 - x0)], [0, side, side * (0.5 - y0)],
                         [0, 0, 1]]) @ to_plane

    def plane(img: np.ndarray, side: int) -> np.ndarray:
        return cv2.warpPerspective(img, to_picture(side),
                                   ((x1 - x0 + 1) * side, (y1 - y0 + 1) * side),
                                   flags=cv2.INTER_LINEAR)

    at = [((x - x0) * CELL_PX, (y - y0) * CELL_PX) for x, y in cells]
    if colour and frame.ndim == 3:
        return _Cuts(cells, at, None, plane(frame, COLOUR_PX), gray, to_picture(CELL_PX))
    return _Cuts(cells, at, plane(gray, CELL_PX), None, gray, to_picture(CELL_PX))


def _settle_turn(ref: _Reference, scores: np.ndarray, cut: np.ndarray,
                 exact: Callable[[int], np.ndarray | None] | None = None) -> tuple[int, bool]:
    """Which quarter turn of the reference the tile in the cell is, and whether that is known.

    The whole picture decides when it clearly prefers one turn. Turns it cannot tell apart
    (symmetric art, or nearly) are told apart by the doors: if the catalog's door layout is
    the same at those turns no picture can tell them and the turn is unknown; otherwise the
    edge bands (where the doors are) are compared at each, and a close call is unknown too.
    """
    k = int(np.argmax(scores))
    candidates = [k] + [t for t in range(4) if t != k and (
        (t - k) % 4 in ref.art_turns or scores[t] > scores[k] - TURN_MARGIN)]
    if len(candidates) == 1:
        return k, True
    if ref.door_turns is not None and any((t - k) % 4 in ref.door_turns for t in candidates[1:]):
        return k, False
    sharp = exact(k) if exact is not None else None
    bands = _edge_bands(_gray(cut) if sharp is None else sharp)
    # Side i of the tile in the cell is side (i - t) of the reference turned t times.
    cost = {t: float(np.mean([np.abs(bands[i] - ref.bands[(i - t) % 4]).mean()
                              for i in range(4)])) for t in candidates}
    ranked = sorted(candidates, key=cost.__getitem__)
    best, runner = cost[ranked[0]], cost[ranked[1]]
    return ranked[0], runner - best > DOOR_MARGIN * max(runner, 1e-6)


def _edge_bands(gray: np.ndarray) -> list[np.ndarray]:
    """The tile's four edge bands (N, E, S, W), each turned to lie along the top, with the
    overall light taken out, so that bands of differently lit pictures compare."""
    img = cv2.resize(gray, (CELL_PX, CELL_PX), interpolation=cv2.INTER_AREA).astype(np.float32)
    img = (img - img.mean()) / (img.std() + 1e-6)
    depth, margin = CELL_PX // 7, CELL_PX // 8
    # Coarse cells: a door is a large mark, and the grid may be a pixel or two off.
    return [cv2.resize(np.ascontiguousarray(np.rot90(img, i)[1:depth, margin:-margin]), (12, 3),
                       interpolation=cv2.INTER_AREA) for i in range(4)]


def catalog_doors(path: Path | None = None) -> dict[str, tuple[str, ...]]:
    """Door sides per tile from the CHAINsomnia tile catalog ({} if it cannot be read: the
    rotation of a symmetric tile is then decided by its bands alone, or left unknown)."""
    path = path or CATALOG_FILE
    try:
        with open(path, "rb") as f:
            data = tomllib.load(f)
    except (OSError, tomllib.TOMLDecodeError):
        return {}
    out: dict[str, tuple[str, ...]] = {}
    for tile, entry in data.items():
        doors = entry.get("doors") if isinstance(entry, dict) else None
        if isinstance(doors, list) and all(d in SIDES for d in doors):
            out[tile] = tuple(doors)
    return out


def find_tile_outline(frame: np.ndarray) -> np.ndarray | None:
    """The largest four-cornered shape in the picture: a tile laid alone on the table, for
    enrolment. Returns its corners NW, NE, SE, SW as the camera sees them (top of the picture is
    taken as north), or None."""
    gray = frame if frame.ndim == 2 else cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    edges = cv2.Canny(cv2.GaussianBlur(gray, (5, 5), 0), 40, 120)
    edges = cv2.dilate(edges, np.ones((3, 3), np.uint8))
    contours, _ = cv2.findContours(edges, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    best = None
    for c in sorted(contours, key=cv2.contourArea, reverse=True)[:5]:
        approx = cv2.approxPolyDP(c, 0.03 * cv2.arcLength(c, True), True)
        if len(approx) == 4 and cv2.contourArea(approx) > 0.02 * gray.size:
            best = approx.reshape(4, 2).astype(np.float64)
            break
    if best is None and frame.ndim == 3:
        # Busy art breaks the edge outline: separate the tile from the table's colour instead.
        border = np.vstack([frame[0], frame[-1], frame[:, 0], frame[:, -1]]).astype(np.float32)
        table = np.median(border, axis=0)
        mask = (np.abs(frame.astype(np.float32) - table).max(axis=2) > 40).astype(np.uint8)
        mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((9, 9), np.uint8))
        contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        if contours:
            c = max(contours, key=cv2.contourArea)
            if cv2.contourArea(c) > 0.02 * gray.size:
                best = cv2.boxPoints(cv2.minAreaRect(c)).astype(np.float64)
    if best is None:
        return None
    # Order NW, NE, SE, SW by position in the picture.
    s, d = best.sum(axis=1), best[:, 0] - best[:, 1]
    return np.array([best[np.argmin(s)], best[np.argmax(d)], best[np.argmax(s)],
                     best[np.argmin(d)]])


def enroll_tile(frame: np.ndarray, tile: str, folder: str | Path) -> Path:
    """Saves the top-down picture of the one tile in the frame as the tile's reference."""
    corners = find_tile_outline(frame)
    if corners is None:
        raise TileError(f"{tile}: no tile outline found; lay the tile alone on a plain table")
    square = np.array([[0, 0], [REF_SIDE, 0], [REF_SIDE, REF_SIDE], [0, REF_SIDE]], np.float64)
    h = cv2.getPerspectiveTransform(corners.astype(np.float32), square.astype(np.float32))
    top_down = cv2.warpPerspective(frame, h, (REF_SIDE, REF_SIDE))
    ReferenceSet().add(tile, top_down)  # refuses a picture without enough detail
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{tile}.png"
    cv2.imwrite(str(path), top_down)
    return path
