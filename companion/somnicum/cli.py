"""``companion somnicum ...``: Somnicum from the command line."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from companion.somnicum.score_sheet import ScoreSheetError, parse_score_sheet
from companion.somnicum.scoring import explain, final_scores


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("somnicum", help="Somnicum: score a finished game")
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
