"""The GPIO button panel: arcade buttons to confirm, cancel, step through choices, end the turn.

Each control of the panel is a gpiozero ``Button`` built from the ``[buttons]`` section of the
config (see docs/HARDWARE.md for the TOML shape and the default layout). A press becomes an
``InputEvent`` posted to the app's ``InputQueue``; the gpiozero callbacks do nothing else, so
they never touch a Table or a widget.

Debouncing, long presses and chatter are handled here, in software, on an injectable clock:
the same logic whatever pin factory is in use (lgpio on a Pi 5, gpiozero's ``MockFactory`` in
the tests). A button held for minutes sends one long press; a chattering contact is muted until
it settles.

>>> from gpiozero import Device
>>> from gpiozero.pins.mock import MockFactory
>>> from companion.config import load_config_text
>>> from hardware.inputs import InputQueue, ManualClock
>>> Device.pin_factory = MockFactory()
>>> inputs, clock = InputQueue(), ManualClock()
>>> panel = ButtonPanel.open(load_config_text("[buttons]\\nconfirm = 17"), inputs, clock=clock)
>>> Device.pin_factory.pin(17).drive_low()   # pressed: the button pulls GPIO17 to ground
>>> [(e.control, e.source) for e in inputs.drain()]
[('confirm', 'gpio')]
>>> panel.close(); Device.pin_factory.reset(); Device.pin_factory = None
"""

from __future__ import annotations

import difflib
import logging
import threading
import warnings
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from companion.config import Config, ConfigError
from hardware.inputs import Cancel, Clock, InputEvent, InputQueue, SystemClock

log = logging.getLogger(__name__)

# The 40-pin header: BCM GPIO number -> physical pin. GPIO0/1 are the HAT ID EEPROM's I2C bus.
HEADER: Mapping[int, int] = {
    0: 27, 1: 28, 2: 3, 3: 5, 4: 7, 5: 29, 6: 31, 7: 26, 8: 24, 9: 21, 10: 19, 11: 23, 12: 32,
    13: 33, 14: 8, 15: 10, 16: 36, 17: 11, 18: 12, 19: 35, 20: 38, 21: 40, 22: 15, 23: 16,
    24: 18, 25: 22, 26: 37, 27: 13,
}  # fmt: skip
PHYSICAL_TO_BCM: Mapping[int, int] = {physical: bcm for bcm, physical in HEADER.items()}
GROUND_PINS = (6, 9, 14, 20, 25, 30, 34, 39)
RESERVED_PINS = {0: "the HAT ID EEPROM", 1: "the HAT ID EEPROM"}
FIXED_PULL_UP = {2, 3}  # I2C pins with 1.8 kOhm pull-ups soldered on the board

SEATS = 4  # both games seat at most four players
COMMANDS = ("confirm", "back", "next", "previous", "end_turn", "roll", "undo")
CONTROLS = COMMANDS + tuple(f"seat_{n}" for n in range(1, SEATS + 1))
HOLD_CHOICES = ("none",) + COMMANDS

# The panel the docs describe (docs/HARDWARE.md): `layout = "default"` starts from it.
DEFAULT_BUTTONS: Mapping[str, int] = {
    "confirm": 17, "back": 27, "next": 22, "previous": 23, "end_turn": 24, "roll": 25,
    "seat_1": 5, "seat_2": 6, "seat_3": 16, "seat_4": 26,
}  # fmt: skip
DEFAULT_HOLD: Mapping[str, str] = {"back": "undo"}  # holding back asks to undo

DEFAULT_BOUNCE_MS = 30.0
DEFAULT_HOLD_S = 1.0
MAX_PRESSES_PER_S = 8  # faster than any thumb: above it, the contact is chattering
QUIET_S = 1.0  # a muted button speaks again after this long without an edge

_PANEL_KEYS = ("layout", "bounce_ms", "hold_s", "pull_up")
_CONTROL_KEYS = ("pin", "pull_up", "bounce_ms", "hold_s", "hold")


# -- reading the config ---------------------------------------------------------------------


def _where(config: Config, section: str, name: str | None, key: str | None) -> str:
    table = f"[{section}.{name}]" if name else f"[{section}]"
    return f"{config.source}: {table}" + (f" {key}" if key else "")


def _fail(config: Config, section: str, name: str | None, key: str | None, problem: str) -> None:
    raise ConfigError(f"{_where(config, section, name, key)}: {problem}")


def _unknown(word: str, known: tuple[str, ...], what: str) -> str:
    close = difflib.get_close_matches(word, known, n=1)
    hint = f"; did you mean {close[0]!r}?" if close else ""
    return f"unknown {what} {word!r} (known: {', '.join(known)}){hint}"


def parse_pin(value: Any) -> int:
    """A pin as written in the config -> its BCM number; ValueError saying what is wrong.

    Accepted: a BCM number (``17``), ``"GPIO17"``, ``"BCM17"`` or a physical pin ``"BOARD11"``.
    """
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise ValueError(f"must be a BCM number like 17 or a name like \"GPIO17\", not {value!r}")
    if isinstance(value, str):
        text = value.strip().upper()
        for prefix in ("GPIO", "BCM"):
            if text.startswith(prefix) and text[len(prefix):].isdigit():
                value = int(text[len(prefix):])
                break
        else:
            if text.startswith("BOARD") and text[5:].isdigit():
                physical = int(text[5:])
                if physical not in PHYSICAL_TO_BCM:
                    raise ValueError(f"physical pin {physical} is not a GPIO pin of the 40-pin "
                                     "header (it is power, ground, or does not exist)")
                value = PHYSICAL_TO_BCM[physical]
            elif text.isdigit():
                value = int(text)
            else:
                raise ValueError(f"{value!r} is not a pin; write 17, \"GPIO17\" or \"BOARD11\"")
    assert isinstance(value, int)
    if value in RESERVED_PINS:
        raise ValueError(f"GPIO{value} is kept for {RESERVED_PINS[value]}; pick another pin")
    if value not in HEADER:
        raise ValueError(f"there is no GPIO{value} on the 40-pin header (BCM 2 to 27)")
    return value


def _number(config: Config, section: str, name: str | None, key: str, value: Any,
            low: float, high: float, unit: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        _fail(config, section, name, key, f"must be a number of {unit}, not {value!r}")
    if not low <= value <= high:
        _fail(config, section, name, key, f"must be between {low:g} and {high:g} {unit}, "
              f"not {value!r}")
    return float(value)


def _bool(config: Config, section: str, name: str | None, key: str, value: Any) -> bool:
    if not isinstance(value, bool):
        _fail(config, section, name, key, f"must be true or false, not {value!r}")
    return bool(value)


def claim_pin(config: Config, section: str, name: str, entry: dict[str, Any], used: dict[int, str],
              thing: str, *, from_layout: bool) -> int:
    """The entry's BCM pin, refused when missing, not on the header or already ``used``
    (which maps each pin taken so far to the entry that took it, and now records this one)."""
    if "pin" not in entry:
        _fail(config, section, name, "pin", f"missing: every {thing} needs the BCM pin it is wired to")
    try:
        pin = parse_pin(entry["pin"])
    except ValueError as err:
        _fail(config, section, name, "pin", str(err))
    if pin in used:
        _fail(config, section, name, "pin", f"GPIO{pin} is already used by {used[pin]}")
    used[pin] = f"[{section}.{name}]" + (" of the default layout" if from_layout else "")
    return pin


def _layout(config: Config, section: str, value: Any) -> str:
    if value not in ("none", "default"):
        _fail(config, section, None, "layout", f'must be "none" or "default", not {value!r}')
    return str(value)


@dataclass(frozen=True)
class ButtonSpec:
    """One control of the panel, validated."""

    name: str  # a name from CONTROLS
    pin: int  # BCM number
    pull_up: bool = True  # True: the button connects the pin to ground
    bounce_ms: float = DEFAULT_BOUNCE_MS
    hold_s: float = DEFAULT_HOLD_S
    hold: str = "none"  # what holding it sends, from HOLD_CHOICES

    @property
    def physical_pin(self) -> int:
        return HEADER[self.pin]

    def event(self, at: float = 0.0) -> InputEvent:
        """The event a short press sends."""
        if self.name.startswith("seat_"):
            return InputEvent("seat", seat=int(self.name[5:]) - 1, source="gpio", at=at)
        return InputEvent(self.name, source="gpio", at=at)

    def long_event(self, at: float = 0.0) -> InputEvent | None:
        """The event holding it sends, or None when holding means nothing more than a press."""
        if self.hold == "none":
            return None
        return InputEvent(self.hold, source="gpio", long=True, at=at)


def read_buttons(config: Config) -> tuple[ButtonSpec, ...]:
    """Validates ``[buttons]`` and returns the controls it describes, in CONTROLS order.

    Raises ConfigError naming the file, the entry and the key of the first problem.
    """
    raw = dict(config.buttons)
    section = "buttons"
    layout = _layout(config, section, raw.get("layout", "none"))
    bounce = _number(config, section, None, "bounce_ms", raw.get("bounce_ms", DEFAULT_BOUNCE_MS),
                     0, 500, "milliseconds")
    hold_s = _number(config, section, None, "hold_s", raw.get("hold_s", DEFAULT_HOLD_S),
                     0.2, 30, "seconds")
    pull_up = _bool(config, section, None, "pull_up", raw.get("pull_up", True))

    entries: dict[str, dict[str, Any]] = {}
    if layout == "default":
        entries = {name: {"pin": pin} for name, pin in DEFAULT_BUTTONS.items()}
    for name, value in raw.items():
        if name in _PANEL_KEYS:
            continue
        if name not in CONTROLS:
            _fail(config, section, None, None, _unknown(name, CONTROLS + _PANEL_KEYS, "control"))
        if value is False:  # `roll = false`: drop a control of the default layout
            entries.pop(name, None)
        elif isinstance(value, dict):
            for key in value:
                if key not in _CONTROL_KEYS:
                    _fail(config, section, name, key, _unknown(key, _CONTROL_KEYS, "setting"))
            entries[name] = {**entries.get(name, {}), **value}
        else:
            entries[name] = {**entries.get(name, {}), "pin": value}

    specs: list[ButtonSpec] = []
    used: dict[int, str] = {}
    for name in CONTROLS:
        if name not in entries:
            continue
        entry = entries[name]
        pin = claim_pin(config, section, name, entry, used, "button",
                        from_layout=layout == "default" and name not in raw)
        spec_pull_up = _bool(config, section, name, "pull_up", entry.get("pull_up", pull_up))
        if pin in FIXED_PULL_UP and not spec_pull_up:
            _fail(config, section, name, "pull_up", f"GPIO{pin} has a pull-up resistor fixed on "
                  "the board, so pull_up must be true")
        hold = entry.get("hold", DEFAULT_HOLD.get(name, "none"))
        if hold not in HOLD_CHOICES:
            _fail(config, section, name, "hold", _unknown(str(hold), HOLD_CHOICES, "long press"))
        specs.append(ButtonSpec(
            name=name,
            pin=pin,
            pull_up=spec_pull_up,
            bounce_ms=_number(config, section, name, "bounce_ms",
                              entry.get("bounce_ms", bounce), 0, 500, "milliseconds"),
            hold_s=_number(config, section, name, "hold_s", entry.get("hold_s", hold_s),
                           0.2, 30, "seconds"),
            hold=hold,
        ))
    return tuple(specs)


# -- the pin factory --------------------------------------------------------------------------

_factory_lock = threading.Lock()
_factory_checked = False


def gpio_pin_factory() -> Any | None:
    """gpiozero's pin factory, or None on a machine without GPIO (logged once).

    gpiozero picks the factory: ``GPIOZERO_PIN_FACTORY`` when set (``lgpio``, ``rpigpio``,
    ``native``, ``mock``...), otherwise the first that works here (lgpio on a Pi 5).
    """
    global _factory_checked
    from gpiozero import Device  # imported here so importing this module stays cheap

    if Device.pin_factory is not None:
        return Device.pin_factory
    with _factory_lock:
        if _factory_checked:
            return Device.pin_factory
        _factory_checked = True
        try:
            # one clear line below instead of a warning per library gpiozero falls back from
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                Device.ensure_pin_factory()
        except Exception as err:  # gpiozero raises BadPinFactory, or the library's own error
            log.warning("no GPIO on this machine (%s): buttons and lights are off, "
                        "the keyboard stands in", err)
            return None
        log.info("GPIO pin factory: %s", type(Device.pin_factory).__name__)
        return Device.pin_factory


# -- one control: debounce, long press, chatter -----------------------------------------------


class ControlSwitch:
    """Turns the raw edges of one button into input events.

    - Debounce: an edge within ``bounce_ms`` of the last accepted change is ignored, and the
      pin is read again when that window closes, so a release lost in the bounce is not lost.
    - Long press: a control with a ``hold`` sends its short event on release, or its long event
      once after ``hold_s``, never both; a control without one sends on press. Either way a
      button held for minutes sends exactly one event.
    - Chatter: more than MAX_PRESSES_PER_S presses in a second mutes the control (logged)
      until it has been quiet for QUIET_S.
    """

    def __init__(self, spec: ButtonSpec, post: Callable[[InputEvent], object], clock: Clock,
                 read: Callable[[], bool], pressed: bool = False) -> None:
        self.spec = spec
        self._post = post
        self._clock = clock
        self._read = read
        self._lock = threading.RLock()
        self._bounce_s = spec.bounce_ms / 1000.0
        self._pressed = pressed  # a button already down at start sends nothing until released
        self._changed_at = float("-inf")
        self._settle_pending = False
        self._hold_gen = 0
        self._hold_cancel: Cancel | None = None
        self._armed = False  # a press was accepted and its release may still send
        self._held = False
        self._presses: deque[float] = deque()
        self._muted = False
        self._last_edge = float("-inf")
        self._quiet_pending = False

    @property
    def pressed(self) -> bool:
        """The debounced state."""
        return self._pressed

    @property
    def muted(self) -> bool:
        return self._muted

    def edge(self, pressed: bool) -> None:
        """A raw edge from the pin (gpiozero's callback thread)."""
        with self._lock:
            now = self._clock.now()
            self._last_edge = now
            if self._muted:
                self._schedule_quiet_check()
            if pressed == self._pressed:
                return
            if now - self._changed_at < self._bounce_s:
                if not self._settle_pending:
                    self._settle_pending = True
                    self._clock.call_later(self._changed_at + self._bounce_s - now, self._settle)
                return
            self._accept(pressed, now)

    def _settle(self) -> None:
        with self._lock:
            self._settle_pending = False
            level = bool(self._read())
            if level != self._pressed:
                self._accept(level, self._clock.now())

    def _accept(self, pressed: bool, now: float) -> None:
        self._pressed = pressed
        self._changed_at = now
        self._cancel_hold()
        if pressed:
            self._held = False
            self._armed = False
            if self._muted or self._chattering(now):
                return
            self._armed = True
            if self.spec.long_event() is None:
                self._post(self.spec.event(now))
            else:
                gen = self._hold_gen
                self._hold_cancel = self._clock.call_later(self.spec.hold_s,
                                                           lambda: self._hold_due(gen))
        else:
            if self._armed and not self._held and self.spec.long_event() is not None:
                self._post(self.spec.event(now))
            self._armed = False

    def _hold_due(self, gen: int) -> None:
        with self._lock:
            if gen != self._hold_gen or not self._pressed or not self._armed or self._muted:
                return
            self._held = True
            event = self.spec.long_event(self._clock.now())
            if event is not None:
                self._post(event)

    def _cancel_hold(self) -> None:
        self._hold_gen += 1
        if self._hold_cancel is not None:
            self._hold_cancel()
            self._hold_cancel = None

    def _chattering(self, now: float) -> bool:
        self._presses.append(now)
        while self._presses and now - self._presses[0] >= 1.0:
            self._presses.popleft()
        if len(self._presses) <= MAX_PRESSES_PER_S:
            return False
        self._muted = True
        self._presses.clear()
        log.warning("button %s (GPIO%d) is chattering: ignored until it has been still for %gs",
                    self.spec.name, self.spec.pin, QUIET_S)
        self._schedule_quiet_check()
        return True

    def _schedule_quiet_check(self) -> None:
        if not self._quiet_pending:
            self._quiet_pending = True
            delay = max(0.0, self._last_edge + QUIET_S - self._clock.now())
            self._clock.call_later(delay, self._quiet_check)

    def _quiet_check(self) -> None:
        with self._lock:
            self._quiet_pending = False
            if not self._muted:
                return
            if self._clock.now() - self._last_edge >= QUIET_S - 1e-9:
                self._muted = False
                self._armed = False
                log.info("button %s (GPIO%d) has settled", self.spec.name, self.spec.pin)
            else:
                self._schedule_quiet_check()


# -- the panel --------------------------------------------------------------------------------


class ButtonPanel:
    """The buttons of the config, posting to one input queue.

    ``ButtonPanel.open(config, inputs)`` validates ``[buttons]`` (ConfigError on a bad entry,
    with or without GPIO), then opens each button. Without GPIO it logs once and stays empty:
    ``panel.active`` is False and the keyboard stands in.
    """

    def __init__(self, specs: tuple[ButtonSpec, ...], switches: dict[str, ControlSwitch],
                 devices: list[Any]) -> None:
        self.specs = specs
        self.switches = switches
        self._devices = devices

    @property
    def active(self) -> bool:
        return bool(self._devices)

    @classmethod
    def open(cls, config: Config, inputs: InputQueue, *, pin_factory: Any | None = None,
             clock: Clock | None = None) -> ButtonPanel:
        specs = read_buttons(config)
        if not specs:
            return cls(specs, {}, [])
        factory = pin_factory if pin_factory is not None else gpio_pin_factory()
        if factory is None:
            return cls(specs, {}, [])
        from gpiozero import Button

        clock = clock or SystemClock()
        switches: dict[str, ControlSwitch] = {}
        devices: list[Any] = []
        try:
            for spec in specs:
                # No gpiozero bounce_time: some back-ends drop the release edge inside it;
                # ControlSwitch debounces the same way on every factory.
                button = Button(spec.pin, pull_up=spec.pull_up, pin_factory=factory)
                devices.append(button)
                switch = ControlSwitch(spec, inputs.post, clock,
                                       read=lambda b=button: bool(b.is_pressed),
                                       pressed=bool(button.is_pressed))
                button.when_pressed = lambda s=switch: s.edge(True)
                button.when_released = lambda s=switch: s.edge(False)
                switches[spec.name] = switch
        except Exception as err:
            for device in devices:
                device.close()
            raise ConfigError(f"{config.source}: [buttons.{spec.name}] pin: GPIO{spec.pin} "
                              f"cannot be opened: {err}") from None
        log.info("button panel: %s", ", ".join(f"{s.name}=GPIO{s.pin}" for s in specs))
        return cls(specs, switches, devices)

    def close(self) -> None:
        for device in self._devices:
            device.when_pressed = None
            device.when_released = None
            device.close()
        self._devices = []
