"""Logging goes to stderr, one line per event."""

from __future__ import annotations

import logging

from companion.logs import setup_logging


def test_each_event_is_one_line_on_stderr(capsys):
    setup_logging("INFO")
    log = logging.getLogger("dreamtable.test")
    log.info("first\nsecond")
    try:
        raise ValueError("boom")
    except ValueError:
        log.exception("failed")
    log.debug("hidden below INFO")
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 2
    assert err[0].endswith("INFO dreamtable.test: first | second")
    assert "ERROR dreamtable.test: failed | Traceback" in err[1] and "ValueError: boom" in err[1]
