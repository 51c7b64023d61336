"""Actions from many threads at once are applied one at a time, as if sent in the accepted order."""

from __future__ import annotations

import random
import threading

import dicecards

from companion.journal import Journal
from companion.table import Table, Update

RULES = dicecards.RULES
OPTIONS = {"players": ["Ann", "Ben", "Cy"], "seed": 5, "target": 10**6}


def journal_lines(journal: Journal, game_id: int) -> list[tuple]:
    return [(e.seq, e.kind, e.action, e.events, e.text, e.undone_by) for e in journal.entries(game_id)]


def test_threads_sending_at_once_give_the_journal_of_the_accepted_order(db_path):
    journal = Journal(db_path)
    table = Table.new(journal, "dicecards", OPTIONS)
    heard: list[int] = []
    table.subscribe(lambda update: heard.append(update.seq), initial=False, max_pending=10_000)
    accepted: list[list[int]] = [[] for _ in range(6)]
    start = threading.Barrier(6)

    def player(n: int) -> None:
        # each thread looks at the table and sends what looks legal; others may get there first
        rng = random.Random(n)
        start.wait()
        for _ in range(60):
            if rng.random() < 0.1:
                outcome = table.undo(rng.randint(1, 2), source=f"thread-{n}")
            else:
                outcome = table.submit(rng.choice(table.legal_actions()), source=f"thread-{n}")
            if outcome.accepted:
                accepted[n].append(outcome.seq)

    threads = [threading.Thread(target=player, args=(n,)) for n in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    seqs = sorted(s for mine in accepted for s in mine)
    assert seqs == list(range(1, table.seq + 1)) and len(seqs) > 100
    concurrent = journal_lines(journal, table.game_id)

    # the same entries sent one after the other, in the accepted order
    replay = Table.new(journal, "dicecards", OPTIONS)
    for entry in journal.entries(table.game_id)[1:]:
        outcome = replay.submit(entry.action)  # an undo entry's action is {"type": "undo", ...}
        assert outcome.accepted and outcome.seq == entry.seq
    assert journal_lines(journal, replay.game_id) == concurrent
    assert RULES.state_to_json(replay.state) == RULES.state_to_json(table.state)
    # and every subscriber heard the commits in their order
    table.close()
    assert heard == list(range(1, table.seq + 1))
    journal.close()


def test_updates_reach_each_subscriber_in_commit_order_under_load(journal):
    table = Table.new(journal, "dicecards", OPTIONS)
    lists: list[list[Update]] = [[], [], []]
    for mine in lists:
        table.subscribe(mine.append, initial=False, max_pending=10_000)

    def sender() -> None:
        for _ in range(50):
            table.submit({"type": "end_turn"})

    threads = [threading.Thread(target=sender) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    table.close()
    assert table.seq == 200
    for mine in lists:
        assert [u.seq for u in mine] == list(range(1, 201))
        assert [u.events[0]["from"] for u in mine[:3]] == ["Ann", "Ben", "Cy"]
