"""Following the journal: the mirror of ``companion serve``, which runs beside whatever plays.

Without the touchscreen app there is no Table in this process to subscribe to; the game is
played elsewhere (the app in another process, ``companion <game>`` commands) and committed to
the shared SQLite journal. The follower watches that journal and, whenever the followed game
has a new entry, resumes it (exactly the state after its last commit) and shows it on the hub.

Which game: the one asked for (``--game``), else the most recently played unfinished game; when
none is being played the last one stays on show (its final scores), and a game that starts
later is picked up.
"""

from __future__ import annotations

import logging
import threading
from typing import Any

from companion.journal import Journal, JournalError
from companion.net.hub import MirrorHub
from companion.table import Table

log = logging.getLogger(__name__)


class JournalFollower:
    """Polls ``journal`` every ``interval`` seconds and keeps ``hub`` on the game being played.

    >>> follower = JournalFollower(Journal(":memory:"), MirrorHub())
    >>> follower.poll(), follower.game_id
    (False, None)
    """

    def __init__(
        self,
        journal: Journal,
        hub: MirrorHub,
        *,
        game_id: int | None = None,
        interval: float = 0.25,
    ) -> None:
        self.journal = journal
        self.hub = hub
        self.fixed_game = game_id
        self.interval = interval
        self.game_id: int | None = None
        self._seen: tuple[int, int] | None = None
        self._table: Table | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._warned: str | None = None

    def _target(self) -> int | None:
        if self.fixed_game is not None:
            return self.fixed_game
        playing = self.journal.unfinished()
        if playing:
            return playing[0].id
        return self.game_id  # nothing being played: keep showing the last game

    def poll(self) -> bool:
        """Looks once; True when the hub was moved to a newer state or another game."""
        target = self._target()
        if target is None:
            return False
        seq = self.journal.summary(target).seq
        if self._seen == (target, seq):
            return False
        table = Table.resume(self.journal, target)
        old, self._table = self._table, table
        self.hub.attach(table)
        if old is not None:
            old.close()
        self._seen = (target, table.seq)
        self.game_id = target
        return True

    def start(self) -> None:
        self.poll()  # at once, so the first page load already shows the game
        self._thread = threading.Thread(target=self._run, name="mirror-follower", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(self.interval):
            try:
                self.poll()
                self._warned = None
            except Exception as err:  # noqa: BLE001 (the follower must outlive a bad moment)
                # a journal being written by another process may be briefly busy: say it once
                if str(err) != self._warned:
                    kind = "cannot read the journal" if isinstance(err, (JournalError, OSError)) else "cannot follow the game"
                    log.warning("mirror: %s: %s", kind, err)
                    self._warned = str(err)

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
            self._thread = None
        if self._table is not None:
            self._table.close()
            self._table = None

    @property
    def table(self) -> Any:
        return self._table
