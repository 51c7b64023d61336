"""Shared fixtures for the whole suite."""

from __future__ import annotations

import logging
import os

import pytest


@pytest.fixture(autouse=True)
def _isolated_home(tmp_path_factory, monkeypatch):
    """Keeps every test away from the real user's config and game database."""
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(home / "data"))
    monkeypatch.delenv("DREAMTABLE_CONFIG", raising=False)
    yield home


@pytest.fixture
def env_without_config():
    """An environment for subprocesses that points XDG at the test's isolated home."""
    return dict(os.environ)


@pytest.fixture(autouse=True)
def _restore_logging():
    """In-process runs of ``companion`` install a stderr handler on the root logger; a later
    test must not inherit it (it points at a captured, closed stream) nor its level."""
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    yield
    for handler in list(root.handlers):
        if handler not in handlers:
            root.removeHandler(handler)
    for handler in handlers:
        if handler not in root.handlers:
            root.addHandler(handler)
    root.setLevel(level)
