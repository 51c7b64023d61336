"""Properties of Somnicum scoring that hold for every dream, checked with hypothesis."""

from __future__ import annotations

import io
import json
from contextlib import redirect_stderr, redirect_stdout

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.cli import main
from companion.somnicum.dream import Dream, DreamCard, DreamRow
from companion.somnicum.scoring import BREAKDOWN_KEYS, PlayerTally, score_player

PARTICLES = ["cloud", "octopus", "dragon", "castle", "mermaid", "rocket", "planet", "unicorn"]

cards = st.builds(
    DreamCard,
    stars=st.integers(0, 3),
    particles=st.lists(st.sampled_from(PARTICLES), min_size=1, max_size=6).map(tuple),
    tokens=st.lists(st.sampled_from(PARTICLES), max_size=2).map(tuple),
    nightmare=st.booleans(),
)


@st.composite
def rows(draw, max_cards: int) -> DreamRow:
    n = draw(st.integers(0, max_cards))
    return DreamRow(
        tuple(draw(cards) for _ in range(n)),
        tuple(draw(st.booleans()) for _ in range(max(n - 1, 0))),
    )


@st.composite
def dreams(draw) -> Dream:
    """Only possible dreams: each level fits under the gapless pairs of the one above."""
    top = draw(rows(8))
    middle = draw(rows(top.gapless_pairs()))
    bottom = draw(rows(middle.gapless_pairs()))
    return Dream((top, middle, bottom))


tallies = st.builds(
    PlayerTally,
    name=st.just("P"),
    dream=dreams(),
    goal=st.lists(st.sampled_from(PARTICLES), min_size=3, max_size=3).map(tuple),
    meetings_unplayed=st.integers(0, 5),
    meeting_vp=st.integers(0, 5),
    sand=st.integers(0, 10),
)


@given(tallies)
def test_breakdown_always_adds_up_to_the_total(tally):
    score = score_player(tally)
    assert set(score.breakdown) == set(BREAKDOWN_KEYS)
    assert sum(score.breakdown.values()) == score.total
    assert sum(line.points for line in score.cards) == score.total - score.breakdown["goal"] - score.breakdown["meetings"]


@given(tallies, st.data())
def test_gaps_on_level_1_never_change_the_score(tally, data):
    top = tally.dream.levels[0]
    regapped = DreamRow(top.cards, tuple(data.draw(st.booleans()) for _ in top.gaps))
    other = Dream((regapped, *tally.dream.levels[1:]))
    if other.impossible_level() is not None:
        return  # the new gaps leave no room for level 2: that dream could not exist
    moved = PlayerTally(**{**tally.__dict__, "dream": other})
    assert score_player(moved).total == score_player(tally).total


def _sheet_card(c: DreamCard) -> dict:
    return {"stars": c.stars, "particles": list(c.particles), "tokens": list(c.tokens), "nightmare": c.nightmare}


def _sheet(tally: PlayerTally) -> dict:
    levels = []
    for row in tally.dream.levels:
        entries: list = []
        for i, c in enumerate(row.cards):
            entries.append(_sheet_card(c))
            if i < len(row.gaps) and row.gaps[i]:
                entries.append("gap")
        levels.append(entries)
    return {"players": [{"name": tally.name, "goal": list(tally.goal), "sand": tally.sand,
                         "meetings_unplayed": tally.meetings_unplayed,
                         "meeting_vp": tally.meeting_vp, "dream": levels}]}


def _run(tmp_path, text: str) -> tuple[int, str, str]:
    path = tmp_path / "sheet.json"
    path.write_text(text)
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        status = main(["somnicum", "score", str(path)])
    return status, out.getvalue(), err.getvalue()


json_junk = st.recursive(
    st.none() | st.booleans() | st.floats(allow_nan=False) | st.integers(-5, 5) | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
    max_leaves=6,
)


def _paths(node, prefix=()):
    yield prefix
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _paths(v, prefix + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _paths(v, prefix + (i,))


@settings(max_examples=150, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(tallies, json_junk, st.data())
def test_any_document_scores_or_exits_2_with_one_line_never_a_traceback(tmp_path, tally, junk, data):
    sheet = _sheet(tally)
    path = data.draw(st.sampled_from(list(_paths(sheet))))
    if path:
        target = sheet
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = junk
    else:
        sheet = junk
    status, out, err = _run(tmp_path, json.dumps(sheet))
    assert status in (0, 2)
    if status == 0:
        assert err == ""
        result = json.loads(out)
        for p in result["players"]:
            assert sum(p["breakdown"].values()) == p["total"]
    else:
        assert out == ""
        assert err.count("\n") == 1 and "Traceback" not in err


@settings(max_examples=80, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(tallies, st.sampled_from(["two", 1.5, -1, None, True, [3]]))
def test_a_bad_stars_value_always_exits_2_naming_the_card(tmp_path, tally, bad):
    sheet = _sheet(tally)
    places = [(lv, i) for lv, entries in enumerate(sheet["players"][0]["dream"])
              for i, e in enumerate(entries) if e != "gap"]
    if not places:
        return
    lv, i = places[0]
    sheet["players"][0]["dream"][lv][i]["stars"] = bad
    status, out, err = _run(tmp_path, json.dumps(sheet))
    assert status == 2
    assert f"dream level {lv + 1}, card 1: \"stars\"" in err
