"""Meeting cards: taking them for the meeting symbol, and playing them (rulebook: "Taking Meeting
cards", "Playing Meeting Cards").

A card with the meeting symbol brings as many Meeting cards as the level of the row it joined;
of several the player keeps one and the rest lie face up beside the deck. A Meeting card may be
played at any time during its owner's turn: a one-time card is discarded after use, a permanent
card stays face up in front of its owner. What a card does is data: a small vocabulary of effects
(``catalog.MEETING_EFFECTS``), provisional until the real cards are catalogued.
"""

from __future__ import annotations

from companion.rules import IllegalAction
from companion.somnicum.bag import draw_cards, draw_tokens
from companion.somnicum.catalog import Catalog, MeetingCard
from companion.somnicum.state import Draft, PlayerState, SomnicumState

PLAY_PHASES = ("turn", "attach", "end_turn")


def same_card_in(catalog: Catalog, pool: tuple[str, ...], card: str) -> str | None:
    """`card` if it is in `pool`, else an identical copy that is (same catalog entry)."""
    if card in pool:
        return card
    spec = catalog.meetings.get(card)
    if spec is None:
        return None
    for other in pool:
        if catalog.meetings[other].entry == spec.entry:
            return other
    return None


def free_steps(catalog: Catalog, state: SomnicumState | Draft, player: PlayerState) -> int:
    """Flywheel steps that cost nothing this turn: 3, plus Meeting cards' extra steps."""
    if not player.in_front:
        return 3 + state.bonus_steps
    extra = sum(
        catalog.meetings[m].amount for m in player.in_front if catalog.meetings[m].effect == "free_steps"
    )
    return 3 + state.bonus_steps + extra


def single_token(catalog: Catalog, player: PlayerState) -> bool:
    """Whether a permanent card lets the player add another storyline's particle with one token."""
    return any(catalog.meetings[m].effect == "single_token" for m in player.in_front)


def meeting_vp(catalog: Catalog, player: PlayerState) -> int:
    """Victory points printed on the permanent cards lying face up in front of the player."""
    return sum(
        catalog.meetings[m].amount for m in player.in_front if catalog.meetings[m].effect == "victory_points"
    )


def why_not_playable(state: SomnicumState | Draft, spec: MeetingCard) -> str | None:
    """Why `spec` cannot be played now (a sentence), or None when it can."""
    effect = spec.effect
    before_moving = state.phase == "turn"
    if effect == "extra_particle" and not before_moving:
        return f"{spec.name} gives a particle to add before moving a flywheel, and the flywheel has moved"
    if effect == "free_steps" and not spec.permanent and not before_moving:
        return f"{spec.name} gives free steps for this turn's move, and the flywheel has moved"
    if effect == "continuous":
        if state.phase == "end_turn":
            return f"{spec.name} works on the card you attach, and it is attached"
        if state.continuous:
            return f"a {spec.name} already works on this turn's card"
    return None


def play(g: Draft, seat: int, card: str) -> None:
    """Plays the Meeting card `card` from the seat's hand (validated here)."""
    catalog = g.cat
    player = g.players[seat]
    held = same_card_in(catalog, player.hand, card)
    if held is None:
        name = catalog.meetings[card].name if card in catalog.meetings else card
        raise IllegalAction("no_such_meeting", f"{player.name} holds no Meeting card {name!r} to play.")
    spec = catalog.meetings[held]
    problem = why_not_playable(g, spec)
    if problem is not None:
        raise IllegalAction("meeting_not_now", f"{player.name} cannot play {spec.name} now: {problem}.")
    hand = list(player.hand)
    hand.remove(held)
    if spec.permanent:
        g.set_player(seat, hand=tuple(hand), in_front=player.in_front + (held,))
    else:
        g.set_player(seat, hand=tuple(hand))
        g.meeting_discard = g.meeting_discard + (held,)
    g.emit({
        "type": "meeting_played", "seat": seat, "player": player.name, "card": held,
        "name": spec.name, "kind": spec.kind, "effect": spec.effect, "amount": spec.amount,
    })
    effect = spec.effect
    if effect == "draw_tokens":
        resume = g.phase
        if not draw_tokens(g, seat, spec.amount, "effect"):
            g.resume = resume
    elif effect == "free_steps" and not spec.permanent:
        g.bonus_steps += spec.amount
    elif effect == "extra_particle":
        g.placements += 1
    elif effect == "continuous":
        g.continuous = True
    # single_token, victory_points and permanent free_steps work while the card lies face up.


def draw_meetings(g: Draft, count: int) -> bool:
    """Draws `count` Meeting cards (fewer when the deck runs out) into ``offered``.

    Returns False when a physical table must name them (phase ``draw_meetings``).
    """
    count = min(count, len(g.meeting_deck))
    g.offered = ()
    if count == 0:
        return True
    if not g.digital:
        g.phase, g.actor, g.to_draw, g.draw_reason = "draw_meetings", g.turn, count, "meeting"
        return False
    g.offered, g.meeting_deck = draw_cards(g, g.meeting_deck, count)
    g.emit({"type": "meetings_drawn", "seat": g.turn, "player": g.players[g.turn].name, "count": count})
    return True


def keep(g: Draft, card: str) -> None:
    """Keeps `card` of the offered Meeting cards; the others lie face up beside the deck."""
    kept = same_card_in(g.cat, g.offered, card)
    player = g.players[g.turn]
    if kept is None:
        raise IllegalAction(
            "not_offered",
            f"{player.name} may keep only one of the Meeting cards just drawn.",
        )
    rest = list(g.offered)
    rest.remove(kept)
    g.set_player(g.turn, hand=player.hand + (kept,))
    g.meeting_discard = g.meeting_discard + tuple(rest)
    g.offered = ()
    g.emit({
        "type": "meeting_kept", "seat": g.turn, "player": player.name,
        "discarded": [{"id": m, "name": g.cat.meetings[m].name} for m in rest],
    })

