"""The CHAINsomnia catalog as data, and ``companion catalog check``."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from companion.catalog import CatalogError
from companion.chainsomnia import RULES
from companion.chainsomnia.catalog import CATALOG_DIR, check_catalog, load_catalog
from companion.cli import main
from companion.rules import IllegalAction


@pytest.fixture
def own_catalog(tmp_path: Path) -> Path:
    """A copy of the shipped catalog in a data directory of one's own, ready to be edited."""
    target = tmp_path / "data" / "chainsomnia"
    shutil.copytree(CATALOG_DIR, target)
    return target


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))


def test_catalog_the_default_catalog_holds_the_full_box():
    cat = load_catalog()
    assert len(cat.characters) == 6
    kinds = [t.kind for t in cat.tiles.values()]
    assert len(kinds) == 22 and kinds.count("chainsomnia") == 1 and kinds.count("wake_up") == 1
    assert len(cat.event_cards) == 40 and len(cat.item_cards) == 20
    named = {c.entry for c in cat.event_cards.values()} | {c.entry for c in cat.item_cards.values()}
    assert {"howling", "maledictum", "phantasm", "malice", "the_dominatus"} <= named
    assert {"royal_doudou", "light_stone", "clover", "mirror_of_truth"} <= named


def test_catalog_entries_the_rulebook_does_not_fix_are_marked_provisional():
    cat = load_catalog()
    entries = [*cat.characters.values(), *cat.tiles.values(), *cat.event_cards.values(), *cat.item_cards.values()]
    assert all(e.provisional for e in entries)


def test_catalog_vocabulary_expresses_the_cards_the_rulebook_names():
    cat = load_catalog()
    events = cat.event_cards
    assert all(events[f"howling_{n}"].is_howling for n in (1, 2, 3))
    assert events["maledictum"].place == "item_area" and events["maledictum"].defeat.reach == "anywhere"
    assert events["phantasm"].defeat.how == "all_characters_here"
    assert events["malice"].defeat.reach == "anywhere"
    assert events["the_dominatus"].defeat.reach == "not_here"
    assert events["hungry_portrait"].defeat.how == "discard_items" and events["hungry_portrait"].defeat.count == 2
    items = cat.item_cards
    assert items["light_stone"].passive.on_turn_start[0].do == "remove_chains"
    assert items["clover"].passive.double_defeats and items["clover"].passive.reroll == 1
    assert items["mirror_of_truth"].passive.vision
    assert items["royal_doudou"].ap_cost == 1 and items["royal_doudou"].use[0].who == "target"


def test_catalog_errors_name_the_file_the_entry_and_the_field(own_catalog: Path):
    edit(own_catalog / "characters.toml", "strength = 4", 'strength = "four"')
    errors = check_catalog(own_catalog)
    assert [str(e) for e in errors] == [
        f'{own_catalog / "characters.toml"}: entry "ryan": field "strength": must be a whole number, not \'four\''
    ]
    assert (errors[0].entry, errors[0].field) == ("ryan", "strength")


def test_catalog_check_collects_every_error_at_once(own_catalog: Path):
    edit(own_catalog / "characters.toml", "luck = 4", "lcuk = 4")
    edit(own_catalog / "tiles.toml", 'door_colour = "silver"', 'door_colour = "purple"')
    edit(own_catalog / "items.toml", 'use = [{ do = "remove_chains", who = "target", count = 1 }]', 'use = [{ do = "heal", who = "target", count = 1 }]')
    edit(own_catalog / "events.toml", 'defeat = { how = "test", attribute = "intelligence", at_least = 9 }', 'defeat = { how = "test", attribute = "wisdom", at_least = 9 }')
    found = [(e.file.rsplit("/", 1)[-1], e.entry, e.field) for e in check_catalog(own_catalog)]
    assert ("characters.toml", "chloe", "luck") in found
    assert ("tiles.toml", "library", "door_colour") in found
    assert ("items.toml", "royal_doudou", "use[0].do") in found
    assert ("events.toml", "whispering_shadow", "defeat.attribute") in found
    with pytest.raises(CatalogError):
        load_catalog(own_catalog)


def test_catalog_a_typo_in_a_field_name_is_an_error(own_catalog: Path):
    edit(own_catalog / "events.toml", 'name = "Phantasm"', 'name = "Phantasm"\nchian = true')
    (error,) = check_catalog(own_catalog)
    assert error.entry == "phantasm" and error.field == "chian" and "unknown field" in str(error)


def test_catalog_the_box_needs_one_chainsomnia_and_one_wake_up_tile(own_catalog: Path):
    edit(own_catalog / "tiles.toml", 'kind = "wake_up"', 'kind = "room"')
    (error,) = check_catalog(own_catalog)
    assert "exactly one Wake Up! tile" in str(error)


def test_catalog_an_owners_catalog_changes_the_game(own_catalog: Path):
    edit(own_catalog / "characters.toml", "strength = 4", "strength = 9")
    state = RULES.new_game({"players": 4, "characters": ["ryan", "chloe", "isaac", "timi"], "catalog_dir": str(own_catalog)})
    assert state.catalog.characters["ryan"].strength == 9
    again = RULES.state_from_json(json.loads(json.dumps(RULES.state_to_json(state))))
    assert again.catalog.characters["ryan"].strength == 9


def test_catalog_a_broken_catalog_refuses_the_setup_with_its_error(own_catalog: Path):
    edit(own_catalog / "items.toml", "stars = 3", "stars = 7")
    with pytest.raises(IllegalAction) as info:
        RULES.new_game({"players": 2, "catalog_dir": str(own_catalog)})
    assert info.value.code == "bad_setup" and 'field "stars"' in info.value.message


def test_catalog_check_command_reports_ok_for_the_shipped_catalog(capsys):
    assert main(["catalog", "check"]) == 0
    assert capsys.readouterr().out.startswith("chainsomnia: ok")


def test_catalog_check_command_names_each_error_and_exits_1(own_catalog: Path, capsys):
    edit(own_catalog / "characters.toml", "strength = 4", 'strength = "four"')
    assert main(["catalog", "check", str(own_catalog.parent)]) == 1
    out = capsys.readouterr().out
    assert 'entry "ryan": field "strength"' in out and "chainsomnia: 1 error(s)" in out
    assert main(["catalog", "check", str(own_catalog), "--game", "chainsomnia", "--json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["ok"] is False and len(report["games"]["chainsomnia"]["errors"]) == 1


def test_catalog_check_command_refuses_a_directory_without_game_folders(tmp_path: Path, capsys):
    assert main(["catalog", "check", str(tmp_path)]) == 2
    assert "holds no game folder" in capsys.readouterr().out
