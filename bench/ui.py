"""The touchscreen app's figures: launch to first frame, castle redraw, memory after 200 actions.

Each figure is measured in a fresh process on its own Xvfb display (software OpenGL), so the
numbers say how the app itself behaves, not what other benchmarks left in memory:

- first frame: from starting ``companion app --size 800x480`` to the first frame on screen;
- castle redraw: rebuilding the castle map's drawing (CPU) and a whole frame with it (GL);
- RSS: the app's resident memory after 200 actions of CHAINsomnia went through the Table and
  were drawn by the table screen.

Targets (issue 8): first frame < 3 s, redraw < 16 ms, RSS < 200 MB. A Pi 4 draws with its GPU;
here Mesa draws in software, so the frame figure is an upper bound for the GL part.

    python -m bench ui            # the table
    python -m bench.ui rss        # one child measurement, as JSON
"""

from __future__ import annotations

import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

RUNS = 3
CONFIG = '[mirror]\nenabled = false\ninterfaces = ["127.0.0.1"]\n'


def _env(home: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        XDG_CONFIG_HOME=str(home / "config"), XDG_DATA_HOME=str(home / "data"),
        KIVY_NO_ARGS="1", KIVY_NO_CONSOLELOG="1", KIVY_HOME=str(home / "kivy"),
    )
    config = home / "config.toml"
    config.write_text(CONFIG)
    env["DREAMTABLE_CONFIG"] = str(config)
    return env


def first_frame() -> float:
    """Seconds from starting the app's process to its first frame (on a display of its own)."""
    from ui.testing import VirtualDisplay

    with tempfile.TemporaryDirectory() as tmp, VirtualDisplay() as display:
        env = _env(Path(tmp))
        env.update(DISPLAY=display.display, DREAMTABLE_FIRST_FRAME="1")
        companion = Path(sys.executable).with_name("companion")
        command = [str(companion)] if companion.exists() else [sys.executable, "-m", "companion"]
        started = time.perf_counter()
        child = subprocess.Popen([*command, "app", "--size", "800x480"], env=env,
                                 stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        try:
            for line in child.stdout:  # type: ignore[union-attr]
                if line.startswith("first-frame"):
                    return time.perf_counter() - started
            raise RuntimeError(f"the app exited ({child.wait()}) before its first frame")
        finally:
            child.terminate()
            try:
                child.wait(timeout=10)
            except subprocess.TimeoutExpired:
                child.kill()
                child.wait()


def _driver(home: Path) -> Any:
    from companion.config import config_from_dict
    from ui.testing import AppDriver

    os.environ.update(_env(home))
    config = config_from_dict({"mirror": {"enabled": False}})
    driver = AppDriver(config, database=home / "games.sqlite3", size=(800, 480), kivy_home=home / "kivy")
    driver.start()
    return driver


def _big_castle(driver: Any) -> None:
    """A game whose castle has many rooms: virtual dice, digital decks, explore whenever possible."""
    app = driver.app
    options = {"players": 4, "characters": ["ryan", "chloe", "isaac", "timi"], "dice": "virtual",
               "decks": "digital", "seed": 3}
    app.go("chainsomnia_table", new=options, guide=False)
    driver.settle()
    screen = driver.screen
    for _ in range(120):
        if screen.frame is None or screen.frame.over or len(screen.view.get("castle", [])) >= 12:
            break
        screen.steps = []
        legal = screen.frame.legal
        explore = [a for a in legal if a["type"] in ("explore", "place_tile", "roll", "flee")]
        screen.submit((explore or [a for a in legal if a["type"] == "end_turn"] or legal)[0])
        driver.settle()


def redraw() -> dict[str, float]:
    """Median milliseconds: the castle map rebuilt (CPU), and a whole frame with it (GL)."""
    from kivy.base import EventLoop
    from kivy.core.window import Window

    from ui.testing import VirtualDisplay

    with tempfile.TemporaryDirectory() as tmp, VirtualDisplay():
        driver = _driver(Path(tmp))
        try:
            _big_castle(driver)
            castle = driver.screen.castle_map
            cpu, frames = [], []
            for _ in range(40):
                started = time.perf_counter()
                castle.redraw()
                cpu.append(time.perf_counter() - started)
                started = time.perf_counter()
                castle.redraw()
                Window.canvas.ask_update()
                EventLoop.idle()
                frames.append(time.perf_counter() - started)
            tiles = len(driver.screen.view.get("castle", []))
        finally:
            driver.stop()
    return {"tiles": tiles, "cpu_ms": statistics.median(cpu) * 1000, "frame_ms": statistics.median(frames) * 1000}


def rss_after_game(actions: int = 200) -> dict[str, float]:
    """MB resident after ``actions`` actions went through the Table and were drawn."""
    from ui.testing import VirtualDisplay

    rng = random.Random(8)
    with tempfile.TemporaryDirectory() as tmp, VirtualDisplay():
        driver = _driver(Path(tmp))
        try:
            app = driver.app
            done, games = 0, 0
            while done < actions:
                games += 1
                app.go("chainsomnia_table", new={"players": 2, "dice": "virtual", "decks": "digital",
                                                 "seed": games}, guide=False)
                driver.settle()
                screen = driver.screen
                while done < actions and screen.frame is not None and not screen.frame.over:
                    screen.steps = []
                    legal = screen.frame.legal
                    ends = [a for a in legal if a["type"] == "end_turn"]
                    others = [a for a in legal if a["type"] not in ("end_turn", "give_chains", "take_chains")]
                    choice = rng.choice(others) if others and rng.random() < 0.8 else (ends or legal)[0]
                    screen.submit(choice)
                    driver.settle()
                    done += 1
                screen.close_session()
            rss = _rss_mb()
        finally:
            driver.stop()
    return {"actions": done, "games": games, "rss_mb": rss}


def _rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS in /proc/self/status")


def _child(what: str) -> dict[str, Any]:
    result = subprocess.run([sys.executable, "-m", "bench.ui", what], capture_output=True, text=True, check=False)
    lines = [line for line in result.stdout.splitlines() if line.startswith("{")]
    if result.returncode != 0 or not lines:
        raise RuntimeError(f"bench.ui {what} failed: {result.stderr.strip().splitlines()[-1:]}")
    return json.loads(lines[-1])


def main() -> None:
    firsts = [_child("first-frame")["seconds"] for _ in range(RUNS)]
    redraws = [_child("redraw") for _ in range(RUNS)]
    memory = [_child("rss") for _ in range(RUNS)]
    rows = [
        ("launch to first frame (800x480)", f"{statistics.median(firsts):.2f} s", "< 3 s"),
        (f"castle redraw, CPU ({redraws[0]['tiles']} tiles)", f"{statistics.median(r['cpu_ms'] for r in redraws):.1f} ms", "< 16 ms"),
        ("frame with castle redraw, software GL", f"{statistics.median(r['frame_ms'] for r in redraws):.1f} ms", "(Pi: GPU)"),
        (f"RSS after {memory[0]['actions']} actions", f"{statistics.median(m['rss_mb'] for m in memory):.0f} MB", "< 200 MB"),
    ]
    width = max(len(r[0]) for r in rows)
    print(f"{'measure':<{width}}  {'median of ' + str(RUNS):>12}  target")
    for name, value, target in rows:
        print(f"{name:<{width}}  {value:>12}  {target}")


if __name__ == "__main__":
    what = sys.argv[1] if len(sys.argv) > 1 else ""
    if what == "first-frame":
        print(json.dumps({"seconds": first_frame()}))
    elif what == "redraw":
        print(json.dumps(redraw()))
    elif what == "rss":
        print(json.dumps(rss_after_game()))
    else:
        main()
