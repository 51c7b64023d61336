"""Fixtures for the Table tests: the Dice & Cards test game, registered under "dicecards"."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))  # so tests (and the crash child) import the test game by name

import dicecards  # noqa: E402

from companion import games  # noqa: E402
from companion.journal import Journal  # noqa: E402
from companion.table import Table  # noqa: E402


@pytest.fixture(autouse=True)
def dice_cards_game():
    """Dice & Cards is playable through the Table while a test runs, and forgotten after."""
    games.register(dicecards.RULES)
    yield dicecards.RULES
    games.unregister(dicecards.RULES.name)


@pytest.fixture
def journal():
    """A journal in memory: fast, and gone after the test."""
    with Journal(":memory:") as journal:
        yield journal


@pytest.fixture
def db_path(tmp_path):
    """A journal file of its own for the test."""
    return tmp_path / "games.sqlite3"


@pytest.fixture
def table(journal):
    """A fresh two-player game of Dice & Cards."""
    table = Table.new(journal, "dicecards", {"players": ["Ann", "Ben"], "seed": 7, "target": 15})
    yield table
    table.close()
