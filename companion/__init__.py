"""Dreamtable: a table companion for CHAINsomnia and Somnicum.

The core of the app: pure rules of both games, the Table and its journal, the
configuration and the command line. Nothing here imports a GUI or hardware library.
"""

from __future__ import annotations

__version__ = "0.1.0"
