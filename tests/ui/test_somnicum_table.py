"""Somnicum on the touchscreen: the field, the cost of each move, attaching, secrets, undo."""

from __future__ import annotations

OPTIONS = {"players": ["Ann", "Ben"], "decks": "digital", "seed": 0}


def tap_gap(ui, gap):
    field = ui.screen.field
    ui.tap_at(*field.to_window(*field.gap_centre(gap)))
    ui.settle()


def finish_turn(ui):
    ui.tap(next(w for w in ui.find("Attach the card") if w.text.startswith("Attach")))
    ui.settle()
    if ui.find("End the turn"):
        ui.tap_text("End the turn")


def test_setup_screen_starts_a_game_for_the_names_given(home):
    ui = home
    ui.tap_text("New Somnicum game")
    ui.screen.name_inputs[0].text = "Ann"
    ui.screen.name_inputs[1].text = "Ben"
    ui.tap_text("Start the game")
    ui.wait(lambda: ui.screen.field.gap_targets, what="the flywheels to place")
    assert "Ben, to the right of the first player, places the flywheels" in ui.screen.prompt
    assert len(ui.screen.view["field"]) == 16
    assert [p["name"] for p in ui.screen.view["players"]] == ["Ann", "Ben"]


def test_moves_show_where_they_stop_and_what_they_cost_then_undo(home):
    ui = home
    ui.app.go("somnicum_table", new=OPTIONS)
    ui.settle()
    ui.wait(lambda: ui.screen.field.gap_targets, what="the flywheels to place")
    assert ui.screen.field.gap_targets == list(range(16))
    tap_gap(ui, 0)
    assert "Ann's turn" in ui.screen.prompt
    ui.tap_text("Black flywheel")
    shown = ui.screen_text()
    assert "1 step: " in shown and "(free, draw 2 tokens)" in shown
    assert "2 steps: " in shown and "(free, draw 1 token)" in shown
    assert "3 steps: " in shown
    field = ui.screen.view["field"]
    assert ui.screen.field.targets == [0, 1, 2]  # the cards the black flywheel can reach
    taken = field[0]["name"]
    ui.tap(ui.find("1 step: " + taken)[0])
    ui.settle()
    assert f"Ann attaches {taken} to their dream" in ui.screen.prompt
    finish_turn(ui)
    ann = ui.screen.view["players"][0]
    assert [c["name"] for c in ann["dream"][0]["cards"]] == [taken]
    assert ann["tokens"] == 2
    assert "Ben" in ui.screen.status_line

    ui.tap_text("Undo")
    ui.wait(lambda: ui.screen.put_back, what="the put-back list")
    assert any("back" in line for line in ui.screen.put_back)
    ui.tap_text("Done")


def test_a_players_tokens_are_shown_only_when_they_ask(home):
    ui = home
    ui.app.go("somnicum_table", new=OPTIONS)
    ui.settle()
    ui.wait(lambda: ui.screen.field.gap_targets, what="the flywheels to place")
    tap_gap(ui, 0)
    ui.tap_text("Black flywheel")
    ui.tap(ui.find("1 step: ")[0])
    ui.settle()
    finish_turn(ui)
    ui.tap_text("White flywheel")
    ui.tap(ui.find("3 steps: ")[0])
    ui.settle()
    finish_turn(ui)
    assert "Ann" in ui.screen.status_line
    ui.tap_text("Add a particle")
    assert "This choice shows Ann's secret tokens or cards. Only Ann should look." in ui.screen_text()
    assert not ui.find("star (Space)")
    ui.tap_text("Ann: show my choices")
    assert ui.find("star (Space)")
    tokens = ui.screen.view["players"][0]["tokens"]
    ui.tap(ui.find("star (Space)")[0])
    ui.settle()
    assert ui.screen.view["players"][0]["tokens"] == tokens - 2  # one placed, its twin back in the bag
    assert "adds a star particle" in ui.screen.notice_line


def test_a_finished_game_shows_every_cards_points_and_the_winner(home):
    from companion.table import Table

    ui = home
    journal = ui.app.services.journal()
    table = Table.new(journal, "somnicum", {"players": ["Ann", "Ben"], "decks": "digital", "seed": 11})
    while not table.over:  # the rules' own choices, to the end of round 3
        actions = table.legal_actions()
        moves = [a for a in actions if a["type"] == "move_flywheel"]
        table.submit(moves[min(2, len(moves) - 1)] if moves else actions[-1])
    result = table.result()
    game_id = table.game_id
    table.close()
    ui.app.go("somnicum_table", resume=game_id)
    ui.settle()
    winners = " and ".join(result["winners"])
    assert "Game over" in ui.screen.prompt and winners.split(" and ")[0] in ui.screen.prompt
    ui.tap_text("Every card's points")
    shown = ui.screen_text()
    for player in result["players"]:
        assert f"{player['name']}: {player['total']} points" in shown
    first_card = result["players"][0]["cards"][0]
    assert f"Level {first_card['level']}, {first_card['name']}: " in shown
