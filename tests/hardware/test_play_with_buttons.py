"""Whole games played with the button panel alone, checked against the Table's journal.

The players' hands press gpiozero mock pins; the button panel turns the edges into input events;
the app's loop (``press_on_table``) feeds them to the focus model and the Table. Nothing else
touches the game: if an action is in the journal, buttons put it there.
"""

from __future__ import annotations

import time
from typing import Any

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory, MockPWMPin

from companion.chainsomnia.simulate import Chooser, greedy_policy
from companion.config import load_config_text
from companion.focus import Effect, Focus, press_on_table, route_to, seat_names_from_view
from companion.journal import Journal
from companion.table import Table
from hardware.buttons import DEFAULT_BUTTONS, ButtonPanel
from hardware.inputs import InputQueue, ManualClock
from hardware.lights import Lights

PANEL = """
[buttons]
layout = "default"
[lights]
layout = "default"
[lights.daemon]
pin = 12
pulse_s = 0.5
"""


@pytest.fixture
def mock_factory():
    """gpiozero's mock pins (with PWM, for the Daemon's light)."""
    saved = Device.pin_factory
    Device.pin_factory = MockFactory(pin_class=MockPWMPin)
    try:
        yield Device.pin_factory
    finally:
        Device.pin_factory.reset()
        Device.pin_factory = saved


class Hands:
    """The players at the panel, and the app's input loop between the panel and the Table."""

    def __init__(self, factory: MockFactory, table: Table) -> None:
        self.factory = factory
        self.table = table
        self.clock = ManualClock()
        self.inputs = InputQueue()
        self.panel = ButtonPanel.open(load_config_text(PANEL), self.inputs, clock=self.clock)
        self.focus = Focus.of(table.legal_actions(),
                              seat_names=seat_names_from_view(table.view()))
        self.presses = 0
        self.effects: list[tuple[Effect, Any]] = []

    def _pin(self, control: str, seat: int | None = None):
        name = f"seat_{seat + 1}" if control == "seat" else control
        return self.factory.pin(DEFAULT_BUTTONS[name])

    def tap(self, control: str, seat: int | None = None) -> tuple[Effect, Any]:
        pin = self._pin(control, seat)
        pin.drive_low()
        self.clock.advance(0.08)
        pin.drive_high()
        self.clock.advance(0.08)
        return self._run_app()

    def hold(self, control: str, seconds: float = 1.5) -> tuple[Effect, Any]:
        pin = self._pin(control)
        pin.drive_low()
        self.clock.advance(seconds)
        pin.drive_high()
        self.clock.advance(0.08)
        return self._run_app()

    def _run_app(self) -> tuple[Effect, Any]:
        events = self.inputs.drain()
        assert len(events) == 1, events  # one press, one event
        event = events[0]
        assert event.source == "gpio"
        self.presses += 1
        self.focus, effect, outcome = press_on_table(self.table, self.focus, event.control,
                                                     event.seat, source=event.source)
        self.effects.append((effect, outcome))
        return effect, outcome

    def play(self, action: dict[str, Any]) -> Any:
        """Presses next/previous/back/confirm until `action` is sent; returns its Outcome."""
        self.focus = self.focus.with_actions(self.table.legal_actions())
        route = route_to(self.focus, action)
        for control in route:
            effect, outcome = self.tap(control)
        assert effect.kind == "submit" and effect.action == action
        assert outcome.accepted, outcome.error
        return outcome

    def close(self) -> None:
        self.panel.close()


def standing_actions(table: Table) -> list[dict[str, Any]]:
    return [e["action"] for e in table.log() if e["kind"] == "action" and not e["undone"]]


def chainsomnia_table(options: dict[str, Any]) -> tuple[Journal, Table]:
    journal = Journal(":memory:")
    return journal, Table.new(journal, "chainsomnia", options)


def test_a_whole_chainsomnia_game_with_buttons_only(mock_factory):
    journal, table = chainsomnia_table({"players": 2, "mode": "beginner", "seed": 5})
    hands = Hands(mock_factory, table)
    chooser = Chooser(5)  # the simulator's careful players decide; the buttons do the rest
    played: list[dict[str, Any]] = []
    undone_once = False
    while not table.over:
        action = greedy_policy(table.state, table.legal_actions(), chooser)
        hands.play(action)
        played.append(action)
        if len(played) == 12 and not undone_once:
            # Second thoughts: hold back to undo, then press the same action again.
            effect, outcome = hands.hold("back")
            assert effect.kind == "undo" and outcome.accepted and outcome.put_back
            undone_once = True
            hands.play(played[-1])
        assert len(played) < 200

    assert table.result()["result"] == "victory"
    assert standing_actions(table) == played
    log = table.log()
    assert [e["kind"] for e in log].count("undo") == 1
    assert [e["action"] for e in log if e["undone"]] == [played[11]]
    assert {e["source"] for e in log if e["kind"] != "start"} == {"gpio"}
    assert hands.presses > len(played)  # menus were walked, not shortcuts taken
    resumed = Table.resume(journal, table.game_id)
    assert table.rules.state_to_json(resumed.state) == table.rules.state_to_json(table.state)
    hands.close()
    table.close()


def wait_until(check, timeout: float = 3.0) -> bool:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


def seat_expected(public: dict[str, Any]) -> int | None:
    """Whose light should be on: whoever the pending decision waits for, else the character
    whose turn it is."""
    if public["pending"] is not None:
        return public["pending"]["seat"]
    return next((c["seat"] for c in public["characters"] if c["id"] == public["turn"]), None)


def test_a_game_with_real_dice_and_decks_entered_by_buttons_while_lights_follow(mock_factory):
    """Real dice and real decks: every roll and every drawn card is entered with the buttons,
    while the lights follow the Table (seat lights, the Daemon's pulse, the final chirps)."""
    journal, table = chainsomnia_table({"players": 2, "mode": "beginner", "seed": 2,
                                        "dice": "physical", "decks": "physical"})
    lights = Lights.open(load_config_text(PANEL))
    unsubscribe = table.subscribe(lights.follow)
    hands = Hands(mock_factory, table)
    chooser = Chooser(2)
    played, saw_daemon, rolls = [], False, 0
    while not table.over:
        legal = table.legal_actions()
        if legal[0]["type"] == "dice":
            # The roll button jumps to the dice menu; then the values are picked as usual.
            effect, _ = hands.tap("roll")
            assert effect.kind == "opened" and hands.focus.menu()[0].key == "values"
            rolls += 1
        action = greedy_policy(table.state, legal, chooser)
        hands.play(action)
        played.append(action)
        public = table.view()
        expected = seat_expected(public)
        daemon = public["phase"] == "daemon"
        saw_daemon = saw_daemon or daemon
        assert wait_until(lambda: [n for n in range(2) if lights.devices[f"seat_{n + 1}"].is_lit]
                          == ([] if expected is None else [expected]))
        assert wait_until(lambda: (lights.devices["daemon"].value > 0
                                   or lights.devices["daemon"]._blink_thread is not None)
                          == daemon)
    assert saw_daemon and rolls > 0 and len(played) < 200
    buzzer = mock_factory.pin(4)
    assert wait_until(lambda: sum(1 for a, b in zip(buzzer.states, buzzer.states[1:])
                                  if b.state and not a.state) >= 3)  # the end: three chirps
    assert not any(lights.devices[f"seat_{n + 1}"].is_lit for n in range(4))
    assert standing_actions(table) == played
    assert any(a["type"] == "draw" for a in played) and any(a["type"] == "dice" for a in played)
    unsubscribe()
    lights.close()
    hands.close()
    table.close()


def test_a_seat_button_picks_that_seats_character(mock_factory):
    journal, table = chainsomnia_table({"players": 2, "mode": "beginner", "seed": 5})
    hands = Hands(mock_factory, table)
    seats = table.view()["seats"]
    legal = table.legal_actions()
    assert any(a["type"] == "give_chains" for a in legal)
    give = next(a for a in legal if a["type"] == "give_chains")
    hands.focus = hands.focus.with_actions(legal)
    for control in route_to(hands.focus, give)[:-1]:
        hands.tap(control)  # into the Give chains menus, one press short of sending
    while hands.focus.menu()[0].key != "to":
        hands.tap("back")
    other = seats[1][0]  # a character of the second seat
    effect, _ = hands.tap("seat", seat=1)
    assert effect.kind == "moved" and hands.focus.highlighted().value == other
    hands.close()
    table.close()


def test_a_somnicum_turn_with_buttons_only(mock_factory):
    journal = Journal(":memory:")
    table = Table.new(journal, "somnicum", {"players": ["Ana", "Ben"], "seed": 5,
                                            "decks": "digital"})
    hands = Hands(mock_factory, table)
    # Ben, on Ana's right, places the flywheels; then Ana plays her first turn.
    place = {"type": "place_flywheels", "gap": 4, "seat": 1}
    move = {"type": "move_flywheel", "flywheel": "white", "steps": 2, "seat": 0}
    hands.play(place)
    assert [o.label for o in hands.focus.menu()] == ["flywheel: black", "flywheel: white"]
    hands.play(move)
    attach = table.legal_actions()
    assert attach == [{"type": "attach", "level": 1, "seat": 0}]
    effect, outcome = hands.tap("confirm")  # one choice left: confirm sends it
    assert effect.action == attach[0] and outcome.accepted
    public = table.view()
    if public["phase"] == "end_turn":
        effect, outcome = hands.tap("end_turn")
        assert effect.kind == "submit" and outcome.accepted
    public = table.view()
    assert public["turn"] == 1  # Ben's turn now
    first_level = public["players"][0]["dream"][0]
    assert first_level["level"] == 1 and len(first_level["cards"]) == 1  # Ana's first card
    assert standing_actions(table)[:3] == [place, move, attach[0]]
    assert {e["source"] for e in table.log() if e["kind"] != "start"} == {"gpio"}
    hands.close()
    table.close()
