"""A short game of CHAINsomnia on the touchscreen, tapped through as players would.

Setup with real (typed) dice and real cards, so every chance outcome comes from a tap: explore
and place the Library, move there, a Research Test with typed dice, end the turns, the Daemon's
turn step by step with a Bad Dream and a flee choice, then undo with its put-back list.
"""

from __future__ import annotations

from hardware.inputs import InputEvent


def tap_cell(ui, cell):
    castle = ui.screen.castle_map
    ui.tap_at(*castle.to_window(*castle.cell_centre(cell)))
    ui.settle()


def confirm_steps(ui, heading):
    seen = []
    while ui.find("Done"):
        assert heading in ui.screen.steps_title
        seen.append(ui.screen.prompt)
        ui.tap_text("Done")
    return seen


def start_two_player_game(ui):
    ui.tap_text("New CHAINsomnia game")
    ui.tap_text("2", exact=True)
    for name in ("Ryan", "Chloe", "Isaac", "Timi"):
        ui.tap_text(name)
    assert ui.button("Real dice, typed").state == "down"
    assert ui.button("Real cards").state == "down"
    ui.tap_text("Start the game")
    ui.wait(lambda: ui.find("Lay out the table"), what="the setup steps")
    return confirm_steps(ui, "Lay out the table")


def open_two_player_game(ui):
    """The same game as ``start_two_player_game``, opened without the setup taps (those are
    tested once, in the short game below)."""
    options = {"players": 2, "characters": ["ryan", "chloe", "isaac", "timi"], "mode": "normal",
               "dice": "typed", "decks": "physical"}
    ui.app.go("chainsomnia_table", new=options, guide=False)
    ui.wait(lambda: ui.find("Explore a new Room"), what="the first turn")


def test_a_short_game_setup_explore_move_research_daemon_flee_undo(home):
    ui = home
    setup = start_two_player_game(ui)
    assert setup[0].startswith("Characters: player 1 takes Ryan and Chloe; player 2 takes Isaac and Timi")
    assert any("Put 2 Chain tokens" in step for step in setup)
    assert any("Give the First Player token to Ryan" in step for step in setup)
    assert "Round 1" in ui.screen.status_line and "Ryan" in ui.screen.status_line
    assert "3 AP" in ui.screen.status_line

    # a) explore: the card drawn by hand, then where the tile goes (a tap on the map)
    ui.tap_text("Explore a new Room")
    assert "Draw a card from the Castle deck for Ryan" in ui.screen_text()
    ui.tap_text("Library", exact=True)
    assert "Place the Library tile" in ui.screen_text()
    assert (0, 1) in ui.screen.castle_map.ghosts
    tap_cell(ui, (0, 1))
    ui.tap(ui.find("Doors north, east, south")[0])
    ui.settle()
    assert "Draw a card from the Event deck for Ryan" in ui.screen_text()
    ui.tap_text("Lullaby", exact=True)
    steps = confirm_steps(ui, "At the table")
    assert steps[0].startswith("Ryan draws Lullaby")
    assert any("Take 1 chain off Ryan" in s for s in steps)
    assert [t["name"] for t in ui.screen.view["castle"]] == ["CHAINsomnia", "Library"]

    # b) move: a tap on the room on the map
    tap_cell(ui, (0, 1))
    ryan = next(c for c in ui.screen.view["characters"] if c["id"] == "ryan")
    assert ryan["room"] == "Library" and ryan["ap"] == 1

    # c) search a Secret Nook: a Research Test with the dice typed in
    ui.tap_text("Search a Secret Nook")
    prompt = ui.screen.prompt
    assert "Roll 2 dice for Ryan's Research Test" in prompt and "Intelligence 3" in prompt and "10+ succeeds" in prompt
    pad_faces = [w for w in ui.visible() if getattr(w, "payload", None) in ((0, 1), (1, 2))]
    for face in pad_faces:
        ui.tap(face)
    ui.tap_text("Confirm 1 and 2")
    ui.wait(lambda: "1+2+3=6 vs 10" in ui.screen.notice_line, what="the Test's result")
    assert "failure" in ui.screen.notice_line

    # Ryan ends his turn; Chloe joins him in the Library; Isaac and Timi pass
    ui.tap_text("End the turn")
    assert "Chloe" in ui.screen.status_line
    tap_cell(ui, (0, 1))
    ui.tap_text("End the turn")
    ui.tap_text("End the turn")
    ui.tap_text("End the turn")

    # the Daemon's turn, step by step: Ryan draws for the Daemon
    ui.wait(lambda: "Daemon" in ui.screen.steps_title, what="the Daemon's turn")
    steps = confirm_steps(ui, "The Daemon's turn")
    assert steps[0].startswith("The Daemon's turn. Ryan holds the First Player token")
    assert "Draw a card from the Event deck for Ryan" in ui.screen_text()
    ui.tap_text("Creaking Doll", exact=True)
    ui.wait(lambda: ui.find("Done"), what="the Bad Dream's steps")
    steps = confirm_steps(ui, "The Daemon's turn")
    assert "Put Creaking Doll on the Library." in steps
    assert "Ryan is trapped in the Library and stays there." in steps
    assert "Chloe is frightened and must flee the Library." in steps
    library = next(t for t in ui.screen.view["castle"] if t["name"] == "Library")
    assert [b["name"] for b in library["bad_dreams"]] == ["Creaking Doll"]

    # the flee choice: the only room next to the Library is the CHAINsomnia tile
    assert "choose where Chloe flees" in ui.screen.prompt
    assert ui.screen.castle_map.targets == [(0, 0)]
    ui.tap_text("CHAINsomnia")
    steps = confirm_steps(ui, "The Daemon's turn")
    assert "Move Chloe to the CHAINsomnia tile." in steps
    assert "Round 1 ends: pass the First Player token to Chloe." in steps
    assert "Round 2" in ui.screen.status_line and "Chloe" in ui.screen.status_line

    # undo: one tap, and the table is told what to put back
    ui.tap_text("Undo")
    ui.wait(lambda: ui.screen.put_back, what="the put-back list")
    assert "Move Chloe back to the Library" in ui.screen.put_back
    assert "Give the First Player token back to Ryan" in ui.screen.put_back
    assert "Move Chloe back to the Library" in ui.screen_text()
    ui.tap_text("Done")
    assert "choose where Chloe flees" in ui.screen.prompt
    chloe = next(c for c in ui.screen.view["characters"] if c["id"] == "chloe")
    assert chloe["room"] == "Library"


def test_a_refused_action_shows_the_rule_in_words(home):
    ui = home
    open_two_player_game(ui)
    ui.screen.submit({"type": "move", "to": [0, 1]})  # as a stale tap would: no room is there
    ui.settle()
    assert "There is no Room Tile at (0, 1)" in ui.screen.refusal
    assert "Not allowed: There is no Room Tile at (0, 1)" in ui.screen_text()
    ui.tap_text("Explore a new Room")  # the next action clears it
    assert ui.screen.refusal == ""


def test_the_button_panel_plays_the_same_menu_as_the_fingers(home):
    ui = home
    open_two_player_game(ui)
    inputs = ui.app.services.inputs
    # the menu: Explore, Give chains, Take chains, End the turn; "next" x3 reaches End the turn
    for _ in range(3):
        inputs.post(InputEvent("next", source="gpio"))
    ui.settle()
    assert [w.text for w in ui.visible() if getattr(w, "focused", False)] == ["End the turn"]
    inputs.post(InputEvent("confirm", source="gpio"))
    ui.settle()
    assert "Chloe" in ui.screen.status_line
    inputs.post(InputEvent("undo", source="gpio", long=True))
    ui.wait(lambda: ui.screen.put_back, what="the undo")
    assert "Set Ryan's AP marker back to 3" in ui.screen.put_back
    inputs.post(InputEvent("confirm", source="gpio"))
    ui.settle()
    assert ui.screen.put_back == []
    assert "Ryan" in ui.screen.status_line


def test_an_unfinished_game_is_resumed_from_home(home):
    ui = home
    open_two_player_game(ui)
    ui.tap_text("End the turn")
    assert "Chloe" in ui.screen.status_line, (ui.screen.status_line, ui.screen.refusal, ui.screen_text())
    game_id = ui.screen.session.game_id
    ui.tap_text("Home")
    ui.wait(lambda: ui.find("CHAINsomnia  ·  Ryan, Chloe, Isaac, Timi  ·  round 1"), what="the resume list")
    ui.tap(ui.button("CHAINsomnia  ·  Ryan, Chloe, Isaac, Timi  ·  round 1"))  # the newest first
    ui.settle()
    assert ui.app.manager.current == "chainsomnia_table"
    assert ui.screen.session.game_id == game_id
    assert "Chloe" in ui.screen.status_line
    assert ui.screen.steps == []  # no setup steps for a game already laid out


def test_the_phones_mirror_follows_the_game_on_the_table_and_forgets_it_at_home(home):
    from companion.games import rules_for
    from companion.net.hub import MirrorHub

    ui = home
    hub = MirrorHub(rules_for=rules_for)
    ui.app.services.hub = hub
    try:
        open_two_player_game(ui)
        game_id = ui.screen.session.game_id
        ui.wait(lambda: hub.snapshot().status == "playing", what="the mirror to show the game")
        assert hub.snapshot().game == "chainsomnia" and hub.snapshot().game_id == game_id
        ui.tap_text("End the turn")
        ui.wait(lambda: hub.snapshot().seq == ui.screen.session.table.seq, what="the mirror to follow")
        assert ui.app.seat_names() == ["Ryan & Chloe", "Isaac & Timi"]
        ui.tap_text("Home")
        ui.wait(lambda: hub.snapshot().status == "idle", what="the mirror to forget the game")
    finally:
        ui.app.services.hub = None


def test_the_lights_follow_the_game_on_the_table(home):
    from gpiozero.pins.mock import MockFactory, MockPWMPin

    from companion.config import config_from_dict
    from hardware.lights import Lights

    ui = home
    config = config_from_dict({"lights": {"layout": "default"}})
    lights = Lights.open(config, pin_factory=MockFactory(pin_class=MockPWMPin))
    ui.app.services.lights = lights
    try:
        open_two_player_game(ui)  # seat 1 (Ryan & Chloe) plays first
        ui.wait(lambda: lights.devices["seat_1"].is_lit, what="seat 1's light")
        assert not lights.devices["seat_2"].is_lit
        ui.tap_text("End the turn")  # Ryan's turn ends: Chloe, still seat 1
        ui.tap_text("End the turn")  # Chloe's turn ends: Isaac, seat 2
        ui.wait(lambda: lights.devices["seat_2"].is_lit, what="seat 2's light")
        assert not lights.devices["seat_1"].is_lit
        ui.tap_text("Home")
    finally:
        ui.app.services.follow_with_lights(None)
        ui.app.services.lights = None
        lights.close()
