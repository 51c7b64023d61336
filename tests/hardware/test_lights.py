"""Lights and buzzer following a sequence of Table updates, on gpiozero's MockFactory."""

from __future__ import annotations

import time

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory, MockPWMPin

from companion.config import ConfigError, load_config_text
from companion.table import Update
from hardware import buttons
from hardware.lights import DEFAULT_LIGHTS, LightSignals, Lights, read_lights, signals_from_view

CONFIG = """
[lights]
seat_1 = 20
seat_2 = 21
seat_3 = 19
[lights.daemon]
pin = 12
pulse_s = 0.5
[lights.buzzer]
pin = 4
chirp_ms = 20
"""


@pytest.fixture
def mock_factory():
    """gpiozero's mock pins with PWM, so the Daemon's light can fade."""
    saved = Device.pin_factory
    Device.pin_factory = MockFactory(pin_class=MockPWMPin)
    try:
        yield Device.pin_factory
    finally:
        Device.pin_factory.reset()
        Device.pin_factory = saved


@pytest.fixture
def lights(mock_factory):
    lights = Lights.open(load_config_text(CONFIG, "lights.toml"))
    yield lights
    lights.close()


def update(kind="action", public=None, events=(), over=False, seq=1) -> Update:
    return Update(game_id=1, game="chainsomnia", kind=kind, seq=seq, action=None,
                  events=list(events), text="", put_back=[], state=None,
                  public=public or {}, over=over)


CHARACTERS = [{"id": "ryan", "seat": 0}, {"id": "chloe", "seat": 1}, {"id": "isaac", "seat": 2}]


def castle(turn: str | None, phase: str = "players", pending_seat: int | None = None) -> dict:
    """The parts of a CHAINsomnia public view the lights read."""
    pending = None if pending_seat is None else {"kind": "draw", "seat": pending_seat}
    return {"game": "chainsomnia", "phase": phase, "turn": turn, "characters": CHARACTERS,
            "pending": pending}


def dream(seat: int) -> dict:
    """The parts of a Somnicum public view the lights read."""
    return {"game": "somnicum", "phase": "turn", "turn": seat, "actor": seat,
            "pending": {"phase": "turn", "seat": seat}}


def lit_seats(lights: Lights) -> list[int]:
    return [n for n in range(3) if lights.devices[f"seat_{n + 1}"].is_lit]


def rising_edges(pin) -> int:
    states = [s.state for s in pin.states]
    return sum(1 for a, b in zip(states, states[1:]) if b and not a)


def settle(seconds: float = 0.3) -> None:
    time.sleep(seconds)  # let gpiozero's background blink threads finish


def wait_until(check, timeout: float = 3.0) -> bool:
    """Polls `check` while gpiozero's blink thread works (slower on a loaded CI machine)."""
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


def fading_levels(pin) -> int:
    return len({round(s.state, 2) for s in pin.states} - {0, 1})


def test_the_active_seats_light_follows_the_turns(lights):
    lights.follow(update("start", castle("ryan")))
    assert lit_seats(lights) == [0]
    lights.follow(update(public=castle("isaac")))
    assert lit_seats(lights) == [2]
    lights.follow(update(public=castle("isaac", pending_seat=1)))  # Chloe must flee
    assert lit_seats(lights) == [1]
    lights.follow(update(public=dream(2)))
    assert lit_seats(lights) == [2]


def test_the_daemons_turn_darkens_the_seats_and_pulses_red(lights, mock_factory):
    red = mock_factory.pin(12)
    lights.follow(update(public=castle("chloe")))
    lights.follow(update(public=castle(None, phase="daemon")))
    assert lit_seats(lights) == []
    assert wait_until(lambda: fading_levels(red) >= 3)  # a fade, not a blink
    pulse = lights.devices["daemon"]._blink_thread
    lights.follow(update(public=castle(None, phase="daemon", pending_seat=0), seq=2))
    assert lights.devices["daemon"]._blink_thread is pulse  # the breath is not restarted
    assert lit_seats(lights) == [0]  # the first player draws the Daemon's card
    lights.follow(update(public=castle("isaac"), seq=3))
    assert lights.devices["daemon"].value == 0 and lit_seats(lights) == [2]
    red.clear_states()
    settle(0.2)
    assert [s.state for s in red.states] == [0]  # and stays dark


def test_a_daemon_light_without_pwm_blinks(mock_factory):
    config = "[lights.daemon]\npin = 12\npwm = false\npulse_s = 0.5"
    lights = Lights.open(load_config_text(config))
    lights.show(LightSignals(daemon_turn=True))
    pin = mock_factory.pin(12)
    assert wait_until(lambda: rising_edges(pin) >= 2)
    assert {s.state for s in pin.states} == {False, True}
    lights.close()


def test_the_buzzer_chirps_once_for_a_cage(lights, mock_factory):
    buzzer = mock_factory.pin(4)
    lights.follow(update(public=castle("ryan"),
                         events=[{"type": "chains_added", "n": 1},
                                 {"type": "caged", "character": "chloe"}]))
    assert wait_until(lambda: rising_edges(buzzer) == 1 and not buzzer.state)
    settle(0.1)
    assert rising_edges(buzzer) == 1


def test_the_buzzer_chirps_three_times_when_the_game_ends(lights, mock_factory):
    buzzer = mock_factory.pin(4)
    lights.follow(update(public=castle("ryan"), over=True))
    settle()
    assert rising_edges(buzzer) == 0
    lights.follow(update("end", public=castle("ryan"), over=True))
    assert wait_until(lambda: rising_edges(buzzer) == 3 and not buzzer.state)
    settle(0.1)
    assert rising_edges(buzzer) == 3 and lit_seats(lights) == []


def test_undo_and_late_subscribers_do_not_chirp_again(lights, mock_factory):
    caged = [{"type": "caged", "character": "chloe"}]
    lights.follow(update("start", public=castle("ryan"), events=caged))
    lights.follow(update("undo", public=castle("ryan"), events=caged))
    settle()
    assert rising_edges(mock_factory.pin(4)) == 0


def test_leds_wired_to_3v3_light_on_a_low_pin(mock_factory):
    lights = Lights.open(load_config_text("[lights]\nactive_high = false\nseat_1 = 20"))
    lights.show(LightSignals(active_seat=0))
    assert mock_factory.pin(20).state == 0
    lights.show(LightSignals(active_seat=None))
    assert mock_factory.pin(20).state == 1
    lights.close()


def test_default_lights_fit_beside_the_default_buttons(mock_factory):
    config = load_config_text('[buttons]\nlayout = "default"\n[lights]\nlayout = "default"')
    lights = Lights.open(config)
    assert {name: spec.pin for name, spec in lights.specs.items()} == dict(DEFAULT_LIGHTS)
    lights.close()


def test_without_gpio_the_lights_stay_dark_and_harmless(monkeypatch):
    saved = Device.pin_factory
    Device.pin_factory = None
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "no-such-factory")
    monkeypatch.setattr(buttons, "_factory_checked", False)
    try:
        lights = Lights.open(load_config_text(CONFIG))
        assert not lights.active
        lights.follow(update("end", public=castle("ryan"), over=True))
    finally:
        Device.pin_factory = saved


@pytest.mark.parametrize("toml, message", [
    ("[buttons]\nconfirm = 17\n[lights]\nseat_1 = 17",
     "cfg.toml: [lights.seat_1] pin: GPIO17 is already used by [buttons.confirm]"),
    ("[lights]\nseat_1 = 20\nseat_2 = 20",
     "cfg.toml: [lights.seat_2] pin: GPIO20 is already used by [lights.seat_1]"),
    ('[buttons]\nlayout = "default"\n[lights]\nbuzzer = 5',
     "cfg.toml: [lights.buzzer] pin: GPIO5 is already used by [buttons.seat_1]"),
    ("[lights]\nseat_9 = 20", "cfg.toml: [lights]: unknown light 'seat_9'"),
    ("[lights]\ndeamon = 12", "did you mean 'daemon'?"),
    ("[lights.seat_1]\npin = 20\npulse_s = 2",
     "cfg.toml: [lights.seat_1] pulse_s: unknown setting 'pulse_s'"),
    ("[lights.daemon]\npin = 12\npulse_s = 0.1",
     "cfg.toml: [lights.daemon] pulse_s: must be between 0.5 and 10 seconds, not 0.1"),
    ("[lights.buzzer]\npin = 4\nchirp_ms = 5000",
     "cfg.toml: [lights.buzzer] chirp_ms: must be between 20 and 1000 milliseconds"),
    ("[lights]\nseat_1 = 41", "cfg.toml: [lights.seat_1] pin: there is no GPIO41"),
    ("[lights.daemon]\npwm = true", "cfg.toml: [lights.daemon] pin: missing"),
    ('[lights]\nactive_high = "yes"\nseat_1 = 20',
     "cfg.toml: [lights] active_high: must be true or false, not 'yes'"),
])
def test_bad_light_config_names_the_entry(toml, message):
    with pytest.raises(ConfigError) as err:
        read_lights(load_config_text(toml, "cfg.toml"))
    assert message in str(err.value)


def test_the_default_layout_can_lose_lights():
    specs = read_lights(load_config_text('[lights]\nlayout = "default"\nbuzzer = false\n'
                                         'seat_4 = false'))
    assert [s.name for s in specs] == ["seat_1", "seat_2", "seat_3", "daemon"]


@pytest.mark.parametrize("public, events, kind, over, expected", [
    (castle("chloe"), [], "action", False, LightSignals(active_seat=1)),
    (castle("chloe", pending_seat=2), [], "action", False, LightSignals(active_seat=2)),
    (castle(None, phase="daemon"), [], "action", False, LightSignals(daemon_turn=True)),
    (castle(None, "daemon", 0), [], "action", False, LightSignals(active_seat=0, daemon_turn=True)),
    (castle("nobody"), [], "action", False, LightSignals()),
    (dream(3), [], "action", False, LightSignals(active_seat=3)),
    ({"turn": 0, "actor": None, "pending": {"seat": None}}, [], "action", False, LightSignals()),
    ({"turn": True}, [], "action", False, LightSignals()),
    (castle("ryan"), [{"type": "caged"}], "action", False, LightSignals(active_seat=0, chirps=1)),
    (castle("ryan"), [{"type": "caged"}], "action", True, LightSignals(chirps=1)),
    (castle("ryan"), [], "end", True, LightSignals(chirps=3)),
])
def test_signals_read_from_the_public_view(public, events, kind, over, expected):
    assert signals_from_view(public, events, kind=kind, over=over) == expected


def test_signals_from_the_games_own_views():
    from companion.chainsomnia import RULES as CHAINSOMNIA
    from companion.somnicum import RULES as SOMNICUM

    state = CHAINSOMNIA.new_game({"players": 2, "mode": "beginner", "seed": 3})
    public = CHAINSOMNIA.view(state, None)
    first = next(c["seat"] for c in public["characters"] if c["id"] == public["turn"])
    assert signals_from_view(public) == LightSignals(active_seat=first)
    state = SOMNICUM.new_game({"players": ["Ana", "Ben"], "seed": 5, "decks": "digital"})
    public = SOMNICUM.view(state, None)  # the flywheels are placed by the first player's right
    assert signals_from_view(public) == LightSignals(active_seat=public["actor"])
    assert public["actor"] == 1
