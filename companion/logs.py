"""Logging: the standard library, to stderr, one line per event."""

from __future__ import annotations

import logging
import sys

FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


class _OneLine(logging.Formatter):
    """Folds multi-line messages and tracebacks so each event stays on one line."""

    def format(self, record: logging.LogRecord) -> str:
        return super().format(record).replace("\n", " | ")


def setup_logging(level: str = "INFO") -> None:
    """Send every log record to stderr, one line each, at `level` and above."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(_OneLine(FORMAT))
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level.upper())
