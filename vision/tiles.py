"""Reading the castle: which CHAINsomnia room tile lies in which cell, turned which way.

Two ways to know a tile:

- a printed ArUco sticker in the middle of the tile (``vision/markers.toml`` maps sticker ids to
  tile ids); the sticker's corners give the tile's rotation and position directly;
- enrolled appearance, for tiles without stickers: a top-down reference picture of each tile
  (``companion vision enroll``), found in the frame by ORB features and a homography. The rotation
  is then settled by comparing the whole tile, doors included, with the reference at each quarter
  turn; when two quarter turns look alike (symmetric art and doors) the rotation is reported as
  unknown (None) rather than guessed.

Cells and rotations are relative to the CHAINsomnia start tile: its cell is (0, 0), x grows to
its east and y to its south, and rotation is the clockwise quarter-turn (0, 90, 180, 270 degrees)
of a tile's north relative to the start tile's north. Without the start tile in view, cells and
rotations are None.
"""

from __future__ import annotations

import math
import time
import tomllib
from collections.abc import Mapping, Sequence
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
    if frame is None or frame.ndim not in (2, 3):
        raise ValueError("read_tiles needs an image (height x width [x 3])")
    marker_map = marker_map or _shipped_map()
    gray = frame if frame.ndim == 2 else cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    seen = _stickers(gray, marker_map)
    if refs is not None and refs.tiles:
        have = {s.tile for s in seen}
        seen += [s for s in refs.find(gray) if s.tile not in have]
    sightings = _place(seen, marker_map)
    return TileReading(tuple(sightings), (time.perf_counter() - start) * 1000)


def _stickers(gray: np.ndarray, marker_map: MarkerMap) -> list[_Seen]:
    key = _map_key(marker_map)
    if key not in _DETECTORS:
        _DETECTORS[key] = _detector(marker_map)
    detector, sticker_ids = _DETECTORS[key]
    corners, found, _ = detector.detectMarkers(gray)
    out: list[_Seen] = []
    if found is None:
        return out
    for quad, index in zip(corners, found.ravel()):
        tile = marker_map.tiles[sticker_ids[int(index)]]
        q = quad.reshape(4, 2).astype(np.float64)  # TL, TR, BR, BL of the upright sticker
        centre = q.mean(axis=0)
        up = (q[0] + q[1]) / 2 - centre
        # The tile's corners: the sticker's, scaled out from the centre (an affine guess,
        # good enough to draw; cells come from the homography below).
        tile_corners = centre + (q - centre) / marker_map.sticker_fraction
        side = float(np.linalg.norm(q[1] - q[0]) + np.linalg.norm(q[2] - q[1])) / 2
        out.append(_Seen(tile, centre, up, q, tile_corners, min(1.0, side / 12), "sticker"))
    return out


def _map_key(marker_map: MarkerMap) -> tuple[object, ...]:
    return (marker_map.dictionary, marker_map.sticker_fraction, tuple(sorted(marker_map.tiles)))


# Clockwise on screen (y grows south), for each quarter turn.
_TURNS = np.array([[[math.cos(math.radians(90 * q)), -math.sin(math.radians(90 * q))],
                    [math.sin(math.radians(90 * q)), math.cos(math.radians(90 * q))]]
                   for q in range(4)])


def _plane_points(seen: list[_Seen], cells: np.ndarray, quarters: np.ndarray,
                  fraction: float) -> np.ndarray:
    """Where the seen corners lie on the castle plane (tile side = 1, start tile at 0, 0):
    one 4x2 block per sighting, all at once (a castle has 20 of them, three times a frame)."""
    half = np.array([fraction / 2 if s.source == "sticker" else 0.5 for s in seen])
    local = half[:, None, None] * np.array([[-1.0, -1.0], [1.0, -1.0], [1.0, 1.0], [-1.0, 1.0]])
    return np.einsum("nkj,nij->nki", local, _TURNS[quarters]) + cells[:, None, :]


def _poses(h: np.ndarray, seen: list[_Seen]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Cells (N x 2), quarter turns and how far off the grid each tile lies, under plane
    homography h."""
    pts = np.array([[p for s in seen for p in (s.centre, s.centre + s.up)]])
    pts = cv2.perspectiveTransform(pts, h)[0].reshape(-1, 2, 2)
    centre, up = pts[:, 0], pts[:, 1] - pts[:, 0]
    cells = np.rint(centre).astype(int)
    angle = np.degrees(np.arctan2(up[:, 0], -up[:, 1])) % 360
    quarters = np.rint(angle / 90).astype(int) % 4
    off = np.hypot(centre[:, 0] - cells[:, 0], centre[:, 1] - cells[:, 1])
    off_angle = np.abs((angle - quarters * 90 + 180) % 360 - 180)
    return cells, quarters, off + off_angle / 90


def _place(seen: list[_Seen], marker_map: MarkerMap) -> list[TileSighting]:
    anchor = next((s for s in seen if s.tile == START_TILE), None)
    out: list[TileSighting] = []
    if anchor is None:
        for s in seen:
            out.append(TileSighting(s.tile, None, None, s.confidence * 0.5, _corners(s), s.source))
        return out
    fraction = marker_map.sticker_fraction
    origin = _plane_points([anchor], np.zeros((1, 2), int), np.zeros(1, int), fraction)[0]
    h, _ = cv2.findHomography(anchor.corners, origin)
    # Refine: every tile placed on the grid adds its corners to one homography for the whole
    # castle, which keeps far tiles right under perspective.
    placeable = [s for s in seen if s.source != "appearance" or s.rotation_known]
    src = np.vstack([s.corners for s in placeable]) if placeable else None
    for _ in range(2):
        if len(placeable) < 2:
            break
        cells, quarters, _ = _poses(h, placeable)
        dst = _plane_points(placeable, cells, quarters, fraction).reshape(-1, 2)
        h2, _ = cv2.findHomography(src, dst, cv2.RANSAC, 0.08)
        if h2 is None:
            break
        h = h2
    cells, quarters, offs = _poses(h, seen)
    for s, (cx, cy), quarter, off in zip(seen, cells.tolist(), quarters.tolist(), offs.tolist()):
        cell = (cx, cy)
        confidence = s.confidence * max(0.0, 1.0 - max(0.0, off - 0.15) * 1.5)
        rotation = quarter * 90 if s.rotation_known else None
        if s.tile == START_TILE:
            cell, rotation = (0, 0), 0
        out.append(TileSighting(s.tile, cell, rotation, round(confidence, 3), _corners(s),
                                s.source))
    out.sort(key=lambda t: (t.cell is None, t.cell or (0, 0), t.tile))
    return out


def _corners(s: _Seen) -> tuple[tuple[float, float], ...]:
    pts = s.tile_corners if s.tile_corners is not None else s.corners
    return tuple((round(float(x), 1), round(float(y), 1)) for x, y in pts)


# --- enrolled appearance -------------------------------------------------------------------


@dataclass
class _Reference:
    tile: str
    image: np.ndarray  # REF_SIDE square, grayscale, north up
    keypoints: np.ndarray  # N x 2
    descriptors: np.ndarray
    small: list[np.ndarray]  # the reference at 0, 90, 180, 270 degrees, small, normalised
    bands: list[np.ndarray]  # its edge bands N, E, S, W, each turned to lie along the top
    art_turns: frozenset[int]  # quarter turns under which the picture looks the same
    door_turns: frozenset[int] | None  # quarter turns that keep the catalog's doors; None: unknown


def _normalised(img: np.ndarray) -> np.ndarray:
    small = cv2.resize(img, (48, 48), interpolation=cv2.INTER_AREA).astype(np.float32)
    small -= small.mean()
    return small / (float(np.linalg.norm(small)) + 1e-6)


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
        self._orb = cv2.ORB_create(nfeatures=400, fastThreshold=12)
        self._frame_orb = cv2.ORB_create(nfeatures=3000, fastThreshold=12)
        self._index: cv2.BFMatcher | None = None
        if self.folder is not None:
            if not self.folder.is_dir():
                raise TileError(f"{self.folder}: no such folder of enrolled tiles")
            for path in sorted(self.folder.glob("*.png")):
                img = cv2.imread(str(path), cv2.IMREAD_GRAYSCALE)
                if img is None:
                    raise TileError(f"{path}: not a readable image")
                self.add(path.stem, img)

    def add(self, tile: str, image: np.ndarray) -> None:
        gray = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
        gray = cv2.resize(gray, (REF_SIDE, REF_SIDE), interpolation=cv2.INTER_AREA)
        kps, desc = self._orb.detectAndCompute(gray, None)
        if desc is None or len(kps) < 15:
            raise TileError(f"{tile}: the picture has too little detail to recognise the tile")
        small = [_normalised(np.rot90(gray, -k)) for k in range(4)]
        pts = np.array([k.pt for k in kps], np.float32)
        art_turns = frozenset(k for k in range(1, 4)
                              if float((small[0] * small[k]).sum()) >= ART_ALIKE)
        doors = self.doors.get(tile)
        door_turns = None if doors is None else frozenset(
            k for k in range(1, 4) if {(SIDES.index(d) + k) % 4 for d in doors}
            == {SIDES.index(d) for d in doors})
        self.tiles = [t for t in self.tiles if t.tile != tile]
        self.tiles.append(_Reference(tile, gray, pts, desc, small, _edge_bands(gray),
                                     art_turns, door_turns))
        self._index = None

    def find(self, gray: np.ndarray) -> list[_Seen]:
        kps, desc = self._frame_orb.detectAndCompute(gray, None)
        if desc is None or len(kps) < 10:
            return []
        frame_pts = np.array([k.pt for k in kps], np.float32)
        if self._index is None:
            # One matcher over every reference at once: each frame feature finds its two
            # nearest reference features, and the ratio test keeps the distinctive ones.
            self._index = cv2.BFMatcher(cv2.NORM_HAMMING)
            self._index.add([t.descriptors for t in self.tiles])
        pairs = self._index.knnMatch(desc, k=2)
        by_tile: dict[int, list[tuple[int, int]]] = {}
        for m in pairs:
            if len(m) == 2 and m[0].distance < 0.8 * m[1].distance:
                by_tile.setdefault(m[0].imgIdx, []).append((m[0].trainIdx, m[0].queryIdx))
        found: list[_Seen] = []
        for k, good in by_tile.items():
            if len(good) < 10:
                continue
            ref = self.tiles[k]
            src = ref.keypoints[[g[0] for g in good]]
            dst = frame_pts[[g[1] for g in good]]
            h, mask = cv2.findHomography(src, dst, cv2.RANSAC, 5.0)
            if h is None or int(mask.sum()) < 8:
                continue
            seen = self._settle_rotation(ref, gray, h, int(mask.sum()))
            if seen is not None:
                found.append(seen)
        return found

    def _settle_rotation(self, ref: _Reference, gray: np.ndarray, h: np.ndarray,
                         inliers: int) -> _Seen | None:
        """Which quarter turn of the reference the tile in the frame really is.

        Features on symmetric art can lock on at the wrong quarter turn; the whole tile (its
        doors above all) compared at each turn decides, and a tie is left undecided.
        """
        s = REF_SIDE
        square = np.array([[0, 0], [s, 0], [s, s], [0, s]], np.float64)
        quad = cv2.perspectiveTransform(square[None], h)[0]
        if not cv2.isContourConvex(quad.astype(np.float32)) or cv2.contourArea(
                quad.astype(np.float32)) < 400:
            return None
        back = cv2.warpPerspective(gray, np.linalg.inv(h), (s, s))
        seen = _normalised(back)
        scores = [float((seen * ref.small[k]).sum()) for k in range(4)]
        order = np.argsort(scores)[::-1]
        best, second = scores[order[0]], scores[order[1]]
        if best < 0.3:
            return None
        k = int(order[0])  # the tile in the frame is the reference turned k quarters clockwise
        known = best - second > 0.04 and best > 0.6
        if ref.art_turns:
            k, known = _turn_by_doors(ref, gray, h, k)
        # Reference corner i (NW, NE, SE, SW) lies, after k turns, at frame quad index (i + k) % 4.
        corners = np.array([quad[(i + k) % 4] for i in range(4)])
        centre = corners.mean(axis=0)
        up = (corners[0] + corners[1]) / 2 - centre
        confidence = min(1.0, inliers / 40) * (1.0 if known else 0.5) * min(1.0, best + 0.2)
        return _Seen(ref.tile, centre, up, corners, corners, confidence, "appearance", known)


def _turn_by_doors(ref: _Reference, gray: np.ndarray, h: np.ndarray, k: int) -> tuple[int, bool]:
    """The quarter turn of a tile whose art looks the same at other turns, from its doors.

    ``k`` is the turn the whole picture liked best; the art cannot tell it from k + d for each
    d in ``ref.art_turns``. Among those, the doors decide: if the catalog's door layout is the
    same at any of those turns, no picture can tell them apart and the turn is unknown;
    otherwise the edge bands (where the doors are) are compared at each candidate turn, and
    a close call is unknown too.
    """
    candidates = [k] + [(k + d) % 4 for d in sorted(ref.art_turns)]
    if ref.door_turns is not None and ref.art_turns & ref.door_turns:
        return k, False
    bands = _edge_bands(_aligned(gray, ref.image, h))
    # Side i of the tile in the frame is side (i - t) of the reference turned t times.
    cost = {t: float(np.mean([np.abs(bands[i] - ref.bands[(i - t) % 4]).mean()
                              for i in range(4)])) for t in candidates}
    ranked = sorted(candidates, key=cost.__getitem__)
    best, runner = cost[ranked[0]], cost[ranked[1]]
    return ranked[0], runner - best > DOOR_MARGIN * max(runner, 1e-6)


def _aligned(gray: np.ndarray, template: np.ndarray, h: np.ndarray) -> np.ndarray:
    """The tile in the frame brought onto its reference picture, pixel for pixel.

    Features on symmetric art match several places alike, so the homography ``h`` (reference
    to frame) they give can be a few degrees off; an intensity alignment (ECC) of the reference
    against the frame settles it before the edges are compared.
    """
    side = template.shape[0]
    warp = (h / h[2, 2]).astype(np.float32)
    criteria = (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, 50, 1e-5)
    try:
        _, warp = cv2.findTransformECC(template.astype(np.float32), gray.astype(np.float32),
                                       warp, cv2.MOTION_HOMOGRAPHY, criteria, None, 5)
    except cv2.error:
        pass  # no convergence: compare as found
    return cv2.warpPerspective(gray, warp, (side, side),
                               flags=cv2.INTER_LINEAR + cv2.WARP_INVERSE_MAP)


def _edge_bands(gray: np.ndarray) -> list[np.ndarray]:
    """The tile's four edge bands (N, E, S, W), each turned to lie along the top, with the
    overall light taken out, so that bands of differently lit pictures compare."""
    img = cv2.resize(gray, (REF_SIDE, REF_SIDE), interpolation=cv2.INTER_AREA).astype(np.float32)
    img = (img - img.mean()) / (img.std() + 1e-6)
    depth, margin = REF_SIDE // 7, REF_SIDE // 8
    # Coarse cells: a door is a large mark, and the homography of a tile found by its features
    # is a few pixels off.
    return [cv2.resize(np.ascontiguousarray(np.rot90(img, i)[2:depth, margin:-margin]), (12, 3),
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
