"""MirrorHub: snapshots from Table updates, the log, redaction, and seat tokens."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import pytest

from companion.net.hub import MirrorHub, SeatRefused, game_summary


@dataclass(frozen=True)
class FakeUpdate:
    """Shaped like companion.table.Update, so the hub can be tested on its own."""

    game_id: int
    game: str
    kind: str
    seq: int
    action: dict[str, Any] | None
    events: list[dict[str, Any]]
    text: str
    put_back: list[str]
    state: Any
    public: dict[str, Any]
    over: bool = False
    extra: dict[str, Any] = field(default_factory=dict)


def public_of(hub: MirrorHub) -> dict[str, Any]:
    return json.loads(hub.snapshot().public)


def test_an_idle_hub_says_no_game_is_in_progress():
    message = public_of(MirrorHub())
    assert message["status"] == "idle"
    assert message["game"] is None and message["view"] is None


def test_each_update_becomes_a_new_version_with_its_log_line(secrets_game):
    hub = MirrorHub()
    state = secrets_game.new_game({"players": ["Ann", "Ben"]})
    view = secrets_game.view(state, None)
    hub.feed(FakeUpdate(1, "mirrortest", "start", 0, None, [], "mirrortest game 1.", [], state, view))
    first = hub.snapshot()
    assert first.status == "playing" and first.summary == {"round": 1, "players": 2}
    # the "start" update repeats the state for a newcomer: it is no log line
    assert public_of(hub)["log"] == []
    hub.feed(FakeUpdate(1, "mirrortest", "action", 1, {"type": "advance"}, [], "Move 1.", [], state, view))
    second = public_of(hub)
    assert hub.snapshot().version > first.version
    assert [line["text"] for line in second["log"]] == ["Move 1."]
    assert second["last"] == {"kind": "action", "seq": 1, "text": "Move 1.", "put_back": []}


def test_a_private_action_is_logged_without_its_secret(secrets_game):
    hub = MirrorHub(seat_actions={"mirrortest": {"enter_goal"}})
    state = secrets_game.new_game({})
    view = secrets_game.view(state, None)
    action = {"type": "enter_goal", "seat": 1, "goal": "moon-mermaid-rocket"}
    hub.feed(FakeUpdate(1, "mirrortest", "action", 1, action, [], "Seat 2 chose moon-mermaid-rocket.", [], state, view))
    assert b"moon-mermaid-rocket" not in hub.snapshot().public
    assert public_of(hub)["log"][-1]["text"] == "Ben entered a secret card privately."
    # undoing it quotes describe() again in the Table's line: rebuilt from the redacted line
    undo_events = [{"type": "undone", "seq": 1, "text": "Seat 2 chose moon-mermaid-rocket."}]
    hub.feed(FakeUpdate(1, "mirrortest", "undo", 2, {"type": "undo", "steps": 1}, undo_events,
                        "Undo: Seat 2 chose moon-mermaid-rocket.", [], state, view))
    public = hub.snapshot().public
    assert b"moon-mermaid-rocket" not in public
    lines = public_of(hub)["log"]
    assert lines[0]["undone"] is True
    assert lines[-1] == {"seq": 2, "text": "Undo: Ben entered a secret card privately.", "kind": "undo", "undone": False}


def test_an_undo_strikes_what_it_took_back_and_says_what_to_put_back(secrets_game):
    hub = MirrorHub()
    state = secrets_game.new_game({})
    view = secrets_game.view(state, None)
    for seq in (1, 2):
        hub.feed(FakeUpdate(1, "mirrortest", "action", seq, {"type": "advance"}, [], f"Move {seq}.", [], state, view))
    events = [{"type": "undone", "seq": 2, "text": "Move 2."}]
    hub.feed(FakeUpdate(1, "mirrortest", "undo", 3, {"type": "undo"}, events, "Undo: Move 2.", ["Put the marker back."], state, view))
    message = public_of(hub)
    assert [(line["seq"], line["undone"]) for line in message["log"]] == [(1, False), (2, True), (3, False)]
    assert message["last"]["put_back"] == ["Put the marker back."]


def test_seat_tokens_are_long_random_and_die_with_their_game(secrets_game):
    hub = MirrorHub()
    with pytest.raises(LookupError):
        hub.seat_token(0)  # no game, no seats
    state = secrets_game.new_game({})
    view = secrets_game.view(state, None)
    hub.feed(FakeUpdate(1, "mirrortest", "start", 0, None, [], "", [], state, view))
    ann, ben = hub.seat_token(0), hub.seat_token(1)
    assert ann != ben and hub.seat_token(0) == ann
    assert len(ann) >= 22 and set(ann) <= set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
    assert hub.seat_for(ann) == 0 and hub.seat_for(ben) == 1
    assert hub.seat_for(ann[:-1] + ("A" if ann[-1] != "A" else "B")) is None
    hub.feed(FakeUpdate(2, "mirrortest", "start", 0, None, [], "", [], state, view))
    assert hub.seat_for(ann) is None and hub.seat_for(ben) is None
    fresh = hub.seat_token(0)
    assert fresh != ann
    hub.detach()
    assert hub.seat_for(fresh) is None and hub.snapshot().status == "idle"


def test_a_seat_message_holds_that_seat_s_view_only(secrets_game):
    hub = MirrorHub(seat_actions={"mirrortest": {"enter_goal"}}, rules_for=lambda name: secrets_game)
    state = secrets_game.new_game({})
    hub.feed(FakeUpdate(1, "mirrortest", "start", 0, None, [], "", [], state, secrets_game.view(state, None)))
    snapshot = hub.snapshot()
    ben = json.loads(hub.seat_message(snapshot, 1))
    assert ben["seat"] == 1 and ben["view"]["you"]["secret"] == state["secrets"][1]
    assert state["secrets"][0].encode() not in hub.seat_message(snapshot, 1)
    assert {a["goal"] for a in ben["actions"]} == {"cloud-octopus-dragon", "moon-mermaid-rocket"}
    assert all(a["seat"] == 1 and a["type"] == "enter_goal" for a in ben["actions"])


def test_a_phone_may_only_send_its_own_private_actions(secrets_game):
    hub = MirrorHub(seat_actions={"mirrortest": {"enter_goal"}})
    state = secrets_game.new_game({})
    hub.feed(FakeUpdate(1, "mirrortest", "start", 0, None, [], "", [], state, secrets_game.view(state, None)))
    token = hub.seat_token(0)
    with pytest.raises(SeatRefused) as no_table:
        hub.submit(token, {"type": "enter_goal", "seat": 0, "goal": "x"})
    assert no_table.value.code == "no_table"
    with pytest.raises(SeatRefused) as unknown:
        hub.submit("not-a-token-at-all-000", {"type": "enter_goal", "seat": 0})
    assert unknown.value.code == "unknown_seat"


def test_game_summary_reads_round_and_players_defensively():
    assert game_summary({"round": 2, "players": [{}, {}, {}], "phase": "daemon"}) == {
        "round": 2, "players": 3, "phase": "daemon"}
    assert game_summary({"characters": {"ryan": {}, "chloe": {}}}) == {"players": 2}
    assert game_summary(None) == {}
    assert game_summary({"round": [1]}) == {}
