"""The mirror page in a real browser: Debian's Chromium, headless, 360 px wide like a phone.

Chromium is driven over its DevTools protocol with aiohttp's WebSocket client (no extra Python
dependency). A missing Chromium fails these tests: CI installs it through .ci/run.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from companion.config import MirrorConfig
from companion.net import MirrorServer
from companion.table import Table

SCREENSHOT = Path(__file__).resolve().parents[2] / "docs" / "screens" / "mirror-phone.png"

MAIN_TEXT = "document.getElementById('main').innerText"


def test_the_page_follows_the_table_live(mirror, hub, journal, play, open_browser):
    table = Table.new(journal, "chainsomnia", {"players": 3, "seed": 11})
    play.chainsomnia(table, 10)

    async def run() -> None:
        loop = asyncio.get_running_loop()
        async with open_browser() as page:
            await page.open(mirror.url)
            # no game yet: the page says so, and waits
            await page.wait_for(f"{MAIN_TEXT}.includes('No game in progress')")
            await loop.run_in_executor(None, hub.attach, table)
            await page.wait_for("document.getElementById('main').dataset.status === 'playing'")
            text = await page.evaluate(MAIN_TEXT)
            assert "The castle" in text and "The children" in text
            names = [c["name"] for c in table.view(None)["characters"]]
            assert all(name in text for name in names)
            tiles = await page.evaluate("document.querySelectorAll('[data-tile]').length")
            assert tiles == len(table.view(None)["castle"])
            assert await page.evaluate("document.getElementById('link-text').textContent") == "live"
            # a commit made through the Table appears on the phone
            before = int(await page.evaluate("document.getElementById('main').dataset.version"))
            await loop.run_in_executor(None, play.chainsomnia, table, 1)
            newest = table.log()[-1]["text"]
            await page.wait_for(f"{MAIN_TEXT}.includes({json.dumps(newest)})", timeout=5)
            assert int(await page.evaluate("document.getElementById('main').dataset.version")) > before
            # laid out for the phone: nothing wider than the screen
            assert await page.evaluate("document.documentElement.scrollWidth") <= 360
            # large text: one tap, remembered on the next visit
            size = await page.evaluate("parseFloat(getComputedStyle(document.documentElement).fontSize)")
            await page.evaluate("document.getElementById('bigger').click()")
            bigger = await page.evaluate("parseFloat(getComputedStyle(document.documentElement).fontSize)")
            assert bigger > size
            await page.open(mirror.url)
            await page.wait_for("document.documentElement.classList.contains('big')")
            assert await page.evaluate("document.documentElement.scrollWidth") <= 360
            await page.evaluate("document.getElementById('bigger').click()")
            assert page.console == [], page.console
    try:
        asyncio.run(run())
    finally:
        table.close()


def test_the_page_reconnects_by_itself_when_the_link_comes_back(hub, table, open_browser):
    hub.attach(table)
    config = MirrorConfig(interfaces=["127.0.0.1"])
    server = MirrorServer(config, hub, port=0, announce=False)
    server.start()
    port = server.port

    async def run() -> None:
        nonlocal server
        async with open_browser() as page:
            await page.open(server.url)
            await page.wait_for("document.getElementById('link-text').textContent === 'live'")
            loop = asyncio.get_running_loop()
            await loop.run_in_executor(None, server.stop)  # the Wi-Fi goes
            await page.wait_for("document.getElementById('link').classList.contains('down')")
            await loop.run_in_executor(None, table.submit, {"type": "advance"})
            server = MirrorServer(config, hub, port=port, announce=False)  # and comes back
            await loop.run_in_executor(None, server.start)
            await page.wait_for(
                "document.getElementById('link-text').textContent === 'live'"
                f" && {MAIN_TEXT}.includes('Move 1.')",
                timeout=15,
            )

    try:
        asyncio.run(run())
    finally:
        server.stop()


def test_a_seat_page_enters_a_somnicum_goal_privately(mirror, hub, journal, play, open_browser):
    table = Table.new(journal, "somnicum", {"players": ["Ann", "Ben", "Cleo"], "seed": 5, "decks": "physical"})
    play.somnicum(table, 60, until_phase="deal_goals")
    hub.attach(table)
    token = hub.seat_token(1)

    async def run() -> None:
        async with open_browser() as page:
            await page.open(f"{mirror.url}seat/{token}")
            await page.wait_for(f"{MAIN_TEXT}.includes('Only for you')")
            assert "Private page of Ben" in await page.evaluate(
                "document.getElementById('seat-banner').textContent"
            )
            assert "Your Goal card is not entered yet." in await page.evaluate(MAIN_TEXT)
            # the buttons name each Goal card by its particles, as printed on the card
            await page.evaluate(
                "[...document.querySelectorAll('.choices button')]"
                ".find(b => b.textContent === 'Castle · Mermaid · Rocket').click()"
            )
            await page.wait_for("document.querySelector('.choices .confirm') !== null")
            await page.evaluate("document.querySelector('.choices .confirm').click()")
            await page.wait_for(f"{MAIN_TEXT}.includes('nobody saw it')")
            assert table.state.players[1].goal == "goal_2"
            await page.wait_for(f"{MAIN_TEXT}.includes('Your Goal card: Castle · Mermaid · Rocket')")
            # once entered, there is nothing left to choose
            assert await page.evaluate("document.querySelectorAll('.choices button').length") == 0
            # later Ben names the Sleep Sand token he draws, on his phone alone
            loop = asyncio.get_running_loop()

            def to_bens_draw() -> None:
                while not (table.state.phase == "draw_tokens" and table.state.actor == 1):
                    play.somnicum(table, 1)

            await loop.run_in_executor(None, to_bens_draw)
            await page.wait_for(f"{MAIN_TEXT}.includes('The Sleep Sand token you drew: which is it?')")
            choice = await page.evaluate(
                "(() => { const b = document.querySelector('.choices[data-type=draw_token] button');"
                " b.click(); return b.textContent; })()"
            )
            await page.wait_for("document.querySelector('.choices .confirm') !== null")
            await page.evaluate("document.querySelector('.choices .confirm').click()")
            await page.wait_for(f"{MAIN_TEXT}.includes('nobody saw it')")
            face = choice.split(",")[0]
            await page.wait_for(f"{MAIN_TEXT}.includes('Your Sleep Sand tokens: ' + {json.dumps(face)})")
            assert face.lower() not in table.log()[-1]["text"].lower()
            # a new game on the table: this link is dead, and the page says so
            other = Table.new(journal, "somnicum", {"players": ["Dan", "Eve"], "seed": 1})
            await asyncio.get_running_loop().run_in_executor(None, hub.attach, other)
            await page.wait_for(f"{MAIN_TEXT}.includes('This seat link has expired')")
            assert "Goal card" not in await page.evaluate(MAIN_TEXT)
            other.close()
            assert page.console == [], page.console

    try:
        asyncio.run(run())
    finally:
        table.close()


def test_a_phone_screenshot_is_kept_for_review(mirror, hub, journal, play, open_browser):
    table = Table.new(journal, "chainsomnia", {"players": 3, "seed": 11})
    play.chainsomnia(table, 40)
    hub.attach(table)

    async def run() -> None:
        async with open_browser() as page:
            await page.open(mirror.url)
            await page.wait_for("document.querySelectorAll('[data-tile]').length > 3")
            await page.screenshot(SCREENSHOT)
            # a defeat is told in words, not by the rules' id for its cause
            lost = {**table.view(None), "result": "defeat", "cause": "event_deck_empty"}
            await asyncio.get_running_loop().run_in_executor(
                None, lambda: hub.start_game("lost", "chainsomnia", lost, over=True)
            )
            await page.wait_for("document.getElementById('main').dataset.status === 'over'")
            result = await page.evaluate("document.querySelector('.status .result').textContent")
            assert result == "Defeat: the Event deck ran out before the children woke up."

    try:
        asyncio.run(run())
    finally:
        table.close()
    assert SCREENSHOT.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
