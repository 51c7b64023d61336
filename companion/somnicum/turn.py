"""A player's turn (rulebook: "Player Turn"): the optional particle, the flywheel move and its
tokens, the card taken and attached, the Meeting cards it brings.

Each function changes a :class:`~companion.somnicum.state.Draft` and either finishes the step or
leaves the state at a chance node (a physical table names what was drawn) or a choice (which
token pays, which Meeting card to keep); the action that answers it continues from there.
"""

from __future__ import annotations

from companion.rules import IllegalAction
from companion.somnicum import attach as dreams
from companion.somnicum.bag import draw_tokens, random_token, return_to_bag, same_kind_in, with_sorted, without
from companion.somnicum.field import landing, take
from companion.somnicum.meetings import draw_meetings, free_steps, keep, single_token
from companion.somnicum.rounds import end_round
from companion.somnicum.state import FLYWHEELS, Draft, evolve

# Rulebook: "moved 1 step: you draw 2 ... moved 2 steps: you draw 1 ... 3 steps: you draw no tokens"
TOKENS_FOR_STEPS = {1: 2, 2: 1}


def start_turn(g: Draft, seat: int) -> None:
    g.turn = g.actor = seat
    g.phase = "turn"
    g.placements, g.bonus_steps, g.continuous = 1, 0, False
    g.moved, g.steps, g.owed, g.to_draw = "", 0, 0, 0
    g.draw_reason, g.resume = "", ""
    g.drew_blank = g.closed = False
    g.taken, g.attached_level, g.offered, g.round_end = "", 0, (), ""
    g.emit({"type": "turn_started", "seat": seat, "player": g.players[seat].name, "round": g.round})


def next_turn(g: Draft) -> None:
    start_turn(g, (g.turn + 1) % len(g.players))


# -- 1. Adding a dream particle -------------------------------------------------------------------


def add_particle(g: Draft, token: str, level: int, returned: str | None) -> None:
    """Rule A (a token of the card's storyline, or any token on a Nightmare) or rule B (two
    identical tokens: one goes on the card, the other back to the bag)."""
    catalog = g.cat
    seat = g.turn
    player = g.players[seat]
    if g.placements <= 0:
        raise IllegalAction(
            "particle_already_added",
            f"{player.name} has already added a particle this turn: one particle per turn, before moving a flywheel.",
        )
    row = player.dream[level - 1] if 1 <= level <= len(player.dream) else None
    if row is None or not row.cards:
        raise IllegalAction(
            "no_such_card",
            f"{player.name} has no card on level {level}: a particle goes on the rightmost card of a level of your dream.",
        )
    held = same_kind_in(catalog.token_kind, player.supply, token)
    if held is None:
        raise IllegalAction("no_such_token", f"{player.name} has no such Sleep Sand token.")
    placed = row.cards[-1]
    spec = catalog.dream_cards[placed.card]
    particle = catalog.tokens[held].particle
    storyline = catalog.tokens[held].storyline
    matches = spec.nightmare or spec.storyline == storyline
    supply = without(player.supply, held)
    back_to_bag = None
    if matches:
        if returned is not None:
            raise IllegalAction(
                "no_pair_needed",
                f"A {particle} token matches {spec.name}'s storyline: it goes on the card alone (rule A), no token goes back to the bag.",
            )
    elif returned is None:
        if not single_token(catalog, player):
            raise IllegalAction(
                "pair_needed",
                f"{spec.name} is not of the {catalog.storyline_name(storyline)} storyline: to add a {particle} "
                "particle to it you need two identical tokens, one of which goes back to the bag (rule B). "
                'Name the second one as "return".',
            )
    else:
        back_to_bag = same_kind_in(catalog.token_kind, supply, returned)
        if back_to_bag is None or catalog.tokens[back_to_bag].particle != particle:
            raise IllegalAction(
                "pair_needed",
                f"Rule B needs two identical tokens: {player.name} has no second {particle} token to return to the bag.",
            )
        supply = without(supply, back_to_bag)
    new_card = evolve(placed, tokens=placed.tokens + (held,))
    new_row = evolve(row, cards=row.cards[:-1] + (new_card,))
    dream = player.dream[: level - 1] + (new_row,) + player.dream[level:]
    g.set_player(seat, supply=supply, dream=dream)
    if back_to_bag is not None:
        g.bag = with_sorted(g.bag, back_to_bag)
    g.placements -= 1
    g.emit({
        "type": "particle_added", "seat": seat, "player": player.name, "level": level,
        "card": placed.card, "card_name": spec.name, "particle": particle,
        "rule": "A" if matches else "B", "returned": back_to_bag is not None,
    })


# -- 2. Moving a flywheel and taking a card --------------------------------------------------------


def move_flywheel(g: Draft, flywheel: str, steps: int) -> None:
    player = g.players[g.turn]
    if flywheel not in FLYWHEELS:
        raise IllegalAction("no_such_flywheel", f'There is no {flywheel!r} flywheel: choose "black" or "white".')
    if steps < 1:
        raise IllegalAction("too_few_steps", "A flywheel must be moved at least one step.")
    size = len(g.field)
    if steps > size:
        raise IllegalAction(
            "too_many_steps",
            f"A flywheel moves at most once around the field: {size} steps, the cards still on it.",
        )
    free = free_steps(g.cat, g, player)
    owed = max(0, steps - free)
    if owed > len(player.supply):
        raise IllegalAction(
            "cannot_pay",
            f"{player.name} cannot pay for {steps} steps: the first {free} are free and each further step costs "
            f"a Sleep Sand token; with {len(player.supply)} token(s) the flywheel can move at most "
            f"{free + len(player.supply)} steps.",
        )
    moved = 0 if flywheel == "black" else 1
    gap = g.flywheels[moved]
    card_index = landing(size, gap, steps)
    field = g.field
    card = field[card_index]
    names = g.cat.card_names
    g.field, g.flywheels = take(field, g.flywheels, card_index, moved)
    g.closed = g.flywheels[0] == g.flywheels[1]
    g.moved, g.steps, g.taken = flywheel, steps, card
    g.events.append({
        "type": "flywheel_moved", "seat": g.turn, "player": player.name, "flywheel": flywheel,
        "steps": steps, "from": [names[field[gap - 1]], names[field[gap]]],
        "card": card, "card_name": names[card],
        "beside": [names[field[card_index - 1]], names[field[(card_index + 1) % size]]],
        "to_pay": owed, "closed": g.closed,
    })
    g.owed = owed
    if owed:
        g.phase, g.actor = "pay", g.turn
        _pay_when_no_choice(g)
        return
    after_pay(g)


def pay_token(g: Draft, token: str) -> None:
    player = g.players[g.turn]
    held = same_kind_in(g.cat.token_kind, player.supply, token)
    if held is None:
        raise IllegalAction("no_such_token", f"{player.name} has no such Sleep Sand token to pay with.")
    _pay(g, held)
    _pay_when_no_choice(g)


def _pay(g: Draft, token: str) -> None:
    return_to_bag(g, g.turn, token)
    g.owed -= 1
    g.emit({"type": "token_paid", "seat": g.turn, "player": g.players[g.turn].name, "owed": g.owed})


def _pay_when_no_choice(g: Draft) -> None:
    """Pays on its own when every token left must go; continues once all is paid."""
    supply = g.players[g.turn].supply
    if g.owed and g.owed == len(supply):
        for token in supply:
            _pay(g, token)
    if g.owed == 0:
        after_pay(g)


def after_pay(g: Draft) -> None:
    if draw_tokens(g, g.turn, TOKENS_FOR_STEPS.get(g.steps, 0), "flywheel"):
        after_flywheel_draw(g)


def after_flywheel_draw(g: Draft) -> None:
    """End of a round, b: no card between the flywheels and a blank back among the tokens drawn."""
    if g.closed and g.drew_blank:
        g.round_end = "flywheels"
        g.emit({"type": "round_ending", "reason": "flywheels", "round": g.round})
    g.phase, g.actor, g.draw_reason = "attach", g.turn, ""


# -- 3. Attaching the card -------------------------------------------------------------------------


def attach(g: Draft, level: int) -> None:
    catalog = g.cat
    seat = g.turn
    player = g.players[seat]
    if level not in (1, 2, 3):
        raise IllegalAction("no_such_level", f"A dream has levels 1, 2 and 3, not {level!r}.")
    if level not in dreams.open_levels(player.dream):
        above = player.dream[level - 2]
        if len(above.cards) < 2:
            why = f"level {level - 1} has fewer than two cards"
        elif None not in above.gaps:
            why = f"level {level - 1} has no pair of neighbouring cards without a gap"
        else:
            why = f"every pair of level {level - 1} without a gap already has a card under it"
        raise IllegalAction(
            "no_place_on_level",
            f"{player.name} cannot attach to level {level}: {why}. A card of level {level} lies under a pair of "
            f"cards of level {level - 1} with no gap between them.",
        )
    card = g.taken
    gap = dreams.needs_gap(catalog, player.dream, level, card)
    by_card = False
    if gap and g.continuous:
        gap, by_card = False, True
    g.continuous = False
    token: str | None = None
    if gap:
        # The gap token: drawn at once from a digital bag; named later at a physical table.
        token = ""
        if g.bag and g.digital:
            token = random_token(g)
            g.bag = without(g.bag, token)
    dream = dreams.attach(player.dream, level, card, token)
    row = dream[level - 1]
    g.set_player(seat, dream=dream)
    g.taken = ""
    g.attached_level = level
    names = catalog.card_names
    g.events.append({
        "type": "card_attached", "seat": seat, "player": player.name, "card": card,
        "card_name": names[card], "level": level, "position": len(row.cards),
        "gap": gap, "joined_by_meeting": by_card, "left": names[row.cards[-2].card] if len(row.cards) > 1 else "",
        "under": row.cards[-1].under,
    })
    if gap:
        if token:
            g.events.append({
                "type": "gap_token_laid", "seat": seat, "player": player.name, "level": level,
                "card_name": names[card],
            })
        elif not g.bag:
            g.emit({"type": "gap_without_token", "seat": seat, "level": level})
        else:
            g.phase, g.actor, g.to_draw, g.draw_reason = "draw_tokens", seat, 1, "gap"
            return
    after_gap(g)


def lay_gap_token(g: Draft, token: str) -> None:
    seat, level = g.turn, g.attached_level
    player = g.players[seat]
    g.bag = without(g.bag, token)
    row = player.dream[level - 1]
    new_row = evolve(row, gaps=row.gaps[:-1] + (token,))
    g.set_player(seat, dream=player.dream[: level - 1] + (new_row,) + player.dream[level:])
    g.emit({
        "type": "gap_token_laid", "seat": seat, "player": player.name, "level": level,
        "card_name": g.cat.card_name(row.cards[-1].card),
    })


def after_gap(g: Draft) -> None:
    """Taking Meeting cards: as many as the level, for a card with the meeting symbol."""
    card = g.players[g.turn].dream[g.attached_level - 1].cards[-1].card
    if g.cat.dream_cards[card].meeting:
        if not draw_meetings(g, g.attached_level):
            return
        after_meetings_drawn(g)
        return
    after_meetings(g)


def after_meetings_drawn(g: Draft) -> None:
    g.draw_reason = ""
    if len(g.offered) == 1:
        keep(g, g.offered[0])
    elif len(g.offered) > 1:
        g.phase, g.actor = "keep_meeting", g.turn
        return
    after_meetings(g)


def after_meetings(g: Draft) -> None:
    """The card is attached: the round may end; else Meeting cards may still be played."""
    if len(g.field) <= len(g.players):
        g.round_end = "cards"
    if g.round_end:
        end_round(g)
        return
    if g.players[g.turn].hand:
        g.phase, g.actor = "end_turn", g.turn
        return
    next_turn(g)
