"""Shared fixtures for the whole suite."""

from __future__ import annotations

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
