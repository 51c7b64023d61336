"""Reading catalog files: TOML data an owner can correct, with errors that say where.

Each game's ``catalog`` module (``companion.chainsomnia.catalog``, ``companion.somnicum.catalog``)
describes its entries with the small readers here, so every error names the file, the entry and
the field:

>>> r = EntryReader("rooms.toml", "library", {"stars": "two"})
>>> r.int("stars")
Traceback (most recent call last):
...
companion.catalog.CatalogError: rooms.toml: entry "library": field "stars": must be a whole number, not 'two'
"""

from __future__ import annotations

import tomllib
from collections.abc import Collection
from pathlib import Path
from typing import Any

DATA_DIR = Path(__file__).parent / "data"

_MISSING = object()


class CatalogError(ValueError):
    """A catalog entry that cannot be used."""

    def __init__(self, file: str, message: str, entry: str | None = None, field: str | None = None):
        where = file
        if entry is not None:
            where += f': entry "{entry}"'
        if field is not None:
            where += f': field "{field}"'
        super().__init__(f"{where}: {message}")
        self.file, self.entry, self.field = file, entry, field


def read_toml(path: Path) -> dict[str, Any]:
    """Parses one catalog file, turning every failure into a CatalogError naming it."""
    try:
        with path.open("rb") as fh:
            return tomllib.load(fh)
    except FileNotFoundError:
        raise CatalogError(str(path), "file not found") from None
    except tomllib.TOMLDecodeError as err:
        raise CatalogError(str(path), f"not valid TOML: {err}") from None
    except (OSError, UnicodeDecodeError) as err:
        raise CatalogError(str(path), f"cannot be read: {err}") from None


class EntryReader:
    """Typed access to the fields of one catalog entry, with errors naming file/entry/field."""

    def __init__(self, file: str, entry: str, data: Any) -> None:
        self.file, self.entry = file, entry
        if not isinstance(data, dict):
            raise CatalogError(file, "must be a table", entry)
        self.data = data
        self.used: set[str] = set()

    def error(self, field: str | None, message: str) -> CatalogError:
        return CatalogError(self.file, message, self.entry, field)

    def _get(self, field: str, default: Any) -> Any:
        self.used.add(field)
        if field in self.data:
            return self.data[field]
        if default is _MISSING:
            raise self.error(field, "is missing")
        return default

    def str(self, field: str, default: Any = _MISSING, choices: Collection[str] | None = None) -> Any:
        value = self._get(field, default)
        if value is default and default is not _MISSING:
            return value
        if not isinstance(value, str) or not value:
            raise self.error(field, f"must be a non-empty string, not {value!r}")
        if choices is not None and value not in choices:
            raise self.error(field, f"must be one of {', '.join(sorted(choices))}, not {value!r}")
        return value

    def int(self, field: str, default: Any = _MISSING, low: int | None = None, high: int | None = None) -> Any:
        value = self._get(field, default)
        if value is default and default is not _MISSING:
            return value
        if not isinstance(value, int) or isinstance(value, bool):
            raise self.error(field, f"must be a whole number, not {value!r}")
        if low is not None and value < low or high is not None and value > high:
            raise self.error(field, f"must be between {low} and {high}, not {value}")
        return value

    def bool(self, field: str, default: Any = _MISSING) -> Any:
        value = self._get(field, default)
        if not isinstance(value, bool):
            raise self.error(field, f"must be true or false, not {value!r}")
        return value

    def str_list(self, field: str, default: Any = _MISSING) -> Any:
        value = self._get(field, default)
        if value is default and default is not _MISSING:
            return value
        if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
            raise self.error(field, f"must be a list of non-empty strings, not {value!r}")
        return value

    def table(self, field: str, default: Any = _MISSING) -> Any:
        value = self._get(field, default)
        if value is default and default is not _MISSING:
            return value
        if not isinstance(value, dict):
            raise self.error(field, f"must be a table, not {value!r}")
        return value

    def finish(self) -> None:
        """Refuses fields nobody asked for: a typo must not pass silently."""
        unknown = sorted(set(self.data) - self.used)
        if unknown:
            raise self.error(unknown[0], "unknown field (a typo?)")


def read_entries(path: Path, table: dict[str, Any], read: Any, errors: list[CatalogError]) -> dict[str, Any]:
    """Reads every entry of one catalog file with ``read(EntryReader)``, collecting errors."""
    out: dict[str, Any] = {}
    for key, data in table.items():
        try:
            reader = EntryReader(str(path), key, data)
            entry = read(reader)
            reader.finish()
            out[key] = entry
        except CatalogError as err:
            errors.append(err)
    return out


def read_copies(path: Path, table: dict[str, Any], read: Any, errors: list[CatalogError],
                most: int = 30) -> dict[str, Any]:
    """Reads card entries where ``copies = n`` gives n cards with ids ``entry_1`` to ``entry_n``;
    ``read(EntryReader, card_id)`` makes one card (an object with an ``id``)."""
    out: dict[str, Any] = {}
    for key, data in table.items():
        try:
            reader = EntryReader(str(path), key, data)
            copies = reader.int("copies", 1, low=1, high=most)
            ids = [key] if copies == 1 else [f"{key}_{n}" for n in range(1, copies + 1)]
            cards = [read(reader, card_id) for card_id in ids]
            reader.finish()
            for card in cards:
                if card.id in out:
                    raise reader.error("copies", f"makes the id {card.id!r}, which another entry already has")
                out[card.id] = card
        except CatalogError as err:
            errors.append(err)
    return out


def read_tables(directory: Path, files: Any, errors: list[CatalogError]) -> dict[str, dict[str, Any]]:
    """Parses each of a catalog's files; an unreadable one is an error and an empty table."""
    tables: dict[str, dict[str, Any]] = {}
    for name in files:
        try:
            tables[name] = read_toml(directory / name)
        except CatalogError as err:
            errors.append(err)
            tables[name] = {}
    return tables


class CatalogCache:
    """Loads each catalog directory once, for one game's reader.

    ``read(directory, errors)`` returns the catalog, appending every problem to ``errors``. The
    rules ask for their catalog on every action, so a directory already loaded is answered by the
    name it was asked under, with no file system call.
    """

    def __init__(self, read: Any, default_dir: Path) -> None:
        self.read, self.default_dir = read, default_dir
        self._by_path: dict[str, Any] = {}
        self._by_name: dict[str, Any] = {}

    def load(self, dir: str | Path | None = None) -> Any:  # noqa: A002 - the games' agreed name
        name = str(dir or "")
        if name in self._by_name:
            return self._by_name[name]
        directory = Path(dir) if dir else self.default_dir
        key = str(directory.resolve())
        if key not in self._by_path:
            errors: list[CatalogError] = []
            catalog = self.read(directory, errors)
            if errors:
                raise errors[0]
            self._by_path[key] = catalog
        self._by_name[name] = self._by_path[key]
        return self._by_path[key]

    def check(self, dir: str | Path | None = None) -> list[CatalogError]:  # noqa: A002
        """Every error in a catalog directory (an empty list when it is sound)."""
        errors: list[CatalogError] = []
        self.read(Path(dir) if dir else self.default_dir, errors)
        return errors
