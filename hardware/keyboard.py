"""The keyboard stand-in for the button panel: the same input events from a keyboard.

On a machine without GPIO (a laptop, a Pi without the panel) the keyboard plays the panel's part:

    Enter (or keypad Enter)  confirm          Backspace   back
    Right, Down, Tab         next             Left, Up, Shift+Tab   previous
    Space, E                 end_turn         R           roll
    U                        undo             1 to 4      that seat's button

This module is a pure mapping; the Kivy app calls it from ``Window.on_key_down`` /
``on_key_up``, passing Kivy's key code (an int), its name (``"enter"``) or the ``(code, name)``
pair a requested keyboard gives.

>>> keys = KeyboardControls()
>>> keys.key_down(13)
InputEvent(control='confirm', seat=None, source='keyboard', long=False, at=0.0)
>>> keys.key_down(13) is None      # auto-repeat of a held Enter does not confirm twice
True
>>> keys.key_up(13); keys.key_down("enter").control
'confirm'
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from hardware.inputs import InputEvent

Key = int | str | tuple[int, str]

# Kivy's key codes (kivy.core.window.Keyboard.keycodes) for the keys we use.
KEY_CODES: Mapping[str, int] = {
    "enter": 13, "numpadenter": 271, "backspace": 8, "tab": 9, "spacebar": 32,
    "up": 273, "down": 274, "right": 275, "left": 276,
    "e": 101, "r": 114, "u": 117, "1": 49, "2": 50, "3": 51, "4": 52,
}  # fmt: skip
_NAMES_BY_CODE = {code: name for name, code in KEY_CODES.items()}
_ALIASES = {"space": "spacebar", " ": "spacebar", "return": "enter", "kp_enter": "numpadenter"}

KEY_MAP: Mapping[str, str] = {
    "enter": "confirm", "numpadenter": "confirm", "backspace": "back",
    "right": "next", "down": "next", "tab": "next", "left": "previous", "up": "previous",
    "spacebar": "end_turn", "e": "end_turn", "r": "roll", "u": "undo",
}  # fmt: skip
SEAT_KEYS: Mapping[str, int] = {"1": 0, "2": 1, "3": 2, "4": 3}

# Holding an arrow scrolls through a long menu; every other key acts once per press.
REPEATING = frozenset({"next", "previous"})


def key_name(key: Key) -> str | None:
    """The key's name in KEY_CODES, from a Kivy code, a name or a (code, name) pair."""
    if isinstance(key, tuple):
        code, name = key
        return key_name(name) or key_name(code)
    if isinstance(key, bool):
        return None
    if isinstance(key, int):
        return _NAMES_BY_CODE.get(key)
    name = key.lower()
    name = _ALIASES.get(name, name)
    return name if name in KEY_CODES else None


def input_for_key(key: Key, modifiers: Iterable[str] = ()) -> InputEvent | None:
    """The input event a key sends, or None for keys the panel does not use."""
    name = key_name(key)
    if name is None:
        return None
    mods = set(modifiers)
    if mods & {"ctrl", "alt", "meta", "super"}:
        return None  # leave shortcuts like Ctrl+R to the window
    if name in SEAT_KEYS:
        return InputEvent("seat", seat=SEAT_KEYS[name], source="keyboard")
    control = KEY_MAP[name]
    if name == "tab" and "shift" in mods:
        control = "previous"
    return InputEvent(control, source="keyboard")


class KeyboardControls:
    """Key presses -> input events, one per press (arrows may auto-repeat).

    Operating systems repeat a held key; for Enter, Backspace, U and the others that would
    confirm or undo many times, so a key must come up before it acts again. Call
    ``release_all`` when the window loses focus, in case a key-up never arrives.
    """

    def __init__(self) -> None:
        self._down: set[str] = set()

    def key_down(self, key: Key, modifiers: Iterable[str] = ()) -> InputEvent | None:
        event = input_for_key(key, modifiers)
        name = key_name(key)
        if event is None or name is None:
            return None
        if name in self._down and event.control not in REPEATING:
            return None
        self._down.add(name)
        return event

    def key_up(self, key: Key) -> None:
        name = key_name(key)
        if name is not None:
            self._down.discard(name)

    def release_all(self) -> None:
        self._down.clear()
