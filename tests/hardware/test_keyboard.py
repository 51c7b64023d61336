"""The keyboard stand-in: the same input events as the panel, one per key press."""

from __future__ import annotations

import ast
import importlib.util
from pathlib import Path

import pytest

from hardware.inputs import InputEvent
from hardware.keyboard import KEY_CODES, KeyboardControls, input_for_key


@pytest.mark.parametrize("key, control", [
    (13, "confirm"), ("enter", "confirm"), (271, "confirm"), (8, "back"),
    (275, "next"), (274, "next"), (9, "next"), (276, "previous"), (273, "previous"),
    (32, "end_turn"), ("space", "end_turn"), ("e", "end_turn"), ("r", "roll"), (117, "undo"),
    ("U", "undo"), ((13, "enter"), "confirm"),
])
def test_keys_send_the_panels_controls(key, control):
    assert input_for_key(key) == InputEvent(control, source="keyboard")


def test_number_keys_are_the_seat_buttons():
    assert [input_for_key(str(n)).seat for n in range(1, 5)] == [0, 1, 2, 3]
    assert input_for_key("5") is None


def test_shift_tab_goes_back_and_ctrl_shortcuts_are_left_alone():
    assert input_for_key(9, ["shift"]).control == "previous"
    assert input_for_key("r", ["ctrl"]) is None
    assert input_for_key("u", ["shift"]).control == "undo"


def test_other_keys_send_nothing():
    for key in (27, "escape", 97, "x", (120, "x"), 999999):
        assert input_for_key(key) is None


def kivy_keycodes() -> dict[str, int]:
    """Kivy's Keyboard.keycodes, read from its source: importing kivy.core.window would open
    a window in the middle of the test run."""
    spec = importlib.util.find_spec("kivy")
    source = Path(spec.origin).parent / "core" / "window" / "__init__.py"
    tree = ast.parse(source.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and node.name == "Keyboard":
            for item in node.body:
                if isinstance(item, ast.Assign) and item.targets[0].id == "keycodes":
                    return ast.literal_eval(item.value)
    raise AssertionError("Keyboard.keycodes not found in kivy")


def test_our_key_codes_are_kivys():
    keycodes = kivy_keycodes()
    for name, code in KEY_CODES.items():
        assert keycodes[name] == code, name


def test_a_held_key_acts_once_until_it_comes_up():
    keys = KeyboardControls()
    assert keys.key_down(117).control == "undo"
    assert [keys.key_down(117) for _ in range(30)] == [None] * 30  # the OS repeating U
    keys.key_up(117)
    assert keys.key_down("u").control == "undo"


def test_held_arrows_repeat_to_scroll_a_long_menu():
    keys = KeyboardControls()
    sent = [keys.key_down(275) for _ in range(5)]
    assert [e.control for e in sent] == ["next"] * 5


def test_release_all_unsticks_keys_whose_key_up_was_lost():
    keys = KeyboardControls()
    keys.key_down(13)
    assert keys.key_down(13) is None
    keys.release_all()
    assert keys.key_down(13).control == "confirm"


def test_unused_keys_are_not_remembered():
    keys = KeyboardControls()
    assert keys.key_down("x") is None
    keys.key_up("x")
    assert keys.key_down(13) is not None
