"""The look of the touchscreen: colours, text sizes and touch-target sizes, readable across a table.

Sizes are in pixels of a reference 800x480 screen (the official 7" display) and scale with the
window's shorter side, so the same layout works at 1280x720 and 720x1280 (Touch Display 2). The
smallest touch target is 56 px at 800x480, above the 48 px the issue asks for. ``text_scale``
(Settings, or ``[app] text_scale``) enlarges only the text.
"""

from __future__ import annotations

from kivy.event import EventDispatcher
from kivy.properties import BooleanProperty, NumericProperty

REFERENCE_SHORT_SIDE = 480.0

# A night palette: light text on deep blue reads well under a lamp and does not glare in the dark.
BACKGROUND = (0.075, 0.082, 0.16, 1)
PANEL = (0.14, 0.15, 0.27, 1)
PANEL_LIGHT = (0.21, 0.22, 0.38, 1)
PANEL_MID = (0.17, 0.18, 0.32, 1)  # quiet buttons: Back, "no gap"
TEXT = (0.97, 0.96, 0.93, 1)
TEXT_DIM = (0.74, 0.75, 0.84, 1)
ACCENT = (0.95, 0.76, 0.31, 1)  # gold: what to do next
ACCENT_TEXT = (0.10, 0.08, 0.03, 1)
DANGER = (0.90, 0.33, 0.29, 1)  # refusals, Bad Dreams, cages
GOOD = (0.36, 0.79, 0.54, 1)  # Good Omens, victory, confirm
FOCUS = (0.40, 0.80, 1.0, 1)  # the keyboard / button highlight
DAEMON = (0.55, 0.20, 0.55, 1)  # the Daemon's turn

DOOR_COLOURS = {
    "bronze": (0.80, 0.50, 0.20, 1),
    "silver": (0.78, 0.80, 0.84, 1),
    "gold": (1.0, 0.82, 0.20, 1),
}
SEAT_COLOURS = [
    (0.95, 0.45, 0.40, 1),
    (0.40, 0.70, 0.98, 1),
    (0.55, 0.85, 0.45, 1),
    (0.95, 0.80, 0.35, 1),
    (0.80, 0.55, 0.95, 1),
    (0.45, 0.90, 0.85, 1),
]


def hex_colour(rgba: tuple[float, ...]) -> str:
    """Kivy markup's colour form, e.g. ``[color=f2c14e]``."""
    return "".join(f"{round(c * 255):02x}" for c in rgba[:3])


class Theme(EventDispatcher):
    """Sizes that follow the window; kv rules bind to ``app.theme.<size>``.

    >>> theme = Theme()
    >>> theme.fit(800, 480); theme.target
    56.0
    >>> theme.fit(1280, 720); theme.target, theme.portrait
    (84.0, False)
    """

    unit = NumericProperty(1.0)
    text_scale = NumericProperty(1.0)
    portrait = BooleanProperty(False)

    target = NumericProperty(56.0)  # the height of a button
    small_target = NumericProperty(48.0)  # never below 48 px at 800x480
    pad = NumericProperty(8.0)
    gap = NumericProperty(6.0)
    radius = NumericProperty(10.0)

    font_small = NumericProperty(17.0)
    font_body = NumericProperty(21.0)
    font_button = NumericProperty(22.0)
    font_big = NumericProperty(28.0)
    font_title = NumericProperty(32.0)
    font_huge = NumericProperty(48.0)

    def fit(self, width: float, height: float) -> None:
        self.portrait = height > width
        self.unit = max(min(width, height) / REFERENCE_SHORT_SIDE, 0.75)
        self._resize()

    def on_text_scale(self, *_: object) -> None:
        self._resize()

    def _resize(self) -> None:
        u, t = self.unit, self.unit * self.text_scale
        self.target = round(56 * u, 1)
        self.small_target = round(max(48 * u, 48), 1)
        self.pad = round(8 * u, 1)
        self.gap = round(6 * u, 1)
        self.radius = round(10 * u, 1)
        self.font_small = round(17 * t, 1)
        self.font_body = round(21 * t, 1)
        self.font_button = round(22 * t, 1)
        self.font_big = round(28 * t, 1)
        self.font_title = round(32 * t, 1)
        self.font_huge = round(48 * t, 1)
