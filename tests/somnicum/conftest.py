"""Lets the Somnicum tests import their kit (``somnicum_kit``) by name, and imports the command
line's modules once before any test runs."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))


@pytest.fixture(scope="session", autouse=True)
def _command_line_imported():
    """``companion.cli.main`` imports every part's command module on its first call (vision,
    the mirror, the app...). Doing it here keeps that one-off cost out of the hypothesis tests
    that call ``main``, whose examples must each finish within hypothesis's deadline."""
    from companion.cli import build_parser

    build_parser()
