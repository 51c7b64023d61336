"""``companion somnicum ...``: Somnicum from the command line.

- ``score FILE``: scores finished dreams from a JSON score sheet;
- ``play SCRIPT.json``: plays a script of actions through a Table (journal, undo) and prints one
  JSON line per action, then the final view;
- ``simulate --games N --seed S``: plays whole games with a random or greedy policy.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from companion.somnicum.score_sheet import ScoreSheetError, parse_score_sheet
from companion.somnicum.scoring import explain, final_scores


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("somnicum", help="Somnicum: play a script, simulate, score a finished game")
    parser.set_defaults(func=lambda args: (parser.print_help(), 0)[1])
    commands = parser.add_subparsers(dest="somnicum_command", metavar="COMMAND")

    score = commands.add_parser(
        "score",
        help="score finished dreams from a JSON score sheet",
        description="Scores each player's dream (rulebook: End of the Game and Scoring) and "
        "names the winner(s). Prints JSON, or with --explain a table to check by hand.",
    )
    score.add_argument("file", metavar="FILE", help="the score sheet (JSON); - reads standard input")
    score.add_argument("--explain", action="store_true", help="print a per-card table instead of JSON")
    score.set_defaults(func=run_score)

    play = commands.add_parser(
        "play",
        help="play a script of actions through a Table",
        description='Plays SCRIPT (JSON: {"setup": {...}, "actions": [...]}) through a Table, as the '
        "touchscreen would: one JSON line per action (accepted with its events and log line, or "
        'refused with a code and a message; {"type": "undo", "steps": n} undoes and says what to '
        "put back), then the final state as one JSON line (or a view of it).",
    )
    play.add_argument("script", metavar="SCRIPT", help="the script (JSON); - reads standard input")
    play.add_argument("--journal", metavar="FILE", help="keep the game in this journal (default: in memory only)")
    shown = play.add_mutually_exclusive_group()
    shown.add_argument("--public", action="store_true", help="end with the public view instead of the state")
    shown.add_argument("--seat", type=int, metavar="N", help="end with seat N's own view instead of the state")
    play.add_argument("--strict", action="store_true", help="exit with status 1 when an action was refused")
    play.set_defaults(func=run_play)

    simulate = commands.add_parser(
        "simulate",
        help="play whole games with a random or greedy policy",
        description="Plays N whole games (2, 3 and 4 players in turn unless --players is given), "
        "checking every invariant after every action, and sums them up.",
    )
    simulate.add_argument("--games", type=int, default=100, metavar="N", help="how many games (default 100)")
    simulate.add_argument("--seed", type=int, default=0, metavar="S", help="the first game's seed (default 0)")
    simulate.add_argument("--policy", choices=("random", "greedy"), default="random")
    simulate.add_argument("--players", type=int, choices=(2, 3, 4), help="players in every game")
    simulate.add_argument("--decks", choices=("digital", "physical"), default="digital",
                          help="physical: every draw is a chance outcome action, sampled (default digital)")
    simulate.add_argument("--no-check", action="store_true", help="do not check the invariants (faster)")
    simulate.add_argument("--json", action="store_true", help="print the summary as JSON")
    simulate.set_defaults(func=run_simulate)


def _read(name: str) -> str:
    if name == "-":
        return sys.stdin.read()
    return Path(name).read_text(encoding="utf-8")


def run_score(args: argparse.Namespace) -> int:
    try:
        text = _read(args.file)
    except (OSError, UnicodeDecodeError) as err:
        print(f"companion somnicum score: {args.file}: cannot be read: {err}", file=sys.stderr)
        return 2
    try:
        tallies = parse_score_sheet(text)
    except ScoreSheetError as err:
        print(f"companion somnicum score: {args.file}: {err}", file=sys.stderr)
        return 2
    result = final_scores(tallies)
    if args.explain:
        sys.stdout.write(explain(result))
    else:
        print(json.dumps(result.to_json()))
    return 0


def _script(args: argparse.Namespace) -> tuple[dict[str, Any], list[Any]]:
    """The script's setup and actions, or a SystemExit-free error line (ValueError)."""
    try:
        text = _read(args.script)
    except (OSError, UnicodeDecodeError) as err:
        raise ValueError(f"cannot be read: {err}") from None
    try:
        script = json.loads(text)
    except json.JSONDecodeError as err:
        raise ValueError(f"not valid JSON: {err.msg} at line {err.lineno}, column {err.colno}") from None
    if not isinstance(script, dict):
        raise ValueError('the script must be an object with "setup" and "actions"')
    unknown = sorted(set(script) - {"game", "setup", "actions"})
    if unknown:
        raise ValueError(f'unknown field "{unknown[0]}" (known: game, setup, actions)')
    if script.get("game", "somnicum") != "somnicum":
        raise ValueError(f'this is a script for {script["game"]!r}, not somnicum')
    setup = script.get("setup", {})
    if not isinstance(setup, dict):
        raise ValueError('"setup" must be an object of setup options')
    actions = script.get("actions", [])
    if not isinstance(actions, list):
        raise ValueError('"actions" must be a list of action objects')
    return setup, actions


def run_play(args: argparse.Namespace) -> int:
    from companion.journal import Journal, JournalError
    from companion.rules import IllegalAction
    from companion.table import Table

    name = "companion somnicum play"
    try:
        setup, actions = _script(args)
    except ValueError as err:
        print(f"{name}: {args.script}: {err}", file=sys.stderr)
        return 2
    try:
        journal = Journal(args.journal or ":memory:")
    except JournalError as err:
        print(f"{name}: {err}", file=sys.stderr)
        return 2
    try:
        try:
            table = Table.new(journal, "somnicum", setup, source="script")
        except IllegalAction as err:
            print(f"{name}: {args.script}: setup: {err.message}", file=sys.stderr)
            return 2
        if args.seat is not None and not 0 <= args.seat < len(table.view()["players"]):
            print(f"{name}: --seat {args.seat}: this game has seats 0 to {len(table.view()['players']) - 1}",
                  file=sys.stderr)
            return 2
        refused = 0
        for action in actions:
            outcome = table.submit(action, source="script")
            print(json.dumps({"action": action, **outcome.to_json()}))
            refused += not outcome.accepted
        if args.public or args.seat is not None:
            print(json.dumps(table.view(args.seat)))
        else:
            # The state, and beside it what a reader of the script's result wants at once.
            final = table.rules.state_to_json(table.state)
            final["view"] = table.view()
            final["result"] = table.result()
            print(json.dumps(final))
        table.close()
        return 1 if refused and args.strict else 0
    finally:
        journal.close()


def run_simulate(args: argparse.Namespace) -> int:
    from companion.somnicum.simulate import simulate

    if args.games < 1:
        print("companion somnicum simulate: --games must be at least 1", file=sys.stderr)
        return 2
    summary = simulate(
        args.games, args.seed, args.policy, players=args.players, decks=args.decks, check=not args.no_check
    )
    if args.json:
        print(json.dumps(summary))
    else:
        print(f"{summary['games']} games of Somnicum, {summary['policy']} policy, {summary['decks']} decks, seed {summary['seed']}")
        print(f"{'players':>7}  {'games':>5}  {'winner (mean)':>13}  {'all (mean)':>10}  {'turns':>5}")
        for count, group in summary["by_players"].items():
            print(f"{count:>7}  {group['games']:>5}  {group['winning_total']['mean']:>13}  "
                  f"{group['total']['mean']:>10}  {group['turns']['mean']:>5}")
        ends = ", ".join(f"{k} {v}" for k, v in sorted(summary["round_ends"].items()))
        print(f"round ends: {ends}; tie-breaks: {summary['tie_breaks']}; shared victories: {summary['shared_victories']}")
        print(f"actions per game: {summary['actions_per_game']}; invariant violations: {summary['invariant_violations']}")
        for example in summary["violation_examples"]:
            print(f"  {example}")
    return 1 if summary["invariant_violations"] else 0
