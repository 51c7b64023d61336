"""What each seat may see of a game of Somnicum, as JSON for the screens and the phones.

The public view (seat None) shows the field circle, the flywheels, every dream with its gaps and
the particles of the tokens on its cards, how many tokens and Meeting cards each player holds,
the Meeting cards played, and whose move it is. It never shows the seed, a token's face, a Goal
card or an unplayed Meeting card; running scores leave the Goal points out until the game ends.
A seat's own view adds its Goal card, its tokens' faces and its Meeting cards in hand.
"""

from __future__ import annotations

from typing import Any

from companion.somnicum.attach import open_levels, to_dream
from companion.somnicum.catalog import Catalog, DreamCardSpec
from companion.somnicum.field import neighbours
from companion.somnicum.meetings import free_steps, meeting_vp
from companion.somnicum.rounds import result_json, scores
from companion.somnicum.scoring import PlayerTally, score_player
from companion.somnicum.setup import FIELD_SIZE, ROUNDS
from companion.somnicum.state import FLYWHEELS, NOT_PLACED, PlayerState, SomnicumState
from companion.somnicum.text import pending_text


def card_json(spec: DreamCardSpec) -> dict[str, Any]:
    return {
        "id": spec.id, "name": spec.name, "storyline": spec.storyline, "stars": spec.stars,
        "particles": list(spec.particles), "nightmare": spec.nightmare, "meeting": spec.meeting,
    }


def _dream_json(catalog: Catalog, player: PlayerState) -> list[dict[str, Any]]:
    levels = []
    for depth, row in enumerate(player.dream):
        cards = []
        for placed in row.cards:
            card = card_json(catalog.dream_cards[placed.card])
            card["tokens"] = [catalog.tokens[t].particle for t in placed.tokens]
            card["under"] = placed.under if depth else None
            cards.append(card)
        levels.append({"level": depth + 1, "cards": cards, "gaps": [g is not None for g in row.gaps]})
    return levels


def _score_json(catalog: Catalog, player: PlayerState, show_goal: bool) -> dict[str, Any]:
    goal = catalog.goals[player.goal].particles if (show_goal and player.goal) else ()
    score = score_player(PlayerTally(
        name=player.name, dream=to_dream(catalog, player.dream), goal=goal,
        meetings_unplayed=len(player.hand), meeting_vp=meeting_vp(catalog, player), sand=len(player.supply),
    ))
    breakdown: dict[str, int | None] = dict(score.breakdown)
    if not show_goal:
        breakdown["goal"] = None
    return {"total": score.total, "breakdown": breakdown, "goal_hidden": not show_goal}


def _player_json(catalog: Catalog, state: SomnicumState, seat: int, viewer: int | None) -> dict[str, Any]:
    player = state.players[seat]
    own = viewer == seat
    tokens = catalog.tokens
    blank = sum(1 for t in player.supply if tokens[t].back == "blank")
    data: dict[str, Any] = {
        "seat": seat,
        "name": player.name,
        "tokens": len(player.supply),
        "backs": {"sand": len(player.supply) - blank, "blank": blank},
        "meetings_in_hand": len(player.hand),
        "in_front": [catalog.meetings[m].to_json() for m in player.in_front],
        "dream": _dream_json(catalog, player),
        "first_player": seat == state.first_player,
        "to_act": seat == state.actor and not state.over,
        "score": _score_json(catalog, player, own or state.over),
    }
    if own or state.over:
        goal = catalog.goals.get(player.goal)
        data["goal"] = {"id": goal.id, "particles": list(goal.particles)} if goal else None
    if own:
        data["token_faces"] = [
            {"id": t, "particle": tokens[t].particle, "storyline": tokens[t].storyline, "back": tokens[t].back}
            for t in player.supply
        ]
        data["hand"] = [catalog.meetings[m].to_json() for m in player.hand]
    return data


def _pending(catalog: Catalog, state: SomnicumState, viewer: int | None) -> dict[str, Any] | None:
    if state.over:
        return None
    actor = state.actor
    data: dict[str, Any] = {
        "phase": state.phase,
        "seat": actor if actor >= 0 else None,
        "player": state.players[actor].name if actor >= 0 else None,
        "text": pending_text(catalog, state),
        "chance": state.phase in ("lay_field", "deal_goals", "draw_tokens", "draw_meetings"),
    }
    if state.phase in ("draw_tokens", "draw_meetings", "lay_field"):
        data["to_draw"] = state.to_draw
        data["reason"] = state.draw_reason
    if state.phase == "pay":
        data["owed"] = state.owed
    if state.taken:
        data["taken"] = card_json(catalog.dream_cards[state.taken])
    if state.phase == "attach":
        data["levels"] = open_levels(state.players[state.turn].dream)
    if state.phase == "keep_meeting":
        data["offered"] = len(state.offered)
        if viewer == actor:
            data["offered_cards"] = [catalog.meetings[m].to_json() for m in state.offered]
    return data


def view(catalog: Catalog, state: SomnicumState, seat: int | None) -> dict[str, Any]:
    """The JSON view for `seat` (None: the public view every screen and phone may show)."""
    if seat is not None and not (isinstance(seat, int) and 0 <= seat < len(state.players)):
        raise ValueError(f"Somnicum has seats 0 to {len(state.players) - 1}, not {seat!r}")
    field = state.field
    flywheels: dict[str, Any] = {}
    for name, gap in zip(FLYWHEELS, state.flywheels):
        placed = gap != NOT_PLACED and bool(field)
        flywheels[name] = {
            "gap": gap if placed else None,
            "position": gap if placed else None,  # the same, under the name the mirror page reads
            "between": [catalog.card_name(c) for c in neighbours(field, gap)] if placed else None,
        }
    player = state.players[state.turn]
    out: dict[str, Any] = {
        "game": "somnicum",
        "seat": seat,
        "round": state.round,
        "rounds": ROUNDS,
        "phase": state.phase,
        "over": state.over,
        "decks": "digital" if state.digital else "physical",
        "first_player": state.first_player,
        "turn": state.turn,
        "actor": state.actor if state.actor >= 0 else None,
        "pending": _pending(catalog, state, seat),
        "field": [card_json(catalog.dream_cards[c]) for c in field],
        "field_size": FIELD_SIZE[len(state.players)],
        "flywheels": flywheels,
        "bag": len(state.bag),
        "cards_put_aside": len(state.deck),
        "out_of_play": [card_json(catalog.dream_cards[c]) for c in state.out_of_play],
        "meeting_deck": len(state.meeting_deck),
        "meeting_discard": [catalog.meetings[m].to_json() for m in state.meeting_discard],
        "this_turn": {
            "moved": state.moved or None,
            "steps": state.steps,
            "free_steps": free_steps(catalog, state, player),
            "particles_left": state.placements,
            "continuous": state.continuous,
            "round_ends": state.round_end or None,
        },
        "players": [_player_json(catalog, state, s, seat) for s in range(len(state.players))],
        "result": result_json(scores(catalog, state)) if state.over else None,
    }
    return out
