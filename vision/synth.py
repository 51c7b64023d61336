"""Synthetic table pictures for tests and benchmarks: dice after a roll, and a castle of room tiles.

Everything is drawn from a seed (``numpy.random.default_rng``), so the same seed gives the same
picture and its ground truth on every machine. Dice come in three styles (white with dark pips,
coloured, dark with light pips) on wood, felt or cloth, seen through a tilted camera (a
homography), with a light gradient, shadows, blur, sensor noise and JPEG artefacts. Room tiles
get generated art, doors and an ArUco sticker, and are laid out as a castle around the
CHAINsomnia start tile.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from vision.dice import LAYOUTS

DICE_CONDITIONS = ("clean", "oblique", "light", "clutter", "touching", "many", "rough")
DICE_STYLES = ("white", "coloured", "dark")


@dataclass(frozen=True)
class DiceScene:
    """A rendered roll: the BGR image, the values (ascending) and one box per die."""

    image: np.ndarray
    values: list[int]
    boxes: list[tuple[int, int, int, int]]
    condition: str
    style: str


def _table(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    """A textured table top: wood grain, felt or woven cloth, in a random colour."""
    kind = rng.integers(3)
    base = rng.uniform(40, 200, 3)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    if kind == 0:  # wood: wavy grain
        freq = rng.uniform(0.02, 0.06)
        warp = 12 * np.sin(xx * rng.uniform(0.003, 0.01) + rng.uniform(0, 6))
        grain = 0.5 + 0.5 * np.sin((yy + warp) * freq + 3 * np.sin(xx * 0.002))
        tex = grain[..., None] * rng.uniform(8, 25)
    elif kind == 1:  # felt: soft blotches
        noise = rng.normal(0, 1, (h // 16 + 1, w // 16 + 1)).astype(np.float32)
        tex = cv2.resize(noise, (w, h), interpolation=cv2.INTER_CUBIC)[..., None] * 8
    else:  # cloth: a fine weave
        period = rng.uniform(3, 7)
        tex = (np.sin(xx / period) * np.sin(yy / period))[..., None] * 10
    fine = rng.normal(0, 3, (h, w, 1)).astype(np.float32)
    return np.clip(base + tex + fine, 0, 255).astype(np.float32)


def _die_colours(rng: np.random.Generator, style: str) -> tuple[np.ndarray, np.ndarray]:
    if style == "white":
        face = rng.uniform(215, 250, 3) - np.array([rng.uniform(0, 20), 0, 0])
        pip = rng.uniform(10, 50, 3)
        if rng.random() < 0.15:
            pip = np.array([30.0, 30.0, 190.0])  # red pips on a white die
    elif style == "coloured":
        hue = rng.integers(0, 180)
        hsv = np.uint8([[[hue, rng.integers(150, 255), rng.integers(140, 230)]]])
        face = cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)[0, 0].astype(np.float32)
        light_pips = rng.random() < 0.6
        pip = rng.uniform(225, 250, 3) if light_pips else rng.uniform(10, 40, 3)
    else:  # dark
        face = rng.uniform(15, 55, 3)
        pip = rng.uniform(215, 250, 3)
        if rng.random() < 0.2:
            pip = np.array([40.0, 200.0, 230.0])  # gold pips
    return face.astype(np.float32), pip.astype(np.float32)


def _rounded_square(side: float, radius: float) -> np.ndarray:
    """Outline points of a square (centred at 0) with rounded corners."""
    pts = []
    h = side / 2 - radius
    for cx, cy, a0 in ((h, h, 0), (-h, h, 90), (-h, -h, 180), (h, -h, 270)):
        for a in np.linspace(a0, a0 + 90, 6):
            pts.append((cx + radius * math.cos(math.radians(a)),
                        cy + radius * math.sin(math.radians(a))))
    return np.array(pts, np.float32)


def _draw_die(canvas: np.ndarray, rng: np.random.Generator, centre: np.ndarray,
              side: float, angle: float, value: int, face: np.ndarray, pip: np.ndarray,
              lean: np.ndarray) -> np.ndarray:
    """Draws one die seen from above on the table plane; returns its top face corners.

    ``lean`` shifts the top face against the body, as a tilted camera sees a cube: the body
    between them shows a side face (with squashed pips of its own).
    """
    rot = np.array([[math.cos(angle), -math.sin(angle)], [math.sin(angle), math.cos(angle)]])
    outline = _rounded_square(side, side * 0.12) @ rot.T
    base = outline + centre
    top = outline + centre + lean
    body = cv2.convexHull(np.vstack([base, top]).astype(np.float32)).astype(np.int32)
    cv2.fillPoly(canvas, [body], (face * 0.78).tolist(), cv2.LINE_AA)
    if np.linalg.norm(lean) > side * 0.15:
        # A few squashed pips on the visible side face.
        direction = -lean / np.linalg.norm(lean)
        mid = centre + lean * 0.5 + direction * side * 0.5
        side_value = int(rng.integers(1, 7))
        across = np.array([-direction[1], direction[0]])
        for px, py in LAYOUTS[side_value][:3]:
            p = mid + across * px * side * 0.26 + direction * py * np.linalg.norm(lean) * 0.2
            axes = (max(1, int(side * 0.08)), max(1, int(side * 0.08 * np.linalg.norm(lean) / side)))
            ang = math.degrees(math.atan2(across[1], across[0]))
            cv2.ellipse(canvas, (int(p[0]), int(p[1])), axes, ang, 0, 360,
                        (pip * 0.85 + face * 0.15).tolist(), -1, cv2.LINE_AA)
    cv2.fillPoly(canvas, [top.astype(np.int32)], face.tolist(), cv2.LINE_AA)
    spread = side * rng.uniform(0.24, 0.3)
    r = side * rng.uniform(0.075, 0.1) * (1.35 if value == 1 and rng.random() < 0.3 else 1.0)
    for px, py in LAYOUTS[value]:
        p = centre + lean + rot @ np.array([px * spread, py * spread])
        cv2.circle(canvas, (int(round(p[0] * 4)), int(round(p[1] * 4))), int(r * 4),
                   pip.tolist(), -1, cv2.LINE_AA, shift=2)
    corners = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], np.float32) * side / 2
    return corners @ rot.T + centre + lean


def render_dice(seed: int, condition: str = "clean", style: str | None = None,
                count: int | None = None, size: tuple[int, int] = (640, 480)) -> DiceScene:
    """Renders one roll. ``condition`` is one of DICE_CONDITIONS; style and count are drawn
    from the seed unless given."""
    if condition not in DICE_CONDITIONS:
        raise ValueError(f"unknown condition {condition!r} (known: {', '.join(DICE_CONDITIONS)})")
    rng = np.random.default_rng([seed, DICE_CONDITIONS.index(condition)])
    style = style or str(rng.choice(DICE_STYLES))
    w, h = size
    n = count or int(rng.integers(6, 9) if condition == "many" else rng.integers(1, 7))
    # Draw on a plane larger than the frame, then look at it through the camera.
    pw, ph = w * 2, h * 2
    canvas = _table(rng, ph, pw)
    tilt = rng.uniform(0, 30) if condition in ("oblique", "rough", "clutter") else rng.uniform(0, 8)
    side = rng.uniform(0.07, 0.11) * min(w, h) * 1.2
    face, pip = _die_colours(rng, style)
    if condition == "clutter":
        _clutter(canvas, rng)
    values = [int(v) for v in rng.integers(1, 7, n)]
    centres: list[np.ndarray] = []
    gap = 1.02 if condition == "touching" else 1.6
    lean_dir = rng.uniform(0, 2 * math.pi)
    lean = np.array([math.cos(lean_dir), math.sin(lean_dir)]) * side * math.sin(math.radians(tilt))
    tops = []
    for value in values:
        for _ in range(400):
            if condition == "touching" and centres:
                anchor = centres[int(rng.integers(len(centres)))]
                a = rng.uniform(0, 2 * math.pi)
                c = anchor + np.array([math.cos(a), math.sin(a)]) * side * rng.uniform(1.15, 1.35)
            else:
                c = np.array([rng.uniform(pw * 0.34, pw * 0.66), rng.uniform(ph * 0.34, ph * 0.66)])
            if all(np.linalg.norm(c - o) > side * 1.45 * gap / 1.02 * (0.85 if condition == "touching" else 1)
                   for o in centres):
                break
        centres.append(c)
    angles = rng.uniform(0, math.pi / 2, n)
    # Shadows first (on the table, away from the light), then the dice over them.
    shade = np.ones((ph, pw), np.float32)
    for c, a in zip(centres, angles):
        rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
        shadow = _rounded_square(side * 1.05, side * 0.15) @ rot.T + c + side * np.array([0.18, 0.22])
        cv2.fillPoly(shade, [shadow.astype(np.int32)], 0.55, cv2.LINE_AA)
    shade = cv2.GaussianBlur(shade, (0, 0), side * 0.06)
    canvas *= shade[..., None]
    for c, a, value in zip(centres, angles, values):
        tops.append(_draw_die(canvas, rng, c, side, float(a), value, face, pip, lean))
    lit = canvas
    # The camera: a homography that tilts the plane by up to `tilt` degrees, then crops.
    hmat = _camera(rng, pw, ph, w, h, tilt)
    frame = cv2.warpPerspective(lit, hmat, (w, h), flags=cv2.INTER_LINEAR,
                                borderMode=cv2.BORDER_REFLECT)
    frame = _light_and_lens(rng, frame, condition)
    boxes = []
    for top in tops:
        pts = cv2.perspectiveTransform(top[None].astype(np.float64), hmat)[0]
        boxes.append((int(pts[:, 0].min()), int(pts[:, 1].min()),
                      int(math.ceil(pts[:, 0].max())), int(math.ceil(pts[:, 1].max()))))
    order = sorted(range(n), key=lambda i: (values[i], boxes[i][0]))
    return DiceScene(frame, [values[i] for i in order], [boxes[i] for i in order],
                     condition, style)


def _camera(rng: np.random.Generator, pw: int, ph: int, w: int, h: int,
            tilt: float) -> np.ndarray:
    """A homography from the table plane to the frame for a camera tilted by `tilt` degrees."""
    f = max(w, h) * 1.1
    t = math.radians(tilt)
    spin = rng.uniform(0, 2 * math.pi)
    k = np.array([[f, 0, w / 2], [0, f, h / 2], [0, 0, 1]])
    rz = np.array([[math.cos(spin), -math.sin(spin), 0], [math.sin(spin), math.cos(spin), 0],
                   [0, 0, 1]])
    rx = np.array([[1, 0, 0], [0, math.cos(t), -math.sin(t)], [0, math.sin(t), math.cos(t)]])
    # Plane point (x, y) -> 3D (x - cx, y - cy, 0) at distance f in front of the camera.
    centre = np.array([[1, 0, -pw / 2], [0, 1, -ph / 2], [0, 0, 1]])
    r = rx @ rz
    plane = np.column_stack([r[:, 0], r[:, 1], np.array([0, 0, f])])
    hmat = k @ plane @ centre
    # Scale so the dice area fills the frame like a real top-mounted camera.
    corners = np.array([[[pw * 0.3, ph * 0.3], [pw * 0.7, ph * 0.3], [pw * 0.7, ph * 0.7],
                         [pw * 0.3, ph * 0.7]]])
    seen = cv2.perspectiveTransform(corners, hmat)[0]
    span = max(np.ptp(seen[:, 0]) / w, np.ptp(seen[:, 1]) / h)
    fit = np.array([[1 / span * 0.95, 0, 0], [0, 1 / span * 0.95, 0], [0, 0, 1]])
    hmat = fit @ hmat
    seen = cv2.perspectiveTransform(corners, hmat)[0]
    shift = np.array([[1, 0, w / 2 - seen[:, 0].mean()], [0, 1, h / 2 - seen[:, 1].mean()],
                      [0, 0, 1]])
    return shift @ hmat


def _clutter(canvas: np.ndarray, rng: np.random.Generator) -> None:
    """Things lying near the tray: cables, coins, cards with text, a pencil."""
    ph, pw = canvas.shape[:2]
    for _ in range(int(rng.integers(4, 9))):
        kind = rng.integers(4)
        colour = rng.uniform(0, 255, 3).tolist()
        # Keep the middle (the tray) free so clutter surrounds the dice.
        x = int(pw * (0.22 + 0.06 * rng.random()) if rng.random() < 0.5 else pw * (0.7 + 0.08 * rng.random()))
        y = int(rng.uniform(ph * 0.25, ph * 0.75))
        if kind == 0:
            pts = np.cumsum(rng.normal(0, 25, (12, 2)), axis=0) + [x, y]
            cv2.polylines(canvas, [pts.astype(np.int32)], False, colour, int(rng.integers(3, 9)),
                          cv2.LINE_AA)
        elif kind == 1:
            cv2.circle(canvas, (x, y), int(rng.uniform(12, 30)), colour, -1, cv2.LINE_AA)
        elif kind == 2:
            card = np.zeros((60, 90, 3), np.uint8)
            card[:] = colour
            cv2.putText(card, "Event 7", (5, 35), cv2.FONT_HERSHEY_SIMPLEX, 0.6,
                        (0, 0, 0) if sum(colour) > 380 else (255, 255, 255), 1, cv2.LINE_AA)
            region = canvas[y : y + 60, x : x + 90]
            region[:] = card[: region.shape[0], : region.shape[1]]
        else:
            cv2.line(canvas, (x, y), (x + int(rng.uniform(-120, 120)), y + int(rng.uniform(-60, 60))),
                     colour, 6, cv2.LINE_AA)


def _light_and_lens(rng: np.random.Generator, frame: np.ndarray, condition: str) -> np.ndarray:
    h, w = frame.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    strength = 0.55 if condition in ("light", "rough") else 0.2
    a = rng.uniform(0, 2 * math.pi)
    ramp = ((xx - w / 2) * math.cos(a) + (yy - h / 2) * math.sin(a)) / max(w, h)
    frame = frame * (1 + strength * ramp)[..., None] * rng.uniform(0.75, 1.1)
    if condition in ("light", "rough"):
        # A soft shadow band across the table, as from an arm or a lamp's edge.
        band = np.clip(np.abs((xx * math.sin(a) - yy * math.cos(a)) - rng.uniform(-w / 3, w / 3))
                       / (w * 0.15), 0, 1)
        frame = frame * (0.6 + 0.4 * band)[..., None]
    blur = rng.uniform(0.3, 1.3 if condition == "rough" else 0.8)
    frame = cv2.GaussianBlur(frame, (0, 0), blur)
    noise = 6.0 if condition == "rough" else 2.5
    frame = np.clip(frame + rng.normal(0, noise, frame.shape), 0, 255).astype(np.uint8)
    quality = int(rng.integers(45, 75) if condition == "rough" else rng.integers(75, 95))
    ok, data = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, quality])
    return cv2.imdecode(data, cv2.IMREAD_COLOR) if ok else frame


# --- room tiles ------------------------------------------------------------------------------

SIDES = ("north", "east", "south", "west")


@dataclass(frozen=True)
class PlacedTile:
    tile: str
    cell: tuple[int, int]
    rotation: int  # clockwise degrees relative to the start tile


@dataclass(frozen=True)
class CastleScene:
    image: np.ndarray
    tiles: list[PlacedTile]


def tile_art(tile: str, doors: tuple[str, ...], side: int = 240, marker_id: int | None = None,
             sticker_fraction: float = 0.4, symmetric: bool = False) -> np.ndarray:
    """A room tile laid north-up: generated art (from the tile id), doors, and a sticker.

    ``symmetric`` draws art that looks the same at every quarter turn, so that only the doors
    (or the sticker) can tell the rotation.
    """
    seed = sum((i + 1) * ord(ch) for i, ch in enumerate(tile))
    rng = np.random.default_rng(seed)
    img = np.zeros((side, side, 3), np.uint8)
    img[:] = rng.uniform(60, 200, 3)
    c = side // 2
    if symmetric:
        for k in range(6, 0, -1):
            colour = rng.uniform(0, 255, 3).tolist()
            cv2.circle(img, (c, c), int(side * 0.07 * k), colour, -1, cv2.LINE_AA)
        for dx, dy in ((1, 1), (1, -1), (-1, 1), (-1, -1)):
            cv2.circle(img, (c + dx * side // 3, c + dy * side // 3), side // 12, (30, 30, 30), -1)
    else:
        for _ in range(14):
            colour = rng.uniform(0, 255, 3).tolist()
            x, y = (int(v) for v in rng.uniform(side * 0.1, side * 0.9, 2))
            kind = rng.integers(3)
            if kind == 0:
                cv2.circle(img, (x, y), int(rng.uniform(6, side * 0.14)), colour, -1, cv2.LINE_AA)
            elif kind == 1:
                w, h = (int(v) for v in rng.uniform(8, side * 0.25, 2))
                cv2.rectangle(img, (x, y), (x + w, y + h), colour, -1)
            else:
                x2, y2 = (int(v) for v in rng.uniform(0, side, 2))
                cv2.line(img, (x, y), (x2, y2), colour, int(rng.uniform(2, 8)), cv2.LINE_AA)
        cv2.putText(img, tile.replace("_", " ")[:12], (8, side - 12), cv2.FONT_HERSHEY_SIMPLEX,
                    side / 400, (255, 255, 255), 2, cv2.LINE_AA)
    # Walls all round, a door (a dark opening with a frame) where the tile has one.
    cv2.rectangle(img, (0, 0), (side - 1, side - 1), (70, 70, 90), max(2, side // 30))
    dw, dd = side // 4, side // 9
    for door in doors:
        box = {"north": (c - dw // 2, 0, c + dw // 2, dd), "south": (c - dw // 2, side - dd,
               c + dw // 2, side), "west": (0, c - dw // 2, dd, c + dw // 2),
               "east": (side - dd, c - dw // 2, side, c + dw // 2)}[door]
        cv2.rectangle(img, box[:2], box[2:], (20, 40, 80), -1)
        cv2.rectangle(img, box[:2], box[2:], (40, 160, 220), 2)
    if marker_id is not None:
        s = int(side * sticker_fraction)
        quiet = max(2, s // 6)
        dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
        marker = cv2.aruco.generateImageMarker(dictionary, marker_id, s)
        x0 = c - s // 2
        img[x0 - quiet : x0 + s + quiet, x0 - quiet : x0 + s + quiet] = 255
        img[x0 : x0 + s, x0 : x0 + s] = marker[..., None]
    return img


def render_castle(seed: int, count: int = 20, stickers: bool = True,
                  size: tuple[int, int] = (1280, 720), catalog: dict[str, tuple[str, ...]] | None
                  = None, marker_ids: dict[str, int] | None = None,
                  symmetric: frozenset[str] = frozenset()) -> CastleScene:
    """Renders a castle of ``count`` tiles around the start tile, seen at an angle.

    ``catalog`` maps tile ids to their doors (north-up); the first id is the start tile.
    """
    from vision.tiles import load_marker_map

    rng = np.random.default_rng([seed, 77])
    marker_map = load_marker_map()
    if marker_ids is None:
        marker_ids = {tile: mid for mid, tile in marker_map.tiles.items()}
    if catalog is None:
        catalog = {tile: tuple(SIDES[i] for i in range(4) if rng.random() < 0.6) or ("north",)
                   for tile in marker_ids}
        catalog["chainsomnia"] = SIDES
    names = list(catalog)
    start, others = names[0], names[1:]
    chosen = [start] + [str(t) for t in rng.permutation(others)[: count - 1]]
    cells = [(0, 0)]
    while len(cells) < len(chosen):
        base = cells[int(rng.integers(len(cells)))]
        step = [(0, -1), (1, 0), (0, 1), (-1, 0)][int(rng.integers(4))]
        cell = (base[0] + step[0], base[1] + step[1])
        if cell not in cells and abs(cell[0]) <= 3 and abs(cell[1]) <= 3:
            cells.append(cell)
    tile_px = 160
    xs = [c[0] for c in cells]
    ys = [c[1] for c in cells]
    pw = (max(xs) - min(xs) + 2) * tile_px
    ph = (max(ys) - min(ys) + 2) * tile_px
    canvas = _table(rng, ph, pw).astype(np.uint8)
    placed = []
    for tile, cell in zip(chosen, cells):
        rotation = 0 if tile == start else int(rng.integers(4)) * 90
        art = tile_art(tile, catalog[tile], tile_px - 4,
                       marker_ids.get(tile) if stickers else None,
                       marker_map.sticker_fraction, tile in symmetric)
        art = np.ascontiguousarray(np.rot90(art, -rotation // 90))
        x = int((cell[0] - min(xs) + 0.5) * tile_px) + 2
        y = int((cell[1] - min(ys) + 0.5) * tile_px) + 2
        canvas[y : y + art.shape[0], x : x + art.shape[1]] = art
        placed.append(PlacedTile(tile, cell, rotation))
    w, h = size
    tilt = rng.uniform(10, 30)
    hmat = _camera_on(rng, pw, ph, w, h, tilt)
    frame = cv2.warpPerspective(canvas.astype(np.float32), hmat, (w, h),
                                borderMode=cv2.BORDER_REPLICATE)
    frame = _light_and_lens(rng, frame, "clean")
    return CastleScene(frame, placed)


def _camera_on(rng: np.random.Generator, pw: int, ph: int, w: int, h: int,
               tilt: float) -> np.ndarray:
    """A tilted, turned camera that keeps the whole plane in the frame."""
    f = max(w, h) * 1.1
    t = math.radians(tilt)
    spin = rng.uniform(-0.6, 0.6)
    k = np.array([[f, 0, w / 2], [0, f, h / 2], [0, 0, 1]])
    rz = np.array([[math.cos(spin), -math.sin(spin), 0], [math.sin(spin), math.cos(spin), 0],
                   [0, 0, 1]])
    rx = np.array([[1, 0, 0], [0, math.cos(t), -math.sin(t)], [0, math.sin(t), math.cos(t)]])
    centre = np.array([[1, 0, -pw / 2], [0, 1, -ph / 2], [0, 0, 1]])
    r = rx @ rz
    hmat = k @ np.column_stack([r[:, 0], r[:, 1], np.array([0, 0, f])]) @ centre
    corners = np.array([[[0, 0], [pw, 0], [pw, ph], [0, ph]]], np.float64)
    seen = cv2.perspectiveTransform(corners, hmat)[0]
    span = max(np.ptp(seen[:, 0]) / w, np.ptp(seen[:, 1]) / h)
    hmat = np.diag([0.98 / span, 0.98 / span, 1]) @ hmat
    seen = cv2.perspectiveTransform(corners, hmat)[0]
    shift = np.array([[1, 0, w / 2 - (seen[:, 0].min() + seen[:, 0].max()) / 2],
                      [0, 1, h / 2 - (seen[:, 1].min() + seen[:, 1].max()) / 2], [0, 0, 1]])
    return shift @ hmat
