"""Input events: what a button, a key or a tap asks of the game, and the queue they wait in.

Every input device (the GPIO panel, the keyboard stand-in, the touchscreen) turns its own signals
into ``InputEvent`` values and posts them to one ``InputQueue``. The app drains the queue on Kivy's
main thread and feeds each event to the focus model (``companion.focus``). Posting never blocks
and never touches a Table or a widget, so it is safe from gpiozero's callback threads.

>>> inputs = InputQueue()
>>> inputs.post(InputEvent("next", source="keyboard"))
True
>>> [e.control for e in inputs.drain()]
['next']

The clocks at the end let the debounce and long-press timings run on a clock a test advances by
hand (``ManualClock``) instead of sleeping.
"""

from __future__ import annotations

import heapq
import itertools
import logging
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from companion.focus import CONTROLS

log = logging.getLogger(__name__)

SOURCES = ("gpio", "keyboard", "touch")


@dataclass(frozen=True)
class InputEvent:
    """One request from a player: a control name from ``companion.focus.CONTROLS``.

    ``seat`` is the seat index (0-based) for the ``seat`` control; ``long`` marks an event that
    came from holding a button (holding ``back`` sends ``undo`` with ``long=True``).
    """

    control: str
    seat: int | None = None
    source: str = "gpio"
    long: bool = False
    at: float = field(default=0.0, compare=False)  # monotonic time of the press, for logs

    def __post_init__(self) -> None:
        if self.control not in CONTROLS:
            raise ValueError(f"unknown control {self.control!r} (known: {', '.join(CONTROLS)})")
        if (self.control == "seat") != (self.seat is not None):
            raise ValueError("the seat control, and only it, names a seat")
        if self.source not in SOURCES:
            raise ValueError(f"unknown input source {self.source!r}")


class InputQueue:
    """A bounded, thread-safe queue of input events.

    ``post`` never blocks: when the app falls behind and the queue is full, new events are
    dropped (and logged once per overflow) rather than piling up presses nobody saw the effect
    of. ``wake`` is called after each post, on the poster's thread; the app passes something
    thread-safe like ``lambda: Clock.schedule_once(drain_inputs)``.
    """

    def __init__(self, maxsize: int = 32, wake: Callable[[], None] | None = None) -> None:
        self._queue: queue.Queue[InputEvent] = queue.Queue(maxsize)
        self._wake = wake
        self._overflowing = False
        self.dropped = 0

    def set_wake(self, wake: Callable[[], None] | None) -> None:
        self._wake = wake

    def post(self, event: InputEvent) -> bool:
        """Adds an event; False when it was dropped because the queue is full."""
        try:
            self._queue.put_nowait(event)
        except queue.Full:
            self.dropped += 1
            if not self._overflowing:
                self._overflowing = True
                log.warning("input queue full: dropping %s presses until the app catches up",
                            event.control)
            return False
        self._overflowing = False
        if self._wake is not None:
            self._wake()
        return True

    def get(self, timeout: float | None = None) -> InputEvent | None:
        """The next event, waiting up to ``timeout`` seconds (None: forever); None if none."""
        try:
            return self._queue.get(timeout=timeout)
        except queue.Empty:
            return None

    def drain(self) -> list[InputEvent]:
        """Every event waiting now, oldest first, without blocking."""
        events = []
        while True:
            try:
                events.append(self._queue.get_nowait())
            except queue.Empty:
                return events


Cancel = Callable[[], None]


class Clock(Protocol):
    """Time for the debounce and long-press logic: a monotonic ``now`` and one-shot timers."""

    def now(self) -> float: ...

    def call_later(self, delay: float, callback: Callable[[], None]) -> Cancel: ...


class SystemClock:
    """The real clock: ``time.monotonic`` and daemon ``threading.Timer`` threads."""

    def now(self) -> float:
        return time.monotonic()

    def call_later(self, delay: float, callback: Callable[[], None]) -> Cancel:
        timer = threading.Timer(delay, callback)
        timer.daemon = True
        timer.start()
        return timer.cancel


class ManualClock:
    """A clock that moves only when told to, for tests and simulations.

    >>> clock = ManualClock()
    >>> fired = []
    >>> cancel = clock.call_later(1.0, lambda: fired.append(clock.now()))
    >>> clock.advance(0.5); fired
    []
    >>> clock.advance(0.5); fired
    [1.0]
    """

    def __init__(self, start: float = 0.0) -> None:
        self._now = start
        self._due: list[tuple[float, int, Callable[[], None]]] = []
        self._cancelled: set[int] = set()
        self._ids = itertools.count()
        self._lock = threading.RLock()

    def now(self) -> float:
        return self._now

    def call_later(self, delay: float, callback: Callable[[], None]) -> Cancel:
        with self._lock:
            ident = next(self._ids)
            heapq.heappush(self._due, (self._now + delay, ident, callback))
        return lambda: self._cancelled.add(ident)

    def advance(self, seconds: float) -> None:
        """Moves time forward, running each timer that falls due, in order, at its own time."""
        end = self._now + seconds
        while True:
            with self._lock:
                if not self._due or self._due[0][0] > end:
                    break
                when, ident, callback = heapq.heappop(self._due)
                self._now = max(self._now, when)
            if ident not in self._cancelled:
                callback()
        self._now = end

    @property
    def pending(self) -> int:
        """How many timers are still waiting (cancelled ones excluded)."""
        return sum(1 for _, ident, _ in self._due if ident not in self._cancelled)
