"""The Somnicum score pad: dreams entered by touch, tallied by the scoring code."""

from __future__ import annotations


def add_card(ui, level, stars, particles=(), nightmare=False):
    plus = [w for w in ui.find("+", exact=True) if w.payload == level]
    ui.tap(plus[0])
    ui.settle()
    ui.tap([w for w in ui.find(str(stars), exact=True) if w.payload == stars][0])
    if nightmare:
        ui.tap(ui.button("Nightmare"))
    for particle in particles:
        ui.tap([w for w in ui.find(particle, exact=True) if w.payload == particle][0])
    ui.tap_text("Save")


def gap_between(ui, level, left):
    return [w for w in ui.visible() if getattr(w, "payload", None) == ("gap", level, left)][0]


def start_pad(ui, players):
    ui.tap_text("Score pad")
    ui.tap_text(str(len(players)), exact=True)
    for field, name in zip(ui.screen.name_inputs, players):
        field.text = name
    ui.tap_text("Enter the dreams")


def test_karls_dream_from_the_rulebook_scores_32(home):
    ui = home
    start_pad(ui, ["Karl"])
    assert "Karl's dream" in ui.screen_text()
    ui.tap_text("Choose the Goal card")
    ui.tap_text("cloud, octopus, dragon")
    add_card(ui, 1, 2, ["cloud"])
    add_card(ui, 1, 3)
    add_card(ui, 1, 2, ["octopus"])
    add_card(ui, 1, 1, nightmare=True)
    add_card(ui, 2, 2)
    add_card(ui, 2, 3, ["octopus"])
    add_card(ui, 2, 2, ["dragon"])
    add_card(ui, 3, 3)
    ui.tap(gap_between(ui, 2, 1))
    ui.settle()
    assert gap_between(ui, 2, 1).text == "gap"
    meetings, _points, sand = [w for w in ui.find("+", exact=True) if w.payload is None]
    ui.tap(meetings)
    for _ in range(3):
        ui.tap(sand)
    ui.tap_text("Score the game")
    shown = ui.screen_text()
    assert "Winner: Karl" in shown
    assert "Karl: 32 points" in shown
    assert ("Level 1 7 + Level 2 (x2) 10 + Level 3 (x3) 9 + Cards between gaps (x1) 2 + "
            "Meeting cards 1 + Goal card 4 + Nightmares -1 = 32") in shown
    assert "Level 2, card 3: 2 stars x1 = +2 (gap on both sides: counts as level 1); goal: dragon" in shown


def test_a_card_with_no_gapless_pair_above_is_refused_with_the_rule(home):
    ui = home
    start_pad(ui, ["Ann"])
    add_card(ui, 1, 2)
    add_card(ui, 2, 1)
    assert "Level 2 cannot hold 1 cards" in ui.screen.refusal
    assert "level 1 has 0 such pairs" in ui.screen.refusal
    assert "Not allowed: Level 2 cannot hold" in ui.screen_text()
    ui.tap_text("Cancel")
    add_card(ui, 1, 3)
    add_card(ui, 2, 1)
    assert ui.screen.refusal == ""
    assert len(ui.app.scorepad.players[0].rows[1]) == 1


def test_a_tie_goes_to_the_most_sleep_sand_and_says_so(home):
    ui = home
    start_pad(ui, ["Ann", "Ben"])
    add_card(ui, 1, 3)
    ui.tap_text("Next: Ben")
    assert "Ben's dream" in ui.screen_text()
    add_card(ui, 1, 3)
    sand = [w for w in ui.find("+", exact=True) if w.payload is None][2]
    ui.tap(sand)
    ui.tap_text("Score the game")
    shown = ui.screen_text()
    assert "Winner: Ben" in shown
    assert "Ann, Ben tie on 3 points; Ben has the most Sleep Sand tokens left (1) and wins." in shown
