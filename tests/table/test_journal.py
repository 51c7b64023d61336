"""The journal file: exact resume, short replays, schema versions, damaged files, a full disk, history."""

from __future__ import annotations

import hashlib
import random
import sqlite3
from datetime import datetime, timezone
from pathlib import Path

import dicecards
import pytest

from companion import games
from companion.journal import (
    APPLICATION_ID,
    SCHEMA_VERSION,
    GameSummary,
    Journal,
    JournalError,
    JournalWriteError,
    history,
)
from companion.table import Table

RULES = dicecards.RULES
OPTIONS = {"players": ["Ann", "Ben"], "seed": 7, "target": 30}


def play_randomly(table: Table, count: int, seed: int = 0) -> None:
    rng = random.Random(seed)
    for _ in range(count):
        if table.over:
            return
        assert table.submit(rng.choice(table.legal_actions())).accepted


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def saved_journal(path: Path, games_count: int = 3, actions: int = 60) -> dict[int, dict]:
    """A journal file with a few games; returns their states by id."""
    states = {}
    with Journal(path, durable=False) as journal:  # building a fixture: no need to flush each commit
        for n in range(games_count):
            table = Table.new(journal, "dicecards", {**OPTIONS, "seed": n})
            play_randomly(table, actions, seed=n)
            states[table.game_id] = RULES.state_to_json(table.state)
    return states


# -- resume ------------------------------------------------------------------------------------


def test_resume_gives_exactly_the_state_after_the_last_commit(db_path):
    states = saved_journal(db_path, games_count=4, actions=80)
    with Journal(db_path) as journal:
        for game_id, state in states.items():
            assert RULES.state_to_json(Table.resume(journal, game_id).state) == state


class CountingRules(dicecards.DiceCardsRules):
    """Dice & Cards that counts the actions it applies."""

    def __init__(self) -> None:
        self.applied = 0

    def apply(self, state, action):
        self.applied += 1
        return super().apply(state, action)


def test_snapshots_keep_resume_to_a_few_actions(db_path):
    counting = CountingRules()
    games.register(counting)
    with Journal(db_path, snapshot_every=20, durable=False) as journal:
        table = Table.new(journal, "dicecards", {**OPTIONS, "target": 10**6})
        play_randomly(table, 500)
        counting.applied = 0
        resumed = Table.resume(journal, table.game_id)
        assert counting.applied < 20
        assert RULES.state_to_json(resumed.state) == RULES.state_to_json(table.state)


def test_unfinished_games_for_the_resume_menu(journal):
    first = Table.new(journal, "dicecards", OPTIONS)
    second = Table.new(journal, "dicecards", {**OPTIONS, "players": ["Cy", "Dee", "Eve"]})
    done = Table.new(journal, "dicecards", {**OPTIONS, "target": 1})
    for action in ({"type": "roll"}, {"type": "dice", "values": [3, 3]}, {"type": "keep", "die": 0},
                   {"type": "end_turn"}, {"type": "end_turn"}):
        done.submit(action)
    first.submit({"type": "end_turn"})
    first.submit({"type": "end_turn"})
    menu = journal.unfinished()
    assert [(g.id, g.game, g.players, g.round, g.seq) for g in menu] == [
        (first.game_id, "dicecards", ["Ann", "Ben"], 2, 2),
        (second.game_id, "dicecards", ["Cy", "Dee", "Eve"], 1, 0),
    ]
    assert menu[0].updated >= menu[0].started
    assert [g.id for g in journal.finished()] == [done.game_id]


def test_delete_removes_a_game_and_only_it(journal):
    keep = Table.new(journal, "dicecards", OPTIONS)
    gone = Table.new(journal, "dicecards", OPTIONS)
    gone.submit({"type": "draw"})
    assert journal.delete(gone.game_id).id == gone.game_id
    assert [g.id for g in journal.games()] == [keep.game_id]
    assert journal.entries(gone.game_id) == []


# -- schema versions ---------------------------------------------------------------------------


def test_journal_from_a_newer_dreamtable_is_refused_untouched(db_path):
    saved_journal(db_path, games_count=1)
    db = sqlite3.connect(db_path)
    db.execute(f"PRAGMA user_version={SCHEMA_VERSION + 1}")
    db.close()
    before = digest(db_path)
    with pytest.raises(JournalError) as refused:
        Journal(db_path)
    message = str(refused.value)
    assert str(db_path) in message and "newer Dreamtable" in message
    assert f"schema {SCHEMA_VERSION + 1}" in message
    assert digest(db_path) == before


# What Dreamtable's first journals looked like (schema 1): no history, no Action sources.
SCHEMA_1 = """
CREATE TABLE games (id INTEGER PRIMARY KEY AUTOINCREMENT, game TEXT NOT NULL, options TEXT NOT NULL,
    players TEXT NOT NULL, round INTEGER, started REAL NOT NULL, updated REAL NOT NULL,
    head INTEGER NOT NULL, status TEXT NOT NULL CHECK (status IN ('playing', 'finished')));
CREATE TABLE entries (game_id INTEGER NOT NULL, seq INTEGER NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('start', 'action', 'undo')), action TEXT NOT NULL,
    events TEXT NOT NULL, text TEXT NOT NULL, at REAL NOT NULL, undone_by INTEGER,
    PRIMARY KEY (game_id, seq)) WITHOUT ROWID;
CREATE TABLE snapshots (game_id INTEGER NOT NULL, seq INTEGER NOT NULL, state TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)) WITHOUT ROWID;
"""


def test_older_journal_is_copied_aside_then_migrated(tmp_path):
    current = tmp_path / "current.sqlite3"
    states = saved_journal(current, games_count=2, actions=40)
    old = tmp_path / "games.sqlite3"
    db = sqlite3.connect(old)
    db.executescript(SCHEMA_1)
    db.execute("ATTACH DATABASE ? AS current", (str(current),))
    db.execute(
        "INSERT INTO games SELECT id, game, options, players, round, started, updated, head, status"
        " FROM current.games"
    )
    db.execute(
        "INSERT INTO entries SELECT game_id, seq, kind, action, events, text, at, undone_by FROM current.entries"
    )
    db.execute("INSERT INTO snapshots SELECT * FROM current.snapshots")
    db.commit()
    db.execute("DETACH DATABASE current")
    db.execute(f"PRAGMA application_id={APPLICATION_ID}")
    db.execute("PRAGMA user_version=1")
    db.close()
    old_digest = digest(old)

    with Journal(old) as journal:
        backup = journal.backup_path
        assert backup == tmp_path / "games.sqlite3.schema1-backup"
        for game_id, state in states.items():
            table = Table.resume(journal, game_id)
            assert RULES.state_to_json(table.state) == state
            assert {e["source"] for e in table.log()} == {"unknown"}
            assert table.submit(table.legal_actions()[0], source="touch").accepted
    # the copy is the old journal as it was
    copy = sqlite3.connect(backup)
    assert copy.execute("PRAGMA user_version").fetchone()[0] == 1
    assert copy.execute("SELECT count(*) FROM entries").fetchone()[0] == sum(
        1 for _ in sqlite3.connect(current).execute("SELECT 1 FROM entries")
    )
    copy.close()
    assert digest(old) != old_digest
    with Journal(old) as journal:  # migrated once: no second copy
        assert journal.backup_path is None


# -- files that are not a healthy journal -------------------------------------------------------


def assert_refused_untouched(path: Path, *words: str) -> None:
    before = digest(path)
    with pytest.raises(JournalError) as refused:
        Journal(path)
    message = str(refused.value)
    assert message.startswith(f"{path}: ")
    for word in words:
        assert word in message
    assert "Traceback" not in message
    assert digest(path) == before


def test_a_file_that_is_not_a_database_is_refused_and_another_file_still_works(tmp_path):
    notes = tmp_path / "games.sqlite3"
    notes.write_text("shopping list: milk, eggs\n" * 20)
    assert_refused_untouched(notes, "not a Dreamtable journal", "not an SQLite database")
    # the app can still start a new game elsewhere
    with Journal(tmp_path / "elsewhere.sqlite3") as journal:
        assert Table.new(journal, "dicecards", OPTIONS).submit({"type": "draw"}).accepted


@pytest.mark.parametrize("keep", [0.5, 0.9, "page", "byte"])
def test_a_truncated_journal_is_refused_untouched(db_path, keep):
    saved_journal(db_path)
    data = db_path.read_bytes()
    cut = {"page": len(data) - 4096, "byte": len(data) - 1}.get(keep) or int(len(data) * keep)
    db_path.write_bytes(data[:cut])
    assert_refused_untouched(db_path, "truncated")


def test_a_journal_failing_its_integrity_check_is_refused_untouched(db_path):
    saved_journal(db_path)
    damage_entries_table(db_path)
    assert_refused_untouched(db_path, "damaged")


def damage_entries_table(db_path: Path) -> None:
    """Damages a saved journal where only SQLite's integrity check finds it."""
    db = sqlite3.connect(db_path)
    root = db.execute("SELECT rootpage FROM sqlite_master WHERE name = 'entries'").fetchone()[0]
    page_size = db.execute("PRAGMA page_size").fetchone()[0]
    db.close()
    data = bytearray(db_path.read_bytes())
    header = (root - 1) * page_size
    data[header + 3 : header + 5] = b"\xff\xff"  # the root page claims 65535 cells
    db_path.write_bytes(bytes(data))


def test_a_database_of_another_program_is_refused_untouched(tmp_path):
    photos = tmp_path / "photos.sqlite3"
    db = sqlite3.connect(photos)
    db.execute("CREATE TABLE photos (name TEXT)")
    db.commit()
    db.close()
    assert_refused_untouched(photos, "not a Dreamtable journal", "photos")


def test_a_folder_is_refused(tmp_path):
    with pytest.raises(JournalError, match="is a folder"):
        Journal(tmp_path)


def test_an_empty_file_becomes_a_journal(db_path):
    db_path.write_bytes(b"")  # what a kill right after SQLite created the file leaves
    with Journal(db_path) as journal:
        assert Table.new(journal, "dicecards", OPTIONS).game_id == 1


def test_damaged_entry_text_is_reported_not_crashed_on(db_path):
    states = saved_journal(db_path, games_count=1, actions=10)
    (game_id,) = states
    db = sqlite3.connect(db_path)
    db.execute("UPDATE entries SET action = '{\"type\": \"dr' WHERE game_id = ? AND seq = 3", (game_id,))
    db.execute("DELETE FROM snapshots WHERE seq > 0")
    db.commit()
    db.close()
    with Journal(db_path) as journal, pytest.raises(JournalError, match=f"game {game_id} entry 3 is damaged"):
        Table.resume(journal, game_id)


# -- a full disk -------------------------------------------------------------------------------


def test_a_full_disk_refuses_the_action_and_loses_nothing_earlier(db_path):
    with Journal(db_path) as journal:
        Table.new(journal, "dicecards", OPTIONS)
    size = db_path.stat().st_size
    with Journal(db_path, max_bytes=size + 4096) as journal:
        table = Table.resume(journal, 1)
        rng = random.Random(3)
        refused = None
        for _ in range(2000):
            before = RULES.state_to_json(table.state)
            outcome = table.submit(rng.choice(table.legal_actions()))
            if not outcome.accepted:
                refused = outcome
                break
        assert refused is not None, "the size cap was never reached"
        assert refused.error.code == "disk_full"
        assert refused.error.message == "The action was not applied: the disk is full."
        assert RULES.state_to_json(table.state) == before
        seq = table.seq
        with pytest.raises(JournalWriteError, match="the disk is full"):
            Table.new(journal, "dicecards", OPTIONS)
    with Journal(db_path) as journal:
        resumed = Table.resume(journal, 1)
        assert resumed.seq == seq
        assert RULES.state_to_json(resumed.state) == before
        assert [g.id for g in journal.games()] == [1]


# -- history -----------------------------------------------------------------------------------


def test_finished_games_keep_winners_scores_rounds_and_duration(tmp_path):
    now = [1_700_000_000.0]

    def clock() -> float:
        now[0] += 30.0  # every commit half a minute after the last
        return now[0]

    with Journal(tmp_path / "games.sqlite3", clock=clock) as journal:
        table = Table.new(journal, "dicecards", {**OPTIONS, "target": 1})
        for action in ({"type": "roll"}, {"type": "dice", "values": [2, 5]}, {"type": "keep", "die": 1},
                       {"type": "end_turn"}, {"type": "end_turn"}):
            table.submit(action)
        (summary,) = journal.finished()
    assert summary.winners == ["Ann"] and summary.scores == {"Ann": 5, "Ben": 0}
    assert summary.rounds == 1 and summary.duration == 150.0
    assert summary.to_json()["finished"] == "2023-11-14T22:16:20.000+00:00"


def finished(game: str, result: dict, minutes: float = 60, players: list[str] | None = None) -> GameSummary:
    start = datetime(2025, 1, 1, tzinfo=timezone.utc)
    return GameSummary(
        id=1, game=game, status="finished", started=start, updated=start, players=players or [], round=None,
        seq=9, finished=datetime.fromtimestamp(start.timestamp() + minutes * 60, tz=timezone.utc), result=result,
    )


def test_history_counts_plays_wins_escape_rate_and_scores():
    stats = history([
        finished("chainsomnia", {"escaped": True, "rounds": 9}, 40, players=["Ann", "Ben"]),
        finished("chainsomnia", {"result": "defeat", "cause": "caged", "round": 5}, 20),
        finished("chainsomnia", {"result": "victory", "round": 7, "winners": ["Ann"]}, 30),
        finished("somnicum", {"winners": ["Cy"], "players": [{"name": "Cy", "total": 41}, {"name": "Dee", "total": 33}]}),
        finished("somnicum", {"winners": ["Dee"], "scores": {"Cy": 20, "Dee": 50}}),
    ])
    chain, somnicum = stats["chainsomnia"], stats["somnicum"]
    assert chain["plays"] == 3 and chain["escapes"] == 2 and chain["escape_rate"] == pytest.approx(2 / 3)
    assert chain["wins"] == {"Ann": 2, "Ben": 1}
    assert chain["average_rounds"] == 7 and chain["average_duration"] == 30 * 60
    assert chain["best_score"] is None
    assert somnicum["wins"] == {"Cy": 1, "Dee": 1} and somnicum["escape_rate"] is None
    assert somnicum["best_score"] == 50 and somnicum["average_score"] == 36


def test_a_journal_where_no_folder_can_be_made_is_a_clear_error(tmp_path):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the folder should be")
    with pytest.raises(JournalError, match="not-a-folder/games.sqlite3: its folder cannot be made"):
        Journal(blocker / "games.sqlite3")


class _RecoveryRefused:
    """A read-only SQLite connection to a write-ahead journal its last writer left by a crash:
    SQLite must recover the log's index first, which a read-only connection may not do."""

    def __init__(self, real: sqlite3.Connection) -> None:
        self.real = real

    def execute(self, *args):
        error = sqlite3.OperationalError("attempt to write a readonly database")
        error.sqlite_errorname = "SQLITE_READONLY_RECOVERY"
        raise error

    def close(self) -> None:
        self.real.close()


@pytest.fixture
def refused_recovery(monkeypatch) -> list[str]:
    """Read-only connections that SQLite refuses to recover a crashed journal on; returns the
    modes of the connections opened, in order."""
    connect = sqlite3.connect
    modes: list[str] = []

    def connect_refusing_recovery(database, *args, **kwargs):
        modes.append(str(database).rsplit("mode=", 1)[-1] if "mode=" in str(database) else "")
        con = connect(database, *args, **kwargs)
        return _RecoveryRefused(con) if str(database).endswith("?mode=ro") else con

    monkeypatch.setattr(sqlite3, "connect", connect_refusing_recovery)
    return modes


def test_a_journal_left_by_a_crash_is_recovered_not_refused(db_path, refused_recovery):
    # The check before opening reads on a read-only connection; when SQLite needs to recover
    # the log (the app or the power cut off mid-game), the check is made on a read-write one,
    # as the journal's own connection would recover it, and the games resume.
    states = saved_journal(db_path, games_count=2)
    refused_recovery.clear()
    with Journal(db_path) as journal:
        for game_id, state in states.items():
            assert RULES.state_to_json(Table.resume(journal, game_id).state) == state
    assert refused_recovery[:2] == ["ro", "rw"]


def test_a_damaged_journal_needing_recovery_is_still_refused(db_path, refused_recovery):
    # Damaged where only the integrity check finds it: the read-write check still runs it.
    saved_journal(db_path)
    damage_entries_table(db_path)
    with pytest.raises(JournalError, match="damaged"):
        Journal(db_path)
