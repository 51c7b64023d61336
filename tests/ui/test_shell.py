"""The app's frame: Home, Settings, Phones, the keyboard, and the layouts at every screen size."""

from __future__ import annotations

import json

from companion.config import MirrorConfig
from ui.prefs import prefs_path

SCREENS_WITHOUT_A_GAME = ["home", "settings", "phones", "history", "chainsomnia_setup", "scorepad_players"]


def buttons(ui):
    from ui.widgets import TButton, TToggle  # Kivy only once the session's display is up

    return [w for w in ui.visible() if isinstance(w, (TButton, TToggle)) and not w.disabled]


def test_home_offers_both_games_the_score_pad_and_resume(home):
    shown = home.screen_text()
    for words in ("New CHAINsomnia game", "New Somnicum game", "Score pad", "Resume a game",
                  "History", "Settings", "Phones"):
        assert words in shown


def test_every_touch_target_is_at_least_48_px_at_800x480(home):
    small = []
    for name in SCREENS_WITHOUT_A_GAME:
        home.app.go(name)
        home.settle()
        for widget in buttons(home):
            if widget.height < 48 or widget.width < 48:
                small.append((name, widget.text, round(widget.width), round(widget.height)))
    assert small == []


def test_portrait_720x1280_keeps_every_button_on_screen(home):
    from kivy.core.window import Window

    home.resize(720, 1280)
    outside = []
    for name in SCREENS_WITHOUT_A_GAME:
        home.app.go(name)
        home.settle()
        for widget in buttons(home):
            x, y = widget.to_window(*widget.pos)
            if x < 0 or x + widget.width > Window.width + 1:
                outside.append((name, widget.text, round(x), round(widget.width)))
    assert outside == []
    assert home.app.theme.portrait
    assert home.app.theme.target >= 56 * 1.5


def test_text_size_setting_enlarges_text_at_once_and_is_kept(home):
    home.tap_text("Settings")
    body = home.app.theme.font_body
    home.tap_text("130%")
    assert home.app.theme.font_body > body * 1.25
    assert json.loads(prefs_path().read_text())["text_scale"] == 1.3
    home.tap_text("100%")
    assert home.app.theme.font_body == body


def test_the_keyboard_moves_a_highlight_and_presses_what_it_shows(home):
    from kivy.core.window import Window

    def key(code):
        Window.dispatch("on_key_down", code, 0, None, [])
        Window.dispatch("on_key_up", code, 0)
        home.pump(2)

    for _ in range(12):
        key(275)  # right arrow: next
        focused = [w for w in buttons(home) if getattr(w, "focused", False)]
        assert len(focused) == 1
        if focused[0].text == "Settings":
            break
    key(13)  # Enter: confirm
    home.settle()
    assert home.app.manager.current == "settings"
    key(8)  # Backspace: back
    home.settle()
    assert home.app.manager.current == "home"


def test_phones_screen_says_when_the_mirror_is_not_running(home):
    home.tap_text("Phones")
    assert "not running" in home.screen_text()
    assert "enabled = false" in home.screen_text()


def test_phones_screen_shows_the_qr_code_and_address_of_the_mirror(home):
    from companion.net.hub import MirrorHub
    from companion.net.server import MirrorServer

    server = MirrorServer(MirrorConfig(interfaces=["127.0.0.1"]), MirrorHub(), port=0, announce=False)
    server.start()
    services = home.app.services
    try:
        services.mirror = server
        home.tap_text("Phones")
        home.wait(lambda: home.find("http://127.0.0.1:"), what="the mirror's address")
        assert home.screen.ids.qr.texture is not None
        assert home.screen.ids.qr.texture.width >= 21 * 8  # a version-1 QR code at 8 px a module
        assert ".local:" in home.screen_text()
    finally:
        services.mirror = None
        server.stop()


def test_history_says_when_no_game_is_finished_yet(home):
    home.tap_text("History", exact=True)
    home.wait(lambda: home.find("No finished games") or home.find("game"), what="the history")
    assert "saved games cannot be read" not in home.screen_text()
