"""The mirror with the real games: CHAINsomnia and Somnicum played through a real Table."""

from __future__ import annotations

import asyncio
import json
import re
import urllib.error
import urllib.request
from typing import Any

import aiohttp

from companion.net.hub import SEAT_ACTIONS
from companion.net.server import STATIC_FILES
from companion.table import Table


async def follow(url: str, table: Table, act: Any) -> tuple[list[bytes], dict[str, Any]]:
    """Runs ``act()`` off the loop while reading the stream; returns every public byte and the
    last message once the stream has caught up with the Table."""
    seen: list[bytes] = []
    async with aiohttp.ClientSession() as http:
        async with http.ws_connect(f"{url}api/stream", max_msg_size=0) as ws:
            await asyncio.get_running_loop().run_in_executor(None, act)
            while True:
                message = await asyncio.wait_for(ws.receive(), 10)
                seen.append(message.data.encode())
                last = json.loads(message.data)
                if last.get("seq") == table.seq and not last.get("heartbeat"):
                    break
        for path in ["", "api/state", *(f"static/{name}" for name in STATIC_FILES)]:
            async with http.get(url + path) as reply:
                seen.append(await reply.read())
    return seen, last


def test_a_chainsomnia_game_is_mirrored_exactly_without_its_secrets(mirror, hub, journal, play):
    table = Table.new(journal, "chainsomnia", {"players": 3, "seed": 11})
    hub.attach(table)
    seen, last = asyncio.run(follow(mirror.url, table, lambda: play.chainsomnia(table, 80)))
    # what the phones hold is exactly the rules' public view of the Table's state
    assert last["view"] == json.loads(json.dumps(table.view(None)))
    assert table.log()[-1]["text"] in [line["text"] for line in last["log"]]
    secret = table.rules.state_to_json(table.state)
    markers = [str(secret["rng"]), *(f'"{tile}"' for tile in secret["boxed"])]
    for deck in ("castle_deck", "event_deck", "item_deck"):
        upcoming = secret[deck]["top"][:3]
        if len(upcoming) == 3:  # the order of what is still face down
            markers.append(",".join(json.dumps(card) for card in upcoming))
    public = b"\n".join(seen)
    for marker in markers:
        assert marker.encode() not in public, marker
    table.close()


def test_somnicum_goals_entered_on_phones_stay_private(mirror, hub, journal, play):
    table = Table.new(journal, "somnicum", {"players": ["Ann", "Ben", "Cleo"], "seed": 5, "decks": "physical"})
    play.somnicum(table, 60, until_phase="deal_goals")
    hub.attach(table)
    tokens = [hub.seat_token(seat) for seat in range(3)]

    async def enter_goals() -> list[dict[str, Any]]:
        chosen = []
        async with aiohttp.ClientSession() as http:
            for seat, token in enumerate(tokens):
                async with http.get(f"{mirror.url}api/seat/{token}/state") as reply:
                    mine = await reply.json()
                choices = mine["actions"]
                assert {a["seat"] for a in choices} == {seat} and len(choices) == 8
                assert all(re.fullmatch(r"[A-Z][a-z ]+( · [A-Z][a-z ]+){2}", a["label"]) for a in choices)
                action = choices[seat]  # the label travels back too: the mirror drops it
                async with http.post(f"{mirror.url}api/seat/{token}/action", json=action) as reply:
                    assert reply.status == 200, await reply.text()
                chosen.append(action)
        return chosen

    chosen = asyncio.run(enter_goals())
    assert [p.goal for p in table.state.players] == [a["goal"] for a in chosen]
    seen, last = asyncio.run(follow(mirror.url, table, lambda: play.somnicum(table, 120)))
    assert not table.over
    assert "Ben entered a secret card privately." in [line["text"] for line in last["log"]] or any(
        b"Ben entered a secret card privately." in chunk for chunk in seen
    )
    public = b"\n".join(seen)
    assert re.search(rb'"goal_\d', public) is None  # no Goal card's id, anywhere
    secret = table.rules.state_to_json(table.state)
    if len(str(secret["rng"])) >= 8:  # a physical table draws nothing itself: its seed stays short
        assert str(secret["rng"]).encode() not in public
    for player in secret["players"]:
        for token in player["supply"]:  # a token's id names its face
            assert f'"{token}"'.encode() not in public, token

    async def seat_views() -> list[bytes]:
        async with aiohttp.ClientSession() as http:
            views = []
            for token in tokens:
                async with http.get(f"{mirror.url}api/seat/{token}/state") as reply:
                    views.append(await reply.read())
            return views

    views = asyncio.run(seat_views())
    for seat, view in enumerate(views):
        mine = json.loads(view)["view"]["players"][seat]
        assert mine["goal"]["id"] == chosen[seat]["goal"]
        others = [chosen[other]["goal"] for other in range(3) if other != seat]
        assert all(goal.encode() not in view for goal in others)
    table.close()


def _http(method: str, url: str, body: Any = None) -> tuple[int, dict[str, Any]]:
    """One plain HTTP request on loopback (a phone's), answered as (status, JSON body)."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=10) as reply:
            return reply.status, json.loads(reply.read())
    except urllib.error.HTTPError as refused:
        return refused.code, json.loads(refused.read())


def test_somnicum_secret_choices_sent_from_phones_never_show_their_faces(mirror, hub, journal, until):
    from companion.somnicum.actions import chance_outcomes
    from companion.somnicum.setup import catalog_of
    from companion.somnicum.simulate import Chooser, greedy_policy

    table = Table.new(journal, "somnicum", {"players": ["Ann", "Ben", "Cleo"], "seed": 5, "decks": "physical"})
    hub.attach(table)
    tokens = [hub.seat_token(seat) for seat in range(3)]
    public: list[bytes] = []  # every message the hub made for phones without a seat
    lines: dict[int, str] = {}
    stop = hub.listen(lambda snap: (public.append(snap.public), lines.update(
        (line["seq"], line["text"]) for line in snap.message.get("log", []) if line["kind"] == "action")))
    catalog = catalog_of(table.state)
    chooser = Chooser(3)
    sent: dict[int, dict[str, Any]] = {}

    def same_choice(offered: dict[str, Any], action: dict[str, Any]) -> bool:
        """The same choice at the table: tokens of one kind, or Meeting cards of one entry, are
        indistinguishable, so a chance outcome may name another of them than the phone does."""
        if set(offered) - {"label"} != set(action):
            return False
        for key, value in action.items():
            if key in ("token", "return"):
                if catalog.tokens[offered[key]].kind != catalog.tokens[value].kind:
                    return False
            elif key == "card":
                if catalog.meetings[offered[key]].entry != catalog.meetings[value].entry:
                    return False
            elif offered[key] != value:
                return False
        return True
    labels: dict[str, set[str]] = {}
    while not table.over:
        chance = chance_outcomes(catalog, table.state)
        legal = table.legal_actions()
        particles = [a for a in legal if a["type"] == "add_particle"]
        if chance:
            action = chooser.sample(chance)
        elif particles and chooser.index(2) == 0:  # the greedy player never adds particles
            action = chooser.pick(particles)
        else:
            action = greedy_policy(catalog, table.state, legal, chooser)
        if action["type"] not in SEAT_ACTIONS["somnicum"]:
            assert table.submit(action).accepted
            continue
        seat = action["seat"]
        until(lambda: hub.snapshot().seq == table.seq)  # the phone has seen the newest state
        # the owner's phone offers this choice, labelled; another seat's link cannot send it
        status, mine = _http("GET", f"{mirror.url}api/seat/{tokens[seat]}/state")
        offered = next(a for a in mine["actions"] if same_choice(a, action))
        if action["type"] not in labels:
            other = tokens[(seat + 1) % 3]
            status, reply = _http("POST", f"{mirror.url}api/seat/{other}/action", offered)
            assert status == 403 and reply["error"]["code"] == "other_seat"
        labels.setdefault(action["type"], set()).add(offered["label"])
        status, reply = _http("POST", f"{mirror.url}api/seat/{tokens[seat]}/action", offered)
        assert status == 200 and reply["accepted"], reply
        sent[reply["seq"]] = {k: v for k, v in offered.items() if k != "label"}
    # the listener runs on its own thread: let it hear the last moves before it is stopped
    until(lambda: all(seq in lines for seq in sent))
    stop()
    # a phone cannot play the table's own moves, and the rules still judge what it sends
    status, reply = _http("POST", f"{mirror.url}api/seat/{tokens[0]}/action", {"type": "end_turn", "seat": 0})
    assert status == 403 and reply["error"]["code"] == "not_from_phone"
    status, reply = _http("POST", f"{mirror.url}api/seat/{tokens[0]}/action",
                          {"type": "pay_token", "seat": 0, "token": "moon_1"})
    assert status == 422 and reply["error"]["message"]
    assert set(labels) == set(SEAT_ACTIONS["somnicum"]), labels  # every kind of secret choice was sent
    assert all(re.fullmatch(r"Pay [A-Z][a-z ]+, (sand|blank) back", label) for label in labels["pay_token"])
    assert all(re.fullmatch(r"[A-Z][a-z ]+, (sand|blank) back", label) for label in labels["draw_token"])

    everything = b"\n".join(public)
    assert re.search(rb'"goal_\d', everything) is None
    # a token's id names its face; a Meeting card never played stays unnamed (one pass for all)
    secret_ids = [*catalog.tokens, *(card for player in table.state.players for card in player.hand)]
    assert any(player.hand for player in table.state.players)  # some Meeting card is still secret
    leak = re.search(rb"\b(" + b"|".join(re.escape(i.encode()) for i in secret_ids) + rb")\b", everything)
    assert leak is None, leak
    events = {entry["seq"]: entry["events"] for entry in table.log()}
    for seq, action in sent.items():
        line = lines[seq]
        kind = action["type"]
        if kind == "enter_goal":
            assert line == f"{table.state.players[action['seat']].name} entered a secret card privately."
        elif kind in ("draw_token", "pay_token"):
            face = catalog.tokens[action["token"]].particle.replace("_", " ")
            assert re.search(rf"\b{face}\b", line, re.IGNORECASE) is None, (face, line)
            assert "token" in line
        elif kind in ("draw_meeting", "keep_meeting"):
            name = catalog.meetings[action["card"]].name
            shown = {d["name"] for e in events[seq] if e["type"] == "meeting_kept" for d in e["discarded"]}
            assert name in shown or name not in line, (name, line)
        elif kind == "add_particle":  # the particle lies face up on a card: the table sees it
            assert catalog.tokens[action["token"]].particle.replace("_", " ") in line
        else:
            assert catalog.meetings[action["card"]].name in line
    table.close()
