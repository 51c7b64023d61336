"""``companion chainsomnia ...``: play a scripted CHAINsomnia game, or simulate many.

``play SCRIPT.json`` sets a game up and applies a list of actions, printing one JSON line per
action and then the final state. ``simulate`` plays whole games through ``legal_actions`` and
reports win rate, rounds, causes of defeat and invariant violations. The README documents both.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from companion.rules import IllegalAction


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("chainsomnia", help="CHAINsomnia: play a scripted game, simulate games")
    parser.set_defaults(func=lambda args: (parser.print_help(), 0)[1])
    commands = parser.add_subparsers(dest="chainsomnia_command", metavar="COMMAND")

    play = commands.add_parser(
        "play",
        help="apply a JSON script of actions to a new game",
        description="Sets up a game from the script's \"setup\" options and applies its \"actions\" in "
        "order. Prints one JSON line per action (accepted with its events, or refused with code and "
        "message), then the final state as one JSON line.",
    )
    play.add_argument("script", metavar="SCRIPT.json", help="the script; - reads standard input")
    play.add_argument("--public", action="store_true", help="end with the public view instead of the whole state")
    play.add_argument("--strict", action="store_true", help="exit with status 1 if any action is refused")
    play.set_defaults(func=run_play)

    sim = commands.add_parser(
        "simulate",
        help="play many games with a policy and report the figures",
        description="Plays whole games through legal_actions with virtual dice and digital decks, "
        "checking the invariants after every action.",
    )
    sim.add_argument("--games", type=int, default=100, metavar="N", help="how many games (default 100)")
    sim.add_argument("--seed", type=int, default=0, metavar="S", help="the seed of the first game (default 0)")
    sim.add_argument("--policy", choices=("random", "greedy"), default="random", help="how the players choose")
    sim.add_argument("--players", type=int, choices=(1, 2, 3, 4), help="player count (default: 1 to 4 in turn)")
    sim.add_argument("--mode", choices=("normal", "beginner"), default="normal")
    sim.add_argument("--json", action="store_true", help="print the figures as JSON")
    sim.set_defaults(func=run_simulate)


class ScriptError(Exception):
    """A script that cannot be played: the message names the problem in one line."""


def read_script(name: str) -> dict[str, Any]:
    try:
        text = sys.stdin.read() if name == "-" else Path(name).read_text(encoding="utf-8")
    except OSError as err:
        raise ScriptError(f"{name}: cannot be read: {err.strerror or err}") from None
    except UnicodeDecodeError:
        raise ScriptError(f"{name}: is not UTF-8 text") from None
    try:
        script = json.loads(text)
    except json.JSONDecodeError as err:
        raise ScriptError(f"{name}: not valid JSON: {err.msg} at line {err.lineno} column {err.colno}") from None
    if not isinstance(script, dict):
        raise ScriptError(f'{name}: the script must be a JSON object with "setup" and "actions"')
    unknown = sorted(set(script) - {"setup", "actions", "comment"})
    if unknown:
        raise ScriptError(f'{name}: unknown key "{unknown[0]}" (a script has "setup", "actions" and an optional "comment")')
    if not isinstance(script.get("setup"), dict):
        raise ScriptError(f'{name}: "setup" must be an object of setup options, like {{"players": 2}}')
    actions = script.get("actions", [])
    if not isinstance(actions, list):
        raise ScriptError(f'{name}: "actions" must be a list of actions')
    for i, action in enumerate(actions):
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise ScriptError(f'{name}: actions[{i}] must be an object with a "type", not {json.dumps(action)[:60]}')
    return script


def run_play(args: argparse.Namespace) -> int:
    from companion.chainsomnia import RULES

    try:
        script = read_script(args.script)
        try:
            state = RULES.new_game(script["setup"])
        except IllegalAction as err:
            raise ScriptError(f"{args.script}: setup: {err.message}") from None
    except ScriptError as err:
        print(f"companion chainsomnia play: {err}", file=sys.stderr)
        return 2
    refused = 0
    for seq, action in enumerate(script.get("actions", []), start=1):
        try:
            state, events = RULES.apply(state, action)
        except IllegalAction as err:
            refused += 1
            line: dict[str, Any] = {"seq": seq, "action": action, "accepted": False, "error": err.to_json()}
        else:
            line = {"seq": seq, "action": action, "accepted": True, "events": events, "text": RULES.describe(action, events)}
        print(json.dumps(line))
    final = RULES.view(state, None) if args.public else RULES.state_to_json(state)
    print(json.dumps(final))
    return 1 if args.strict and refused else 0


def run_simulate(args: argparse.Namespace) -> int:
    from companion.chainsomnia.simulate import simulate

    if args.games < 1:
        print("companion chainsomnia simulate: --games must be at least 1", file=sys.stderr)
        return 2
    report = simulate(args.games, args.seed, args.policy, players=args.players, mode=args.mode)
    if args.json:
        print(json.dumps(report))
    else:
        print(f"{report['games']} games, policy {report['policy']}, seed {report['seed']}, {report['mode']} mode")
        print(f"  escapes: {report['victories']} ({report['win_rate']:.1%}; the publisher advertises 12%)")
        for count, row in report["by_players"].items():
            print(f"  {count} player(s): {row['victories']}/{row['games']} ({row['win_rate']:.1%})")
        r = report["rounds"]
        print(f"  rounds: mean {r['mean']}, median {r['median']}, min {r['min']}, max {r['max']}")
        causes = ", ".join(f"{k} {v}" for k, v in sorted(report["defeat_causes"].items())) or "none"
        print(f"  defeats: {causes}")
        print(f"  invariant violations: {report['invariant_violations']}")
        for example in report["violation_examples"]:
            print(f"    {example}")
    return 1 if report["invariant_violations"] else 0
