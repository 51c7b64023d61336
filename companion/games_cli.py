"""``companion games ...`` and ``companion history``: the saved games of both games, from a shell.

The games come from the journal named by the config (``[data] database``). Reading commands
never create the file. ``--json`` output is a contract (see the README):

- ``games list --json``: ``{"database", "games": [summary, ...]}``, newest first;
- ``games show ID --json``: ``{"summary", "view", "result", "log", "error"}``;
- ``games export ID``: ``{"setup", "actions"}``, the script ``companion <game> play`` replays to
  the same final state;
- ``history --json``: ``{"database", "games": {name: stats}, "plays": [summary, ...]}``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from companion.games import UnknownGame
from companion.journal import GameSummary, Journal, JournalError, UnknownGameId, history
from companion.table import Table, export_script


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("games", help="saved games: list, show, export, delete")
    parser.set_defaults(func=lambda args: (parser.print_help(), 0)[1])
    commands = parser.add_subparsers(dest="games_command", metavar="COMMAND")

    listing = commands.add_parser(
        "list",
        help="list the saved games, most recently played first",
        description="Lists the games in the journal: id, game, status, players, round, and when "
        "each was started and last played.",
    )
    listing.add_argument("--json", action="store_true", help="print JSON")
    listing.add_argument(
        "--status", choices=("playing", "finished"), help="only unfinished or only finished games"
    )
    listing.set_defaults(func=run_list)

    show = commands.add_parser(
        "show",
        help="show one game: its state and its log",
        description="Shows a game's public state (no deck order, seeds or secret cards) and its "
        "whole log, undone actions marked.",
    )
    show.add_argument("id", type=int, metavar="ID")
    show.add_argument("--json", action="store_true", help="print JSON")
    show.set_defaults(func=run_show)

    export = commands.add_parser(
        "export",
        help="write a game as a script that 'companion GAME play' replays",
        description="Prints the game's setup and the actions still standing (undone ones left "
        'out) as JSON: {"setup", "actions"}. Replaying it gives the same final state.',
    )
    export.add_argument("id", type=int, metavar="ID")
    export.add_argument("-o", "--output", metavar="FILE", help="write to FILE instead of printing")
    export.set_defaults(func=run_export)

    delete = commands.add_parser(
        "delete",
        help="delete a saved game",
        description="Removes a game and its log from the journal for good.",
    )
    delete.add_argument("id", type=int, metavar="ID")
    delete.set_defaults(func=run_delete)

    history_parser = subparsers.add_parser(
        "history",
        help="statistics of finished games: plays, wins, escape rate, scores",
        description="Per game: plays, wins per player, the CHAINsomnia escape rate, best and "
        "average scores, average rounds and duration; then the finished games, newest first.",
    )
    history_parser.add_argument("--json", action="store_true", help="print JSON")
    history_parser.set_defaults(func=run_history)


# -- helpers ---------------------------------------------------------------------------------


def _fail(command: str, message: str, status: int) -> int:
    print(f"companion {command}: {message}", file=sys.stderr)
    return status


def _database(args: argparse.Namespace) -> Path:
    return Path(args.config_obj.data.database_path)


def _open(args: argparse.Namespace) -> Journal | None:
    """The configured journal, or None when there is none yet (reading never creates one)."""
    path = _database(args)
    if not path.exists():
        return None
    return Journal(path)


def _local(moment: Any) -> str:
    return "-" if moment is None else moment.astimezone().strftime("%Y-%m-%d %H:%M")


def _duration(seconds: float | None) -> str:
    if seconds is None:
        return "-"
    minutes = round(seconds / 60)
    return f"{minutes // 60} h {minutes % 60:02d} min" if minutes >= 60 else f"{minutes} min"


def _outcome(summary: GameSummary) -> str:
    if not summary.over:
        return "-"
    if summary.escaped is True:
        return "escaped"
    if summary.escaped is False:
        return "defeated" + (f" ({summary.cause})" if summary.cause else "")
    if summary.winners:
        best = summary.scores.get(summary.winners[0])
        return "won by " + ", ".join(summary.winners) + (f" ({best:g})" if best is not None else "")
    return "finished"


def _table(rows: list[list[str]], header: list[str]) -> str:
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    lines = ["  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip() for row in [header, *rows]]
    return "\n".join(lines) + "\n"


def script_text(script: dict[str, Any]) -> str:
    """The script as JSON text with one action per line, easy to read and to diff."""
    head = {k: v for k, v in script.items() if k != "actions"}
    lines = [json.dumps(a, ensure_ascii=False) for a in script["actions"]]
    body = ",\n  ".join(lines)
    actions = f'"actions": [\n  {body}\n ]' if lines else '"actions": []'
    return json.dumps(head, ensure_ascii=False)[:-1] + ",\n " + actions + "}\n"


# -- commands --------------------------------------------------------------------------------


def run_list(args: argparse.Namespace) -> int:
    try:
        journal = _open(args)
        summaries = [] if journal is None else journal.games(args.status)
    except JournalError as err:
        return _fail("games list", str(err), 2)
    if journal is not None:
        journal.close()
    if args.json:
        print(json.dumps({"database": str(_database(args)), "games": [s.to_json() for s in summaries]}))
        return 0
    if not summaries:
        print(f"No saved games in {_database(args)}.")
        return 0
    rows = [
        [
            str(s.id),
            s.game,
            s.status,
            ", ".join(s.players) or "-",
            "-" if s.round is None else str(s.round),
            str(s.seq),
            _local(s.started),
            _local(s.updated),
        ]
        for s in summaries
    ]
    sys.stdout.write(_table(rows, ["ID", "GAME", "STATUS", "PLAYERS", "ROUND", "LOG", "STARTED", "LAST PLAYED"]))
    return 0


def run_show(args: argparse.Namespace) -> int:
    try:
        journal = _open(args)
        if journal is None:
            return _fail("games show", f"{_database(args)}: there is no game {args.id} (no journal yet)", 1)
        with journal:
            summary = journal.summary(args.id)
            view: dict[str, Any] | None = None
            result = None
            error = None
            try:
                table = Table.resume(journal, args.id)
                view, result = table.view(None), table.result()
                log = table.log()
            except (UnknownGame, JournalError) as err:
                # The log still shows what happened when the state cannot be rebuilt.
                error = str(err)
                log = [dict(e.to_json()) for e in journal.entries(args.id)]
    except UnknownGameId as err:
        return _fail("games show", str(err), 1)
    except JournalError as err:
        return _fail("games show", str(err), 2)
    if args.json:
        print(json.dumps({"summary": summary.to_json(), "view": view, "result": result, "log": log, "error": error}))
        return 0
    out = sys.stdout
    out.write(f"Game {summary.id}: {summary.game}, {summary.status}\n")
    out.write(f"Players: {', '.join(summary.players) or '-'}\n")
    out.write(f"Started {_local(summary.started)}, last played {_local(summary.updated)}")
    out.write(f", round {summary.round}\n" if summary.round is not None else "\n")
    if summary.over:
        out.write(f"Result: {_outcome(summary)}; {_duration(summary.duration)}\n")
    if error:
        out.write(f"State: not available ({error})\n")
    else:
        out.write("State (public view):\n")
        out.write(json.dumps(view, indent=2, ensure_ascii=False) + "\n")
    out.write("Log:\n")
    for entry in log:
        mark = "  (undone)" if entry["undone"] else ""
        out.write(f"  {entry['seq']:>4}  {entry['text']}{mark}\n")
    return 0


def run_export(args: argparse.Namespace) -> int:
    try:
        journal = _open(args)
        if journal is None:
            return _fail("games export", f"{_database(args)}: there is no game {args.id} (no journal yet)", 1)
        with journal:
            script = export_script(journal, args.id)
    except UnknownGameId as err:
        return _fail("games export", str(err), 1)
    except JournalError as err:
        return _fail("games export", str(err), 2)
    text = script_text(script)
    if args.output:
        try:
            Path(args.output).write_text(text, encoding="utf-8")
        except OSError as err:
            return _fail("games export", f"{args.output}: cannot be written: {err.strerror}", 2)
        print(f"Game {args.id} ({len(script['actions'])} actions) written to {args.output}.")
    else:
        sys.stdout.write(text)
    return 0


def run_delete(args: argparse.Namespace) -> int:
    try:
        journal = _open(args)
        if journal is None:
            return _fail("games delete", f"{_database(args)}: there is no game {args.id} (no journal yet)", 1)
        with journal:
            summary = journal.delete(args.id)
    except UnknownGameId as err:
        return _fail("games delete", str(err), 1)
    except JournalError as err:
        return _fail("games delete", str(err), 2)
    who = f", {', '.join(summary.players)}" if summary.players else ""
    print(f"Deleted game {summary.id} ({summary.game}{who}; {summary.seq + 1} log entries).")
    return 0


def run_history(args: argparse.Namespace) -> int:
    try:
        journal = _open(args)
        finished = [] if journal is None else journal.finished()
    except JournalError as err:
        return _fail("history", str(err), 2)
    if journal is not None:
        journal.close()
    stats = history(finished)
    if args.json:
        print(json.dumps({"database": str(_database(args)), "games": stats, "plays": [s.to_json() for s in finished]}))
        return 0
    if not finished:
        print(f"No finished games yet in {_database(args)}.")
        return 0
    out = sys.stdout
    for game, s in stats.items():
        parts = [f"{s['plays']} play{'s' if s['plays'] != 1 else ''}"]
        if s["escape_rate"] is not None:
            parts.append(f"{s['escapes']} escape{'s' if s['escapes'] != 1 else ''} ({s['escape_rate']:.0%})")
        if s["wins"]:
            parts.append("wins: " + ", ".join(f"{name} {n}" for name, n in s["wins"].items()))
        if s["best_score"] is not None:
            parts.append(f"best score {s['best_score']:g}, average {s['average_score']:.1f}")
        if s["average_rounds"] is not None:
            parts.append(f"{s['average_rounds']:.1f} rounds on average")
        if s["average_duration"] is not None:
            parts.append(f"{_duration(s['average_duration'])} on average")
        out.write(f"{game}: " + "; ".join(parts) + "\n")
    out.write("\n")
    rows = [
        [str(s.id), s.game, _local(s.finished), ", ".join(s.players) or "-", _outcome(s),
         "-" if s.rounds is None else str(s.rounds), _duration(s.duration)]
        for s in finished
    ]
    out.write(_table(rows, ["ID", "GAME", "FINISHED", "PLAYERS", "RESULT", "ROUNDS", "DURATION"]))
    return 0
