"""Synthetic table pictures for tests and benchmarks: dice after a roll, and a castle of room tiles.

Everything is drawn from a seed (``numpy.random.default_rng``), so the same seed gives the same
picture and its ground truth on every machine. Dice come in three styles (white with dark pips,
coloured, dark with light pips): rounded cubes with all six faces (opposite faces summing to 7)
resting on wood, felt or cloth, seen by a pinhole camera from above or up to 40 degrees off
vertical, so that side faces show their own squashed pips; Lambert-shaded faces, recessed pips,
soft shadows, a light gradient, blur, sensor noise and JPEG artefacts. Room tiles
get generated art, doors and an ArUco sticker, and are laid out as a castle around the
CHAINsomnia start tile.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from statistics import NormalDist

import cv2
import numpy as np


DICE_CONDITIONS = ("clean", "oblique", "light", "clutter", "touching", "many", "rough", "close")
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


# --- dice: real cubes through a pinhole camera --------------------------------------------------

DIE_SIDE_MM = 16.0  # a standard 16 mm die; the world is measured in millimetres

# Pip centres on a face, in steps of the pip spread from its centre (u right, v down).
PIPS: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((0, 0),),
    2: ((-1, -1), (1, 1)),
    3: ((-1, -1), (0, 0), (1, 1)),
    4: ((-1, -1), (1, -1), (-1, 1), (1, 1)),
    5: ((-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)),
    6: ((-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)),
}

# The die's own faces: outward normal and the face's "u" axis, in the die's frame. Opposite faces
# sum to 7 and 1, 2, 3 run counter-clockwise round their shared corner (a right-handed die).
_FACES: dict[int, tuple[tuple[int, int, int], tuple[int, int, int]]] = {
    1: ((0, 0, 1), (1, 0, 0)), 6: ((0, 0, -1), (1, 0, 0)),
    2: ((1, 0, 0), (0, 1, 0)), 5: ((-1, 0, 0), (0, -1, 0)),
    3: ((0, 1, 0), (0, 0, 1)), 4: ((0, -1, 0), (0, 0, -1)),
}


def _cube_turns() -> list[np.ndarray]:
    """The 24 proper rotations of a cube (signed permutation matrices of determinant +1)."""
    turns = []
    for perm in ((0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0)):
        for signs in np.ndindex(2, 2, 2):
            m = np.zeros((3, 3))
            for row, col in enumerate(perm):
                m[row, col] = 1 - 2 * signs[row]
            if np.linalg.det(m) > 0:
                turns.append(m)
    return turns


_TURNS = _cube_turns()
# For each value, the four turns that bring its face to the top.
_TURNS_UP = {value: [m for m in _TURNS if (m @ normal)[2] == 1] for value, (normal, _) in _FACES.items()}
_UNIT = np.array([[x, y, z] for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)], float)
# Directions sampling each rounded corner's sphere, for the die's outline.
_SPHERE = np.array([d for d in np.ndindex(3, 3, 3) if d != (1, 1, 1)], float) - 1
_SPHERE /= np.linalg.norm(_SPHERE, axis=1, keepdims=True)


@dataclass(frozen=True)
class _Camera:
    """A pinhole camera over the table: intrinsics ``k``, world-to-camera ``r``, position."""

    k: np.ndarray
    r: np.ndarray
    position: np.ndarray

    def project(self, points: np.ndarray) -> np.ndarray:
        seen = (points - self.position) @ self.r.T @ self.k.T
        return seen[:, :2] / seen[:, 2:3]

    def on_table(self, pixels: np.ndarray) -> np.ndarray:
        """Where the rays through ``pixels`` meet the table (z = 0)."""
        rays = np.column_stack([pixels, np.ones(len(pixels))]) @ np.linalg.inv(self.k).T @ self.r
        t = -self.position[2] / rays[:, 2]
        return self.position + rays * t[:, None]

    def table_homography(self) -> np.ndarray:
        """Table point (x, y, 0) to pixel."""
        return self.k @ np.column_stack([self.r[:, 0], self.r[:, 1], -self.r @ self.position])


def _webcam_over_table(rng: np.random.Generator, w: int, h: int, tilt: float,
                       side_px: float) -> _Camera:
    """A webcam looking down at the tray centre (the origin), ``tilt`` degrees from vertical,
    far enough that a die's top face is about ``side_px`` pixels across."""
    f = w * rng.uniform(0.85, 1.25)
    distance = f * DIE_SIDE_MM / side_px + DIE_SIDE_MM
    t = math.radians(tilt)
    forward = np.array([0.0, math.sin(t), -math.cos(t)])
    away = np.array([0.0, 1.0, 0.0]) - forward * forward[1]
    down = -away / np.linalg.norm(away)  # the far side of the table is at the top of the picture
    right = np.cross(down, forward)
    # A camera on an arm is seldom square to the table; some face the player instead.
    roll = math.radians(rng.uniform(-20, 20) + (180 if rng.random() < 0.25 else 0))
    right, down = (math.cos(roll) * right + math.sin(roll) * down,
                   -math.sin(roll) * right + math.cos(roll) * down)
    k = np.array([[f, 0, w / 2 - 0.5], [0, f, h / 2 - 0.5], [0, 0, 1]])
    return _Camera(k, np.array([right, down, forward]), -distance * forward)


@dataclass(frozen=True)
class _Die:
    """One die at rest: its centre on the table, its turn (die frame to world) and top value."""

    x: float
    y: float
    yaw: float
    value: int
    turn: np.ndarray

    @property
    def centre(self) -> np.ndarray:
        return np.array([self.x, self.y, DIE_SIDE_MM / 2])

    def corners(self) -> np.ndarray:
        return self.centre + (_UNIT * DIE_SIDE_MM / 2) @ self.turn.T

    def top_face(self) -> np.ndarray:
        half = DIE_SIDE_MM / 2
        c, s = math.cos(self.yaw), math.sin(self.yaw)
        square = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], float) * half
        xy = square @ np.array([[c, s], [-s, c]]) + [self.x, self.y]
        return np.column_stack([xy, np.full(4, DIE_SIDE_MM)])

    def footprint(self, margin: float = 0.0) -> np.ndarray:
        return self.top_face()[:, :2] * (1 + margin) - np.array([self.x, self.y]) * margin


def _rest(rng: np.random.Generator, x: float, y: float, yaw: float, value: int) -> _Die:
    """A die lying with ``value`` up: one of the four cube turns that bring that face to the top,
    then turned by ``yaw`` about the vertical."""
    ups = _TURNS_UP[value]
    c, s = math.cos(yaw), math.sin(yaw)
    spin = np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]])
    return _Die(x, y, yaw, value, spin @ ups[int(rng.integers(len(ups)))])


def _gap(a: _Die, b: _Die) -> float:
    """Separation of two footprints along their best separating axis (negative: they overlap);
    never more than their true distance, so a positive gap means no contact."""
    d = np.array([b.x - a.x, b.y - a.y])
    half = DIE_SIDE_MM / 2
    best = -math.inf
    for yaw in (a.yaw, b.yaw):
        for axis in ((math.cos(yaw), math.sin(yaw)), (-math.sin(yaw), math.cos(yaw))):
            reach = sum(half * (abs(axis[0] * math.cos(o.yaw) + axis[1] * math.sin(o.yaw))
                                + abs(-axis[0] * math.sin(o.yaw) + axis[1] * math.cos(o.yaw)))
                        for o in (a, b))
            best = max(best, abs(d @ axis) - reach)
    return best


@dataclass(frozen=True)
class _Look:
    """What one set of dice looks like under one light."""

    face: np.ndarray
    pip: np.ndarray
    bevel: float  # rounded edge width, as a fraction of half the side
    spread: float  # pip offset from the face centre, as a fraction of half the side
    pip_radius: float
    big_one: bool  # some dice have a larger single pip
    light: np.ndarray  # unit vector towards the light
    ambient: float
    gloss: float
    sharpness: float


def _shade(look: _Look, normals: np.ndarray, view: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Lambert shading relative to a flat top face (so a top face keeps its colour), and a
    Blinn-Phong highlight in grey levels, for unit ``normals`` (..., 3)."""
    return _shade_dots(look, normals @ look.light, normals @ _halfway(look, view))


def _halfway(look: _Look, view: np.ndarray) -> np.ndarray:
    half = look.light + view
    return half / np.linalg.norm(half)


def _shade_dots(look: _Look, to_light: np.ndarray, to_half: np.ndarray
                ) -> tuple[np.ndarray, np.ndarray]:
    lit = look.ambient + (1 - look.ambient) * np.maximum(to_light, 0)
    lit *= 1 / (look.ambient + (1 - look.ambient) * look.light[2])
    shine = look.gloss * 255 * np.maximum(to_half, 0) ** look.sharpness
    return lit, shine


def _face_texture(look: _Look, value: int, normal: np.ndarray, u_axis: np.ndarray,
                  v_axis: np.ndarray, view: np.ndarray, side: int) -> np.ndarray:
    """One face as a premultiplied BGRA texture: the flat face, its rounded edges tilting
    towards the neighbouring faces, recessed pips darker at their rim, and highlights."""
    g = (np.arange(side, dtype=np.float32) + 0.5) * np.float32(2 / side) - 1
    u, v = g[None, :], g[:, None]
    rho = look.bevel
    # Across the rounded edge the surface turns halfway (45 degrees) towards the next face;
    # the normal is normal + tilt_u u_axis + tilt_v v_axis, of length sqrt(1 + tilt_u² + tilt_v²).
    tilt = np.tan(np.clip((np.abs(g) - (1 - rho)) / rho, 0, 1) * (math.pi / 4)) * np.sign(g)
    tilt_u, tilt_v = tilt[None, :], tilt[:, None]
    length = np.sqrt(1 + tilt_u * tilt_u + tilt_v * tilt_v)
    half = _halfway(look, view)
    dots = []
    for d in (look.light, half):
        dots.append((float(normal @ d) + tilt_u * float(u_axis @ d) + tilt_v * float(v_axis @ d))
                    / length)
    lit, shine = _shade_dots(look, dots[0], dots[1])
    # A lamp a little way off lights one side of a face more than the other.
    toward = (float(look.light @ u_axis), float(look.light @ v_axis))
    lit = lit * (1 + 0.05 * (u * toward[0] + v * toward[1]))
    colour = np.empty((side, side, 3), np.float32)
    colour[:] = look.face
    px = 2.0 / side  # one texel in face units, for anti-aliased edges
    radius = look.pip_radius * (1.35 if value == 1 and look.big_one else 1.0)
    for pu, pv in PIPS[value]:
        cu, cv = pu * look.spread, pv * look.spread
        # Only the texels near this pip.
        i0, i1 = (int(np.clip((c + 1) / px, 0, side)) for c in (cu - radius - px, cu + radius + 2 * px))
        j0, j1 = (int(np.clip((c + 1) / px, 0, side)) for c in (cv - radius - px, cv + radius + 2 * px))
        du, dv = u[:, i0:i1] - cu, v[j0:j1] - cv
        q = np.sqrt(du * du + dv * dv) / radius
        cover = np.clip((1 - q) * (radius / px) + 0.5, 0, 1)
        # A shallow dish: its wall away from the light catches it, its rim lies in shadow.
        dish = 1 - 0.3 * (du * toward[0] + dv * toward[1]) / radius
        rim = 1 - 0.35 * np.clip((q - 0.65) / 0.35, 0, 1)
        paint = look.pip * (dish * rim)[..., None]
        window = colour[j0:j1, i0:i1]
        window += cover[..., None] * (paint - window)
    du = np.maximum(np.abs(u) - (1 - rho), 0)
    dv = np.maximum(np.abs(v) - (1 - rho), 0)
    alpha = np.clip((rho - np.sqrt(du * du + dv * dv)) / px + 0.5, 0, 1)
    texture = np.empty((side, side, 4), np.float32)
    texture[..., :3] = (colour * lit[..., None] + shine[..., None]) * alpha[..., None]
    texture[..., 3] = alpha
    return texture


def _paint_die(frame: np.ndarray, camera: _Camera, die: _Die, look: _Look) -> None:
    """Paints one die over ``frame`` (float BGR): its rounded outline, then each face the camera
    sees, warped by that face's homography, drawn at twice the size and reduced (anti-aliasing)."""
    h, w = frame.shape[:2]
    half = DIE_SIDE_MM / 2
    inset = half * (1 - look.bevel)
    outline_pts = (die.centre + ((_UNIT * inset) @ die.turn.T)[:, None, :]
                   + (_SPHERE * half * look.bevel)[None]).reshape(-1, 3)
    outline = camera.project(outline_pts)
    x0, y0 = (int(v) - 2 for v in np.floor(outline.min(axis=0)))
    x1, y1 = (int(v) + 3 for v in np.ceil(outline.max(axis=0)))
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
    if x1 <= x0 or y1 <= y0:
        return
    zoom = 2
    to_patch = np.array([[zoom, 0, zoom * (0.5 - x0) - 0.5], [0, zoom, zoom * (0.5 - y0) - 0.5],
                         [0, 0, 1]])
    pw, ph = (x1 - x0) * zoom, (y1 - y0) * zoom
    view = camera.position - die.centre
    view /= np.linalg.norm(view)
    patch = np.zeros((ph, pw, 4), np.float32)
    faces = []
    for value, (normal, u_axis) in _FACES.items():
        n = die.turn @ np.array(normal, float)
        centre = die.centre + n * half
        if n @ (camera.position - centre) <= 0:
            continue  # turned away from the camera
        faces.append((value, n, die.turn @ np.array(u_axis, float)))
    # Under the faces, the rounded corners where three faces meet.
    mean_normal = sum(f[1] for f in faces)
    mean_normal = mean_normal / np.linalg.norm(mean_normal)
    lit, shine = _shade(look, mean_normal[None], view)
    corner_colour = np.append(look.face * lit[0] + shine[0], 1.0)
    hull = cv2.convexHull((outline @ to_patch[:2, :2].T + to_patch[:2, 2]).astype(np.float32))
    cv2.fillConvexPoly(patch, np.round(hull).astype(np.int32), corner_colour.tolist())
    for value, n, u_axis in faces:
        v_axis = np.cross(u_axis, n)
        corners = (die.centre + n * half
                   + np.array([-u_axis - v_axis, u_axis - v_axis, u_axis + v_axis,
                               -u_axis + v_axis]) * half)
        seen = camera.project(corners)
        edge = np.linalg.norm(np.diff(seen, axis=0, append=seen[:1]), axis=1).max()
        size = int(np.clip(zoom * edge * 0.8, 16, 128))
        texture = _face_texture(look, value, n, u_axis, v_axis, view, size)
        src = np.array([[-0.5, -0.5], [size - 0.5, -0.5], [size - 0.5, size - 0.5],
                        [-0.5, size - 0.5]], np.float32)
        hmat = to_patch @ cv2.getPerspectiveTransform(src, seen.astype(np.float32))
        warped = cv2.warpPerspective(texture, hmat, (pw, ph), flags=cv2.INTER_LINEAR,
                                     borderMode=cv2.BORDER_CONSTANT)
        patch = warped + patch * (1 - warped[..., 3:])
    patch = cv2.resize(patch, (x1 - x0, y1 - y0), interpolation=cv2.INTER_AREA)
    region = frame[y0:y1, x0:x1]
    region[:] = patch[..., :3] + region * (1 - patch[..., 3:])


def _table_top(rng: np.random.Generator, h: int, w: int, texel_mm: float,
               finest_mm: float) -> np.ndarray:
    """A table top in world units: wood with long grain, felt, or a woven cloth (float BGR).

    ``finest_mm`` is the most the camera sees of the table in one pixel; regular patterns are kept
    coarser than that, or they would shimmer into moire that no webcam shows.
    """
    kind = rng.integers(3)
    yy = np.arange(h, dtype=np.float32)[:, None] * np.float32(texel_mm)
    xx = np.arange(w, dtype=np.float32)[None, :] * np.float32(texel_mm)

    def smooth(cell_mm: float) -> np.ndarray:
        """Smooth noise (about unit spread) varying over ``cell_mm``."""
        cells = (max(2, int(h * texel_mm / cell_mm) + 2), max(2, int(w * texel_mm / cell_mm) + 2))
        noise = rng.normal(0, 1, cells).astype(np.float32)
        return cv2.resize(noise, (w, h), interpolation=cv2.INTER_CUBIC)

    def wave(at: np.ndarray, step_mm: float, size: float) -> np.ndarray:
        """A smooth random function of one coordinate (knots every ``step_mm``)."""
        lo = float(at.min())
        heights = rng.normal(0, size, int((float(at.max()) - lo) / step_mm) + 3).astype(np.float32)
        t = (at - lo) / step_mm
        i = t.astype(np.int32)
        f = t - i
        f = f * f * (3 - 2 * f)  # eased between knots: no kinks in the lines
        return heights[i] + (heights[i + 1] - heights[i]) * f

    if kind == 0:  # wood: light maple to dark walnut, fine grain lines along the boards
        tone = rng.random()
        base = ((np.array([170, 205, 228]) * (1 - tone) + np.array([45, 75, 120]) * tone)
                * rng.uniform(0.92, 1.08, 3))
        a = rng.uniform(0, math.pi)
        period = max(rng.uniform(2.5, 7.0), 4 * finest_mm)
        across = xx * math.cos(a) + yy * math.sin(a)
        along = yy * math.cos(a) - xx * math.sin(a)
        # Grain runs nearly straight along the board, bending gently; the spacing of its lines
        # (the growth rings) varies across it.
        across = across + wave(along, 80, 3.0) + wave(along, 20, 0.4)
        phase = across * (math.pi / period) + wave(across, 2.5 * period, 1.2)
        lines = np.sin(phase)
        lines *= lines
        for _ in range(int(rng.integers(2, 4))):  # thin lines: sin^8 or sin^16
            lines *= lines
        shade = (1 - rng.uniform(0.08, 0.2) * lines * (1 + 0.5 * smooth(60))
                 + wave(across, 12, 0.04) + smooth(80) * 0.02)
    elif kind == 1:  # felt: soft blotches
        base = rng.uniform(40, 200, 3)
        shade = 1 + smooth(12) * 0.05 + smooth(3) * 0.03
    else:  # cloth: a fine weave
        base = rng.uniform(40, 200, 3)
        period = max(rng.uniform(1.2, 2.5), 3 * texel_mm, 3 * finest_mm)
        shade = 1 + 0.06 * np.sin(xx * (math.pi / period)) * np.sin(yy * (math.pi / period))
        shade = shade + smooth(20) * 0.03
    return shade[..., None] * base.astype(np.float32)


def _shadows(frame_shape: tuple[int, int], camera: _Camera, dice: list[_Die], look: _Look,
             side_px: float, rng: np.random.Generator) -> np.ndarray:
    """How much light reaches the table: each die's soft cast shadow away from the light, and a
    darker contact shadow where it rests."""
    h, w = frame_shape
    # Soft shadows need no more than half the resolution.
    cast = np.zeros((h // 2, w // 2), np.float32)
    contact = np.zeros((h // 2, w // 2), np.float32)
    to_table = look.light / look.light[2]
    for die in dice:
        corners = die.corners()
        dropped = corners - to_table * corners[:, 2:3]
        hull = cv2.convexHull((camera.project(dropped) / 2).astype(np.float32))
        cv2.fillConvexPoly(cast, np.round(hull).astype(np.int32), 1.0)
        base = np.column_stack([die.footprint(0.06), np.zeros(4)])
        cv2.fillConvexPoly(contact, np.round(camera.project(base) / 2).astype(np.int32), 1.0)
    cast = cv2.GaussianBlur(cast, (0, 0), side_px * rng.uniform(0.08, 0.25) / 2)
    contact = cv2.GaussianBlur(contact, (0, 0), side_px * 0.03)
    strength = rng.uniform(0.2, 0.5)
    light = (1 - strength * cast) * (1 - 0.3 * contact)
    return cv2.resize(light, (w, h), interpolation=cv2.INTER_LINEAR)


_NORMAL_QUANTILES = np.array([NormalDist().inv_cdf((i + 0.5) / 256) for i in range(256)],
                             np.float32)


def _webcam(rng: np.random.Generator, frame: np.ndarray, condition: str) -> np.ndarray:
    """What a cheap webcam makes of the scene: uneven light (and a shadow band for "light" and
    "rough"), vignetting, a colour cast, blur, sensor noise and JPEG."""
    h, w = frame.shape[:2]
    # The light varies smoothly: worked out on a coarse grid, then stretched over the frame.
    yy = (np.arange(0, h + 7, 8, dtype=np.float32) - h / 2)[:, None]
    xx = (np.arange(0, w + 7, 8, dtype=np.float32) - w / 2)[None, :]
    strength = 0.55 if condition in ("light", "rough") else 0.2
    a = rng.uniform(0, 2 * math.pi)
    gain = (1 + strength * (xx * math.cos(a) + yy * math.sin(a)) / max(w, h))
    gain = gain * rng.uniform(0.75, 1.1)
    if condition in ("light", "rough"):
        band = np.clip(np.abs((xx * math.sin(a) - yy * math.cos(a)) - rng.uniform(-w / 3, w / 3))
                       / (w * 0.15), 0, 1)
        gain = gain * (0.6 + 0.4 * band)
    gain = gain * (1 - rng.uniform(0.05, 0.25) * (xx * xx + yy * yy) / (w * w / 4 + h * h / 4))
    cast = (1 + rng.normal(0, 0.04, 3)).astype(np.float32)
    gain = cv2.resize(gain.astype(np.float32)[..., None] * cast, (xx.size * 8, yy.size * 8),
                      interpolation=cv2.INTER_LINEAR)[:h, :w]
    frame *= gain
    blur = rng.uniform(0.4, 1.3 if condition == "rough" else 0.9)
    frame = cv2.GaussianBlur(frame, (0, 0), blur)
    noise = 6.0 if condition == "rough" else 2.5
    # Sensor noise: fine grey grain and blotchier colour grain (the camera's demosaicing spreads
    # it). Drawn as random bytes through the normal quantiles, several times faster than normals.
    grain = np.take(_NORMAL_QUANTILES * (noise * 0.8), np.frombuffer(rng.bytes(h * w), np.uint8))
    colour = np.take(_NORMAL_QUANTILES * noise,
                     np.frombuffer(rng.bytes((h // 2) * (w // 2) * 3), np.uint8))
    colour = cv2.resize(colour.reshape(h // 2, w // 2, 3), (w, h), interpolation=cv2.INTER_LINEAR)
    frame += colour
    frame += grain.reshape(h, w, 1)
    frame = np.clip(frame, 0, 255).astype(np.uint8)
    quality = int(rng.integers(45, 75) if condition == "rough" else rng.integers(75, 95))
    ok, data = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, quality])
    return cv2.imdecode(data, cv2.IMREAD_COLOR) if ok else frame


# Real photos as other cameras and rooms would take them: each shift maps a BGR photo (and a
# seed, for the noise) to another, the dice and their values unchanged. The bench reads the real
# photos through each, a measure of how far the reader holds beyond the one webcam, table and
# light they were taken with.
def _turned(image: np.ndarray, degrees: float) -> np.ndarray:
    """The photo turned about its centre, the same size, its corners filled by reflection."""
    h, w = image.shape[:2]
    turn = cv2.getRotationMatrix2D((w / 2, h / 2), degrees, 1.0)
    return cv2.warpAffine(image, turn, (w, h), flags=cv2.INTER_LINEAR,
                          borderMode=cv2.BORDER_REFLECT)


def _tone(image: np.ndarray, gamma: float, gain: float) -> np.ndarray:
    """Exposure: a gamma curve and a gain, clipped as a sensor clips."""
    curve = np.clip(255 * gain * (np.arange(256) / 255.0) ** gamma, 0, 255).astype(np.uint8)
    return cv2.LUT(image, curve)


def _jpeg(image: np.ndarray, quality: int) -> np.ndarray:
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    return cv2.imdecode(data, cv2.IMREAD_COLOR) if ok else image


def closer_view(image: np.ndarray, boxes: Sequence[Sequence[int]], zoom: float
                ) -> np.ndarray | None:
    """The same photo as a camera ``zoom`` times closer takes it: the frame cut round
    ``boxes`` (x1, y1, x2, y2, the dice) with a margin and enlarged back to its size; None when
    the boxes spread too wide to come that close."""
    h, w = image.shape[:2]
    x1, y1 = min(b[0] for b in boxes), min(b[1] for b in boxes)
    x2, y2 = max(b[2] for b in boxes), max(b[3] for b in boxes)
    if zoom > min(w / (1.3 * max(1, x2 - x1)), h / (1.3 * max(1, y2 - y1))):
        return None
    cw, ch = w / zoom, h / zoom
    cx = min(max((x1 + x2) / 2, cw / 2), w - cw / 2)
    cy = min(max((y1 + y2) / 2, ch / 2), h - ch / 2)
    to_frame = np.array([[zoom, 0, -(cx - cw / 2) * zoom], [0, zoom, -(cy - ch / 2) * zoom]])
    return cv2.warpAffine(image, to_frame, (w, h), flags=cv2.INTER_CUBIC)


def _tilted(image: np.ndarray, inset: float) -> np.ndarray:
    """Seen from further down the table: the top edge drawn in by ``inset`` of the width."""
    h, w = image.shape[:2]
    square = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    trapezoid = np.float32([[w * inset, 0], [w * (1 - inset), 0], [w, h], [0, h]])
    return cv2.warpPerspective(image, cv2.getPerspectiveTransform(square, trapezoid), (w, h),
                               borderMode=cv2.BORDER_REFLECT)


def _grainy(image: np.ndarray, seed: int) -> np.ndarray:
    """A small sensor in poor light: grey noise and strong JPEG."""
    noise = np.random.default_rng(seed).normal(0.0, 7.0, image.shape)
    return _jpeg(np.clip(image + noise, 0, 255).astype(np.uint8), 55)


def _low_resolution(image: np.ndarray) -> np.ndarray:
    h, w = image.shape[:2]
    half = cv2.resize(image, (w // 2, h // 2), interpolation=cv2.INTER_AREA)
    return cv2.resize(half, (w, h), interpolation=cv2.INTER_LINEAR)


CAMERA_SHIFTS: dict[str, Callable[[np.ndarray, int], np.ndarray]] = {
    "quarter turn": lambda image, seed: np.ascontiguousarray(np.rot90(image)),
    "turned 25 deg": lambda image, seed: _turned(image, 25.0),
    "mirrored": lambda image, seed: np.ascontiguousarray(image[:, ::-1]),
    "dim room": lambda image, seed: _jpeg(_tone(image, 1.3, 0.55), 85),
    "over-exposed": lambda image, seed: _tone(image, 0.7, 1.15),
    # Tungsten light a camera's white balance did not correct.
    "warm light": lambda image, seed: cv2.transform(
        image, np.diag(np.float32([0.7, 0.92, 1.1]))),
    "soft focus": lambda image, seed: cv2.GaussianBlur(image, (0, 0), 1.2),
    "grainy": _grainy,
    "half resolution": lambda image, seed: _low_resolution(image),
    "tilted": lambda image, seed: _tilted(image, 0.12),
}


# Further shifts the dice tests read real photos through. They are kept out of CAMERA_SHIFTS so
# that the bench's figures stay comparable from round to round.
def vignette(image: np.ndarray) -> np.ndarray:
    """A cheap lens: the light falls to 55% at the frame's corners."""
    h, w = image.shape[:2]
    y, x = np.mgrid[0:h, 0:w]
    r = np.hypot((x - w / 2) / (w / 2), (y - h / 2) / (h / 2))
    gain = np.clip(1 - 0.45 * r ** 2, 0.3, 1)[..., None]
    return np.clip(image * gain, 0, 255).astype(np.uint8)


def shadow_band(image: np.ndarray) -> np.ndarray:
    """Diagonal bands in a hard shadow (0.55 of the light), as a lamp's arm or a hand casts."""
    h, w = image.shape[:2]
    y, x = np.mgrid[0:h, 0:w]
    shade = np.where(((x + 0.6 * y) % w) < 0.4 * w, 0.55, 1.0)[..., None]
    return cv2.GaussianBlur(np.clip(image * shade, 0, 255).astype(np.uint8), (0, 0), 0.6)


def smeared(image: np.ndarray, length: int = 7, vertical: bool = False) -> np.ndarray:
    """The camera moved ``length`` pixels during the exposure: a box blur along one line."""
    kernel = np.zeros((length, length), np.float32)
    kernel[length // 2, :] = 1 / length
    return cv2.filter2D(image, -1, kernel.T if vertical else kernel)


def _place_dice(rng: np.random.Generator, camera: _Camera, values: list[int], touching: bool,
                w: int, h: int, free: Callable[[_Die], bool]) -> list[_Die]:
    """Lays the dice where the camera sees all of each die, none overlapping another; for
    "touching" each die after the first rests against one already down."""
    dice: list[_Die] = []
    s = DIE_SIDE_MM
    for value in values:
        for attempt in range(2000):
            yaw = rng.uniform(0, math.pi / 2)
            if touching and dice and attempt < 1500:
                anchor = dice[int(rng.integers(len(dice)))]
                a = rng.uniform(0, 2 * math.pi)
                step = np.array([math.cos(a), math.sin(a)])
                near, far = 0.0, 2.0 * s
                for _ in range(14):  # the distance at which the two just touch
                    mid = (near + far) / 2
                    probe = _Die(anchor.x + step[0] * mid, anchor.y + step[1] * mid, yaw, value,
                                 np.eye(3))
                    near, far = (mid, far) if _gap(anchor, probe) < 0 else (near, mid)
                dist = far + rng.uniform(0, 0.03) * s
                x, y = anchor.x + step[0] * dist, anchor.y + step[1] * dist
                spacing = -1e-6
            else:
                # A touching group starts near the middle, so that it has room to grow.
                spread = 0.25 if touching else 0.4
                pixel = np.array([[rng.uniform(0.5 - spread, 0.5 + spread) * w,
                                   rng.uniform(0.5 - spread * 0.95, 0.5 + spread * 0.95) * h]])
                x, y = camera.on_table(pixel)[0, :2]
                spacing = 0.0 if touching else 0.6 * s
            die = _rest(rng, float(x), float(y), float(yaw), value)
            seen = camera.project(die.corners())
            if (seen.min() < 3 or seen[:, 0].max() > w - 4 or seen[:, 1].max() > h - 4
                    or not free(die)):
                continue
            if all(_gap(other, die) >= spacing for other in dice):
                break
        else:
            raise ValueError(f"no room for {len(values)} dice in a {w}x{h} picture")
        dice.append(die)
    return dice


def render_dice(seed: int, condition: str = "clean", style: str | None = None,
                count: int | None = None, size: tuple[int, int] = (640, 480)) -> DiceScene:
    """Renders one roll. ``condition`` is one of DICE_CONDITIONS; style and count are drawn
    from the seed unless given.

    The dice are rounded cubes resting on the table, seen by a pinhole camera from above (up to
    30 degrees off vertical, a few oblique views to 40), each visible face painted back to front.
    """
    if condition not in DICE_CONDITIONS:
        raise ValueError(f"unknown condition {condition!r} (known: {', '.join(DICE_CONDITIONS)})")
    rng = np.random.default_rng([seed, DICE_CONDITIONS.index(condition)])
    style = style or str(rng.choice(DICE_STYLES))
    if style not in DICE_STYLES:
        raise ValueError(f"unknown dice style {style!r} (known: {', '.join(DICE_STYLES)})")
    w, h = size
    n = count or int(rng.integers(6, 9) if condition == "many"
                     else rng.integers(1, 4) if condition == "close" else rng.integers(1, 7))
    if condition in ("oblique", "rough", "clutter", "close"):
        tilt = rng.uniform(30, 40) if condition == "oblique" and rng.random() < 0.15 \
            else rng.uniform(0, 30)
    else:
        tilt = rng.uniform(0, 8)
    # A die's side in pixels at the tray: a webcam on a stand, or (close) one a hand's
    # breadth above the tray, or a phone held over it (fewer dice fit in its view).
    sides = (85, 200 - 30 * n) if condition == "close" else (34, 58)
    side_px = rng.uniform(*sides) * min(w / 640, h / 480)
    camera = _webcam_over_table(rng, w, h, tilt, side_px)
    face, pip = _die_colours(rng, style)
    elevation = math.radians(rng.uniform(25, 50) if condition == "light" else rng.uniform(35, 75))
    azimuth = rng.uniform(0, 2 * math.pi)
    look = _Look(face, pip, bevel=rng.uniform(0.15, 0.35), spread=rng.uniform(0.48, 0.6),
                 pip_radius=rng.uniform(0.15, 0.2), big_one=bool(rng.random() < 0.3),
                 light=np.array([math.cos(elevation) * math.cos(azimuth),
                                 math.cos(elevation) * math.sin(azimuth), math.sin(elevation)]),
                 ambient=rng.uniform(0.4, 0.6), gloss=rng.uniform(0.03, 0.15),
                 sharpness=rng.uniform(15, 40))
    # The table under the whole view, drawn in millimetres and seen through the camera.
    seen = camera.on_table(np.array([[0, 0], [w, 0], [w, h], [0, h]], float))[:, :2]
    reach = 4 * float(np.linalg.norm(camera.position))
    seen = np.clip(seen, -reach, reach)
    lo, hi = seen.min(axis=0) - 5, seen.max(axis=0) + 5
    # The table is soft in a webcam picture: a texel of 1.5 pixels (at the tray) is enough.
    texel = max(float(hi[0] - lo[0]) / 560, float(hi[1] - lo[1]) / 420,
                1.5 * DIE_SIDE_MM / side_px)
    tw, th = int((hi[0] - lo[0]) / texel) + 1, int((hi[1] - lo[1]) / texel) + 1
    edges = np.array([[w / 2, 0], [w / 2, h - 1], [0, h / 2], [w - 1, h / 2]])
    finest = max(float(np.linalg.norm(camera.on_table(edges + step) - camera.on_table(edges),
                                      axis=1).max()) for step in ((1, 0), (0, 1)))
    canvas = _table_top(rng, th, tw, texel, finest)
    clutter = np.zeros((th, tw), np.uint8)
    if condition == "clutter":
        bare = canvas.copy()
        _clutter(canvas, rng)
        clutter = (np.abs(canvas - bare).max(axis=2) > 1).astype(np.uint8)
    # Canvas rows run towards the camera (world y falls), so the table is not seen mirrored.
    to_canvas = np.array([[1 / texel, 0, -lo[0] / texel], [0, -1 / texel, hi[1] / texel],
                          [0, 0, 1]])

    def free(die: _Die) -> bool:
        """No die rests on the clutter."""
        if condition != "clutter":
            return True
        pts = die.footprint(0.3) @ to_canvas[:2, :2].T + to_canvas[:2, 2]
        mask = np.zeros_like(clutter)
        cv2.fillConvexPoly(mask, np.round(pts).astype(np.int32), 1)
        return not (mask & clutter).any()

    values = [int(v) for v in rng.integers(1, 7, n)]
    dice = _place_dice(rng, camera, values, condition == "touching", w, h, free)
    hmat = camera.table_homography() @ np.linalg.inv(to_canvas)
    frame = cv2.warpPerspective(canvas, hmat, (w, h), flags=cv2.INTER_LINEAR,
                                borderMode=cv2.BORDER_REFLECT)
    frame *= _shadows((h, w), camera, dice, look, side_px, rng)[..., None]
    # Painter's order: the farthest die first, so nearer ones cover it.
    for die in sorted(dice, key=lambda d: -float(np.linalg.norm(d.centre - camera.position))):
        _paint_die(frame, camera, die, look)
    frame = _webcam(rng, frame, condition)
    boxes = []
    for die in dice:
        pts = camera.project(die.top_face())
        boxes.append((int(pts[:, 0].min()), int(pts[:, 1].min()),
                      int(math.ceil(pts[:, 0].max())), int(math.ceil(pts[:, 1].max()))))
    order = sorted(range(n), key=lambda i: (values[i], boxes[i][0]))
    return DiceScene(frame, [values[i] for i in order], [boxes[i] for i in order],
                     condition, style)


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
