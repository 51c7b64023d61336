"""Lights and buzzer: the table's glance-able state, following the Table's updates.

Everything here is optional and described in the ``[lights]`` section of the config (see
docs/HARDWARE.md): one LED per seat, lit while that seat has to act, a red LED that pulses slowly
during the Daemon's turn in CHAINsomnia, and a buzzer that chirps once when a character is caged
and three times when the game ends.

``Lights.follow`` is a Table subscriber (``table.subscribe(lights.follow)``): it reads the
update's public view and events, never the Table itself.

>>> from gpiozero import Device
>>> from gpiozero.pins.mock import MockFactory, MockPWMPin
>>> from companion.config import load_config_text
>>> Device.pin_factory = MockFactory(pin_class=MockPWMPin)
>>> lights = Lights.open(load_config_text("[lights]\\nseat_1 = 20\\nseat_2 = 21"))
>>> lights.show(LightSignals(active_seat=1))
>>> lights.devices["seat_1"].is_lit, lights.devices["seat_2"].is_lit
(False, True)
>>> lights.close(); Device.pin_factory.reset(); Device.pin_factory = None
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.config import Config, ConfigError
from hardware.buttons import (
    SEATS,
    _bool,
    _fail,
    _layout,
    _number,
    _unknown,
    claim_pin,
    gpio_pin_factory,
    read_buttons,
)

log = logging.getLogger(__name__)

LIGHTS = tuple(f"seat_{n}" for n in range(1, SEATS + 1)) + ("daemon", "buzzer")

# The lights the docs describe: `layout = "default"` starts from them.
DEFAULT_LIGHTS: Mapping[str, int] = {
    "seat_1": 20, "seat_2": 21, "seat_3": 19, "seat_4": 13, "daemon": 12, "buzzer": 4,
}  # fmt: skip

DEFAULT_PULSE_S = 3.0  # one slow breath of the Daemon's light: fade in, fade out
DEFAULT_CHIRP_MS = 80.0
CAGED_CHIRPS = 1
END_CHIRPS = 3

_PANEL_KEYS = ("layout", "active_high")
_KEYS: Mapping[str, tuple[str, ...]] = {
    **{seat: ("pin", "active_high") for seat in LIGHTS[:SEATS]},
    "daemon": ("pin", "active_high", "pwm", "pulse_s"),
    "buzzer": ("pin", "active_high", "chirp_ms"),
}

# What the games' views and events call the Daemon's turn and a cage.
DAEMON_PHASE = "daemon"
CAGED_EVENT = "caged"


@dataclass(frozen=True)
class LightSpec:
    """One light (or the buzzer), validated."""

    name: str  # a name from LIGHTS
    pin: int  # BCM number
    active_high: bool = True  # False: the LED is wired from 3.3 V to the pin
    pwm: bool = True  # daemon: fade (PWMLED) rather than blink (LED)
    pulse_s: float = DEFAULT_PULSE_S
    chirp_ms: float = DEFAULT_CHIRP_MS


def read_lights(config: Config) -> tuple[LightSpec, ...]:
    """Validates ``[lights]`` (and that no light reuses a button's pin); ConfigError if wrong."""
    raw = dict(config.lights)
    section = "lights"
    layout = _layout(config, section, raw.get("layout", "none"))
    active_high = _bool(config, section, None, "active_high", raw.get("active_high", True))
    entries: dict[str, dict[str, Any]] = {}
    if layout == "default":
        entries = {name: {"pin": pin} for name, pin in DEFAULT_LIGHTS.items()}
    for name, value in raw.items():
        if name in _PANEL_KEYS:
            continue
        if name not in LIGHTS:
            _fail(config, section, None, None, _unknown(name, LIGHTS + _PANEL_KEYS, "light"))
        if value is False:
            entries.pop(name, None)
        elif isinstance(value, dict):
            for key in value:
                if key not in _KEYS[name]:
                    _fail(config, section, name, key, _unknown(key, _KEYS[name], "setting"))
            entries[name] = {**entries.get(name, {}), **value}
        else:
            entries[name] = {**entries.get(name, {}), "pin": value}

    used = {s.pin: f"[buttons.{s.name}]" for s in read_buttons(config)}
    specs: list[LightSpec] = []
    for name in LIGHTS:
        if name not in entries:
            continue
        entry = entries[name]
        pin = claim_pin(config, section, name, entry, used, "light",
                        from_layout=layout == "default" and name not in raw)
        specs.append(LightSpec(
            name=name,
            pin=pin,
            active_high=_bool(config, section, name, "active_high",
                              entry.get("active_high", active_high)),
            pwm=_bool(config, section, name, "pwm", entry.get("pwm", True)),
            pulse_s=_number(config, section, name, "pulse_s",
                            entry.get("pulse_s", DEFAULT_PULSE_S), 0.5, 10, "seconds"),
            chirp_ms=_number(config, section, name, "chirp_ms",
                             entry.get("chirp_ms", DEFAULT_CHIRP_MS), 20, 1000, "milliseconds"),
        ))
    return tuple(specs)


@dataclass(frozen=True)
class LightSignals:
    """What the lights should show: whose turn, the Daemon's turn, chirps to sound now."""

    active_seat: int | None = None
    daemon_turn: bool = False
    chirps: int = 0


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def seat_to_act(public: Mapping[str, Any]) -> int | None:
    """The seat that must act now, read from a game's public view.

    A pending decision names its seat (both games: ``pending.seat``; None while the table lays
    out cards nobody in particular owns). Otherwise Somnicum's ``actor``/``turn`` is a seat and
    CHAINsomnia's ``turn`` is a character, whose seat is in ``characters``.
    """
    pending = public.get("pending")
    if isinstance(pending, Mapping) and "seat" in pending:
        return _int(pending.get("seat"))
    for key in ("actor", "turn"):
        if _int(public.get(key)) is not None:
            return _int(public.get(key))
    turn = public.get("turn")
    if isinstance(turn, str):
        for character in public.get("characters") or []:
            if isinstance(character, Mapping) and character.get("id") == turn:
                return _int(character.get("seat"))
    return None


def signals_from_view(public: Mapping[str, Any], events: Sequence[Mapping[str, Any]] = (),
                      *, kind: str = "action", over: bool = False) -> LightSignals:
    """What the lights show for one update: the seat to act, the Daemon's turn (``phase`` is
    ``"daemon"``), and chirps: one for a ``caged`` event, three when the game ends."""
    if over:
        return LightSignals(chirps=END_CHIRPS if kind == "end" else _caged(events, kind))
    return LightSignals(active_seat=seat_to_act(public),
                        daemon_turn=public.get("phase") == DAEMON_PHASE,
                        chirps=_caged(events, kind))


def _caged(events: Sequence[Mapping[str, Any]], kind: str) -> int:
    if kind != "action":  # an undo or a late subscriber replays nothing aloud
        return 0
    return CAGED_CHIRPS if any(e.get("type") == CAGED_EVENT for e in events) else 0


def _pwm_or_blinking_led(spec: LightSpec, factory: Any, pwmled: Any, led: Any) -> Any:
    """A fading LED, or a blinking one (logged) where the pin factory has no PWM."""
    from gpiozero.exc import PinPWMUnsupported

    try:
        return pwmled(spec.pin, active_high=spec.active_high, pin_factory=factory)
    except PinPWMUnsupported:
        log.warning("[lights.daemon] GPIO%d: this pin factory has no PWM, so the Daemon's "
                    "light blinks instead of fading (set pwm = false to silence this)", spec.pin)
        return led(spec.pin, active_high=spec.active_high, pin_factory=factory)


class Lights:
    """The configured lights and buzzer. ``Lights.open(config)`` validates ``[lights]``
    (ConfigError on a bad entry) and opens them; without GPIO it stays dark (logged once by
    the pin factory check) and every call is harmless."""

    def __init__(self, specs: tuple[LightSpec, ...], devices: dict[str, Any]) -> None:
        self.specs = {s.name: s for s in specs}
        self.devices = devices
        self._shown = LightSignals()
        self._lock = threading.Lock()

    @property
    def active(self) -> bool:
        return bool(self.devices)

    @classmethod
    def open(cls, config: Config, *, pin_factory: Any | None = None) -> Lights:
        specs = read_lights(config)
        if not specs:
            return cls(specs, {})
        factory = pin_factory if pin_factory is not None else gpio_pin_factory()
        if factory is None:
            return cls(specs, {})
        from gpiozero import LED, PWMLED, Buzzer

        devices: dict[str, Any] = {}
        try:
            for spec in specs:
                if spec.name == "buzzer":
                    device = Buzzer(spec.pin, active_high=spec.active_high, pin_factory=factory)
                elif spec.name == "daemon" and spec.pwm:
                    device = _pwm_or_blinking_led(spec, factory, PWMLED, LED)
                else:
                    device = LED(spec.pin, active_high=spec.active_high, pin_factory=factory)
                devices[spec.name] = device
        except Exception as err:
            for device in devices.values():
                device.close()
            raise ConfigError(f"{config.source}: [lights.{spec.name}] pin: GPIO{spec.pin} "
                              f"cannot be opened: {str(err) or type(err).__name__}") from None
        log.info("lights: %s", ", ".join(f"{s.name}=GPIO{s.pin}" for s in specs))
        return cls(specs, devices)

    def follow(self, update: Any) -> None:
        """A Table subscriber: shows what one ``companion.table.Update`` says."""
        public = update.public if isinstance(update.public, Mapping) else {}
        self.show(signals_from_view(public, update.events or [], kind=update.kind,
                                    over=bool(update.over)))

    def show(self, signals: LightSignals) -> None:
        """Sets the lights; a light already showing the right thing is left alone, so the
        Daemon's pulse keeps breathing across updates."""
        with self._lock:
            shown, self._shown = self._shown, signals
            for n in range(SEATS):
                led = self.devices.get(f"seat_{n + 1}")
                lit = signals.active_seat == n
                if led is not None and lit != led.is_lit:
                    led.on() if lit else led.off()
            daemon = self.devices.get("daemon")
            if daemon is not None and signals.daemon_turn != shown.daemon_turn:
                if signals.daemon_turn:
                    half = self.specs["daemon"].pulse_s / 2
                    if hasattr(daemon, "pulse"):
                        daemon.pulse(fade_in_time=half, fade_out_time=half)
                    else:
                        daemon.blink(on_time=half, off_time=half)
                else:
                    daemon.off()
            buzzer = self.devices.get("buzzer")
            if buzzer is not None and signals.chirps:
                chirp = self.specs["buzzer"].chirp_ms / 1000
                buzzer.beep(on_time=chirp, off_time=chirp, n=signals.chirps)

    def close(self) -> None:
        for device in self.devices.values():
            device.close()
        self.devices = {}
