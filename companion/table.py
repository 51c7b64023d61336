"""The Table: one game of CHAINsomnia or Somnicum in progress, and the only way its state changes.

Every input (touch, GPIO button, camera, phone) becomes an Action and goes to ``Table.submit``
from whatever thread it comes from. The Table applies Actions one at a time through the game's
pure rules, commits each accepted one to the :class:`~companion.journal.Journal`, and only then
tells its subscribers (screens, mirror, lights). A refused Action changes nothing and is not
journalled; the sender gets the rule's reason.

Undo takes back the last action(s) by replaying the journal up to the chosen point. Because the
seeded generator lives in the game state, chance already revealed stays revealed: drawing again
after undoing a draw gives the same card. Each undo is journalled too, and says in words what
the players must put back on the table.

>>> from companion.journal import Journal
>>> table = Table.new(Journal(":memory:"), "chainsomnia", {"players": 2, "seed": 1})
>>> outcome = table.submit({"type": "end_turn"}, source="touch")
>>> outcome.accepted, outcome.seq
(True, 1)
>>> table.undo().put_back
["Set Charlotte's AP marker back to 3"]
"""

from __future__ import annotations

import json
import logging
import secrets
import threading
import time
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.games import rules_for
from companion.journal import Journal, JournalError, JournalWriteError, escaped, iso
from companion.rules import IllegalAction, Rules

log = logging.getLogger(__name__)

Action = dict[str, Any]
Event = dict[str, Any]


@dataclass(frozen=True)
class Outcome:
    """What became of one submitted Action or undo.

    `accepted`: applied and journalled as entry `seq`; otherwise `error` says why (an
    :class:`IllegalAction`: the rule, a finished game, a full disk...). `put_back` lists, for an
    undo, what the players must put back on the table.
    """

    accepted: bool
    seq: int | None = None
    events: list[Event] = field(default_factory=list)
    error: IllegalAction | None = None
    put_back: list[str] = field(default_factory=list)
    text: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "accepted": self.accepted,
            "seq": self.seq,
            "events": self.events,
            "error": None if self.error is None else self.error.to_json(),
            "put_back": self.put_back,
            "text": self.text,
        }


@dataclass(frozen=True)
class Update:
    """What a subscriber hears after each committed change (or once, on subscribing).

    kind: "start" (sent to each new subscriber with the current state), "action", "undo", or
    "end" (sent after the "action" that finished the game; `text` says the result).
    """

    game_id: int
    game: str
    kind: str
    seq: int
    action: Action | None
    events: list[Event]
    text: str
    put_back: list[str]
    state: Any
    public: dict[str, Any]
    over: bool


def _refusal(code: str, message: str) -> Outcome:
    return Outcome(accepted=False, error=IllegalAction(code, message))


def _plain(value: Any) -> Any:
    """A JSON round trip: what is journalled is exactly what the rules saw."""
    return json.loads(json.dumps(value, allow_nan=False))


class _Subscriber:
    """A callback with its own thread and a short queue that keeps only the newest updates."""

    def __init__(self, callback: Callable[[Update], Any], max_pending: int, name: str) -> None:
        self.callback = callback
        self.pending: deque[Update] = deque(maxlen=max(1, max_pending))
        self.dropped = 0
        self.failures = 0
        self._wake = threading.Condition()
        self._closed = False
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()

    def post(self, update: Update) -> None:
        with self._wake:
            if self._closed:
                return
            if len(self.pending) == self.pending.maxlen:
                self.dropped += 1  # a slow subscriber misses old updates, never new ones
            self.pending.append(update)
            self._wake.notify()

    def close(self, drain: bool = False) -> None:
        """Stops the thread; with `drain`, after it has delivered what is pending."""
        with self._wake:
            self._closed = True
            if not drain:
                self.pending.clear()
            self._wake.notify()

    def join(self, timeout: float) -> None:
        if threading.current_thread() is not self._thread:
            self._thread.join(timeout)

    def _run(self) -> None:
        while True:
            with self._wake:
                while not self.pending and not self._closed:
                    self._wake.wait()
                if not self.pending:
                    return  # closed
                update = self.pending.popleft()
            try:
                self.callback(update)
            except Exception:
                self.failures += 1
                # Log the first failure and then every hundredth: a broken screen must not flood.
                if self.failures == 1 or self.failures % 100 == 0:
                    log.exception(
                        "subscriber %r failed on %s update %d (%d failures so far)",
                        self.callback, update.kind, update.seq, self.failures,
                    )


def _players_and_round(public: Mapping[str, Any], options: Mapping[str, Any]) -> tuple[list[str], int | None]:
    """The player names and round for the resume menu, read from the public view or setup."""
    raw = public.get("players")
    if not isinstance(raw, list):  # CHAINsomnia counts players; its characters have names
        raw = public.get("characters")
    if not isinstance(raw, list):
        raw = options.get("players")
    names: list[str] = []
    for player in raw if isinstance(raw, list) else []:
        if isinstance(player, str):
            names.append(player)
        elif isinstance(player, Mapping):
            name = player.get("name", player.get("character", player.get("player")))
            if name is not None:
                names.append(str(name))
    round_ = public.get("round")
    return names, round_ if isinstance(round_, int) and not isinstance(round_, bool) else None


def _end_text(result: Mapping[str, Any]) -> str:
    if isinstance(result.get("text"), str):
        return result["text"]
    winners = [str(w) for w in result.get("winners") or []]
    words = "Game over"
    outcome = escaped(result)
    if outcome is True:
        words += ": the children escaped"
    elif outcome is False:
        words += ": defeat" + (f" ({result['cause']})" if result.get("cause") else "")
    elif winners:
        words += f": {', '.join(winners)} won"
    return words + "."


class Table:
    """One game in progress; see the module docstring. Make one with :meth:`new` or :meth:`resume`."""

    def __init__(
        self,
        journal: Journal,
        rules: Rules,
        game_id: int,
        options: Mapping[str, Any],
        state: Any,
        seq: int,
        since_snapshot: int,
    ) -> None:
        self.journal = journal
        self.rules = rules
        self.game_id = game_id
        self.game: str = rules.name
        self.options = dict(options)
        self._state = state
        self._seq = seq
        self._since_snapshot = since_snapshot
        self._over = bool(rules.is_over(state))
        self._lock = threading.Lock()
        self._subscribers: list[_Subscriber] = []
        self._closed = False

    # -- making a table --------------------------------------------------------------------

    @classmethod
    def new(
        cls,
        journal: Journal,
        game: str,
        options: Mapping[str, Any] | None = None,
        *,
        source: str = "touch",
    ) -> Table:
        """Sets up a new game of `game` with `options` and journals its start.

        Options without a "seed" get a random one, so no two games deal the same decks, and the
        journalled setup still replays exactly. Raises UnknownGame for a game Dreamtable does not
        know, IllegalAction for options the game's setup refuses, JournalWriteError when the
        start cannot be saved.
        """
        rules = rules_for(game)
        try:
            options = _plain(dict(options or {}))
        except (TypeError, ValueError) as err:
            raise IllegalAction("bad_options", f"The {game} setup options are not plain data: {err}") from None
        options.setdefault("seed", secrets.randbits(31))
        try:
            state = rules.new_game(options)
        except IllegalAction:
            raise
        except (ValueError, KeyError, TypeError) as err:
            raise IllegalAction("bad_options", f"{game} cannot be set up with these options: {err}") from None
        public = rules.view(state, None)
        players, round_ = _players_and_round(public, options)
        text = f"New game of {game}" + (f" for {', '.join(players)}" if players else "") + "."
        game_id, _ = journal.create_game(
            rules.name,
            options,
            rules.state_to_json(state),
            players=players,
            round=round_,
            text=text,
            source=source,
        )
        return cls(journal, rules, game_id, options, state, seq=0, since_snapshot=0)

    @classmethod
    def resume(cls, journal: Journal, game_id: int) -> Table:
        """The game `game_id` exactly as it was after its last committed entry."""
        summary = journal.summary(game_id)
        rules = rules_for(summary.game)
        state, replayed = cls._replay(journal, rules, game_id, up_to=summary.seq)
        table = cls(journal, rules, game_id, summary.options, state, seq=summary.seq, since_snapshot=replayed)
        if replayed >= journal.snapshot_every:
            # The snapshots were thinned (an old journal, a big undo): make the next resume quick.
            try:
                journal.record_snapshot(game_id, summary.seq, rules.state_to_json(state))
                table._since_snapshot = 0
            except JournalWriteError as err:
                log.warning("%s", err)
        return table

    @staticmethod
    def _replay(journal: Journal, rules: Rules, game_id: int, up_to: int) -> tuple[Any, int]:
        """The state after every standing action up to seq `up_to`, and how many were replayed."""
        snapshot_seq, snapshot = journal.latest_snapshot(game_id, up_to)
        try:
            state = rules.state_from_json(snapshot)
        except Exception as err:  # a damaged or foreign snapshot: say which, do not crash
            raise JournalError(
                f"{journal.path}: game {game_id} cannot be resumed: its snapshot at entry "
                f"{snapshot_seq} is not a {rules.name} state ({type(err).__name__}: {err})"
            ) from None
        actions = journal.standing_actions(game_id, after=snapshot_seq, up_to=up_to)
        for seq, action, _events in actions:
            kind = action.get("type") if isinstance(action, dict) else repr(action)
            try:
                state, _ = rules.apply(state, action)
            except IllegalAction as err:
                raise JournalError(
                    f"{journal.path}: game {game_id} cannot be replayed: its action {seq} "
                    f"({kind}) is refused by these rules: {err.message}"
                ) from None
            except Exception as err:
                raise JournalError(
                    f"{journal.path}: game {game_id} cannot be replayed: its action {seq} "
                    f"({kind}) fails ({type(err).__name__}: {err})"
                ) from None
        return state, len(actions)

    # -- what players see ------------------------------------------------------------------

    @property
    def state(self) -> Any:
        return self._state

    @property
    def seq(self) -> int:
        """The newest journal entry of this game."""
        return self._seq

    @property
    def over(self) -> bool:
        return self._over

    def view(self, seat: int | None = None) -> dict[str, Any]:
        """What `seat` may see (None: the public view, no secrets)."""
        return self.rules.view(self._state, seat)

    def legal_actions(self) -> list[Action]:
        return [] if self._over else self.rules.legal_actions(self._state)

    def result(self) -> dict[str, Any] | None:
        return self.rules.result(self._state) if self._over else None

    def log(self) -> list[dict[str, Any]]:
        """The whole journal of this game, undone actions included (and marked)."""
        return [
            {
                "seq": e.seq,
                "kind": e.kind,
                "action": e.action,
                "events": e.events,
                "text": e.text,
                "source": e.source,
                "at": iso(e.at),
                "undone": e.undone,
            }
            for e in self.journal.entries(self.game_id)
        ]

    def export(self) -> dict[str, Any]:
        """A script ``companion <game> play`` replays to this same state (see export_script)."""
        return export_script(self.journal, self.game_id)

    # -- changing the game -----------------------------------------------------------------

    def submit(self, action: Action | str, source: str = "touch") -> Outcome:
        """Applies `action` (a dict, or its JSON text) if the rules allow it; thread-safe.

        Blocks until the action is journalled and applied, or refused. ``{"type": "undo"}`` with
        "steps" or "to" is an undo (so a phone or a button can send one).
        """
        if isinstance(action, (str, bytes)):
            try:
                action = json.loads(action)
            except ValueError as err:
                return _refusal("unparseable_action", f"The action is not valid JSON: {err}")
        if not isinstance(action, dict) or not isinstance(action.get("type"), str) or not action["type"]:
            return _refusal(
                "unparseable_action", "The action must be a JSON object with a \"type\" naming it."
            )
        try:
            action = _plain(action)
        except (TypeError, ValueError) as err:
            return _refusal("unparseable_action", f"The action is not plain JSON data: {err}")
        if action["type"] == "undo":
            return self._undo_action(action, source)
        if action.get("game", self.game) != self.game:
            return _refusal(
                "wrong_game", f"This table plays {self.game}, not {action['game']}."
            )
        with self._lock:
            if self._closed:
                return _refusal("table_closed", "This game has been closed.")
            if self._over:
                return _refusal(
                    "game_over", "The game is over: start a new game, or undo the last action."
                )
            try:
                state, events = self.rules.apply(self._state, action)
                events = _plain(list(events))
            except IllegalAction as err:
                return Outcome(accepted=False, error=err)
            except Exception as err:  # a fault in the rules must not break the table
                log.exception("%s rules failed on %r", self.game, action)
                return _refusal("rules_error", f"The {self.game} rules could not apply this action ({err}).")
            seq = self._seq + 1
            try:
                text = self.rules.describe(action, events)
                over = bool(self.rules.is_over(state))
                result = self.rules.result(state) if over else None
                public = self.rules.view(state, None)
                snapshot = None
                if over or self._since_snapshot + 1 >= self.journal.snapshot_every:
                    snapshot = self.rules.state_to_json(state)
            except Exception as err:
                log.exception("%s rules failed after %r", self.game, action)
                return _refusal("rules_error", f"The {self.game} rules could not apply this action ({err}).")
            _, round_ = _players_and_round(public, self.options)
            try:
                self.journal.record_action(
                    self.game_id, seq, action, events,
                    text=text, source=source, round=round_, snapshot=snapshot, result=result,
                )
            except JournalWriteError as err:
                return _refusal(err.code, f"The action was not applied: {err.reason}.")
            self._state, self._seq, self._over = state, seq, over
            self._since_snapshot = 0 if snapshot is not None else self._since_snapshot + 1
            self._publish(Update(self.game_id, self.game, "action", seq, action, events, text, [], state, public, over))
            if over:
                self._publish(
                    Update(self.game_id, self.game, "end", seq, None, [], _end_text(result or {}), [], state, public, True)
                )
            return Outcome(accepted=True, seq=seq, events=events, text=text)

    def undo(self, steps: int = 1, source: str = "touch") -> Outcome:
        """Takes back the last `steps` actions still standing (journalled as an undo)."""
        if not isinstance(steps, int) or isinstance(steps, bool) or steps < 1:
            return _refusal("bad_undo", "Undo needs a number of steps of at least 1.")
        return self._undo({"type": "undo", "steps": steps}, source, steps=steps)

    def undo_to(self, seq: int, source: str = "touch") -> Outcome:
        """Takes back every action still standing after log entry `seq`."""
        if not isinstance(seq, int) or isinstance(seq, bool) or not 0 <= seq <= self._seq:
            return _refusal("bad_undo", f"There is no log entry {seq} to go back to (0 to {self._seq}).")
        return self._undo({"type": "undo", "to": seq}, source, back_to=seq)

    def _undo_action(self, action: Action, source: str) -> Outcome:
        if "to" in action:
            return self.undo_to(action["to"], source)
        return self.undo(action.get("steps", 1), source)

    def _undo(self, action: Action, source: str, steps: int | None = None, back_to: int | None = None) -> Outcome:
        with self._lock:
            if self._closed:
                return _refusal("table_closed", "This game has been closed.")
            if steps is not None:
                undone = self.journal.standing_entries(self.game_id, newest=steps)
                if len(undone) < steps:
                    if not undone:
                        return _refusal("nothing_to_undo", "There is nothing to undo: no action stands yet.")
                    return _refusal(
                        "nothing_to_undo", f"Only {len(undone)} action(s) can be undone, not {steps}."
                    )
            else:
                undone = self.journal.standing_entries(self.game_id, after=back_to or 0)
                if not undone:
                    return _refusal("nothing_to_undo", f"There is nothing to undo after log entry {back_to}.")
            first = undone[0].seq
            try:
                state, replayed = self._replay(self.journal, self.rules, self.game_id, up_to=first - 1)
                put_back: list[str] = []
                for entry in reversed(undone):
                    put_back.extend(self.rules.put_back(entry.action, entry.events))
                public = self.rules.view(state, None)
                over = bool(self.rules.is_over(state))
            except JournalError as err:
                return _refusal("replay_failed", f"The undo was not done: {err}")
            except Exception as err:
                log.exception("%s rules failed while undoing", self.game)
                return _refusal("rules_error", f"The {self.game} rules could not undo this ({err}).")
            seq = self._seq + 1
            events = [{"type": "undone", "seq": e.seq, "text": e.text} for e in reversed(undone)]
            text = "Undone: " + " ".join(e.text for e in reversed(undone))
            _, round_ = _players_and_round(public, self.options)
            try:
                self.journal.record_undo(
                    self.game_id, seq, action, events,
                    undone=[e.seq for e in undone], back_to=first - 1,
                    text=text, source=source, round=round_,
                )
            except JournalWriteError as err:
                return _refusal(err.code, f"The undo was not done: {err.reason}.")
            self._state, self._seq, self._over = state, seq, over
            self._since_snapshot = replayed
            self._publish(Update(self.game_id, self.game, "undo", seq, action, events, text, put_back, state, public, over))
            return Outcome(accepted=True, seq=seq, events=events, put_back=put_back, text=text)

    # -- subscribers -----------------------------------------------------------------------

    def subscribe(
        self, callback: Callable[[Update], Any], *, initial: bool = True, max_pending: int = 32
    ) -> Callable[[], None]:
        """Calls `callback(update)` after each committed change, on a thread of its own.

        With `initial`, the first update (kind "start") carries the current state, so a view
        that joins late draws at once. Returns the function that unsubscribes.
        """
        with self._lock:
            if self._closed:
                raise RuntimeError("this table is closed")
            subscriber = _Subscriber(callback, max_pending, f"table-{self.game_id}-subscriber")
            self._subscribers.append(subscriber)
            if initial:
                public = self.rules.view(self._state, None)
                subscriber.post(
                    Update(self.game_id, self.game, "start", self._seq, None, [], f"{self.game} game {self.game_id}.", [], self._state, public, self._over)
                )

        def unsubscribe() -> None:
            with self._lock:
                if subscriber in self._subscribers:
                    self._subscribers.remove(subscriber)
            subscriber.close()

        return unsubscribe

    def _publish(self, update: Update) -> None:
        for subscriber in self._subscribers:
            subscriber.post(update)  # never blocks: the subscriber's own thread calls back

    def close(self, timeout: float = 1.0) -> None:
        """Refuses further actions and stops the subscribers once they have heard what is
        pending (waiting at most `timeout` seconds for them). The game stays in the journal."""
        with self._lock:
            self._closed = True
            subscribers, self._subscribers = self._subscribers, []
        for subscriber in subscribers:
            subscriber.close(drain=True)
        deadline = time.monotonic() + timeout
        for subscriber in subscribers:
            subscriber.join(max(0.0, deadline - time.monotonic()))

    def __enter__(self) -> Table:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def export_script(journal: Journal, game_id: int) -> dict[str, Any]:
    """{"setup", "actions"}: the script ``companion <game> play`` replays to the same state.

    The setup options and the actions still standing, in order. Nothing else: both games'
    ``play`` commands refuse keys they do not know.
    """
    summary = journal.summary(game_id)
    return {
        "setup": summary.options,
        "actions": [action for _seq, action, _events in journal.standing_actions(game_id)],
    }


def replay_script(script: Mapping[str, Any], rules: Rules) -> Any:
    """The state a script from :func:`export_script` leads to (raises IllegalAction if refused)."""
    state = rules.new_game(script.get("setup") or {})
    for action in script.get("actions") or []:
        state, _ = rules.apply(state, action)
    return state
