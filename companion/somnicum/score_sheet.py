"""Reading the score sheet of ``companion somnicum score``: JSON describing each player's dream.

Every problem is reported as one line naming the player, the level, the card position and the
field, for example ``players[0] "Karl": dream level 2, card 3: "stars" must be a whole number``.
"""

from __future__ import annotations

import json
from typing import Any

from companion.somnicum.dream import LEVELS, Dream, DreamCard, DreamRow
from companion.somnicum.scoring import PlayerTally

GAP = "gap"
_PLAYER_FIELDS = {"name", "goal", "meetings_unplayed", "meeting_vp", "sand", "dream"}
_CARD_FIELDS = {"stars", "particles", "tokens", "nightmare", "name", "storyline", "meeting"}


class ScoreSheetError(ValueError):
    """A score sheet that cannot be scored; the message says exactly where."""


def _quoted(text: str) -> str:
    """A name from the sheet in quotes, escaped so that a newline in it cannot break the line."""
    return json.dumps(text, ensure_ascii=False)


def _is_whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _whole(where: str, data: dict[str, Any], key: str, default: int | None) -> int:
    if key not in data:
        if default is None:
            raise ScoreSheetError(f'{where}: "{key}" is missing')
        return default
    value = data[key]
    if not _is_whole(value):
        raise ScoreSheetError(f'{where}: "{key}" must be a whole number, not {json.dumps(value)}')
    if value < 0:
        raise ScoreSheetError(f'{where}: "{key}" must not be negative, not {value}')
    return value


def _strings(where: str, data: dict[str, Any], key: str, required: bool) -> tuple[str, ...]:
    if key not in data:
        if required:
            raise ScoreSheetError(f'{where}: "{key}" is missing')
        return ()
    value = data[key]
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        raise ScoreSheetError(
            f'{where}: "{key}" must be a list of particle names, not {json.dumps(value)}'
        )
    return tuple(value)


def _unknown(where: str, data: dict[str, Any], known: set[str]) -> None:
    extra = sorted(set(data) - known)
    if extra:
        raise ScoreSheetError(
            f'{where}: unknown field {_quoted(extra[0])} (known: {", ".join(sorted(known))})'
        )


def _card(where: str, data: Any) -> DreamCard:
    if not isinstance(data, dict):
        raise ScoreSheetError(f'{where}: must be a card object or "gap", not {json.dumps(data)}')
    _unknown(where, data, _CARD_FIELDS)
    for flag in ("nightmare", "meeting"):
        if flag in data and not isinstance(data[flag], bool):
            raise ScoreSheetError(f'{where}: "{flag}" must be true or false')
    for text in ("name", "storyline"):
        if text in data and not isinstance(data[text], str):
            raise ScoreSheetError(f'{where}: "{text}" must be a string')
    return DreamCard(
        stars=_whole(where, data, "stars", None),
        particles=_strings(where, data, "particles", required=True),
        tokens=_strings(where, data, "tokens", required=False),
        nightmare=data.get("nightmare", False),
        name=data.get("name", ""),
        storyline=data.get("storyline", ""),
        meeting=data.get("meeting", False),
    )


def _row(where: str, level: int, entries: Any) -> DreamRow:
    here = f"{where}: dream level {level}"
    if not isinstance(entries, list):
        raise ScoreSheetError(f"{here}: must be a list of cards and gaps")
    cards: list[DreamCard] = []
    gaps: list[bool] = []
    previous_was_gap = False
    for entry in entries:
        if entry == GAP:
            if not cards:
                raise ScoreSheetError(f'{here}: a "gap" cannot start a row: it lies between two cards')
            if previous_was_gap:
                raise ScoreSheetError(
                    f'{here}, after card {len(cards)}: "gap" twice in a row: one gap lies between two cards'
                )
            gaps[-1] = True
            previous_was_gap = True
            continue
        if isinstance(entry, str):
            raise ScoreSheetError(
                f'{here}, card {len(cards) + 1}: {json.dumps(entry)} is neither a card nor "gap"'
            )
        cards.append(_card(f"{here}, card {len(cards) + 1}", entry))
        gaps.append(False)
        previous_was_gap = False
    if previous_was_gap:
        raise ScoreSheetError(f'{here}: a "gap" cannot end a row: it lies between two cards')
    return DreamRow(tuple(cards), tuple(gaps[:-1]))


def _player(index: int, data: Any, seen: dict[str, int]) -> PlayerTally:
    where = f"players[{index}]"
    if not isinstance(data, dict):
        raise ScoreSheetError(f"{where}: must be an object with a name and a dream")
    name = data.get("name")
    if not isinstance(name, str) or not name.strip():
        raise ScoreSheetError(f'{where}: "name" must be a non-empty string')
    if name in seen:
        raise ScoreSheetError(f'{where} {_quoted(name)}: the name is already used by players[{seen[name]}]')
    seen[name] = index
    where = f'{where} {_quoted(name)}'
    _unknown(where, data, _PLAYER_FIELDS)
    if "dream" not in data:
        raise ScoreSheetError(f'{where}: "dream" is missing (a list of up to {LEVELS} levels)')
    levels = data["dream"]
    if not isinstance(levels, list):
        raise ScoreSheetError(f'{where}: "dream" must be a list of levels, top level first')
    if len(levels) > LEVELS:
        raise ScoreSheetError(f'{where}: "dream" has {len(levels)} levels; a dream has at most {LEVELS}')
    rows = [_row(where, depth + 1, entries) for depth, entries in enumerate(levels)]
    rows += [DreamRow()] * (LEVELS - len(rows))
    dream = Dream(tuple(rows))
    bad = dream.impossible_level()
    if bad is not None:
        above = rows[bad - 2]
        raise ScoreSheetError(
            f"{where}: dream level {bad}: {len(rows[bad - 1].cards)} cards, but level {bad - 1} has "
            f"only {above.gapless_pairs()} pair(s) of neighbouring cards without a gap; each card "
            f"of level {bad} lies under its own such pair, so this dream is impossible"
        )
    return PlayerTally(
        name=name,
        dream=dream,
        goal=_strings(where, data, "goal", required=False),
        meetings_unplayed=_whole(where, data, "meetings_unplayed", 0),
        meeting_vp=_whole(where, data, "meeting_vp", 0),
        sand=_whole(where, data, "sand", 0),
    )


def parse_score_sheet(text: str) -> list[PlayerTally]:
    """Parses a score sheet's JSON text into player tallies, or raises ScoreSheetError."""
    try:
        document = json.loads(text)
    except json.JSONDecodeError as err:
        raise ScoreSheetError(f"not valid JSON: {err.msg} at line {err.lineno}, column {err.colno}") from None
    except RecursionError:
        raise ScoreSheetError("not valid JSON: nested too deeply") from None
    if not isinstance(document, dict):
        raise ScoreSheetError('the document must be an object with a "players" list')
    _unknown("the document", document, {"players"})
    players = document.get("players")
    if not isinstance(players, list) or not players:
        raise ScoreSheetError('"players" must be a list of at least one player')
    seen: dict[str, int] = {}
    return [_player(i, p, seen) for i, p in enumerate(players)]
