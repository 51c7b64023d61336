"""Research Tests and Victory Tests: 2 dice plus an attribute, and what the dice decide.

A test starts by asking for dice (a chance node: ``roll`` with virtual dice, ``dice`` with the
values read by the camera or typed). Isaac rolls 3 and keeps 2; the Clover lets its holder
reroll one die once per test. Doubles are judged on the two dice finally used (FAQ).
"""

from __future__ import annotations

from companion.chainsomnia.events import defeat_bad_dream, effect_step
from companion.chainsomnia.state import Pending, Test, Work

THREE_DICE_ABILITY = "fortune_of_a_bold_entrepreneur"


def attribute_value(w: Work, cid: str, attribute: str) -> int:
    c = w.char(cid)
    bonus = sum(w.catalog.item_cards[i].passive.bonus_for(attribute) for i in c.items)
    bonus += sum(w.catalog.event_cards[b].held.bonus_for(attribute) for b in c.bad_dreams)
    return w.board(cid).attribute(attribute) + bonus


def dice_count(w: Work, cid: str) -> int:
    return 3 if w.board(cid).ability == THREE_DICE_ABILITY else 2


def start_test(w: Work, test: Test) -> None:
    c = w.char(test.who)
    rerolls = max((w.catalog.item_cards[i].passive.reroll for i in c.items), default=0)
    doubles = any(w.catalog.item_cards[i].passive.double_defeats for i in c.items)
    test = Test(test.kind, test.who, test.attribute, test.at_least, test.nook, test.card, rerolls, doubles)
    w.pending = Pending("roll", test.who, count=dice_count(w, test.who), test=test)


def dice_rolled(w: Work, test: Test, kept: tuple[int, ...], values: tuple[int, ...], source: str) -> None:
    """``kept``: dice already fixed (the one not rerolled); ``values``: the new roll."""
    w.emit("dice", character=test.who, name=w.name(test.who), values=list(values), kept=list(kept), source=source)
    if len(kept) + len(values) == 3:
        w.pending = Pending("keep_dice", test.who, dice=values, test=test)
        return
    dice_chosen(w, test, kept + values)


def dice_chosen(w: Work, test: Test, dice: tuple[int, ...]) -> None:
    if test.rerolls > 0:
        w.pending = Pending("clover", test.who, dice=dice, test=test)
        return
    resolve_test(w, test, dice)


def resolve_test(w: Work, test: Test, dice: tuple[int, ...]) -> None:
    attribute = attribute_value(w, test.who, test.attribute)
    total = sum(dice) + attribute
    double = len(dice) == 2 and dice[0] == dice[1]
    success = total >= test.at_least or (test.kind == "victory" and test.double_defeats and double)
    w.emit(
        "test",
        kind=test.kind,
        character=test.who,
        name=w.name(test.who),
        dice=list(dice),
        attribute=test.attribute,
        value=attribute,
        total=total,
        at_least=test.at_least,
        double=double,
        success=success,
        card=test.card or None,
        nook=test.nook if test.kind == "research" else None,
    )
    if not success:
        return
    if test.kind == "victory":
        how = "a double with the Clover" if total < test.at_least else "a Victory Test"
        defeat_bad_dream(w, test.card, test.who, how)
        return
    placed = w.tile_at(w.char(test.who).cell)
    assert placed is not None
    nook = w.catalog.tiles[placed.tile].nooks[test.nook]
    w.push(*[effect_step(e, test.who, "") for e in nook.reward])
