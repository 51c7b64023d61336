"""The focus model: playing a whole game with a handful of buttons.

The touchscreen, the keyboard and the GPIO panel all drive this one model. It holds the legal
actions of the current state (``rules.legal_actions(state)``, which includes the answers to any
pending decision) and a highlight moving through them as a small tree of menus: first the kind of
action (``move``, ``explore``, ``end_turn``...), then, only where the actions of that kind differ,
each field that tells them apart (which character, which room...). ``next``/``previous`` move the
highlight, ``confirm`` opens a menu or sends the one action it leads to, ``back`` cancels a
half-made choice.

The model is pure: pressing returns a new ``Focus`` and an ``Effect`` saying what the app should
do (submit an action to the Table, ask the Table to undo, or just redraw).

>>> focus = Focus.of([{"type": "move", "to": [1, 0]}, {"type": "move", "to": [0, 1]},
...                   {"type": "end_turn"}])
>>> [o.label for o in focus.menu()]
['Move', 'End turn']
>>> focus, effect = focus.press("confirm")
>>> effect.kind, [o.label for o in focus.menu()]
('opened', ['to: 1, 0', 'to: 0, 1'])
>>> focus, effect = focus.press("next")
>>> focus, effect = focus.press("confirm")
>>> effect.kind, effect.action
('submit', {'type': 'move', 'to': [0, 1]})
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

Action = dict[str, Any]

# What a button, a key or a tap can ask of the focus model.
CONTROLS = ("confirm", "back", "next", "previous", "end_turn", "roll", "undo", "seat")

# Shortcut controls and the action types they reach, as the game engines name them.
DEFAULT_SHORTCUTS: Mapping[str, tuple[str, ...]] = {
    "end_turn": ("end_turn", "pass", "end_daemon_turn"),
    "roll": ("roll", "roll_dice", "dice", "dice_roll"),
}

# Action fields that name a seat directly.
SEAT_FIELDS = ("seat", "player", "to_seat", "target_seat")

_MISSING = "\x00missing"  # canonical value of a field an action does not have


def _canon(value: Any) -> str:
    """A hashable, order-independent key for a JSON value (lists and dicts are unhashable)."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def _field_value(action: Mapping[str, Any], key: str) -> str:
    return _canon(action[key]) if key in action else _MISSING


def humanise(name: str) -> str:
    """``end_turn`` -> ``End turn``."""
    words = name.replace("_", " ").strip()
    return words[:1].upper() + words[1:]


def _format_value(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, str):
        return value.replace("_", " ")
    if isinstance(value, (list, tuple)):
        return ", ".join(_format_value(v) for v in value)
    if isinstance(value, dict):
        return ", ".join(f"{k} {_format_value(v)}" for k, v in value.items())
    return str(value)


def default_label(key: str, value: Any, missing: bool) -> str:
    """The text of a menu option: the action type itself, or ``field: value`` below it."""
    if key == "type":
        return humanise(str(value))
    if missing:
        return f"no {key.replace('_', ' ')}"
    if key in SEAT_FIELDS and isinstance(value, int) and not isinstance(value, bool):
        return f"{key.replace('_', ' ')}: {value + 1}"  # players count seats from 1
    return f"{key.replace('_', ' ')}: {_format_value(value)}"


def seat_names_from_view(public: Mapping[str, Any]) -> dict[str, int]:
    """Which seat each name in a public view belongs to (CHAINsomnia's characters), so a seat
    button can pick that seat's character from a menu."""
    names: dict[str, int] = {}
    for character in public.get("characters") or []:
        if isinstance(character, Mapping) and isinstance(character.get("id"), str):
            seat = character.get("seat")
            if isinstance(seat, int) and not isinstance(seat, bool):
                names[character["id"]] = seat
    return names


Labeller = Callable[[str, Any, bool], str]


@dataclass(frozen=True)
class Option:
    """One line of the current menu."""

    label: str
    key: str  # the action field this menu chooses ("type", "to", "character"...)
    value: Any  # that field's value for this option (None when missing)
    actions: tuple[Action, ...]  # every legal action under this option, in the rules' order
    seat: int | None = None  # the seat this option names, for the per-seat buttons

    @property
    def action(self) -> Action | None:
        """The action confirming this option sends, or None when it opens a further menu."""
        return self.actions[0] if len(self.actions) == 1 else None


@dataclass(frozen=True)
class Effect:
    """What a press asks of the app.

    kind: ``submit`` (send ``action`` to the Table), ``undo`` (ask the Table to undo),
    ``moved`` / ``opened`` / ``cancelled`` (redraw the highlight), ``refused`` (nothing happened;
    ``note`` says why, for a status line).
    """

    kind: str
    action: Action | None = None
    note: str = ""


@dataclass(frozen=True)
class Focus:
    """The highlight over the legal actions, and the choices made so far.

    ``path`` is the list of (field, value) choices already made (e.g. ``type = move``), ``index``
    the highlighted line of the menu under that path.
    """

    actions: tuple[Action, ...] = ()
    path: tuple[tuple[str, str], ...] = ()
    index: int = 0
    shortcuts: Mapping[str, tuple[str, ...]] = field(default_factory=lambda: DEFAULT_SHORTCUTS)
    seat_names: Mapping[str, int] = field(default_factory=dict)
    label: Labeller = field(default=default_label, compare=False)

    @classmethod
    def of(
        cls,
        actions: Iterable[Mapping[str, Any]],
        *,
        shortcuts: Mapping[str, tuple[str, ...]] | None = None,
        seat_names: Mapping[str, int] | None = None,
        label: Labeller | None = None,
    ) -> Focus:
        """A fresh focus at the top menu. ``seat_names`` maps option values that stand for a
        seat (character names in CHAINsomnia) to that seat's index, so a seat button can pick
        its own character."""
        return cls(
            actions=_dedupe(actions),
            shortcuts=dict(shortcuts) if shortcuts is not None else DEFAULT_SHORTCUTS,
            seat_names=dict(seat_names or {}),
            label=label or default_label,
        )

    # -- reading the menu -------------------------------------------------------------------

    def candidates(self) -> tuple[Action, ...]:
        """The legal actions still possible after the choices in ``path``."""
        return tuple(
            a for a in self.actions if all(_field_value(a, k) == v for k, v in self.path)
        )

    def menu(self) -> list[Option]:
        """The options of the current menu, in the order the rules listed their actions."""
        return self._menu_for(self.candidates())

    def highlighted(self) -> Option | None:
        options = self.menu()
        return options[self.index] if options else None

    def breadcrumb(self) -> list[str]:
        """The labels of the choices made so far, for a title line ("Move > character: chloe")."""
        crumbs = []
        for depth, (key, value) in enumerate(self.path):
            prefix = replace(self, path=self.path[:depth])
            for option in prefix.menu():
                if option.key == key and _canon_option(option) == value:
                    crumbs.append(option.label)
        return crumbs

    def _menu_for(self, candidates: Sequence[Action]) -> list[Option]:
        if not candidates:
            return []
        key = _splitting_key(candidates)
        if key is None:  # one action (duplicates were removed): a single leaf
            key = "type" if "type" in candidates[0] else next(iter(candidates[0]), "type")
        groups: dict[str, list[Action]] = {}
        for action in candidates:
            groups.setdefault(_field_value(action, key), []).append(action)
        options = []
        for canon, members in groups.items():
            missing = canon == _MISSING
            value = None if missing else members[0][key]
            options.append(
                Option(
                    label=self.label(key, value, missing),
                    key=key,
                    value=value,
                    actions=tuple(members),
                    seat=self._seat_of(key, value),
                )
            )
        return options

    def _seat_of(self, key: str, value: Any) -> int | None:
        if key in SEAT_FIELDS and isinstance(value, int) and not isinstance(value, bool):
            return value
        if isinstance(value, str) and value in self.seat_names:
            return self.seat_names[value]
        return None

    # -- pressing ---------------------------------------------------------------------------

    def with_actions(self, actions: Iterable[Mapping[str, Any]]) -> Focus:
        """The focus for a new state: back to the top menu, keeping the highlight on the same
        kind of action when it is still legal (so moving twice is confirm, confirm...)."""
        new = _dedupe(actions)
        if new == self.actions:
            return self
        top = self._top_type()
        fresh = replace(self, actions=new, path=(), index=0)
        return fresh._highlight_type(top)

    def press(self, control: str, seat: int | None = None) -> tuple[Focus, Effect]:
        """Applies one control (see ``CONTROLS``); ``seat`` goes with the ``seat`` control."""
        if control == "next":
            return self._step(+1)
        if control == "previous":
            return self._step(-1)
        if control == "confirm":
            return self._confirm()
        if control == "back":
            return self._back()
        if control == "undo":
            return self, Effect("undo")
        if control in self.shortcuts:
            return self._shortcut(control)
        if control == "seat":
            return self._seat(seat)
        raise ValueError(f"unknown control {control!r} (known: {', '.join(CONTROLS)})")

    def _step(self, delta: int) -> tuple[Focus, Effect]:
        options = self.menu()
        if not options:
            return self, Effect("refused", note="Nothing to choose from now")
        return replace(self, index=(self.index + delta) % len(options)), Effect("moved")

    def _confirm(self) -> tuple[Focus, Effect]:
        option = self.highlighted()
        if option is None:
            return self, Effect("refused", note="Nothing to do now")
        if option.action is not None:
            return self._after_submit(option.action), Effect("submit", dict(option.action))
        opened = replace(self, path=(*self.path, (option.key, _canon_option(option))), index=0)
        return opened, Effect("opened")

    def _back(self) -> tuple[Focus, Effect]:
        if not self.path:
            return self, Effect("refused", note="Nothing to cancel")
        key, value = self.path[-1]
        parent = replace(self, path=self.path[:-1], index=0)
        for i, option in enumerate(parent.menu()):
            if option.key == key and _canon_option(option) == value:
                parent = replace(parent, index=i)
                break
        return parent, Effect("cancelled")

    def _shortcut(self, control: str) -> tuple[Focus, Effect]:
        types = self.shortcuts[control]
        matching = [a for a in self.actions if a.get("type") in types]
        if not matching:
            what = "no turn to end" if control == "end_turn" else f"nothing to {control} now"
            return self, Effect("refused", note=f"There is {what}")
        if len(matching) == 1:
            return self._after_submit(matching[0]), Effect("submit", dict(matching[0]))
        first_type = matching[0]["type"]
        top = replace(self, path=(), index=0)._highlight_type(first_type)
        if all(a["type"] == first_type for a in matching):
            top, _ = top._confirm()  # open that kind of action straight away
        return top, Effect("opened")

    def _seat(self, seat: int | None) -> tuple[Focus, Effect]:
        options = self.menu()
        hits = [i for i, option in enumerate(options) if option.seat == seat]
        if seat is None or not hits:
            return self, Effect("refused", note=f"Nothing here for seat {_seat_label(seat)}")
        later = [i for i in hits if i > self.index]
        return replace(self, index=later[0] if later else hits[0]), Effect("moved")

    def _after_submit(self, action: Action) -> Focus:
        return replace(self, path=(), index=0)._highlight_type(action.get("type"))

    def _top_type(self) -> Any:
        """The kind of action the player is on: the one chosen, or the one highlighted."""
        if self.path:
            key, value = self.path[0]
            return json.loads(value) if key == "type" and value != _MISSING else None
        option = self.highlighted()
        return option.value if option is not None and option.key == "type" else None

    def _highlight_type(self, action_type: Any) -> Focus:
        for i, option in enumerate(self.menu()):
            if option.key == "type" and option.value == action_type:
                return replace(self, index=i)
        return self


def _seat_label(seat: int | None) -> str:
    return "?" if seat is None else str(seat + 1)


def _canon_option(option: Option) -> str:
    return _field_value(option.actions[0], option.key)


def _dedupe(actions: Iterable[Mapping[str, Any]]) -> tuple[Action, ...]:
    seen: set[str] = set()
    unique = []
    for action in actions:
        key = _canon(action)
        if key not in seen:
            seen.add(key)
            unique.append(dict(action))
    return tuple(unique)


def _splitting_key(candidates: Sequence[Action]) -> str | None:
    """The first field (``type`` first, then in the order the rules wrote them) whose value
    differs between the candidates; None when only one action is left."""
    if len(candidates) < 2:
        return None
    keys: list[str] = ["type"]
    for action in candidates:
        keys.extend(k for k in action if k not in keys)
    for key in keys:
        values = {_field_value(a, key) for a in candidates}
        if len(values) > 1:
            return key
    return None


def route_to(focus: Focus, action: Mapping[str, Any]) -> list[str]:
    """The presses (``next``, ``previous``, ``confirm``) that submit ``action`` from ``focus``,
    taking the shorter way round each menu; raises ValueError when it is not legal now.

    Used to show a hint ("press next twice, then confirm") and to prove in the tests that every
    legal action can be reached with buttons alone.
    """
    target = _canon(dict(action))
    presses: list[str] = []
    current = focus
    while current.path and not any(_canon(a) == target for a in current.candidates()):
        current, _ = current.press("back")
        presses.append("back")
    depth = len({key for a in current.actions for key in a}) + 1
    for _ in range(depth):  # each menu splits on a different field
        options = current.menu()
        where = [
            i
            for i, option in enumerate(options)
            if any(_canon(a) == target for a in option.actions)
        ]
        if not where:
            raise ValueError(f"{dict(action)!r} is not a legal action here")
        size, i = len(options), where[0]
        forward = (i - current.index) % size
        backward = (current.index - i) % size
        presses.extend(["next"] * forward if forward <= backward else ["previous"] * backward)
        presses.append("confirm")
        current = replace(current, index=i)
        if options[i].action is not None:
            return presses
        current, _ = current.press("confirm")
    raise AssertionError("the menus went deeper than the action has fields")


class TableLike(Protocol):
    """What ``press_on_table`` needs of ``companion.table.Table``."""

    def legal_actions(self) -> list[Action]: ...

    def submit(self, action: Action, source: str = ...) -> Any: ...

    def undo(self, steps: int = ..., source: str = ...) -> Any: ...


def press_on_table(table: TableLike, focus: Focus, control: str, seat: int | None = None,
                   source: str = "gpio") -> tuple[Focus, Effect, Any]:
    """One input, start to finish: catch up with the table's state, press, and send what the
    press asks for (an action or an undo) to the Table.

    Returns the new focus, the effect, and the Table's ``Outcome`` (None when nothing was sent).
    Call it on the thread that owns the focus (Kivy's main thread in the app).
    """
    focus = focus.with_actions(table.legal_actions())
    focus, effect = focus.press(control, seat)
    outcome = None
    if effect.kind == "submit" and effect.action is not None:
        outcome = table.submit(effect.action, source=source)
    elif effect.kind == "undo":
        outcome = table.undo(source=source)
    if outcome is not None and outcome.accepted:
        focus = focus.with_actions(table.legal_actions())
    return focus, effect, outcome
