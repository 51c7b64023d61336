"""The playing field and the two Dream Flywheels: pure geometry of a circle of cards.

The field is the tuple of Dream cards clockwise. A flywheel always stands between two cards: its
position ``g`` is the gap just before ``field[g]`` (so gap 0 lies between the last card and the
first). Moving a flywheel ``k`` steps clockwise from gap ``g`` stops it on card ``g + k - 1``
(rulebook: "The first step moves the flywheel to the nearest card clockwise. Each further step
moves the flywheel from card to card"). When that card is taken, the gaps on both of its sides
become one, where the moved flywheel now stands.

>>> landing(5, gap=4, steps=2)
0
>>> take(("a", "b", "c", "d"), (0, 3), card=1, moved=0)
(('a', 'c', 'd'), (1, 2))
"""

from __future__ import annotations


def landing(size: int, gap: int, steps: int) -> int:
    """The index of the card a flywheel in `gap` stops on after `steps` steps clockwise."""
    return (gap + steps - 1) % size


def opposite(size: int, gap: int) -> int:
    """The gap directly opposite `gap`: half the cards (rounded down) lie clockwise between them."""
    return (gap + size // 2) % size


def _gap_after_taking(gap: int, card: int, size: int) -> int:
    if gap == card or gap == (card + 1) % size:
        return card % (size - 1)
    return gap - 1 if gap > card else gap


def take(
    field: tuple[str, ...], flywheels: tuple[int, int], card: int, moved: int
) -> tuple[tuple[str, ...], tuple[int, int]]:
    """The field without `card` (an index) and both flywheels' gaps renumbered.

    Flywheel `moved` (0 black, 1 white) stopped on the card and stands in the gap it leaves
    behind, where the gaps on both sides of the card merge; the other keeps its place.
    """
    size = len(field)
    rest = field[:card] + field[card + 1:]
    if not rest:
        return rest, (0, 0)
    here = card % (size - 1)
    if moved == 0:
        return rest, (here, _gap_after_taking(flywheels[1], card, size))
    return rest, (_gap_after_taking(flywheels[0], card, size), here)


def neighbours(field: tuple[str, ...], gap: int) -> tuple[str, str]:
    """The two cards a flywheel in `gap` stands between: (counter-clockwise, clockwise)."""
    return field[gap - 1], field[gap % len(field)]


def cards_between(size: int, a: int, b: int) -> int:
    """How many cards lie clockwise from gap `a` to gap `b`."""
    return (b - a) % size
