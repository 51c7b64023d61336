"""The mirror's picture of the game at the table: what phones are shown, and who may see what.

A ``MirrorHub`` is a Table subscriber. Each ``Update`` the Table publishes becomes a
``Snapshot``: the public message (the game's public view, the log lines, whose turn) encoded
once as JSON bytes that every phone receives unchanged, plus the game state kept aside so a
seat's private view can be derived from it on demand. The hub holds the seat tokens too: links
of at least 128 random bits, each giving one seat of one game; a new game (or none) makes the
old links worthless.

The hub has no sockets and no event loop: the web server (``server.py``) listens to it, the
touchscreen asks it for seat links, and tests feed it ``Update``-shaped objects directly.

>>> hub = MirrorHub()
>>> hub.snapshot().status
'idle'
"""

from __future__ import annotations

import dataclasses
import hmac
import json
import logging
import secrets
import threading
from collections import deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from companion import __version__

log = logging.getLogger(__name__)

LOG_LINES = 60  # the newest log lines each message carries; the journal keeps them all
TOKEN_BYTES = 24  # 192 random bits per seat link (the issue asks for at least 128)
MAX_ACTION_BYTES = 4096

# Actions a phone may send for its own seat, per game: only the private ones, those that name
# something only that player may see (a Goal card, a token's face, a Meeting card in hand).
# Everything else is played at the table itself.
SEAT_ACTIONS: dict[str, frozenset[str]] = {
    "somnicum": frozenset(
        {"enter_goal", "draw_token", "draw_meeting", "keep_meeting", "pay_token", "add_particle", "play_meeting"}
    ),
}
# Private actions whose describe() line names no secret, so the public log shows it as it is
# (Somnicum's lines count tokens and Meeting cards drawn or paid, and name only what the rules
# put face up: a particle added to a card, a Meeting card played or discarded). Every other
# private action is logged as PRIVATE_LOG_LINE.
PUBLIC_LINE_ACTIONS: dict[str, frozenset[str]] = {
    "somnicum": frozenset({"draw_token", "draw_meeting", "keep_meeting", "pay_token", "add_particle", "play_meeting"}),
}


def _words(name: str) -> str:
    return str(name).replace("_", " ").capitalize()


def _somnicum_label(state: Any, action: Mapping[str, Any]) -> str:
    """A Somnicum choice as the player sees it: a Goal card by its particles, a token by its face,
    a Meeting card by its name."""
    from companion.somnicum.setup import catalog_of

    catalog = catalog_of(state)
    kind = action["type"]
    if kind == "enter_goal":
        return " · ".join(_words(p) for p in catalog.goals[action["goal"]].particles)
    if kind in ("draw_token", "pay_token"):
        token = catalog.tokens[action["token"]]
        face = f"{_words(token.particle)}, {token.back} back"
        return face if kind == "draw_token" else f"Pay {face}"
    if kind == "add_particle":
        token = catalog.tokens[action["token"]]
        level = int(action["level"])
        row = state.players[action["seat"]].dream[level - 1]
        text = f"{_words(token.particle)} on {catalog.card_name(row.cards[-1].card)} (level {level})"
        if action.get("return"):
            text += f", one {_words(catalog.tokens[action['return']].particle)} back to the bag"
        return text
    name = catalog.meetings[action["card"]].name
    return {"keep_meeting": f"Keep {name}", "play_meeting": f"Play {name}"}.get(kind, name)


# How a seat page names each choice (an action alone says "goal_3"), per game.
SEAT_ACTION_LABELS: dict[str, Callable[[Any, Mapping[str, Any]], str]] = {
    "somnicum": _somnicum_label,
}
# What the public log says instead of describe()'s line for a private action.
PRIVATE_LOG_LINE = "{who} entered a secret card privately."


class SeatRefused(Exception):
    """A phone's action the hub will not pass to the Table, with the reason for the player."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def to_json(self) -> dict[str, str]:
        return {"code": self.code, "message": self.message}


class TableLike(Protocol):
    """The part of ``companion.table.Table`` the mirror uses."""

    game_id: Any
    game: str

    @property
    def state(self) -> Any: ...

    def view(self, seat: int | None = None) -> dict[str, Any]: ...

    def log(self) -> list[dict[str, Any]]: ...

    def subscribe(self, callback: Callable[[Any], None]) -> Callable[[], None]: ...

    def submit(self, action: dict[str, Any], source: str = ...) -> Any: ...


def to_json_bytes(value: Any) -> bytes:
    """Compact UTF-8 JSON; odd values (sets, dataclasses) are made plain rather than refused."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False, default=_plain).encode()


def _plain(value: Any) -> Any:
    if isinstance(value, (set, frozenset)):
        return sorted(value, key=repr)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return dataclasses.asdict(value)
    return str(value)


def game_summary(view: Mapping[str, Any] | None) -> dict[str, Any]:
    """The few facts zeroconf's TXT record and the page title need, read defensively.

    Views differ per game; this looks for a round and a list of players (or characters) and
    leaves out what it cannot find.
    """
    summary: dict[str, Any] = {}
    if not isinstance(view, Mapping):
        return summary
    for key in ("round",):
        if isinstance(view.get(key), (int, str)):
            summary[key] = view[key]
    for key in ("players", "characters", "seats"):
        people = view.get(key)
        if isinstance(people, (list, tuple, dict)):
            summary["players"] = len(people)
            break
    for key in ("phase", "step"):
        if isinstance(view.get(key), str):
            summary["phase"] = view[key]
            break
    return summary


@dataclass(frozen=True)
class LogLine:
    seq: int | None
    text: str
    kind: str = "action"
    undone: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"seq": self.seq, "text": self.text, "kind": self.kind, "undone": self.undone}


@dataclass(frozen=True)
class Snapshot:
    """One moment of the game as the mirror shows it.

    ``public`` is the exact byte string every public client and ``/api/state`` get. ``state``
    and ``seat_view`` stay on the Pi: they are only used to build a seat's own message.
    """

    version: int
    status: str  # "idle" | "playing" | "over"
    game: str | None = None
    game_id: Any = None
    seq: int | None = None
    public: bytes = b""
    summary: dict[str, Any] = field(default_factory=dict)
    state: Any = None
    seat_view: Callable[[Any, int], dict[str, Any]] | None = None
    seat_actions: Callable[[Any, int], list[dict[str, Any]]] | None = None
    message: dict[str, Any] = field(default_factory=dict)


def seat_names(view: Mapping[str, Any] | None) -> list[str]:
    """Who sits at each seat, as the public view names them (a player, or their characters)."""
    if not isinstance(view, Mapping):
        return []
    players = view.get("players")
    if isinstance(players, list) and players:
        return [str(p.get("name", "")) if isinstance(p, Mapping) else str(p) for p in players]
    seats, characters = view.get("seats"), view.get("characters")
    if isinstance(seats, list) and isinstance(characters, list):
        names = {c.get("id"): c.get("name", c.get("id")) for c in characters if isinstance(c, Mapping)}
        return [" and ".join(str(names.get(c, c)) for c in seat) if isinstance(seat, list) else str(seat) for seat in seats]
    return []


def _redacted_text(private: frozenset[str], action: Any, text: str, names: Sequence[str] = ()) -> str:
    """describe()'s line, unless the action is one of the ``private`` types whose line would tell
    a secret: then only that it happened."""
    if isinstance(action, Mapping) and action.get("type") in private:
        seat = action.get("seat")
        if isinstance(seat, int) and 0 <= seat < len(names) and names[seat]:
            who = names[seat]
        else:
            who = f"Seat {seat + 1}" if isinstance(seat, int) else "A player"
        return PRIVATE_LOG_LINE.format(who=who)
    return text


class MirrorHub:
    """What the phones see, fed by a Table (``attach``) or by ``Update`` objects (``feed``).

    Thread-safe: the Table calls ``feed`` on its subscriber thread, the web server reads
    ``snapshot()`` on its own loop, the touchscreen asks for ``seat_token`` on Kivy's thread.

    >>> hub = MirrorHub()
    >>> seen = []
    >>> stop = hub.listen(seen.append)
    >>> hub.start_game("g1", "chainsomnia", {"round": 1, "characters": []})
    >>> seen[-1].status, seen[-1].summary
    ('playing', {'round': 1, 'players': 0})
    """

    def __init__(
        self,
        rules_for: Callable[[str], Any] | None = None,
        seat_actions: Mapping[str, Iterable[str]] | None = None,
        public_lines: Mapping[str, Iterable[str]] | None = None,
    ) -> None:
        self._lock = threading.RLock()
        self._rules_for = rules_for
        # which action types a phone may send for its own seat, per game (see SEAT_ACTIONS)
        self.seat_actions = {
            game: frozenset(types)
            for game, types in (SEAT_ACTIONS if seat_actions is None else seat_actions).items()
        }
        # which of them keep describe()'s line in the public log (see PUBLIC_LINE_ACTIONS)
        self.public_lines = {
            game: frozenset(types)
            for game, types in (PUBLIC_LINE_ACTIONS if public_lines is None else public_lines).items()
        }
        self._table: TableLike | None = None
        self._unsubscribe: Callable[[], None] | None = None
        self._log: deque[LogLine] = deque(maxlen=LOG_LINES)
        self._tokens: dict[str, int] = {}
        self._fed_since_attach = False
        self._game_id: tuple[str, Any] | None = None  # (game, id) shown or being attached
        self._listeners: list[Callable[[Snapshot], None]] = []
        self._snapshot = self._idle(1)

    # -- reading ---------------------------------------------------------------------------

    def snapshot(self) -> Snapshot:
        with self._lock:
            return self._snapshot

    def listen(self, callback: Callable[[Snapshot], None]) -> Callable[[], None]:
        """Calls ``callback(snapshot)`` after every change, on the thread that made it."""
        with self._lock:
            self._listeners.append(callback)

        def stop() -> None:
            with self._lock:
                if callback in self._listeners:
                    self._listeners.remove(callback)

        return stop

    def seat_message(self, snapshot: Snapshot, seat: int) -> bytes:
        """The message for one seat: the public one with that seat's own view and actions."""
        message = dict(snapshot.message)
        message["seat"] = seat
        if snapshot.status != "idle" and snapshot.seat_view is not None:
            message["view"] = snapshot.seat_view(snapshot.state, seat)
            message["actions"] = (
                snapshot.seat_actions(snapshot.state, seat) if snapshot.seat_actions else []
            )
        else:
            message["actions"] = []
        return to_json_bytes(message)

    # -- seat links ------------------------------------------------------------------------

    def seat_token(self, seat: int) -> str:
        """The link token for ``seat`` of the game now shown, made on first request."""
        if not isinstance(seat, int) or isinstance(seat, bool) or seat < 0:
            raise ValueError(f"a seat is a number from 0, not {seat!r}")
        with self._lock:
            if self._snapshot.status == "idle":
                raise LookupError("no game is in progress, so there are no seats to link")
            for token, owner in self._tokens.items():
                if owner == seat:
                    return token
            token = secrets.token_urlsafe(TOKEN_BYTES)
            self._tokens[token] = seat
            return token

    def seat_for(self, token: str) -> int | None:
        """The seat a token opens in the game now shown, or None."""
        with self._lock:
            found = None
            # compare against every token so the time taken says nothing about near misses
            for known, seat in self._tokens.items():
                if hmac.compare_digest(known.encode(), token.encode()):
                    found = seat
            return found

    # -- feeding ---------------------------------------------------------------------------

    def attach(self, table: TableLike) -> None:
        """Shows ``table``'s game from now on (its whole log so far, then every commit)."""
        private = self._redacted(table.game)
        names = seat_names(table.view(None))
        seed = log_lines(private, table.log(), names)
        with self._lock:
            old_unsubscribe, self._unsubscribe = self._unsubscribe, None
            self._table = table
            self._fed_since_attach = False
            if self._game_id != (table.game, table.game_id):
                self._tokens.clear()
            self._game_id = (table.game, table.game_id)
            # the log goes in first, so the Table's first update is shown with it
            self._log = deque(seed, maxlen=LOG_LINES)
        if old_unsubscribe is not None:
            old_unsubscribe()
        unsubscribe = table.subscribe(self.feed)
        rules = self._rules(table.game)
        # a commit between reading the log and subscribing: its line comes from a second read
        newest = seed[-1].seq if seed else -1
        late = [line for line in log_lines(private, table.log(), names) if (line.seq or 0) > newest]
        state = table.state
        public = table.view(None)
        over = bool(rules.is_over(state)) if rules is not None else False
        with self._lock:
            if self._table is not table:  # attached elsewhere meanwhile
                unsubscribe()
                return
            self._unsubscribe = unsubscribe
            known = {(line.seq, line.kind) for line in self._log}
            missing = [line for line in late if (line.seq, line.kind) not in known]
            if missing:
                self._log = deque(sorted([*self._log, *missing], key=lambda l: l.seq or 0), maxlen=LOG_LINES)
            if self._fed_since_attach:
                if missing:
                    self._republish_log_locked()
            else:
                last_line = self._log[-1] if self._log else None
                last = None
                if last_line is not None:
                    last = {"kind": last_line.kind, "seq": last_line.seq, "text": last_line.text, "put_back": []}
                seq = last_line.seq if last_line is not None else None
                self._publish_locked(table.game, table.game_id, seq, state, public, over, rules, last)
        self._notify()

    def detach(self) -> None:
        """Back to "no game in progress"; the old game's seat links stop working."""
        with self._lock:
            unsubscribe, self._unsubscribe = self._unsubscribe, None
            self._table = None
            self._game_id = None
            self._log.clear()
            self._tokens.clear()
            if self._snapshot.status != "idle":
                self._snapshot = self._idle(self._snapshot.version + 1)
        if unsubscribe is not None:
            unsubscribe()
        self._notify()

    def feed(self, update: Any) -> None:
        """Takes one Table ``Update`` (a start, an action, an undo or the end of the game)."""
        rules = self._rules(update.game)
        with self._lock:
            if self._game_id != (update.game, update.game_id):
                # another game: its seats are other people
                self._tokens.clear()
                self._log.clear()
                self._game_id = (update.game, update.game_id)
            self._fed_since_attach = True
            text = _redacted_text(
                self._redacted(update.game), update.action, update.text or "", seat_names(update.public)
            )
            if update.kind == "undo":
                lines, text = _undo(list(self._log), update.events, text)
                self._log = deque(lines, maxlen=LOG_LINES)
            if text and update.kind != "start":  # "start" only repeats the state for a newcomer
                self._log.append(LogLine(update.seq, text, update.kind))
            last = None
            if update.kind != "start":
                last = {
                    "kind": update.kind,
                    "seq": update.seq,
                    "text": text,
                    "put_back": [str(line) for line in update.put_back or []],
                }
            self._publish_locked(
                update.game,
                update.game_id,
                update.seq,
                update.state,
                update.public,
                bool(update.over),
                rules,
                last,
            )
        self._notify()

    def start_game(
        self,
        game_id: Any,
        game: str,
        public: Mapping[str, Any],
        *,
        state: Any = None,
        entries: Iterable[Mapping[str, Any]] = (),
        over: bool = False,
    ) -> None:
        """Shows a game from a public view alone (a journal follower, a demo, a test)."""
        rules = self._rules(game)
        with self._lock:
            if self._game_id != (game, game_id):
                self._tokens.clear()
            self._game_id = (game, game_id)
            self._log = deque(
                log_lines(self._redacted(game), entries, seat_names(public)), maxlen=LOG_LINES
            )
            seq = self._log[-1].seq if self._log else None
            self._publish_locked(game, game_id, seq, state, dict(public), over, rules, None)
        self._notify()

    def submit(self, token: str, action: Any) -> Any:
        """Passes a phone's private action to the Table, for the token's seat only.

        Returns the Table's Outcome; raises ``SeatRefused`` for anything the phone may not send.
        """
        seat = self.seat_for(token)
        if seat is None:
            raise SeatRefused("unknown_seat", "This seat link is not valid for the game now played.")
        with self._lock:
            table = self._table
            game = self._snapshot.game
        if table is None:
            raise SeatRefused("no_table", "The table is not taking actions from phones right now.")
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise SeatRefused("bad_action", "An action is a JSON object with a \"type\".")
        if len(to_json_bytes(action)) > MAX_ACTION_BYTES:
            raise SeatRefused("bad_action", "That action is too large.")
        action = {key: value for key, value in action.items() if key != "label"}  # ours, not the game's
        if action["type"] not in self._private(game):
            raise SeatRefused(
                "not_from_phone",
                f"A phone may only send its player's secret choices; {action['type']!r} is played at the table.",
            )
        if action.get("seat") != seat:
            raise SeatRefused("other_seat", "A seat link can only act for its own seat.")
        return table.submit(action, source=f"phone:seat{seat}")

    # -- internals -------------------------------------------------------------------------

    def _private(self, game: str | None) -> frozenset[str]:
        return self.seat_actions.get(game or "", frozenset())

    def _redacted(self, game: str | None) -> frozenset[str]:
        """The private action types whose log line is replaced by PRIVATE_LOG_LINE."""
        return self._private(game) - self.public_lines.get(game or "", frozenset())

    def _rules(self, game: str | None) -> Any:
        if not game:
            return None
        rules_for = self._rules_for
        if rules_for is None:
            try:
                from companion.games import rules_for as found
            except ImportError:
                return None
            rules_for = found
        try:
            return rules_for(game)
        except (KeyError, LookupError, ValueError):
            log.warning("mirror: no rules for game %r; seat views are off", game)
            return None

    def _idle(self, version: int) -> Snapshot:
        message = {
            "dreamtable": __version__,
            "version": version,
            "status": "idle",
            "game": None,
            "game_id": None,
            "seq": None,
            "view": None,
            "log": [],
            "last": None,
            "seat": None,
        }
        return Snapshot(version, "idle", public=to_json_bytes(message), message=message)

    def _publish_locked(
        self,
        game: str,
        game_id: Any,
        seq: int | None,
        state: Any,
        public: Mapping[str, Any] | None,
        over: bool,
        rules: Any,
        last: dict[str, Any] | None,
    ) -> None:
        version = self._snapshot.version + 1
        status = "over" if over else "playing"
        message = {
            "dreamtable": __version__,
            "version": version,
            "status": status,
            "game": game,
            "game_id": game_id,
            "seq": seq,
            "view": public,
            "log": [line.to_json() for line in self._log],
            "last": last,
            "seat": None,
        }
        seat_view = seat_actions = None
        if rules is not None and state is not None:
            seat_view = rules.view
            seat_actions = _private_actions(self._private(game), rules, SEAT_ACTION_LABELS.get(game))
        self._set_locked(
            Snapshot(
                version,
                status,
                game,
                game_id,
                seq,
                to_json_bytes(message),
                game_summary(public),
                state,
                seat_view,
                seat_actions,
                message,
            )
        )

    def _republish_log_locked(self) -> None:
        old = self._snapshot
        message = dict(old.message)
        message["version"] = old.version + 1
        message["log"] = [line.to_json() for line in self._log]
        self._set_locked(
            dataclasses.replace(
                old, version=old.version + 1, public=to_json_bytes(message), message=message
            )
        )

    def _set_locked(self, snapshot: Snapshot) -> None:
        self._snapshot = snapshot

    def _notify(self) -> None:
        with self._lock:
            snapshot = self._snapshot
            listeners = list(self._listeners)
        for callback in listeners:
            try:
                callback(snapshot)
            except Exception:  # a broken listener must not stop the others
                log.exception("mirror: a listener failed")


def _undo(
    lines: list[LogLine], events: Sequence[Any] | None, text: str
) -> tuple[list[LogLine], str]:
    """Strikes the lines an undo took back, and rebuilds its own line from the log's lines.

    The Table's undo line quotes describe() of every undone action, private ones included, so
    it is rebuilt from lines already redacted here whenever they are all at hand.
    """
    undone = [
        e.get("seq") for e in events or [] if isinstance(e, Mapping) and e.get("type") == "undone"
    ]
    by_seq = {line.seq: line for line in lines if line.kind == "action"}
    if undone and all(seq in by_seq for seq in undone):
        text = "Undo: " + "; ".join(by_seq[seq].text for seq in undone)
    marked = [
        dataclasses.replace(line, undone=True)
        if line.kind == "action" and line.seq in undone
        else line
        for line in lines
    ]
    return marked, text


def log_lines(
    private: frozenset[str], entries: Iterable[Mapping[str, Any]], names: Sequence[str] = ()
) -> list[LogLine]:
    """The mirror's log from ``Table.log()`` entries, the ``private`` action types redacted."""
    lines: list[LogLine] = []
    for entry in entries:
        kind = str(entry.get("kind", "action"))
        text = _redacted_text(private, entry.get("action"), str(entry.get("text", "")), names)
        if kind == "undo":
            lines, text = _undo(lines, entry.get("events"), text)
        lines.append(LogLine(entry.get("seq"), text, kind, bool(entry.get("undone"))))
    return lines[-LOG_LINES:]


def _private_actions(
    allowed: frozenset[str], rules: Any, labeler: Callable[[Any, Mapping[str, Any]], str] | None
) -> Callable[[Any, int], list[dict[str, Any]]]:

    def seat_actions(state: Any, seat: int) -> list[dict[str, Any]]:
        if not allowed:
            return []
        try:
            legal: Sequence[Mapping[str, Any]] = rules.legal_actions(state)
        except Exception:  # a view must not fail because the rules cannot list actions now
            log.exception("mirror: legal_actions failed")
            return []
        mine = [
            dict(action)
            for action in legal
            if action.get("type") in allowed and action.get("seat") == seat
        ]
        if labeler is not None:
            for action in mine:
                try:
                    action["label"] = labeler(state, action)
                except (KeyError, LookupError, AttributeError, TypeError, ValueError):
                    pass  # the page falls back to the action's own fields
        return mine

    return seat_actions
