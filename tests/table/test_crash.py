"""Power-cut safety: a real process playing through a Table, SIGKILLed again and again.

Each kill must lose at most the entry being committed, never an acknowledged one, and leave a
journal that opens; the game resumed at the end must equal, entry for entry and snapshot for
snapshot, the same play made without any crash.
"""

from __future__ import annotations

import random
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import crash_child
import pytest

from companion.journal import Journal
from companion.table import Table

CHILD = Path(crash_child.__file__)
KILLS = 55


def _journal_rows(path: Path) -> tuple[list[tuple], list[tuple]]:
    db = sqlite3.connect(path)
    try:
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        entries = db.execute(
            "SELECT seq, kind, action, events, text, source, undone_by FROM entries ORDER BY seq"
        ).fetchall()
        snapshots = db.execute("SELECT seq, state FROM snapshots ORDER BY seq").fetchall()
    finally:
        db.close()
    return entries, snapshots


@pytest.mark.slow
@pytest.mark.timeout(120)
def test_sigkill_at_random_moments_loses_nothing_acknowledged(tmp_path, dice_cards_game):
    path = tmp_path / "games.sqlite3"
    rng = random.Random(7)
    acked_max = -1
    head = -1
    kills_mid_play = 0
    errors = tmp_path / "child-stderr.txt"
    for kill in range(KILLS):
        with open(errors, "w") as stderr:
            child = subprocess.Popen(
                [sys.executable, "-u", str(CHILD), str(path)], stdout=subprocess.PIPE, stderr=stderr, text=True
            )
        lines: list[str] = []
        playing = threading.Event()

        def read(child: subprocess.Popen = child, lines: list[str] = lines, playing: threading.Event = playing) -> None:
            for line in child.stdout:
                lines.append(line)
                playing.set()
            playing.set()

        reader = threading.Thread(target=read, daemon=True)
        reader.start()
        # Mostly while playing; one time in five while starting up or resuming.
        if kill % 5 == 0:
            time.sleep(rng.uniform(0.0, 0.3))
        else:
            assert playing.wait(60), "the child never started"
            time.sleep(rng.uniform(0.0, 0.15))
        child.send_signal(signal.SIGKILL)
        child.wait(30)
        reader.join(30)
        err = errors.read_text()
        assert child.returncode == -signal.SIGKILL, err
        assert "Traceback" not in err, err
        acks = [int(line.split()[1]) for line in lines if line.startswith("ack ")]
        if len(acks) > 1:
            kills_mid_play += 1
        previous_head = head
        if acks:
            assert acks == sorted(acks)
            acked_max = max(acked_max, acks[-1])
        if not path.exists() or path.stat().st_size == 0:
            assert acked_max == -1  # killed before the first game was saved
            continue
        with Journal(path) as journal:  # opens: the kill never leaves a journal that cannot
            unfinished = journal.unfinished()
            if not unfinished:
                assert acked_max == -1
                continue
            (summary,) = unfinished
            head = summary.seq
        # Every acknowledged entry is there; at most the one being committed is beyond it.
        assert acked_max <= head <= max(acked_max, previous_head) + 1, (kill, acks, head)
    assert kills_mid_play >= KILLS // 2

    entries, snapshots = _journal_rows(path)
    assert [e[0] for e in entries] == list(range(head + 1))

    # The same play without crashes, to the same position.
    reference_path = tmp_path / "reference.sqlite3"
    with Journal(reference_path, snapshot_every=crash_child.SNAPSHOT_EVERY) as reference:
        table = Table.new(reference, "dicecards", crash_child.OPTIONS, source="crash-test")
        while table.seq < head:
            crash_child.play_step(table, lambda outcome: None)
        assert table.seq == head
        expected_state = dice_cards_game.state_to_json(table.state)
    expected_entries, expected_snapshots = _journal_rows(reference_path)
    assert entries == expected_entries
    assert snapshots == expected_snapshots

    with Journal(path) as journal:
        resumed = Table.resume(journal, journal.unfinished()[0].id)
        assert dice_cards_game.state_to_json(resumed.state) == expected_state
        assert any(e["kind"] == "undo" for e in resumed.log())
