"""Home: start CHAINsomnia or Somnicum, resume an unfinished game, open the score pad, history,
the phones' page and the settings."""

from __future__ import annotations

import datetime as dt
from typing import Any

from kivy.properties import StringProperty

from ui import background
from ui.screens.base import BaseScreen
from ui.widgets import button, clear_and_fill, label

GAME_TITLES = {"chainsomnia": "CHAINsomnia", "somnicum": "Somnicum"}


def when(value: Any) -> str:
    """A journal time (ISO text, epoch seconds or datetime) as '30 Nov 21:04'."""
    if isinstance(value, (int, float)):
        moment = dt.datetime.fromtimestamp(value)
    elif isinstance(value, str):
        try:
            moment = dt.datetime.fromisoformat(value)
        except ValueError:
            return value
    elif isinstance(value, dt.datetime):
        moment = value
    else:
        return ""
    if moment.tzinfo is not None:
        moment = moment.astimezone()
    return f"{moment.day} {moment:%b %H:%M}"


def players_text(players: Any) -> str:
    if isinstance(players, (list, tuple)):
        return ", ".join(str(p) for p in players)
    if isinstance(players, int):
        return f"{players} player{'s' if players != 1 else ''}"
    return str(players or "")


def summary_line(summary: Any) -> str:
    """One unfinished game: 'CHAINsomnia · Chloe, Ryan · round 3 · 30 Nov 21:04'."""
    game = GAME_TITLES.get(getattr(summary, "game", ""), str(getattr(summary, "game", "")))
    parts = [f"[b]{game}[/b]"]
    players = players_text(getattr(summary, "players", ""))
    if players:
        parts.append(players)
    round_ = getattr(summary, "round", None)
    if round_:
        parts.append(f"round {round_}")
    stamp = when(getattr(summary, "updated", None) or getattr(summary, "started", None))
    if stamp:
        parts.append(stamp)
    return "  ·  ".join(parts)


class HomeScreen(BaseScreen):
    name = "home"
    resume_note = StringProperty("")

    def prepare(self, **_: Any) -> None:
        self.refresh()

    def prepare_return(self) -> None:
        self.refresh()

    def on_kv_post(self, base_widget: Any) -> None:
        self.refresh()

    def refresh(self) -> None:
        journal = self.app.services.journal if self.app else None
        if journal is None:
            return
        self.resume_note = "Looking for unfinished games..."

        def unfinished() -> list[Any]:
            opened = journal()
            return list(opened.unfinished()) if opened is not None else []

        background.later(unfinished, self.show_unfinished, self.show_journal_problem)

    def show_unfinished(self, games: list[Any]) -> None:
        box = self.ids.resume_list
        rows = []
        for summary in games[:6]:
            rows.append(
                button(summary_line(summary), self.resume, payload=summary,
                       font_role="body")
            )
        clear_and_fill(box, rows)
        self.resume_note = "" if games else "No unfinished games."

    def show_journal_problem(self, error: BaseException) -> None:
        clear_and_fill(self.ids.resume_list, [label(f"The saved games cannot be read: {error}")])
        self.resume_note = ""

    def resume(self, widget: Any) -> None:
        summary = widget.payload
        self.app.resume_game(summary.game, summary.id)

    def new_game(self, game: str) -> None:
        self.app.go(f"{game}_setup")
