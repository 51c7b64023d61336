"""The GPIO button panel, driven through gpiozero's own MockFactory (as gpiozero's tests do)."""

from __future__ import annotations

import logging
import time

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory

from companion.config import ConfigError, load_config_text
from hardware import buttons
from hardware.buttons import (
    DEFAULT_BUTTONS,
    HEADER,
    MAX_PRESSES_PER_S,
    ButtonPanel,
    parse_pin,
    read_buttons,
)
from hardware.inputs import InputEvent, InputQueue, ManualClock, SystemClock


@pytest.fixture
def mock_factory():
    """gpiozero's mock pins, reset after each test so pins can be opened again."""
    saved = Device.pin_factory
    Device.pin_factory = MockFactory()
    try:
        yield Device.pin_factory
    finally:
        Device.pin_factory.reset()
        Device.pin_factory = saved


@pytest.fixture
def clock():
    """A hand-moved clock: bounce windows and long presses without sleeping."""
    return ManualClock(start=100.0)


def open_panel(toml: str, clock, inputs=None):
    inputs = inputs or InputQueue()
    panel = ButtonPanel.open(load_config_text(toml, "test.toml"), inputs, clock=clock)
    return panel, inputs


def controls(inputs: InputQueue) -> list[tuple[str, int | None, bool]]:
    return [(e.control, e.seat, e.long) for e in inputs.drain()]


def tap(pin, clock, down_s: float = 0.1, then_s: float = 0.2) -> None:
    pin.drive_low()
    clock.advance(down_s)
    pin.drive_high()
    clock.advance(then_s)


# -- presses, releases, bounce ----------------------------------------------------------------


def test_press_sends_confirm_once_and_release_sends_nothing(mock_factory, clock):
    panel, inputs = open_panel("[buttons]\nconfirm = 17", clock)
    pin = mock_factory.pin(17)
    pin.drive_low()
    assert controls(inputs) == [("confirm", None, False)]
    clock.advance(0.2)
    pin.drive_high()
    clock.advance(0.2)
    assert controls(inputs) == []
    panel.close()


def test_events_say_they_come_from_the_gpio_panel(mock_factory, clock):
    panel, inputs = open_panel("[buttons]\nnext = 22", clock)
    mock_factory.pin(22).drive_low()
    (event,) = inputs.drain()
    assert event == InputEvent("next", source="gpio") and event.at == 100.0
    panel.close()


def test_contact_bounce_on_press_and_release_is_one_press(mock_factory, clock):
    panel, inputs = open_panel("[buttons]\nconfirm = 17\nbounce_ms = 20", clock)
    pin = mock_factory.pin(17)
    for level in (0, 1, 0, 1, 0):  # a bouncing press: five edges in 8 ms
        pin.drive_low() if level == 0 else pin.drive_high()
        clock.advance(0.002)
    clock.advance(0.2)
    for level in (1, 0, 1):  # a bouncing release
        pin.drive_low() if level == 0 else pin.drive_high()
        clock.advance(0.002)
    clock.advance(0.2)
    assert controls(inputs) == [("confirm", None, False)]
    assert not panel.switches["confirm"].pressed
    tap(pin, clock)
    assert controls(inputs) == [("confirm", None, False)]
    panel.close()


def test_a_release_inside_the_bounce_window_is_not_lost(mock_factory, clock):
    panel, inputs = open_panel("[buttons]\nconfirm = 17\nbounce_ms = 30", clock)
    pin = mock_factory.pin(17)
    pin.drive_low()
    clock.advance(0.01)
    pin.drive_high()  # a quick jab: released 10 ms later, inside the window
    clock.advance(0.05)  # the window closes; the pin is read again
    assert not panel.switches["confirm"].pressed
    clock.advance(0.2)
    tap(pin, clock)
    assert controls(inputs) == [("confirm", None, False), ("confirm", None, False)]
    panel.close()


def test_no_bounce_window_takes_every_edge(mock_factory, clock):
    panel, inputs = open_panel("[buttons]\nbounce_ms = 0\nnext = 22", clock)
    pin = mock_factory.pin(22)
    for _ in range(3):
        pin.drive_low()
        pin.drive_high()
        clock.advance(0.2)
    assert [c for c, _, _ in controls(inputs)] == ["next"] * 3
    panel.close()


# -- long presses and stuck buttons -----------------------------------------------------------


def test_holding_back_asks_for_undo_once(mock_factory, clock):
    panel, inputs = open_panel('[buttons]\nback = 27', clock)
    pin = mock_factory.pin(27)
    pin.drive_low()
    clock.advance(0.99)
    assert controls(inputs) == []
    clock.advance(0.02)
    assert controls(inputs) == [("undo", None, True)]
    clock.advance(5)
    pin.drive_high()
    clock.advance(0.5)
    assert controls(inputs) == []  # the release after a long press sends nothing
    panel.close()


def test_a_short_press_of_back_is_back_sent_on_release(mock_factory, clock):
    panel, inputs = open_panel('[buttons]\nback = 27', clock)
    pin = mock_factory.pin(27)
    pin.drive_low()
    clock.advance(0.3)
    assert controls(inputs) == []
    pin.drive_high()
    assert controls(inputs) == [("back", None, False)]
    clock.advance(2)
    assert controls(inputs) == []
    panel.close()


def test_hold_time_and_long_press_come_from_the_config(mock_factory, clock):
    panel, inputs = open_panel(
        '[buttons.end_turn]\npin = 24\nhold = "roll"\nhold_s = 2.5', clock)
    pin = mock_factory.pin(24)
    pin.drive_low()
    clock.advance(2.4)
    assert controls(inputs) == []
    clock.advance(0.2)
    assert controls(inputs) == [("roll", None, True)]
    pin.drive_high()
    panel.close()


@pytest.mark.parametrize("control, expected", [("back", ("undo", None, True)),
                                               ("confirm", ("confirm", None, False))])
def test_a_button_stuck_down_for_ten_minutes_sends_one_event(mock_factory, clock, control,
                                                             expected):
    pin_number = DEFAULT_BUTTONS[control]
    panel, inputs = open_panel(f"[buttons]\n{control} = {pin_number}", clock)
    mock_factory.pin(pin_number).drive_low()
    for _ in range(600):
        clock.advance(1.0)
    assert controls(inputs) == [expected]
    assert clock.pending == 0  # nothing left ticking for a stuck button
    panel.close()


def test_a_button_down_at_start_sends_nothing_until_pressed_again(mock_factory, clock):
    pin = mock_factory.pin(17)
    pin.drive_low()  # stuck before the app started
    panel, inputs = open_panel("[buttons]\nconfirm = 17", clock)
    clock.advance(5)
    assert controls(inputs) == []
    pin.drive_high()
    clock.advance(0.2)
    tap(pin, clock)
    assert controls(inputs) == [("confirm", None, False)]
    panel.close()


def test_a_chattering_contact_is_muted_until_it_settles(mock_factory, clock, caplog):
    panel, inputs = open_panel("[buttons]\nnext = 22\nbounce_ms = 10", clock)
    pin = mock_factory.pin(22)
    with caplog.at_level(logging.WARNING, logger="hardware.buttons"):
        for _ in range(100):  # a loose wire: an edge every 15 ms for 3 seconds
            pin.drive_low()
            clock.advance(0.015)
            pin.drive_high()
            clock.advance(0.015)
    assert [c for c, _, _ in controls(inputs)] == ["next"] * MAX_PRESSES_PER_S
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING] == [
        "button next (GPIO22) is chattering: ignored until it has been still for 1s"]
    clock.advance(0.5)
    tap(pin, clock)  # still within the quiet second: ignored
    assert controls(inputs) == []
    clock.advance(1.5)
    tap(pin, clock)
    assert controls(inputs) == [("next", None, False)]
    panel.close()


def test_a_player_tapping_fast_is_not_chatter(mock_factory, clock):
    panel, inputs = open_panel("[buttons]\nnext = 22", clock)
    pin = mock_factory.pin(22)
    for _ in range(20):  # six taps a second for over three seconds
        tap(pin, clock, down_s=0.06, then_s=0.11)
    assert len(controls(inputs)) == 20
    panel.close()


# -- per-seat buttons, wiring variants --------------------------------------------------------


def test_seat_buttons_send_their_seat_index(mock_factory, clock):
    panel, inputs = open_panel("[buttons]\nseat_1 = 5\nseat_4 = 26", clock)
    tap(mock_factory.pin(26), clock)
    tap(mock_factory.pin(5), clock)
    assert controls(inputs) == [("seat", 3, False), ("seat", 0, False)]
    panel.close()


def test_a_button_wired_to_3v3_with_pull_down(mock_factory, clock):
    panel, inputs = open_panel("[buttons.roll]\npin = 25\npull_up = false", clock)
    pin = mock_factory.pin(25)
    pin.drive_high()  # pressed: the button connects the pin to 3.3 V
    assert controls(inputs) == [("roll", None, False)]
    panel.close()


def test_the_default_layout_opens_every_control(mock_factory, clock):
    panel, inputs = open_panel('[buttons]\nlayout = "default"', clock)
    assert {s.name: s.pin for s in panel.specs} == dict(DEFAULT_BUTTONS)
    for name, pin in DEFAULT_BUTTONS.items():
        tap(mock_factory.pin(pin), clock, down_s=0.05)
    sent = controls(inputs)
    assert sent == [("confirm", None, False), ("back", None, False), ("next", None, False),
                    ("previous", None, False), ("end_turn", None, False), ("roll", None, False),
                    ("seat", 0, False), ("seat", 1, False), ("seat", 2, False),
                    ("seat", 3, False)]
    panel.close()


def test_real_timers_send_the_long_press(mock_factory):
    """The same logic on the system clock and gpiozero's own callback path."""
    inputs = InputQueue()
    panel = ButtonPanel.open(load_config_text("[buttons.back]\npin = 27\nhold_s = 0.2"), inputs,
                             clock=SystemClock())
    pin = mock_factory.pin(27)
    pin.drive_low()
    event = inputs.get(timeout=2.0)
    assert event is not None and (event.control, event.long) == ("undo", True)
    pin.drive_high()
    time.sleep(0.1)
    assert inputs.drain() == []
    panel.close()


def test_closing_the_panel_frees_the_pins(mock_factory, clock):
    panel, inputs = open_panel("[buttons]\nconfirm = 17", clock)
    panel.close()
    assert not panel.active
    again, _ = open_panel("[buttons]\nconfirm = 17", clock)
    assert again.active
    again.close()


# -- no GPIO ----------------------------------------------------------------------------------


@pytest.fixture
def no_gpio(monkeypatch):
    """A machine where no pin factory loads, and a fresh 'have we logged it' flag."""
    saved = Device.pin_factory
    Device.pin_factory = None
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "no-such-factory")
    monkeypatch.setattr(buttons, "_factory_checked", False)
    yield
    Device.pin_factory = saved


def test_without_gpio_the_panel_is_off_and_it_is_logged_once(no_gpio, caplog, clock):
    with caplog.at_level(logging.WARNING):
        first, _ = open_panel('[buttons]\nlayout = "default"', clock)
        second, _ = open_panel('[buttons]\nlayout = "default"', clock)
    assert not first.active and not second.active
    messages = [r.getMessage() for r in caplog.records]
    assert len(messages) == 1 and "no GPIO on this machine" in messages[0]
    assert "the keyboard stands in" in messages[0]


def test_without_gpio_a_bad_config_is_still_an_error(no_gpio, clock):
    with pytest.raises(ConfigError, match=r"\[buttons.back\] pin: GPIO17 is already used"):
        open_panel("[buttons]\nconfirm = 17\nback = 17", clock)


def test_gpiozero_pin_factory_is_honoured(monkeypatch):
    saved = Device.pin_factory
    Device.pin_factory = None
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    monkeypatch.setattr(buttons, "_factory_checked", False)
    try:
        assert isinstance(buttons.gpio_pin_factory(), MockFactory)
    finally:
        Device.pin_factory.reset()
        Device.pin_factory = saved


# -- config errors ----------------------------------------------------------------------------


def specs(toml: str):
    return read_buttons(load_config_text(toml, "cfg.toml"))


@pytest.mark.parametrize("toml, message", [
    ("[buttons]\nconfirm = 17\nback = 17",
     "cfg.toml: [buttons.back] pin: GPIO17 is already used by [buttons.confirm]"),
    ('[buttons]\nlayout = "default"\nundo = 22',
     "cfg.toml: [buttons.undo] pin: GPIO22 is already used by [buttons.next] of the default "
     "layout"),
    ("[buttons]\nconfirm = 28",
     "cfg.toml: [buttons.confirm] pin: there is no GPIO28 on the 40-pin header (BCM 2 to 27)"),
    ("[buttons]\nconfirm = 0",
     "cfg.toml: [buttons.confirm] pin: GPIO0 is kept for the HAT ID EEPROM; pick another pin"),
    ('[buttons]\nconfirm = "BOARD1"',
     "cfg.toml: [buttons.confirm] pin: physical pin 1 is not a GPIO pin of the 40-pin header"),
    ('[buttons]\nconfirm = "pin seventeen"',
     "cfg.toml: [buttons.confirm] pin: 'pin seventeen' is not a pin"),
    ("[buttons]\nconfirm = 1.5",
     'cfg.toml: [buttons.confirm] pin: must be a BCM number like 17'),
    ("[buttons]\nconfrim = 17",
     "cfg.toml: [buttons]: unknown control 'confrim' (known: confirm, back"),
    ("[buttons]\nconfrim = 17", "did you mean 'confirm'?"),
    ("[buttons]\nseat_5 = 17", "unknown control 'seat_5'"),
    ("[buttons.confirm]\npin = 17\nbounce = 5",
     "cfg.toml: [buttons.confirm] bounce: unknown setting 'bounce'"),
    ("[buttons.confirm]\npin = 17\nbounce_ms = -5",
     "cfg.toml: [buttons.confirm] bounce_ms: must be between 0 and 500 milliseconds, not -5"),
    ('[buttons]\nbounce_ms = "30ms"\nconfirm = 17',
     "cfg.toml: [buttons] bounce_ms: must be a number of milliseconds, not '30ms'"),
    ("[buttons.back]\npin = 27\nhold_s = 0.05",
     "cfg.toml: [buttons.back] hold_s: must be between 0.2 and 30 seconds"),
    ('[buttons.back]\npin = 27\nhold = "undo_all"',
     "cfg.toml: [buttons.back] hold: unknown long press 'undo_all'"),
    ("[buttons.back]\nhold_s = 2", "cfg.toml: [buttons.back] pin: missing"),
    ("[buttons.confirm]\npin = 2\npull_up = false",
     "cfg.toml: [buttons.confirm] pull_up: GPIO2 has a pull-up resistor fixed on the board"),
    ("[buttons.confirm]\npin = 17\npull_up = 1",
     "cfg.toml: [buttons.confirm] pull_up: must be true or false, not 1"),
    ('[buttons]\nlayout = "big"', 'cfg.toml: [buttons] layout: must be "none" or "default"'),
])
def test_bad_button_config_names_the_entry(toml, message):
    with pytest.raises(ConfigError) as err:
        specs(toml)
    assert message in str(err.value)


def test_pins_may_be_written_as_bcm_gpio_or_physical_names():
    assert [s.pin for s in specs('[buttons]\nconfirm = "GPIO17"\nback = "BOARD13"\n'
                                 'next = "bcm22"')] == [17, 27, 22]


def test_default_layout_can_be_trimmed_and_adjusted():
    got = specs('[buttons]\nlayout = "default"\nroll = false\nseat_3 = false\nseat_4 = false\n'
                'hold_s = 1.5\n[buttons.back]\nhold = "none"\n[buttons.confirm]\npin = 4')
    by_name = {s.name: s for s in got}
    assert set(by_name) == {"confirm", "back", "next", "previous", "end_turn", "seat_1", "seat_2"}
    assert by_name["confirm"].pin == 4 and by_name["back"].pin == 27
    assert by_name["back"].hold == "none" and by_name["next"].hold_s == 1.5


def test_no_buttons_section_means_no_buttons():
    assert specs("") == ()


def test_back_holds_for_undo_by_default():
    (back,) = specs("[buttons]\nback = 27")
    assert back.hold == "undo" and back.long_event() == InputEvent("undo", long=True)


def test_header_table_matches_gpiozero_board_data():
    header = MockFactory().board_info.headers["J8"]
    from_gpiozero = {int(p.name[4:]): n for n, p in header.pins.items()
                     if p.name.startswith("GPIO")}
    assert dict(HEADER) == from_gpiozero
    assert parse_pin("BOARD40") == 21


# -- the input queue --------------------------------------------------------------------------


def test_the_queue_drops_presses_when_the_app_falls_behind(caplog):
    woken = []
    inputs = InputQueue(maxsize=3, wake=lambda: woken.append(1))
    with caplog.at_level(logging.WARNING, logger="hardware.inputs"):
        posted = [inputs.post(InputEvent("next")) for _ in range(10)]
    assert posted == [True] * 3 + [False] * 7
    assert inputs.dropped == 7 and len(woken) == 3
    assert len(caplog.records) == 1  # one warning per overflow, not one per press
    assert len(inputs.drain()) == 3 and inputs.drain() == []
    assert inputs.get(timeout=0.01) is None


def test_input_events_are_checked():
    with pytest.raises(ValueError, match="unknown control 'jump'"):
        InputEvent("jump")
    with pytest.raises(ValueError, match="names a seat"):
        InputEvent("seat")
    with pytest.raises(ValueError, match="names a seat"):
        InputEvent("confirm", seat=1)
