"""Somnicum's end-of-game scoring and the winner (rulebook: "End of the Game and Scoring",
"Determining the Winner").

Pure code over the dream model, so the game tracking feeds the same functions as the
``companion somnicum score`` command. Every card gets a line saying how it counted, so the players
can check the tally.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from companion.somnicum.dream import Dream, DreamCard

BREAKDOWN_KEYS = ("level1", "level2", "level3", "isolated", "meetings", "goal", "nightmares")


@dataclass(frozen=True)
class PlayerTally:
    """What one player brings to the final count."""

    name: str
    dream: Dream
    goal: tuple[str, ...] = ()
    meetings_unplayed: int = 0
    meeting_vp: int = 0
    sand: int = 0


@dataclass(frozen=True)
class CardScore:
    """How one card counted: its level, the multiplier used and why, its goal matches."""

    level: int
    position: int
    card: DreamCard
    multiplier: int
    reason: str
    points: int  # signed: Nightmares subtract
    goal_matches: tuple[str, ...]


@dataclass(frozen=True)
class PlayerScore:
    name: str
    total: int
    breakdown: dict[str, int]
    cards: tuple[CardScore, ...] = ()
    sand: int = 0

    def to_json(self) -> dict[str, object]:
        return {"name": self.name, "total": self.total, "breakdown": dict(self.breakdown)}


@dataclass(frozen=True)
class FinalScores:
    players: tuple[PlayerScore, ...]
    winners: tuple[str, ...]
    tie_break: str = field(default="")  # a sentence when the sand tie-break was needed

    def to_json(self) -> dict[str, object]:
        return {"players": [p.to_json() for p in self.players], "winners": list(self.winners)}


def score_player(tally: PlayerTally) -> PlayerScore:
    """Scores one player's dream; the breakdown always adds up to the total."""
    breakdown = dict.fromkeys(BREAKDOWN_KEYS, 0)
    goal = set(tally.goal)
    lines = []
    for depth, row in enumerate(tally.dream.levels):
        level = depth + 1
        for index, card in enumerate(row.cards):
            isolated = level > 1 and row.is_isolated(index)
            multiplier = 1 if isolated else level
            if isolated:
                reason = "gap on both sides: counts as level 1"
            elif level == 1:
                reason = "level 1"
            elif len(row.cards) == 1:
                reason = f"level {level}, alone in its row (no gap beside it)"
            else:
                reason = f"level {level}"
            points = card.stars * multiplier
            if card.nightmare:
                points = -points
                breakdown["nightmares"] += points
            elif isolated:
                breakdown["isolated"] += points
            else:
                breakdown[f"level{level}"] += points
            # Nightmare particles are dream particles too; token particles never count here.
            matches = tuple(p for p in card.particles if p in goal)
            breakdown["goal"] += len(matches)
            lines.append(
                CardScore(level, index + 1, card, multiplier, reason, points, matches)
            )
    breakdown["meetings"] = tally.meetings_unplayed + tally.meeting_vp
    return PlayerScore(
        name=tally.name,
        total=sum(breakdown.values()),
        breakdown=breakdown,
        cards=tuple(lines),
        sand=tally.sand,
    )


def decide_winners(scores: Sequence[PlayerScore]) -> tuple[tuple[str, ...], str]:
    """The winners' names and, when the tie-break was used, a sentence explaining it.

    Most points wins; a tie goes to the most Sleep Sand tokens in supply; a remaining tie shares
    the victory.
    """
    if not scores:
        return (), ""
    best = max(s.total for s in scores)
    leaders = [s for s in scores if s.total == best]
    if len(leaders) == 1:
        return (leaders[0].name,), ""
    most_sand = max(s.sand for s in leaders)
    winners = tuple(s.name for s in leaders if s.sand == most_sand)
    tied = ", ".join(s.name for s in leaders)
    if len(winners) == 1:
        why = (
            f"{tied} tie on {best} points; {winners[0]} has the most Sleep Sand tokens left "
            f"({most_sand}) and wins."
        )
    else:
        why = (
            f"{tied} tie on {best} points; {', '.join(winners)} also tie on Sleep Sand tokens "
            f"({most_sand}) and share the victory."
        )
    return winners, why


def final_scores(tallies: Sequence[PlayerTally]) -> FinalScores:
    scores = tuple(score_player(t) for t in tallies)
    winners, why = decide_winners(scores)
    return FinalScores(scores, winners, why)


def explain(result: FinalScores) -> str:
    """A table a player can check: each card, its level, multiplier and why, goal matches."""
    out = []
    for player in result.players:
        out.append(f"{player.name}")
        out.append(f"  {'level':>5} {'card':>4}  {'stars':>5}  {'x':>2}  {'points':>6}  why / goal")
        for line in player.cards:
            card = line.card
            label = "Nightmare" if card.nightmare else (card.name or "Dream card")
            goal = f"; goal: {', '.join(line.goal_matches)}" if line.goal_matches else ""
            out.append(
                f"  {line.level:>5} {line.position:>4}  {card.stars:>5}  {line.multiplier:>2}  "
                f"{line.points:>+6}  {label}: {line.reason}{goal}"
            )
        b = player.breakdown
        out.append(
            "  level 1 {level1} + level 2 {level2} + level 3 {level3} + isolated {isolated} "
            "+ meetings {meetings} + goal {goal} + nightmares {nightmares}".format(**b)
            + f" = {player.total}"
        )
        out.append(f"  Sleep Sand tokens left: {player.sand}")
        out.append("")
    names = ", ".join(result.winners) or "nobody"
    out.append(f"Winner{'s' if len(result.winners) > 1 else ''}: {names}")
    if result.tie_break:
        out.append(result.tie_break)
    return "\n".join(out) + "\n"
