"""Whatever a phone, a button or a script sends, the engine answers with a refusal, never a crash."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.chainsomnia import RULES
from companion.chainsomnia.simulate import Chooser, greedy_policy
from companion.rules import IllegalAction

TYPES = [
    "explore", "move", "search", "use_item", "give_item", "discard_item", "give_chains", "take_chains",
    "ability", "defeat", "end_turn", "roll", "dice", "keep_dice", "reroll", "keep_roll", "draw", "vision",
    "place_tile", "flee", "discard_items", "choose_tile", "fly",
]
FIELDS = ["to", "from", "nook", "item", "items", "target", "tile", "count", "card", "values", "keep", "back", "at", "rotation", "die", "character", "source"]
ANY = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 8) | st.sampled_from(["ryan", "chloe", "candle_1", "howling", "library", "x", ""]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(FIELDS), inner, max_size=2),
    max_leaves=6,
)


def _states():
    """A handful of positions met in real play: turns, dice, draws, decisions."""
    found = []
    for seed, options in enumerate(
        [
            {"players": 1, "decks": "physical"},
            {"players": 4, "dice": "physical"},
            {"players": 2, "characters": ["charlotte", "isaac", "ryan", "chloe"]},
        ]
    ):
        chooser = Chooser(seed)
        state = RULES.new_game({**options, "seed": seed})
        for n in range(120):
            if RULES.is_over(state):
                break
            if n % 15 == 0 or state.pending is not None and n % 3 == 0:
                found.append(state)
            state, _ = RULES.apply(state, greedy_policy(state, RULES.legal_actions(state), chooser))
    return found


STATES = _states()


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(index=st.integers(0, len(STATES) - 1), kind=st.sampled_from(TYPES), fields=st.dictionaries(st.sampled_from(FIELDS), ANY, max_size=4))
def test_any_action_is_accepted_or_refused_with_a_code_and_a_sentence(index, kind, fields):
    state = STATES[index]
    try:
        RULES.apply(state, {"type": kind, **fields})
    except IllegalAction as refusal:
        assert refusal.code and refusal.message and "Traceback" not in refusal.message


def test_an_action_that_is_not_an_object_is_refused():
    for action in (None, "end_turn", ["end_turn"], {"type": 3}, {}):
        try:
            RULES.apply(STATES[0], action)  # type: ignore[arg-type]
        except IllegalAction as refusal:
            assert refusal.code == "bad_action"
        else:
            raise AssertionError(f"{action!r} was accepted")
