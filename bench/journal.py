"""The journal's speed: durable commit latency per Action, and resume time by game length.

Targets (issue 4): commit p95 under 5 ms; resume of a 1,000-action game under 100 ms.
Measured on a journal file under bench/out/ (the project's own disk, as on the Pi's card), with
Dice & Cards (the Table's test game, endless) and, when their rules are there, CHAINsomnia and
Somnicum (whose games end sooner: their resume rows say how long the game was). A commit is the
whole ``Table.submit``: the rules' apply and view, then the durable write.
"""

from __future__ import annotations

import random
import shutil
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "table"))

import dicecards  # noqa: E402

from companion import games  # noqa: E402
from companion.journal import Journal  # noqa: E402
from companion.table import Table  # noqa: E402

OUT = ROOT / "bench" / "out" / "journal"
COMMITS = 1000
LENGTHS = (100, 1_000, 10_000)
RESUMES = 7


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:8.2f}"


def _p95(samples: list[float]) -> float:
    return sorted(samples)[int(0.95 * (len(samples) - 1))]


def _fresh(name: str) -> Path:
    path = OUT / name
    for suffix in ("", "-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    return path


def _games() -> list[tuple[str, dict[str, Any], Callable[[Table, random.Random], None]]]:
    """(game, setup, one step of play) for each game whose rules are there."""

    def step(table: Table, rng: random.Random) -> None:
        outcome = table.submit(rng.choice(table.legal_actions()), source="bench")
        if not outcome.accepted:
            raise RuntimeError(f"{table.game}: {outcome.error}")

    found = [("dicecards", {"players": ["Ann", "Ben", "Cy"], "seed": 1, "target": 10**9}, step)]
    real = {
        "chainsomnia": {"players": 4, "seed": 1, "dice": "virtual", "decks": "digital"},
        "somnicum": {"players": ["Ana", "Ben", "Cy"], "seed": 1, "decks": "digital"},
    }
    for game, options in real.items():
        try:
            games.rules_for(game)
        except Exception:  # not there yet in this build
            continue
        found.append((game, options, step))
    return found


def _play_on(table: Table, rng: random.Random, step: Callable[[Table, random.Random], None], count: int) -> int:
    """Plays up to `count` actions (fewer if the game ends); returns how many."""
    done = 0
    while done < count:
        if table.over:
            return done
        step(table, rng)
        done += 1
    return done


def commit_latency(game: str, options: dict[str, Any], step: Callable[[Table, random.Random], None]) -> list[str]:
    rng = random.Random(1)
    samples: list[float] = []
    with Journal(_fresh(f"commit-{game}.sqlite3")) as journal:
        table = Table.new(journal, game, options)
        while len(samples) < COMMITS:
            if table.over:
                table = Table.new(journal, game, options)
            started = time.perf_counter()
            step(table, rng)
            samples.append(time.perf_counter() - started)
    return [f"{game:<12} {'Table.submit, durable':<24} {_ms(statistics.median(samples))} {_ms(_p95(samples))}   {len(samples)} actions"]


def resume_times(game: str, options: dict[str, Any], step: Callable[[Table, random.Random], None]) -> list[str]:
    rows = []
    for length in LENGTHS:
        path = _fresh(f"resume-{game}-{length}.sqlite3")
        rng = random.Random(length)
        with Journal(path, durable=False) as journal:  # building only; resume is what is timed
            table = Table.new(journal, game, options)
            played = _play_on(table, rng, step, length)
            game_id = table.game_id
        opens, resumes = [], []
        for _ in range(RESUMES):
            started = time.perf_counter()
            journal = Journal(path)
            opened = time.perf_counter()
            Table.resume(journal, game_id)
            resumes.append(time.perf_counter() - opened)
            opens.append(opened - started)
            journal.close()
        note = f"{played} actions" + ("" if played == length else " (the game ended)")
        rows.append(f"{game:<12} {f'Table.resume {length:,}':<24} {_ms(statistics.median(resumes))} {_ms(max(resumes))}   {note}")
        rows.append(f"{game:<12} {f'Journal() {length:,}':<24} {_ms(statistics.median(opens))} {_ms(max(opens))}   opening, with its quick_check")
    return rows


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    games.register(dicecards.RULES)
    try:
        found = _games()
        print(f"{'game':<12} {'commit per Action':<24} {'median ms':>8} {'p95 ms':>8}")
        for game, options, step in found:
            for row in commit_latency(game, options, step):
                print(row, flush=True)
        print(f"\n{'game':<12} {'resume':<24} {'median ms':>8} {'worst ms':>8}   (of {RESUMES})")
        for game, options, step in found:
            for row in resume_times(game, options, step):
                print(row, flush=True)
    finally:
        games.unregister(dicecards.RULES.name)
        shutil.rmtree(OUT, ignore_errors=True)


if __name__ == "__main__":
    main()
