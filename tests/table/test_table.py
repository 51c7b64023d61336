"""The Table: accepted Actions are journalled then published; refused ones change nothing."""

from __future__ import annotations

import threading
import time

import dicecards
import pytest

from companion import games
from companion.games import UnknownGame
from companion.journal import Journal, UnknownGameId
from companion.rules import IllegalAction
from companion.table import Table, Update

RULES = dicecards.RULES
OPTIONS = {"players": ["Ann", "Ben"], "seed": 7, "target": 15}


def state_json(table: Table) -> dict:
    return RULES.state_to_json(table.state)


def finish(table: Table) -> None:
    """Plays a target-1 game to its end: Ann rolls and keeps a 6, both pass."""
    for action in (
        {"type": "roll"},
        {"type": "dice", "values": [6, 2]},
        {"type": "keep", "die": 0},
        {"type": "end_turn"},
        {"type": "end_turn"},
    ):
        assert table.submit(action).accepted
    assert table.over


class Recorder:
    """A subscriber that keeps every update it is given."""

    def __init__(self) -> None:
        self.updates: list[Update] = []
        self.arrived = threading.Condition()

    def __call__(self, update: Update) -> None:
        with self.arrived:
            self.updates.append(update)
            self.arrived.notify_all()

    def wait_for(self, predicate, timeout: float = 5.0) -> None:
        with self.arrived:
            assert self.arrived.wait_for(lambda: predicate(self.updates), timeout), self.updates


def test_accepted_action_is_journalled_with_its_events_and_text(table):
    outcome = table.submit({"type": "draw"}, source="gpio")
    assert outcome.accepted and outcome.error is None
    assert outcome.seq == 1 == table.seq
    card = table.view(0)["hand"][0]
    assert outcome.events == [{"type": "drew", "player": "Ann", "card": card}]
    assert outcome.text == f"Ann drew a {card}."
    entry = table.log()[-1]
    assert entry["seq"] == 1 and entry["kind"] == "action" and entry["source"] == "gpio"
    assert entry["action"] == {"type": "draw"} and entry["events"] == outcome.events
    assert entry["text"] == outcome.text and entry["undone"] is False
    assert table.log()[0]["kind"] == "start"


def test_action_as_json_text_is_accepted(table):
    assert table.submit('{"type": "roll"}').accepted
    assert table.view()["pending"] == {"chance": "dice", "count": 2}


def test_illegal_action_is_refused_with_the_rule_and_changes_nothing(table):
    before, log_before = state_json(table), table.log()
    outcome = table.submit({"type": "play", "card": 6})
    assert not outcome.accepted and outcome.seq is None
    assert outcome.error.code == "not_in_hand"
    assert outcome.error.message == "Ann has no 6 card in hand."
    assert state_json(table) == before and table.log() == log_before and table.seq == 0


@pytest.mark.parametrize(
    "action",
    ["{not json", "[1, 2]", {"card": 3}, {"type": ""}, {"type": 5}, 42, {"type": "draw", "x": float("nan")},
     {"type": "draw", "x": object()}],
)
def test_unparseable_action_is_refused_and_not_journalled(table, action):
    outcome = table.submit(action)
    assert not outcome.accepted
    assert outcome.error.code == "unparseable_action"
    assert table.seq == 0 and len(table.log()) == 1


def test_action_for_another_game_is_refused(table):
    outcome = table.submit({"type": "draw", "game": "somnicum"})
    assert outcome.error.code == "wrong_game"
    assert "not somnicum" in outcome.error.message and table.seq == 0


def test_unknown_game_is_refused_and_nothing_is_journalled(journal):
    with pytest.raises(UnknownGame, match="'chess' is not a game Dreamtable knows"):
        Table.new(journal, "chess", {})
    assert journal.games() == []


def test_setup_the_rules_refuse_is_not_journalled(journal):
    with pytest.raises(IllegalAction, match="1 to 4 players"):
        Table.new(journal, "dicecards", {"players": ["Ann", "Ann"]})
    assert journal.games() == []


def test_action_after_the_end_is_refused_and_not_journalled(journal):
    table = Table.new(journal, "dicecards", {**OPTIONS, "target": 1})
    finish(table)
    seq = table.seq
    outcome = table.submit({"type": "draw"})
    assert outcome.error.code == "game_over" and "game is over" in outcome.error.message
    assert table.seq == seq and len(table.log()) == seq + 1
    assert table.legal_actions() == []
    assert table.result() == {"winners": ["Ann"], "scores": {"Ann": 6, "Ben": 0}, "rounds": 1}


class ExplodingRules(dicecards.DiceCardsRules):
    """Dice & Cards with a bug: the "explode" action raises something that is not a refusal."""

    name = "explodingcards"

    def apply(self, state, action):
        if action["type"] == "explode":
            raise ZeroDivisionError("division by zero")
        return super().apply(state, action)


def test_a_fault_in_the_rules_is_refused_and_the_table_goes_on(journal):
    games.register(ExplodingRules())
    try:
        table = Table.new(journal, "explodingcards", OPTIONS)
        outcome = table.submit({"type": "explode"})
        assert outcome.error.code == "rules_error" and "division by zero" in outcome.error.message
        assert table.seq == 0
        assert table.submit({"type": "draw"}).accepted
    finally:
        games.unregister("explodingcards")


def test_closed_table_refuses(table):
    table.close()
    assert table.submit({"type": "draw"}).error.code == "table_closed"
    assert table.undo().error.code == "table_closed"


def test_resume_of_an_unknown_id_names_it(journal):
    with pytest.raises(UnknownGameId, match="there is no game 42"):
        Table.resume(journal, 42)


def test_resume_of_a_game_whose_rules_are_missing_says_so(journal, dice_cards_game):
    table = Table.new(journal, "dicecards", OPTIONS)
    games.unregister("dicecards")
    with pytest.raises(UnknownGame, match="'dicecards' is not a game Dreamtable knows"):
        Table.resume(journal, table.game_id)


# -- subscribers -----------------------------------------------------------------------------


def test_subscriber_hears_start_then_every_change_in_order(table):
    recorder = Recorder()
    table.subscribe(recorder)
    table.submit({"type": "draw"})
    table.submit({"type": "play", "card": 99})  # refused: not published
    table.submit({"type": "roll"})
    table.undo()
    recorder.wait_for(lambda u: len(u) == 4)
    kinds = [(u.kind, u.seq) for u in recorder.updates]
    assert kinds == [("start", 0), ("action", 1), ("action", 2), ("undo", 3)]
    last = recorder.updates[-1]
    assert last.put_back == ["Put the dice down: Ann has not rolled yet."]
    assert last.state is table.state
    assert last.public == RULES.view(table.state, None) and "hand" not in last.public
    assert last.game == "dicecards" and last.game_id == table.game_id and last.over is False


def test_subscriber_hears_only_what_is_already_committed(db_path):
    journal = Journal(db_path)
    table = Table.new(journal, "dicecards", OPTIONS)
    reader = Journal(db_path)  # another connection sees only committed transactions
    seen: list[tuple[int, bool]] = []
    recorder = Recorder()

    def check(update: Update) -> None:
        seen.append((update.seq, any(e.seq == update.seq for e in reader.entries(table.game_id))))
        recorder(update)

    table.subscribe(check, initial=False)
    for action in ({"type": "draw"}, {"type": "draw"}, {"type": "roll"}):
        table.submit(action)
    recorder.wait_for(lambda u: len(u) == 3)
    assert seen == [(1, True), (2, True), (3, True)]
    table.close()
    reader.close()
    journal.close()


def test_end_of_the_game_is_announced_after_the_last_action(journal):
    table = Table.new(journal, "dicecards", {**OPTIONS, "target": 1})
    recorder = Recorder()
    table.subscribe(recorder, initial=False)
    finish(table)
    recorder.wait_for(lambda u: u and u[-1].kind == "end")
    action, end = recorder.updates[-2:]
    assert action.kind == "action" and action.over and action.action == {"type": "end_turn"}
    assert end.seq == action.seq and end.over and end.text == "Game over: Ann won."


def test_a_slow_subscriber_never_blocks_the_table_and_gets_the_newest_updates(table):
    release, entered = threading.Event(), threading.Event()
    slow = Recorder()

    def stuck(update: Update) -> None:
        entered.set()
        release.wait(10)
        slow(update)

    fast = Recorder()
    table.subscribe(stuck, initial=False, max_pending=4)
    table.subscribe(fast, initial=False, max_pending=1000)
    done = threading.Event()

    table.submit({"type": "draw"})
    assert entered.wait(5)  # the slow subscriber is busy with update 1

    def play() -> None:
        table.undo()
        for _ in range(29):
            table.submit({"type": "draw"})
            table.undo()
        done.set()

    threading.Thread(target=play, daemon=True).start()
    assert done.wait(10), "the table waited for a stuck subscriber"
    fast.wait_for(lambda u: len(u) == 60)
    release.set()
    slow.wait_for(lambda u: u and u[-1].seq == 60)
    # the first update (taken before it got stuck), then only the newest 4
    assert [u.seq for u in slow.updates] == [1, 57, 58, 59, 60]


def test_a_failing_subscriber_breaks_nothing(table, caplog):
    calls = []

    def broken(update: Update) -> None:
        calls.append(update.seq)
        raise RuntimeError("screen gone")

    recorder = Recorder()
    table.subscribe(broken, initial=False)
    table.subscribe(recorder, initial=False)
    for _ in range(3):
        assert table.submit({"type": "draw"}).accepted
    recorder.wait_for(lambda u: len(u) == 3)
    deadline = time.monotonic() + 5
    while len(calls) < 3 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert calls == [1, 2, 3]
    assert "screen gone" in caplog.text


def test_unsubscribed_callback_hears_nothing_more(table):
    recorder, witness = Recorder(), Recorder()
    unsubscribe = table.subscribe(recorder, initial=False)
    table.subscribe(witness, initial=False)
    table.submit({"type": "draw"})
    recorder.wait_for(lambda u: len(u) == 1)
    unsubscribe()
    table.submit({"type": "draw"})
    witness.wait_for(lambda u: len(u) == 2)
    assert [u.seq for u in recorder.updates] == [1]


def test_close_lets_subscribers_hear_what_is_pending_but_never_waits_on_a_stuck_one(table):
    slowish, release = Recorder(), threading.Event()
    table.subscribe(lambda u: (time.sleep(0.02), slowish(u)), initial=False)
    table.subscribe(lambda u: release.wait(10), initial=False)
    for kind in ("draw", "draw", "draw", "end_turn", "draw"):
        assert table.submit({"type": kind}).accepted
    started = time.monotonic()
    table.close(timeout=1.0)
    assert time.monotonic() - started < 5
    assert [u.seq for u in slowish.updates] == [1, 2, 3, 4, 5]
    release.set()


def test_a_game_set_up_without_a_seed_gets_a_random_one_that_is_journalled(journal):
    first = Table.new(journal, "dicecards", {"players": ["Ann", "Ben"]})
    second = Table.new(journal, "dicecards", {"players": ["Ann", "Ben"]})
    seeds = [journal.summary(t.game_id).options["seed"] for t in (first, second)]
    assert seeds[0] != seeds[1]
    assert [first.export()["setup"]["seed"], second.export()["setup"]["seed"]] == seeds
    assert state_json(first) == RULES.state_to_json(RULES.new_game(first.export()["setup"]))
