"""A game on the touchscreen: the bridge between one Table and the screen showing it.

The Table calls its subscribers on a worker thread; ``TableSession`` works out there what the
screen needs (the public view and the legal actions, both pure calls into the rules) and hands
the bundle to the screen on Kivy's main thread with ``Clock.schedule_once``. Actions and undos
are submitted on a worker thread too, so a slow journal write never freezes a frame; their
``Outcome`` comes back the same way. The screen never touches the state itself.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ui import background

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Frame:
    """What the screen draws after one Table update."""

    update: Any  # companion.table.Update
    public: dict[str, Any]
    legal: list[dict[str, Any]]
    over: bool
    result: dict[str, Any] | None
    seat_view: dict[str, Any] | None = None  # the acting seat's own view (its secrets), if asked for


class TableSession:
    """One Table shown on one screen. ``on_frame(frame)`` runs on the main thread."""

    def __init__(self, table: Any, on_frame: Callable[[Frame], Any], *, seat_views: bool = False) -> None:
        self.table = table
        self.seat_views = seat_views
        self.on_frame = on_frame
        self.frame: Frame | None = None
        self._busy = 0
        self._received = 0
        self._drawn = 0
        self._awaited_seq = 0  # the newest seq an outcome announced; its update must be drawn
        self._lock = threading.Lock()
        self._closed = False
        self._unsubscribe = table.subscribe(self._heard)

    @property
    def game(self) -> str:
        return str(self.table.game)

    @property
    def game_id(self) -> int:
        return int(self.table.game_id)

    def _heard(self, update: Any) -> None:
        """On the Table's subscriber thread: prepare the frame, then hand it to Kivy."""
        rules = self.table.rules
        over = bool(update.over)
        legal = [] if over else rules.legal_actions(update.state)
        result = rules.result(update.state) if over else None
        seat_view = None
        seat = (update.public.get("pending") or {}).get("seat")
        if self.seat_views and isinstance(seat, int):
            seat_view = rules.view(update.state, seat)
        frame = Frame(update, update.public, legal, over, result, seat_view)
        with self._lock:
            self._received += 1
        background.on_main_thread(self._show, frame)

    def _show(self, frame: Frame) -> None:
        with self._lock:
            self._drawn += 1
        if self._closed:
            return
        self.frame = frame
        self.on_frame(frame)

    def idle(self) -> bool:
        """No submission in flight and every update heard has been drawn (for tests)."""
        with self._lock:
            drawn_seq = self.frame.update.seq if self.frame is not None else -1
            return self._busy == 0 and self._received == self._drawn and drawn_seq >= self._awaited_seq

    def _run(self, work: Callable[[], Any], done: Callable[[Any], Any]) -> None:
        with self._lock:
            self._busy += 1

        def finished(outcome: Any) -> None:
            with self._lock:
                self._busy -= 1
                if getattr(outcome, "accepted", False) and outcome.seq is not None:
                    self._awaited_seq = max(self._awaited_seq, outcome.seq)
            done(outcome)

        def failed(error: BaseException) -> None:
            with self._lock:
                self._busy -= 1
            log.error("the table failed: %s", error, exc_info=error)
            done(_Failure(str(error)))

        background.later(work, finished, failed)

    def submit(self, action: dict[str, Any], done: Callable[[Any], Any], source: str = "touch") -> None:
        """Sends an action; ``done(outcome)`` on the main thread (accepted or refused)."""
        self._run(lambda: self.table.submit(action, source=source), done)

    def undo(self, done: Callable[[Any], Any], steps: int = 1, source: str = "touch") -> None:
        self._run(lambda: self.table.undo(steps, source=source), done)

    def seat_names(self) -> list[str]:
        view = self.frame.public if self.frame else {}
        return seat_names(view)

    def close(self) -> None:
        self._closed = True
        try:
            self._unsubscribe()
        finally:
            self.table.close()


class _Failure:
    """An outcome for a Table that raised instead of answering (logged)."""

    accepted = False
    put_back: list[str] = []
    events: list[Any] = []

    def __init__(self, message: str) -> None:
        from companion.rules import IllegalAction

        self.error = IllegalAction("table_failed", f"The game could not take this: {message}")


def seat_names(view: dict[str, Any]) -> list[str]:
    """A name per seat: Somnicum's player names; CHAINsomnia's characters of each seat."""
    if view.get("game") == "chainsomnia":
        names = {c["id"]: c["name"] for c in view.get("characters", [])}
        return [" & ".join(names.get(cid, cid) for cid in seat) for seat in view.get("seats", [])]
    return [str(p.get("name", f"Seat {i + 1}")) for i, p in enumerate(view.get("players", []))]
