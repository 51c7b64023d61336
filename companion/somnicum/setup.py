"""Setting up Somnicum (rulebook: "Setup", "Starting the next round").

A round starts by laying out the field (16, 21 or 24 Dream cards for 2, 3 or 4 players) from the
cards put aside; the first round also deals each player a secret Goal card and the starting Sleep
Sand tokens (0, 1, 2, 3 in turn order from the first player). Then the player to the right of the
first player places the flywheels: a choice. With a digital field the seeded generator lays the
cards and draws the tokens; at a physical table each one arrives as a chance outcome action.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.catalog import CatalogError
from companion.rules import IllegalAction
from companion.somnicum.bag import draw_cards, draw_tokens
from companion.somnicum.catalog import Catalog, load_catalog
from companion.somnicum.chance import seed_state
from companion.somnicum.state import NOT_PLACED, Draft, PlayerState, SomnicumState

FIELD_SIZE = {2: 16, 3: 21, 4: 24}
STARTING_TOKENS = (0, 1, 2, 3)
ROUNDS = 3
OPTIONS = ("players", "decks", "seed", "first_player", "catalog")


def catalog_of(state: SomnicumState) -> Catalog:
    return load_catalog(state.catalog_dir or None)


def _names(value: Any) -> list[str]:
    if isinstance(value, int) and not isinstance(value, bool):
        if value not in FIELD_SIZE:
            raise IllegalAction("bad_options", f"Somnicum is played by 2 to 4 players, not {value}.")
        return [f"Player {n}" for n in range(1, value + 1)]
    if not isinstance(value, list) or not all(isinstance(n, str) and n.strip() for n in value):
        raise IllegalAction(
            "bad_options", 'Setup option "players" must be a list of 2 to 4 names, or a number of players.'
        )
    if len(value) not in FIELD_SIZE:
        raise IllegalAction("bad_options", f"Somnicum is played by 2 to 4 players, not {len(value)}.")
    if len(set(value)) != len(value):
        raise IllegalAction("bad_options", "Two players have the same name: give each a different one.")
    return [n.strip() for n in value]


def new_game(options: Mapping[str, Any]) -> tuple[SomnicumState, list[dict[str, Any]]]:
    """The state after setup's automatic steps: waiting for the flywheels (digital) or for the
    first card of the field (physical). Bad options raise IllegalAction("bad_options")."""
    unknown = sorted(set(options) - set(OPTIONS))
    if unknown:
        raise IllegalAction("bad_options", f'Unknown setup option "{unknown[0]}" (known: {", ".join(OPTIONS)}).')
    names = _names(options.get("players", 2))
    decks = options.get("decks", "digital")
    if decks not in ("digital", "physical"):
        raise IllegalAction("bad_options", f'Setup option "decks" must be "digital" or "physical", not {decks!r}.')
    seed = options.get("seed", 0)
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise IllegalAction("bad_options", f'Setup option "seed" must be a whole number, not {seed!r}.')
    first = options.get("first_player", 0)
    if isinstance(first, str) and first in names:
        first = names.index(first)
    if not isinstance(first, int) or isinstance(first, bool) or not 0 <= first < len(names):
        raise IllegalAction(
            "bad_options", f'Setup option "first_player" must be a seat 0 to {len(names) - 1} or a player\'s name.'
        )
    catalog_dir = options.get("catalog", "") or ""
    if not isinstance(catalog_dir, str):
        raise IllegalAction("bad_options", 'Setup option "catalog" must be a directory name.')
    try:
        catalog = load_catalog(catalog_dir or None)
    except CatalogError as err:
        raise IllegalAction("bad_catalog", f"The Somnicum catalog cannot be used: {err}") from None
    needed = ROUNDS * FIELD_SIZE[len(names)]
    if len(catalog.dream_cards) < needed:
        raise IllegalAction(
            "bad_catalog",
            f"{len(names)} players need {needed} Dream cards for three fields; the catalog has {len(catalog.dream_cards)}.",
        )
    if len(catalog.goals) < len(names):
        raise IllegalAction("bad_catalog", f"{len(names)} players need {len(names)} Goal cards; the catalog has {len(catalog.goals)}.")
    state = SomnicumState(
        catalog_dir=catalog_dir,
        digital=decks == "digital",
        rng=seed_state(seed),
        players=tuple(PlayerState(name) for name in names),
        round=1,
        first_player=first,
        turn=first,
        phase="lay_field",
        actor=-1,
        field=(),
        flywheels=(NOT_PLACED, NOT_PLACED),
        deck=tuple(sorted(catalog.dream_cards)),
        out_of_play=(),
        bag=tuple(sorted(catalog.tokens)),
        meeting_deck=tuple(sorted(catalog.meetings)),
        meeting_discard=(),
        goal_box=tuple(sorted(catalog.goals)),
    )
    g = Draft(state, catalog)
    start_round(g)
    return g.freeze(), g.events


def start_round(g: Draft) -> None:
    """Setup 1 (and "Starting the next round"): the field, from the cards put aside."""
    size = FIELD_SIZE[len(g.players)]
    if not g.digital:
        g.phase, g.actor, g.to_draw = "lay_field", -1, size
        return
    field, g.deck = draw_cards(g, g.deck, size)
    g.field = field
    g.emit({
        "type": "field_laid", "round": g.round,
        "cards": [{"id": c, "name": g.cat.card_name(c)} for c in field],
    })
    after_field(g)


def after_field(g: Draft) -> None:
    if g.round == 1:
        deal_goals(g)
    else:
        ask_flywheels(g)


def seats_from_first(g: Draft) -> list[int]:
    n = len(g.players)
    return [(g.first_player + k) % n for k in range(n)]


def deal_goals(g: Draft) -> None:
    """Setup 4: one secret Goal card each (the rest go back to the box)."""
    for seat in seats_from_first(g):
        if g.players[seat].goal:
            continue
        if not g.digital:
            g.phase, g.actor, g.to_draw = "deal_goals", seat, 1
            return
        (goal,), g.goal_box = draw_cards(g, g.goal_box, 1)
        g.set_player(seat, goal=goal)
        g.emit({"type": "goal_dealt", "seat": seat, "player": g.players[seat].name})
    starting_tokens(g, 1)


def starting_tokens(g: Draft, position: int) -> None:
    """Setup 6: from the `position`-th player in turn order on, each draws 0, 1, 2, 3 tokens."""
    seats = seats_from_first(g)
    for k in range(position, len(seats)):
        if not draw_tokens(g, seats[k], STARTING_TOKENS[k], "start"):
            return
    ask_flywheels(g)


def ask_flywheels(g: Draft) -> None:
    """Setup 7: the player to the right of the first player places the flywheels."""
    g.phase = "place_flywheels"
    g.actor = (g.first_player - 1) % len(g.players)
    g.to_draw = 0
    g.draw_reason = ""
