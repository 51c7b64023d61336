"""Work off Kivy's main thread: the journal, the rules, the camera and the network never block a frame.

``later(work, done)`` runs ``work()`` on a small pool of worker threads and hands its result to
``done`` on the main thread through ``Clock.schedule_once``, the one place where threads meet
the UI. ``pending()`` counts what is still running, so tests can wait for quiet.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, TypeVar

from kivy.clock import Clock

log = logging.getLogger(__name__)

T = TypeVar("T")

_pool = ThreadPoolExecutor(max_workers=2, thread_name_prefix="dreamtable-ui")
_pending = 0
_lock = threading.Lock()


def pending() -> int:
    with _lock:
        return _pending


def on_main_thread(callback: Callable[..., Any], *args: Any) -> None:
    """Runs ``callback(*args)`` on Kivy's main thread at the next frame."""
    Clock.schedule_once(lambda _dt: callback(*args), 0)


def later(
    work: Callable[[], T],
    done: Callable[[T], Any] | None = None,
    failed: Callable[[BaseException], Any] | None = None,
) -> Future[T]:
    """Runs ``work`` on a worker thread; ``done(result)`` or ``failed(error)`` on the main thread."""
    global _pending
    with _lock:
        _pending += 1

    def finished(future: Future[T]) -> None:
        global _pending
        error = future.exception()
        if error is not None:
            if failed is not None:
                on_main_thread(failed, error)
            else:
                log.error("background work failed: %s", error, exc_info=error)
        elif done is not None:
            on_main_thread(done, future.result())
        with _lock:
            _pending -= 1

    future = _pool.submit(work)
    future.add_done_callback(finished)
    return future
