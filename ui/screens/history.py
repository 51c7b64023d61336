"""History and statistics: the finished games in the journal, and per game the plays, wins,
escape rate and scores (``companion.journal.history``)."""

from __future__ import annotations

from typing import Any

from ui import background
from ui.screens.base import BaseScreen
from ui.screens.home import GAME_TITLES, players_text, when
from ui.services import optional_module
from ui.widgets import Panel, clear_and_fill, label


def minutes(seconds: float | None) -> str:
    return "" if seconds is None else f"{round(seconds / 60)} min"


def outcome_text(summary: Any) -> str:
    if summary.game == "chainsomnia":
        if summary.escaped is True:
            return "escaped"
        if summary.escaped is False:
            return "defeat" + (f" ({summary.cause})" if summary.cause else "")
    if summary.winners:
        return "won by " + ", ".join(summary.winners)
    return "finished"


def stats_lines(game: str, stats: dict[str, Any]) -> list[str]:
    lines = [f"[b]{GAME_TITLES.get(game, game)}[/b]: {stats['plays']} game{'s' if stats['plays'] != 1 else ''}"]
    if stats.get("escape_rate") is not None:
        lines.append(f"Escaped {stats['escapes']} times ({round(stats['escape_rate'] * 100)}%)")
    if stats.get("wins"):
        lines.append("Wins: " + ", ".join(f"{name} {count}" for name, count in stats["wins"].items()))
    if stats.get("best_score") is not None:
        lines.append(f"Best score {stats['best_score']:g}, average {stats['average_score']:.1f}")
    if stats.get("average_rounds") is not None:
        lines.append(f"Average {stats['average_rounds']:.1f} rounds")
    if stats.get("average_duration") is not None:
        lines.append(f"Average length {minutes(stats['average_duration'])}")
    return lines


class HistoryScreen(BaseScreen):
    name = "history"

    def prepare(self, **_: Any) -> None:
        clear_and_fill(self.ids.rows, [label("Reading the saved games...", dim=True)])
        journal_module = optional_module("companion.journal")

        def read() -> tuple[list[Any], dict[str, Any]]:
            journal = self.app.services.journal()
            if journal is None or journal_module is None:
                return [], {}
            finished = journal.finished()
            return finished, journal_module.history(finished)

        background.later(read, self.show, lambda err: clear_and_fill(
            self.ids.rows, [label(f"The saved games cannot be read: {err}")]))

    def show(self, result: tuple[list[Any], dict[str, Any]]) -> None:
        finished, stats = result
        rows: list[Any] = []
        if not finished:
            rows.append(label("No finished games yet.", "big"))
        for game, numbers in stats.items():
            panel = Panel(orientation="vertical", size_hint_y=None)
            for line in stats_lines(game, numbers):
                panel.add_widget(label(line))
            panel.bind(minimum_height=panel.setter("height"))
            rows.append(panel)
        if finished:
            rows.append(label("[b]Finished games[/b]", "big"))
        for summary in sorted(finished, key=lambda s: s.updated, reverse=True)[:30]:
            parts = [GAME_TITLES.get(summary.game, summary.game), players_text(summary.players),
                     outcome_text(summary), when(summary.finished or summary.updated)]
            rows.append(label("  ·  ".join(p for p in parts if p)))
        clear_and_fill(self.ids.rows, rows)
