"""The mirror page in a real browser: Debian's Chromium, headless, 360 px wide like a phone.

Chromium is driven over its DevTools protocol with aiohttp's WebSocket client (no extra Python
dependency). A missing Chromium fails these tests: CI installs it through .ci/run.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from companion.config import MirrorConfig
from companion.net import MirrorServer

SCREENSHOT = Path(__file__).resolve().parents[2] / "docs" / "screens" / "mirror-phone.png"

MAIN_TEXT = "document.getElementById('main').innerText"


def test_the_page_follows_the_table_live(mirror, hub, table, open_browser, secret_markers):
    async def run() -> None:
        async with open_browser() as page:
            await page.open(mirror.url)
            # no game yet: the page says so, and waits
            await page.wait_for(f"{MAIN_TEXT}.includes('No game in progress')")
            await asyncio.get_running_loop().run_in_executor(None, hub.attach, table)
            await page.wait_for("document.getElementById('main').dataset.status === 'playing'")
            assert "Ann" in await page.evaluate(MAIN_TEXT)
            assert await page.evaluate("document.getElementById('link-text').textContent") == "live"
            # a commit made through the Table appears on the phone
            before = int(await page.evaluate("document.getElementById('main').dataset.version"))
            outcome = await asyncio.get_running_loop().run_in_executor(None, table.submit, {"type": "advance"})
            assert outcome.accepted
            await page.wait_for(f"{MAIN_TEXT}.includes('Move 1.')", timeout=5)
            assert int(await page.evaluate("document.getElementById('main').dataset.version")) > before
            # the page is laid out for the phone: nothing wider than the screen
            assert await page.evaluate("document.documentElement.scrollWidth") <= 360
            html = await page.evaluate("document.documentElement.outerHTML")
            for marker in secret_markers:
                assert marker not in html
            # large text: one tap, remembered on the next visit
            size = await page.evaluate("parseFloat(getComputedStyle(document.documentElement).fontSize)")
            await page.evaluate("document.getElementById('bigger').click()")
            bigger = await page.evaluate("parseFloat(getComputedStyle(document.documentElement).fontSize)")
            assert bigger > size
            await page.open(mirror.url)
            await page.wait_for("document.documentElement.classList.contains('big')")
            await page.evaluate("document.getElementById('bigger').click()")
            assert page.console == [], page.console

    asyncio.run(run())


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


def test_a_seat_page_shows_its_secret_and_enters_the_goal_privately(mirror, hub, table, open_browser):
    hub.attach(table)
    token = hub.seat_token(1)

    async def run() -> None:
        async with open_browser() as page:
            await page.open(f"{mirror.url}seat/{token}")
            await page.wait_for(f"{MAIN_TEXT}.includes('Only for you')")
            assert "Private page of Ben" in await page.evaluate(
                "document.getElementById('seat-banner').textContent"
            )
            # the mirrortest secret is not drawn by name, but the seat's view reached this page only
            text = await page.evaluate("document.documentElement.outerHTML")
            assert table.state["secrets"][0] not in text
            await page.evaluate(
                "[...document.querySelectorAll('.choices button')]"
                ".find(b => b.textContent.includes('Moon mermaid rocket')).click()"
            )
            await page.wait_for("document.querySelector('.choices .confirm') !== null")
            await page.evaluate("document.querySelector('.choices .confirm').click()")
            await page.wait_for(f"{MAIN_TEXT}.includes('nobody saw it')")
            assert table.state["goals"] == [None, "moon-mermaid-rocket"]
            # once entered, there is nothing left to choose
            await page.wait_for("document.querySelectorAll('.choices button').length === 0")

    asyncio.run(run())


def test_a_phone_screenshot_is_kept_for_review(mirror, hub, table, open_browser):
    hub.attach(table)
    for _ in range(3):
        table.submit({"type": "advance"})

    async def run() -> None:
        async with open_browser() as page:
            await page.open(mirror.url)
            await page.wait_for(f"{MAIN_TEXT}.includes('Move 3.')")
            await page.screenshot(SCREENSHOT)

    asyncio.run(run())
    assert SCREENSHOT.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
