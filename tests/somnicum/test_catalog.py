"""The Somnicum catalog as data (rulebook: "Components"): counts from box.toml, entries an owner
can correct, and errors that name the file, the entry and the field."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from companion.catalog import CatalogError
from companion.rules import IllegalAction
from companion.somnicum import RULES
from companion.somnicum.catalog import CATALOG_DIR, check_catalog, load_catalog


@pytest.fixture
def own_copy(tmp_path: Path) -> Path:
    """An owner's copy of the shipped catalog, to correct."""
    target = tmp_path / "somnicum"
    shutil.copytree(CATALOG_DIR, target)
    return target


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))


def test_components_88_dream_cards_8_goal_cards_72_tokens_24_meeting_cards():
    catalog = load_catalog()
    assert len(catalog.dream_cards) == 88
    assert len(catalog.goals) == 8
    assert len(catalog.tokens) == 72
    assert len(catalog.meetings) == 24
    assert catalog.box == {"dream_cards": 88, "goal_cards": 8, "sleep_sand_tokens": 72, "meeting_cards": 24}


def test_dream_cards_have_three_storylines_1_to_3_own_particles_and_nightmares_six():
    catalog = load_catalog()
    assert set(catalog.storylines) == {"fairy_tale", "underwater", "space"}
    for card in catalog.dream_cards.values():
        if card.nightmare:
            assert len(card.particles) == 6 and card.storyline == ""
            assert len({catalog.particle_storyline[p] for p in card.particles}) > 1
        else:
            assert 1 <= len(card.particles) <= 3
            assert {catalog.particle_storyline[p] for p in card.particles} == {card.storyline}
    assert any(c.meeting for c in catalog.dream_cards.values())


def test_tokens_show_a_particle_and_a_sand_or_blank_back():
    catalog = load_catalog()
    backs = {t.back for t in catalog.tokens.values()}
    assert backs == {"sand", "blank"}
    assert all(t.particle in catalog.particle_storyline for t in catalog.tokens.values())


def test_what_the_rulebook_does_not_fix_is_marked_provisional():
    catalog = load_catalog()
    assert all(c.provisional for c in catalog.dream_cards.values())
    assert all(m.provisional for m in catalog.meetings.values())
    assert all(t.provisional for t in catalog.tokens.values())


def test_the_meeting_card_count_is_data_18_in_another_component_list(own_copy):
    edit(own_copy / "box.toml", "meeting_cards = 24", "meeting_cards = 18")
    errors = check_catalog(own_copy)
    assert len(errors) == 1
    assert "meetings.toml" in str(errors[0]) and "box.toml says the box holds 18" in str(errors[0])
    edit(own_copy / "meetings.toml", "copies = 5", "copies = 1")  # Sand Owl: 5 -> 1
    edit(own_copy / "meetings.toml", "copies = 4", "copies = 2")  # Night Train: 4 -> 2
    catalog = load_catalog(own_copy)
    assert len(catalog.meetings) == 18 and "sand_owl" in catalog.meetings
    state = RULES.new_game({"players": 2, "catalog": str(own_copy)})
    assert len(state.meeting_deck) == 18
    assert RULES.state_from_json(RULES.state_to_json(state)) == state


def test_an_error_names_the_file_the_entry_and_the_field(own_copy):
    edit(own_copy / "dream_cards.toml", 'stars = 3\nparticles = ["castle"]', 'stars = "three"\nparticles = ["castle"]')
    with pytest.raises(CatalogError) as bad:
        load_catalog(own_copy)
    assert bad.value.file.endswith("dream_cards.toml")
    assert bad.value.entry == "fairy_tale_01" and bad.value.field == "stars"
    assert 'entry "fairy_tale_01": field "stars": must be a whole number' in str(bad.value)


def test_a_particle_of_another_storyline_on_a_card_is_refused(own_copy):
    edit(own_copy / "dream_cards.toml", 'particles = ["castle"]', 'particles = ["mermaid"]')
    errors = check_catalog(own_copy)
    assert [(e.entry, e.field) for e in errors] == [("fairy_tale_01", "particles")]
    assert "belongs to 'underwater'" in str(errors[0])


def test_a_meeting_effect_outside_the_vocabulary_is_refused(own_copy):
    edit(own_copy / "meetings.toml", 'effect = "draw_tokens"', 'effect = "steal_tokens"')
    errors = check_catalog(own_copy)
    assert errors[0].entry == "sand_owl" and errors[0].field == "effect"


def test_a_typo_in_a_field_name_is_refused(own_copy):
    edit(own_copy / "goals.toml", "[goal_1]\n", "[goal_1]\ncolour = \"blue\"\n")
    errors = check_catalog(own_copy)
    assert (errors[0].entry, errors[0].field) == ("goal_1", "colour")


def test_every_error_is_listed_at_once(own_copy):
    edit(own_copy / "tokens.toml", "[castle]\nsand = 3", "[castle]\nsand = -1")
    edit(own_copy / "goals.toml", 'particles = ["cloud", "octopus", "dragon"]', 'particles = ["cloud"]')
    files = sorted(Path(e.file).name for e in check_catalog(own_copy))
    assert files == ["goals.toml", "tokens.toml"]


def test_a_missing_file_is_named(own_copy):
    (own_copy / "tokens.toml").unlink()
    errors = check_catalog(own_copy)
    assert any(e.file.endswith("tokens.toml") and "file not found" in str(e) for e in errors)


def test_a_game_with_a_broken_catalog_is_refused_in_words(own_copy):
    edit(own_copy / "box.toml", "goal_cards = 8", "goal_cards = 9")
    with pytest.raises(IllegalAction) as refused:
        RULES.new_game({"players": 2, "catalog": str(own_copy)})
    assert refused.value.code == "bad_catalog" and "goals.toml" in refused.value.message
