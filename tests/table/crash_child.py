"""The process the crash test kills: it plays Dice & Cards through a Table until it is killed.

Run as ``python crash_child.py JOURNAL_FILE``. It resumes the journal's unfinished game (or starts
one), then plays by :func:`play_step`, printing ``ack SEQ`` (flushed) for every entry the Table
acknowledged. The moves depend only on the journal's position and the game state, so a crash-free
run in memory makes exactly the same journal.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any, Callable

sys.path.insert(0, str(Path(__file__).resolve().parent))

import dicecards  # noqa: E402

from companion import games  # noqa: E402
from companion.journal import Journal  # noqa: E402
from companion.table import Outcome, Table  # noqa: E402

OPTIONS = {"players": ["Ann", "Ben", "Cy"], "seed": 2024, "target": 10**9}
SNAPSHOT_EVERY = 10
POLICY_SEED = 99


def play_step(table: Table, ack: Callable[[Outcome], Any]) -> None:
    """One step of play from the table's position: sometimes a refused action, then a move.

    The move is an undo of 1 to 3 steps about one time in ten (a legal action if that undo is
    refused), otherwise one of the legal actions.
    """
    rng = random.Random(POLICY_SEED * 1_000_003 + table.seq)
    if rng.random() < 0.1:
        refused = table.submit({"type": "keep", "die": 7}, source="crash-test")
        assert not refused.accepted
    if rng.random() < 0.1:
        outcome = table.undo(rng.randint(1, 3), source="crash-test")
        if outcome.accepted:
            ack(outcome)
            return
    outcome = table.submit(rng.choice(table.legal_actions()), source="crash-test")
    assert outcome.accepted, outcome
    ack(outcome)


def open_table(journal: Journal) -> Table:
    unfinished = journal.unfinished()
    if unfinished:
        return Table.resume(journal, unfinished[0].id)
    return Table.new(journal, "dicecards", OPTIONS, source="crash-test")


def main(path: str) -> None:
    games.register(dicecards.RULES)
    journal = Journal(path, snapshot_every=SNAPSHOT_EVERY)
    table = open_table(journal)
    print(f"ack {table.seq}", flush=True)  # the start (or the resumed position) is durable
    while True:
        play_step(table, lambda outcome: print(f"ack {outcome.seq}", flush=True))


if __name__ == "__main__":
    main(sys.argv[1])
