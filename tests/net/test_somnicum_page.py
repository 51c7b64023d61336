"""A real Somnicum game on a phone: Debian's Chromium, headless, 360 px wide.

The page must draw what the rules' public view holds (the field with both flywheels, every dream
with its gaps, token and Meeting card counts, the round) and keep Goal card points off the page
until the game ends, then show them in the final scores.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from companion.table import Table

SCREENSHOT = Path(__file__).resolve().parents[2] / "docs" / "screens" / "mirror-phone-somnicum.png"

MAIN_TEXT = "document.getElementById('main').innerText"


def js(value: Any) -> str:
    return json.dumps(value)


async def page_players(page: Any) -> list[dict[str, Any]]:
    """What the page shows of each dream, read back from the drawn elements."""
    return await page.evaluate(
        """[...document.querySelectorAll('article[data-seat]')].map(a => ({
            seat: Number(a.dataset.seat),
            name: a.querySelector('.who').textContent,
            cards: [...a.querySelectorAll('.dcard')].map(c => c.dataset.card),
            gaps: a.querySelectorAll('.dcard.gap-after').length,
            tokens: (a.querySelector('[data-stat=tokens]') || {}).textContent,
            meetings: (a.querySelector('[data-stat=meetings]') || {}).textContent,
        }))"""
    )


async def page_scores(page: Any) -> list[dict[str, str]]:
    return await page.evaluate(
        """[...document.querySelectorAll('table.scores tbody tr')].map(r => ({
            seat: Number(r.dataset.seat),
            goal: r.querySelector('[data-score=goal]').textContent,
            total: r.querySelector('[data-score=total]').textContent,
        }))"""
    )


def test_a_somnicum_game_on_a_phone_shows_the_public_game_and_goal_points_only_at_the_end(
    mirror, hub, journal, play, open_browser
):
    table = Table.new(journal, "somnicum", {"players": ["Ann", "Ben", "Cleo"], "seed": 5})
    play.somnicum(table, 90)
    view = table.view(None)
    # the game this test needs: in play, with gaps, tokens and Meeting cards in hand
    assert not table.over and view["round"] == 2 and len(view["field"]) >= 6
    assert any(g for p in view["players"] for level in p["dream"] for g in level["gaps"])
    assert any(p["meetings_in_hand"] for p in view["players"])
    assert any(p["backs"]["blank"] for p in view["players"])
    hub.attach(table)

    async def run() -> None:
        loop = asyncio.get_running_loop()
        async with open_browser() as page:
            await page.open(mirror.url)
            await page.wait_for("document.getElementById('main').dataset.status === 'playing'")
            text = await page.evaluate(MAIN_TEXT)
            assert f"Round 2 of {view['rounds']}" in text
            assert view["pending"]["text"] in text
            # the field: every card in its clockwise place, both flywheels in their gaps
            field = await page.evaluate("[...document.querySelectorAll('[data-card]')]"
                                        ".filter(g => g.closest('.field')).map(g => g.dataset.card)")
            assert field == [card["id"] for card in view["field"]]
            wheels = await page.evaluate(
                "Object.fromEntries([...document.querySelectorAll('[data-flywheel]')]"
                ".map(g => [g.dataset.flywheel, [Number(g.dataset.gap), g.querySelector('title').textContent]]))"
            )
            for colour in ("black", "white"):
                at = view["flywheels"][colour]
                left, right = at["between"]
                assert wheels[colour] == [at["gap"], f"{colour.capitalize()} flywheel between {left} and {right}"]
            # every dream, level by level, with its gaps; what each player holds, counted
            shown = await page_players(page)
            assert [p["seat"] for p in shown] == [0, 1, 2]
            for mine, p in zip(shown, view["players"], strict=True):
                assert mine["name"] == p["name"]
                assert mine["cards"] == [c["id"] for level in p["dream"] for c in level["cards"]]
                assert mine["gaps"] == sum(g for level in p["dream"] for g in level["gaps"])
                assert mine["tokens"].startswith(f"Sleep Sand {p['tokens']}")
                blank = p["backs"]["blank"]
                assert (f"({blank} blank back" in mine["tokens"]) == bool(blank)
                assert mine["meetings"] == f"Meeting cards {p['meetings_in_hand']}"
            # before the end, the scores leave every Goal card out
            scores = await page_scores(page)
            assert [s["goal"] for s in scores] == ["?"] * 3
            assert [s["total"] for s in scores] == [str(p["score"]["total"]) for p in view["players"]]
            assert "Goal card points stay secret until the game ends." in text
            assert "Final scores" not in text
            assert await page.evaluate("document.documentElement.scrollWidth") <= 360
            await page.screenshot(SCREENSHOT)

            await loop.run_in_executor(None, play.somnicum, table, 400)
            assert table.over
            result = table.view(None)["result"]
            await page.wait_for("document.getElementById('main').dataset.status === 'over'")
            await page.wait_for(f"{MAIN_TEXT}.includes('Final scores')")
            text = await page.evaluate(MAIN_TEXT)
            winners = result["winners"]
            assert (f"{winners[0]} wins!" if len(winners) == 1 else " share the victory!") in text
            scores = await page_scores(page)
            assert [(s["goal"], s["total"]) for s in scores] == [
                (str(p["breakdown"]["goal"]), str(p["total"])) for p in result["players"]
            ]
            assert any(p["breakdown"]["goal"] for p in result["players"])  # the Goal points count
            for p in result["players"]:
                assert f"Goal {p['breakdown']['goal']}" in text or not p["breakdown"]["goal"]
            assert "stay secret" not in text
            assert await page.evaluate("document.documentElement.scrollWidth") <= 360
            assert page.console == [], page.console

    try:
        asyncio.run(run())
    finally:
        table.close()
    assert SCREENSHOT.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
