"""The end of a round and of the game (rulebook: "End of a Round", "End of the Game and Scoring").

A round ends after the card of the turn that left only as many cards on the field as there are
players (a), or of the turn whose move left no card between the flywheels and drew a token with a
blank back (b). The cards still on the field leave the game; the next round's field is laid from
the cards put aside at setup, and the player to the left of the one whose turn ended the round
becomes first player. After the third round the dreams are scored by ``scoring``.
"""

from __future__ import annotations

from typing import Any

from companion.somnicum.attach import to_dream
from companion.somnicum.catalog import Catalog
from companion.somnicum.meetings import meeting_vp
from companion.somnicum.scoring import FinalScores, PlayerTally, final_scores
from companion.somnicum.setup import ROUNDS, start_round
from companion.somnicum.state import NOT_PLACED, Draft, SomnicumState

REASONS = {
    "cards": "only as many cards remain on the field as there are players",
    "flywheels": "no card remains between the flywheels and a token with a blank back was drawn",
}


def end_round(g: Draft) -> None:
    """Ends the round after the current player's card is attached; starts the next or ends the game."""
    n = len(g.players)
    left = g.field
    g.emit({
        "type": "round_ended", "round": g.round, "reason": g.round_end, "why": REASONS[g.round_end],
        "seat": g.turn, "player": g.players[g.turn].name,
        "left": [{"id": c, "name": g.cat.card_name(c)} for c in left],
        "flywheels": list(g.flywheels),
    })
    g.out_of_play = g.out_of_play + left
    g.field = ()
    g.flywheels = (NOT_PLACED, NOT_PLACED)
    g.ended_by = g.turn
    g.round_end = ""
    g.moved, g.steps, g.taken = "", 0, ""
    if g.round >= ROUNDS:
        g.phase, g.actor = "over", -1
        result = final_scores(tallies(g.cat, g))
        g.emit({
            "type": "game_over",
            "winners": list(result.winners),
            "totals": {p.name: p.total for p in result.players},
            "tie_break": result.tie_break,
        })
        return
    g.round += 1
    g.first_player = (g.turn + 1) % n
    g.turn = g.first_player
    g.emit({
        "type": "round_started", "round": g.round, "first_player": g.first_player,
        "player": g.players[g.first_player].name,
    })
    start_round(g)


def tallies(catalog: Catalog, state: SomnicumState | Draft) -> list[PlayerTally]:
    """What each player brings to the count, for ``scoring.final_scores``."""
    out = []
    for player in state.players:
        goal = catalog.goals[player.goal].particles if player.goal else ()
        out.append(PlayerTally(
            name=player.name,
            dream=to_dream(catalog, player.dream),
            goal=goal,
            meetings_unplayed=len(player.hand),
            meeting_vp=meeting_vp(catalog, player),
            sand=len(player.supply),
        ))
    return out


def scores(catalog: Catalog, state: SomnicumState) -> FinalScores:
    return final_scores(tallies(catalog, state))


def result_json(result: FinalScores) -> dict[str, Any]:
    """The scores with each card's line (level, multiplier and why, goal matches) and the tie-break."""
    players = []
    for score in result.players:
        players.append({
            "name": score.name,
            "total": score.total,
            "breakdown": dict(score.breakdown),
            "sand": score.sand,
            "cards": [
                {
                    "level": line.level, "position": line.position, "name": line.card.name,
                    "stars": line.card.stars, "nightmare": line.card.nightmare,
                    "multiplier": line.multiplier, "why": line.reason, "points": line.points,
                    "goal_matches": list(line.goal_matches),
                }
                for line in score.cards
            ],
        })
    return {"players": players, "winners": list(result.winners), "tie_break": result.tie_break}
