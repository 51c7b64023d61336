"""The mirror with the real games: CHAINsomnia and Somnicum played through a real Table."""

from __future__ import annotations

import asyncio
import json
import re
from typing import Any

import aiohttp

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
