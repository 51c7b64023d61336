"""The bag of Sleep Sand tokens, and the other draws of the game, as chance nodes.

With a digital bag the seeded generator in the state picks each token at once. At a physical
table the state waits instead (phase ``draw_tokens``) for the tokens drawn to be named, one
``draw_token`` action each. Tokens of the same particle and back cannot be told apart at the
table, so a named token that is no longer in the bag stands for any token of its kind that is
(:func:`same_kind_in`).
"""

from __future__ import annotations

from bisect import insort

from companion.somnicum.chance import below
from companion.somnicum.state import Draft


def same_kind_in(token_kind: dict[str, str], pool: tuple[str, ...], token: str) -> str | None:
    """`token` if it is in `pool`, else the first token of the same particle and back there.

    `token_kind` is ``Catalog.token_kind``.
    """
    if token in pool:
        return token
    kind = token_kind.get(token)
    if kind is None:
        return None
    for other in pool:
        if token_kind[other] == kind:
            return other
    return None


def kinds(token_kind: dict[str, str], pool: tuple[str, ...]) -> list[str]:
    """One token of each kind (particle and back) in `pool`: the outcomes worth telling apart."""
    seen: set[str] = set()
    out = []
    for token in pool:
        kind = token_kind[token]
        if kind not in seen:
            seen.add(kind)
            out.append(token)
    return out


def without(pool: tuple[str, ...], item: str) -> tuple[str, ...]:
    index = pool.index(item)
    return pool[:index] + pool[index + 1:]


def with_sorted(pool: tuple[str, ...], item: str) -> tuple[str, ...]:
    items = list(pool)
    insort(items, item)
    return tuple(items)


def return_to_bag(g: Draft, seat: int, token: str) -> None:
    """Moves `token` from the seat's supply into the bag."""
    player = g.players[seat]
    g.set_player(seat, supply=without(player.supply, token))
    g.bag = with_sorted(g.bag, token)


def give_token(g: Draft, seat: int, token: str) -> None:
    """Moves `token` from the bag into the seat's supply, noting a blank back for round end b."""
    g.bag = without(g.bag, token)
    g.set_player(seat, supply=with_sorted(g.players[seat].supply, token))
    if g.draw_reason == "flywheel" and g.cat.tokens[token].back == "blank":
        g.drew_blank = True


def random_token(g: Draft) -> str:
    g.rng, index = below(g.rng, len(g.bag))
    return g.bag[index]


def draw_tokens(g: Draft, seat: int, count: int, reason: str) -> bool:
    """Draws up to `count` tokens for `seat` (fewer when the bag runs out).

    Returns True when done; False when a physical table must now name the tokens drawn (the
    state is left at a ``draw_tokens`` chance node; the caller continues after the last one).
    """
    count = min(count, len(g.bag))
    if count == 0:
        return True
    g.draw_reason = reason
    if not g.digital:
        g.phase, g.actor, g.to_draw = "draw_tokens", seat, count
        return False
    bag = g.bag
    rng = g.rng
    drawn = []
    for _ in range(count):
        rng, index = below(rng, len(bag))
        drawn.append(bag[index])
        bag = bag[:index] + bag[index + 1:]
    g.rng, g.bag = rng, bag
    g.set_player(seat, supply=tuple(sorted(g.players[seat].supply + tuple(drawn))))
    tokens = g.cat.tokens
    blank = sum(1 for token in drawn if tokens[token].back == "blank")
    if blank and reason == "flywheel":
        g.drew_blank = True
    g.emit({
        "type": "tokens_drawn", "seat": seat, "player": g.players[seat].name,
        "count": count, "blank_backs": blank, "reason": reason,
    })
    g.draw_reason = ""
    return True


def draw_cards(g: Draft, pool: tuple[str, ...], count: int) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """`count` cards picked at random from `pool` (digital): (picked in order, the rest)."""
    picked = []
    for _ in range(min(count, len(pool))):
        g.rng, index = below(g.rng, len(pool))
        picked.append(pool[index])
        pool = pool[:index] + pool[index + 1:]
    return tuple(picked), pool
