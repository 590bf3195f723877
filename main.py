"""Entry point, as in freeCodeCamp's boilerplate, with a few command-line options.

With no arguments it does exactly what the official ``main.py`` does: 1000 games of
``RPS.player`` against quincy, abbey, kris and mrugesh, in that order, printing each result.

    python main.py --games 200 --bots kris,abbey --verbose
    python main.py --test                  # run test_module's unit tests after the matches
    python main.py --plot results.png      # also draw the running win rates (needs matplotlib)
    python main.py --play [OPPONENT]       # a terminal session against OPPONENT: ai (default),
                                           # any roshambo.opponents name, classic:NAME or a
                                           # bot file (my_bot.py, rpscontest:PATH, kaggle:PATH)
    python main.py --play --explain        # ... showing what the engine believes each round
    python main.py --serve [PORT]          # play in the browser: http://127.0.0.1:8000/
                                           # (more options: python -m roshambo serve --help)
"""

from __future__ import annotations

import argparse
import sys
import unittest
from collections.abc import Callable, Sequence
from pathlib import Path

from roshambo.apps.options import games as game_count
from roshambo.apps.options import output_file, port_number
from roshambo.apps.web import DEFAULT_PORT, serve
from roshambo.arena.tournaments import ENGINE_NAME, known_names
from RPS import player
from RPS_game import abbey, kris, mrugesh, play, quincy, random_player

BOTS: dict[str, Callable[[str], str]] = {
    "quincy": quincy,
    "abbey": abbey,
    "kris": kris,
    "mrugesh": mrugesh,
    "random": random_player,
}
DEFAULT_BOTS = ("quincy", "abbey", "kris", "mrugesh")
ENGINE = ENGINE_NAME


def bot_list(text: str) -> list[str]:
    """argparse type: comma-separated bot names, e.g. ``quincy,abbey``."""
    names = [name.strip().lower() for name in text.split(",") if name.strip()]
    unknown = [name for name in names if name not in BOTS]
    if unknown or not names:
        raise argparse.ArgumentTypeError(
            f"unknown bot(s) {', '.join(unknown) or '(none given)'}; choose from {', '.join(BOTS)}"
        )
    return names


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        description="RoShamBo against freeCodeCamp's bots. With no options: 1000 games "
        "against quincy, abbey, kris and mrugesh, as the official main.py does.",
    )
    parser.add_argument(
        "--games",
        type=game_count,
        default=None,
        metavar="N",
        help="games per match (default 1000)",
    )
    parser.add_argument(
        "--bots",
        type=bot_list,
        default=None,
        metavar="NAMES",
        help=f"comma-separated bots to play, in order, from {','.join(BOTS)} "
        f"(default {','.join(DEFAULT_BOTS)})",
    )
    parser.add_argument("--verbose", action="store_true", help="print every game")
    parser.add_argument(
        "--test", action="store_true", help="run the unit tests in test_module.py after the matches"
    )
    parser.add_argument(
        "--plot",
        type=output_file,
        metavar="FILE",
        default=None,
        help="also draw each match's running win rate to FILE (needs matplotlib)",
    )
    parser.add_argument(
        "--play",
        nargs="?",
        const=ENGINE,
        default=None,
        metavar="OPPONENT",
        help=f"play interactively in the terminal against OPPONENT: a name in "
        f"the arena's registry ({', '.join(known_names())}), classic:NAME "
        f"(needs open_spiel), or a bot file (PATH.py, rpscontest:PATH, "
        f"kaggle:PATH); default {ENGINE}, our engine",
    )
    parser.add_argument(
        "--explain",
        action="store_true",
        help=f"with --play {ENGINE}: show what the engine believes after each round",
    )
    parser.add_argument(
        "--serve",
        nargs="?",
        type=port_number,
        const=DEFAULT_PORT,
        default=None,
        metavar="PORT",
        help=f"play in the browser: serve the web app on http://127.0.0.1:PORT/ "
        f"(default {DEFAULT_PORT}; 0 picks a free port; more options: "
        f"python -m roshambo serve --help)",
    )
    return parser


def run_interactive(parser: argparse.ArgumentParser, opponent_name: str, explain: bool) -> int:
    """A terminal session against any arena player (``roshambo.arena.tournaments.make_player``)."""
    from roshambo.apps.terminal import Explaining, run_session, session_opponent
    from roshambo.arena.classic_field import OpenSpielMissing
    from roshambo.arena.filebots import kind_lines

    try:
        opponent = session_opponent(opponent_name)
    except (ValueError, OpenSpielMissing) as err:
        parser.error(str(err))
    if explain and not isinstance(opponent, Explaining):
        parser.error(f"--explain shows our engine's beliefs: use it with --play {ENGINE}")
    for line in kind_lines([opponent]):
        print(line, file=sys.stderr)
    run_session(opponent, explain=explain)
    return 0


def run_server(parser: argparse.ArgumentParser, port: int) -> int:
    """The browser app on 127.0.0.1:``port`` (``python -m roshambo serve`` takes more options)."""
    try:
        serve(port=port)
    except ValueError as err:
        parser.exit(2, f"{parser.prog}: error: {err}\n")
    return 0


def run_matches(bots: Sequence[str], games: int, verbose: bool, plot: str | Path | None) -> int:
    """``play(player, bot, games)`` for each bot, drawing the running win rates if asked."""
    if plot is None:
        for name in bots:
            play(player, BOTS[name], games, verbose=verbose)
        return 0

    from roshambo.apps.plotting import (
        MatchTrace,
        MatplotlibMissing,
        MoveRecorder,
        draw,
        require_matplotlib,
    )

    try:
        require_matplotlib(plot)  # (and a format it writes) before any game is played
    except MatplotlibMissing as err:
        print(err, file=sys.stderr)
        return 1
    except ValueError as err:
        print(f"could not write the plot to {plot}: {err}", file=sys.stderr)
        return 1
    traces = []
    for name in bots:
        ours, theirs = MoveRecorder(player), MoveRecorder(BOTS[name])
        play(ours, theirs, games, verbose=verbose)
        traces.append(MatchTrace(name, tuple(ours.moves), tuple(theirs.moves)))
    try:
        path = draw(traces, plot)
    except (OSError, ValueError) as err:
        print(f"could not write the plot to {plot}: {err}", file=sys.stderr)
        return 1
    print(f"Plot written to {path}")
    return 0


def run_unit_tests() -> int:
    """What the official file's last comment does: ``main(module='test_module', exit=False)``."""
    program = unittest.main(module="test_module", argv=[sys.argv[0]], exit=False)
    return 0 if program.result.wasSuccessful() else 1


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    # what only a run of matches takes; --serve refuses --play and --explain as well
    batch = ("--games", "--bots", "--verbose", "--test", "--plot")
    given = [flag for flag in (*batch, "--play", "--explain") if getattr(args, flag[2:])]
    if args.serve is not None:
        if given:
            parser.error(f"--serve starts the web app; it does not take {', '.join(given)}")
        return run_server(parser, args.serve)
    if args.play is not None:
        clashing = [flag for flag in given if flag in batch]
        if clashing:
            parser.error(
                f"--play is an interactive session; it does not take {', '.join(clashing)}"
            )
        return run_interactive(parser, args.play, args.explain)
    if args.explain:
        parser.error(f"--explain only works with --play {ENGINE}")

    status = run_matches(args.bots or DEFAULT_BOTS, args.games or 1000, args.verbose, args.plot)
    if status == 0 and args.test:
        status = run_unit_tests()
    return status


if __name__ == "__main__":
    sys.exit(main())
