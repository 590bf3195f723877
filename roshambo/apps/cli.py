"""``python -m roshambo``: matches, tournaments, the classic field, head-to-heads, speed, play.

Players are named as in the arena registry: "ai" is our engine, "classic:NAME" one of the
43 classic open_spiel bots, anything else a name in ``roshambo.opponents``. Every run prints
the seed that reproduces it; ``--seed`` replays it.

``match`` and ``headtohead`` take ``--plot FILE`` (needs matplotlib): the first player's
running win rate over the match, one line per opponent, with the 60% line. ``headtohead``
draws the first repetition against each opponent, replayed from its seed (the seed in the
CSV/JSON row with rep 0), so each curve ends at that match's win rate. ``play`` is the
terminal session of ``python main.py --play`` against any registry name; ``serve`` the browser
app of ``python main.py --serve`` (``roshambo.apps.web``).
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import random
import sys
import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

from ..arena.classic_field import OpenSpielMissing
from ..arena.executors import PROCESS, DaskMissing, ExecutorChoice, open_executor
from ..arena.filebots import DEFAULT_MOVE_TIMEOUT, SHIMS, is_file_spec, kind_lines
from ..arena.runlog import read_seed
from ..arena.tournaments import (
    CLASSIC_PREFIX,
    DEFAULT_THROWS,
    ENGINE_NAME,
    Factory,
    Registered,
    TournamentResult,
    canonical_name,
    expand_names,
    known_names,
    play_match,
    processes,
    resolve,
    short_labels,
    tournament,
)
from . import options, report
from .plotting import MatchTrace, MatplotlibMissing, draw, require_matplotlib, trace_match
from .web import DEFAULT_HOST, DEFAULT_MAX_GAMES, DEFAULT_MAX_ROUNDS, DEFAULT_PORT

COMPARE_DEFAULT = "greenberg,iocainebot"
PLAYER_SPECS = (
    "a registry name, classic:NAME, or a bot file (PATH.py, rpscontest:PATH, kaggle:PATH)"
)
MATRIX_MAX = 20  # wider cross-tables go to --cross-table FILE.csv only
SPEED_SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "speed.py"


def _scheduler(text: str) -> ExecutorChoice:
    try:
        return ExecutorChoice.parse(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _add_move_timeout(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--move-timeout",
        type=options.seconds,
        default=None,
        metavar="SECONDS",
        help=f"per-move limit for bots from files (default {DEFAULT_MOVE_TIMEOUT:g} s; "
        "over it, the bot forfeits the match)",
    )
    parser.add_argument(
        "--shim",
        action="append",
        default=[],
        type=options.one_of(SHIMS, "a shim"),
        metavar="NAME",
        help="run every bot file with this compatibility shim (repeat for more): "
        + "; ".join(f"{name}: {what}" for name, what in SHIMS.items()),
    )


def _add_run_options(parser: argparse.ArgumentParser, *, reps: int) -> None:
    # each option with the name it had in earlier versions, still taken but not shown
    for flag, old, dest, default, what, parse in (
        ("--games", "--throws", "games", DEFAULT_THROWS, "throws per match", options.games),
        ("--reps", "--matches", "reps", reps, "matches of every pairing", options.positive_int),
    ):
        parser.add_argument(
            flag,
            dest=dest,
            type=parse,
            default=default,
            help=f"{what} (default {default})",
        )
        parser.add_argument(
            old,
            dest=dest,
            type=parse,
            default=argparse.SUPPRESS,
            help=argparse.SUPPRESS,
        )
    parser.add_argument(
        "--workers",
        type=options.workers,
        default=os.cpu_count() or 1,
        help="processes to play in (default: all cores; 1 = in-process)",
    )
    parser.add_argument(
        "--seed", type=options.seed, default=None, help="master seed (default: random, printed)"
    )
    parser.add_argument(
        "--csv", type=options.output_file, help="write one row per match to this CSV file"
    )
    parser.add_argument(
        "--json", type=options.output_file, help="write the whole run to this JSON file"
    )
    parser.add_argument(
        "--out",
        type=options.output_file,
        metavar="FILE.jsonl",
        help="stream every finished match to this JSONL file; rerunning the "
        "same command with it resumes the run, skipping finished matches",
    )
    parser.add_argument(
        "--scheduler",
        type=_scheduler,
        default=ExecutorChoice(PROCESS),
        metavar="WHERE",
        help="where matches run: 'process' (default: a local process pool of "
        "--workers), 'local:N' (a local Dask cluster of N workers) or "
        "'tcp://HOST:PORT' (a running Dask scheduler); Dask needs "
        'pip install -e ".[cluster]"',
    )
    _add_move_timeout(parser)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m roshambo",
        description="Rock-paper-scissors arena: matches, tournaments, the classic RoShamBo field, speed.",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    population = commands.add_parser(
        "population",
        help="our engine against the 43 classic bots (needs open_spiel)",
        description="A candidate against the classic RoShamBo field (open_spiel), with PR, PE "
        "and AGG (Lanctot et al. 2023) beside classic bots measured in the same run.",
    )
    _add_run_options(population, reps=3)
    population.add_argument(
        "--bots",
        type=options.some_names,
        default=None,
        help="comma-separated classic bot names (default: all 43)",
    )
    population.add_argument(
        "--player",
        default=ENGINE_NAME,
        help=f"the candidate: {PLAYER_SPECS} (default {ENGINE_NAME!r})",
    )
    population.add_argument(
        "--compare",
        type=options.names_once,
        default=None,
        help=f"classic bots measured as candidates too (default {COMPARE_DEFAULT}; '' for none)",
    )

    match = commands.add_parser(
        "match",
        help="one seeded match between two players",
        description="One match between two players, counted from A's side: wins, losses, "
        "ties, score and win rate, with the seed that replays it.",
    )
    match.add_argument("a", metavar="A", help=f"a player: {PLAYER_SPECS}")
    match.add_argument("b", metavar="B", help="the other player")
    match.add_argument(
        "--games",
        type=options.games,
        default=DEFAULT_THROWS,
        help=f"throws (default {DEFAULT_THROWS})",
    )
    match.add_argument(
        "--seed", type=options.seed, default=None, help="seed (default: random, printed)"
    )
    _add_plot_option(match, "A's running win rate over the match")
    _add_move_timeout(match)

    robin = commands.add_parser(
        "tournament",
        help="round robin among named players",
        description="Every pair of players meets --reps times; the standings rank them by PR, "
        "PE and AGG (Lanctot et al. 2023), with the cross-table of mean scores.",
    )
    robin.add_argument(
        "names",
        nargs="*",
        metavar="NAME",
        help="players: registry names, classic:NAME, classic:* (all 43 classic "
        "bots), or bot files (PATH.py, rpscontest:PATH, kaggle:PATH); "
        "default: ai and every registered opponent",
    )
    _add_run_options(robin, reps=1)
    robin.add_argument(
        "--cross-table",
        type=options.output_file,
        metavar="FILE.csv",
        help="write the cross-table of mean scores (row vs column) as CSV",
    )

    h2h = commands.add_parser(
        "headtohead",
        help="a player against a list of opponents",
        description="One player against each opponent --reps times: mean score, its standard "
        "error, win rate and matches won/lost/drawn, per opponent.",
    )
    h2h.add_argument(
        "opponents",
        nargs="*",
        metavar="OPPONENT",
        help="opponents, each " + PLAYER_SPECS + ", or classic:* for the whole "
        "classic field (default: classic:greenberg classic:iocainebot "
        "copy-attacker)",
    )
    h2h.add_argument(
        "--player",
        default=ENGINE_NAME,
        help=f"the player: {PLAYER_SPECS} (default {ENGINE_NAME!r})",
    )
    _add_run_options(h2h, reps=20)
    _add_plot_option(
        h2h, "the player's running win rate over its first match against each opponent"
    )

    session = commands.add_parser(
        "play",
        help="play against an opponent yourself, in the terminal",
        description="A terminal session: type r/p/s (or rock/paper/scissors), q to quit.",
    )
    session.add_argument(
        "opponent",
        nargs="?",
        default=ENGINE_NAME,
        metavar="OPPONENT",
        help=f"the opponent: {PLAYER_SPECS} (default {ENGINE_NAME!r}, our engine)",
    )
    session.add_argument(
        "--explain",
        action="store_true",
        help="show what the engine believes after each round (opponent ai)",
    )
    session.add_argument(
        "--seed",
        type=options.seed,
        default=None,
        help="seed the opponent (default: from the OS)",
    )
    _add_move_timeout(session)

    web = commands.add_parser(
        "serve",
        help="play in the browser: a local web app that shows what the AI is thinking",
        description="Serve the browser app (roshambo.apps.web:app) with the standard library's "
        "threaded WSGI server and print its URL; Ctrl-C stops it.",
    )
    web.add_argument(
        "--host",
        type=options.host_name,
        default=DEFAULT_HOST,
        help=f"address to bind (default {DEFAULT_HOST})",
    )
    web.add_argument(
        "--port",
        type=options.port_number,
        default=DEFAULT_PORT,
        help=f"port to listen on (default {DEFAULT_PORT}; 0 picks a free one)",
    )
    web.add_argument(
        "--max-games",
        type=options.positive_int,
        default=DEFAULT_MAX_GAMES,
        help=f"games kept at once; the least recently used is evicted "
        f"(default {DEFAULT_MAX_GAMES})",
    )
    web.add_argument(
        "--max-rounds",
        type=options.positive_int,
        default=DEFAULT_MAX_ROUNDS,
        help=f"rounds a game may last (default {DEFAULT_MAX_ROUNDS})",
    )
    web.add_argument(
        "--bot",
        action="append",
        default=[],
        metavar="PATH",
        help="a bot file (PATH.py, rpscontest:PATH or kaggle:PATH) to offer as an "
        "opponent too; repeat for more",
    )

    bench = commands.add_parser(
        "bench",
        help="per-move time and memory of the engine",
        description="The engine's time a move (median of fresh matches against random moves, "
        "in us and in the write-up's Markov chains) and its memory; --breakdown "
        "shows where a move's time goes.",
    )
    speed = _load_speed()
    if speed is not None:
        speed.build_parser(bench)
    return parser


def _add_plot_option(parser: argparse.ArgumentParser, what: str) -> None:
    parser.add_argument(
        "--plot",
        type=options.output_file,
        default=None,
        metavar="FILE",
        help=f"also draw {what} to FILE, with the 60%% line (needs matplotlib)",
    )


def _load_speed() -> ModuleType | None:
    """``benchmarks/speed.py`` of this checkout, loaded by path (it is not in the package)."""
    if not SPEED_SCRIPT.is_file():
        return None
    spec = importlib.util.spec_from_file_location("roshambo_benchmarks_speed", SPEED_SCRIPT)
    if spec is None or spec.loader is None:
        return None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def _seed(seed: int | None) -> int:
    return seed if seed is not None else random.SystemRandom().getrandbits(32)


def _progress() -> report.ProgressBar | None:
    return report.ProgressBar(sys.stderr) if sys.stderr.isatty() else None


def _run_seed(args: argparse.Namespace) -> int:
    """--seed, else the seed of the run being resumed from --out, else a fresh one."""
    if args.seed is None and args.out is not None:
        found = read_seed(args.out)
        if found is not None:
            return found
    return _seed(args.seed)


def _timed_tournament(
    args: argparse.Namespace, **kwargs: Any
) -> tuple[TournamentResult, float, str]:
    """Run on the executor --scheduler names, streaming to --out: (result, seconds, where)."""
    start = time.perf_counter()
    with open_executor(args.scheduler) as (executor, workers):
        result = tournament(
            **kwargs,
            executor=executor,
            workers=workers or args.workers,
            out=args.out,
            progress=_progress(),
        )
    where = args.scheduler.describe(processes(workers or args.workers, result.played))
    return result, time.perf_counter() - start, where


def _move_timeout(args: argparse.Namespace) -> float:
    return args.move_timeout if args.move_timeout is not None else DEFAULT_MOVE_TIMEOUT


def _refuse_unused_file_options(args: argparse.Namespace, names: Sequence[str]) -> None:
    """A ValueError naming --shim or --move-timeout when no player of ``names`` is a bot
    file (the options would be ignored)."""
    if any(is_file_spec(name) for name in names):
        return
    given = "--shim" if args.shim else "--move-timeout" if args.move_timeout is not None else None
    if given is not None:
        raise ValueError(
            f"{given} is for bot files (PATH.py, rpscontest:PATH, kaggle:PATH), "
            "and no player here is one"
        )


def _resolve(name: str, args: argparse.Namespace) -> Factory:
    """``resolve(name)`` with the run's throws and its options for bot files."""
    return resolve(
        name, throws=args.games, move_timeout=_move_timeout(args), shims=tuple(args.shim)
    )


def _factories(
    names: Sequence[str], args: argparse.Namespace, among: Sequence[str] = ()
) -> dict[str, Factory]:
    """Each player by its table label (a bot file by its file name unless it would clash with
    another of ``names`` or ``among``: see ``short_labels``)."""
    labels = short_labels([*names, *among])
    factories = {labels[name]: _resolve(name, args) for name in names}
    _say_kinds(factories.values())
    return factories


def _say_kinds(players: Iterable[object]) -> None:
    """Say once, on stderr, how each bot file among ``players`` will run."""
    for line in kind_lines(players):
        print(line, file=sys.stderr)


def _write_files(args: argparse.Namespace, result: TournamentResult) -> None:
    writers = (
        ("--csv", args.csv, lambda path: report.write_csv(path, result.matches)),
        ("--json", args.json, lambda path: report.write_json(path, result)),
        (
            "--cross-table",
            getattr(args, "cross_table", None),
            lambda path: report.write_cross_table(path, result),
        ),
    )
    for option, path, write in writers:
        if path is None:
            continue
        try:
            write(path)
        except OSError as exc:
            raise ValueError(f"could not write {option} {path}: {exc}") from exc
        print(f"wrote {path}")
    if args.out is not None:
        print(f"match log: {args.out}")


def _draw(traces: Sequence[MatchTrace], path: Path, player: str) -> None:
    try:
        written = draw(traces, path, player=player)
    except (OSError, ValueError) as exc:
        raise ValueError(f"could not write the plot to {path}: {exc}") from exc
    print(f"wrote {written}")


def _footer(result: TournamentResult, seconds: float, where: str) -> str:
    lines = []
    if result.forfeits():
        lines += [report.format_forfeits(result), ""]
    count = result.played
    played = f"{count} match{'' if count == 1 else 'es'}"
    resumed = f" ({result.resumed} more read from the run log)" if result.resumed else ""
    lines.append(f"{played} in {seconds:.1f} s {where}{resumed}")
    return "\n".join(lines)


def population_players(args: argparse.Namespace) -> tuple[dict[str, Factory], dict[str, Factory]]:
    """(population, candidates) of a ``population`` command: the classic bots it names, and
    the player with the classic bots of ``--compare``."""
    from ..arena.classic_field import bot_names, check_bot_name

    bots = args.bots if args.bots is not None else list(bot_names())
    player = args.player
    # the classic bot the player is, if it is one
    itself = player[len(CLASSIC_PREFIX) :] if player.startswith(CLASSIC_PREFIX) else None
    if args.compare is None:  # the default: the player is not compared with itself
        compare = [bot for bot in options.names(COMPARE_DEFAULT) if bot != itself]
    else:
        compare = args.compare
        if itself in compare:
            raise ValueError(f"{player!r} is the player; it cannot also be in --compare")
    for bot in [*bots, *compare]:
        check_bot_name(bot)
    if itself in bots:
        raise ValueError(f"{player!r} cannot also be one of its opponents (--bots)")
    throws = args.games
    population: dict[str, Factory] = {bot: Registered(CLASSIC_PREFIX + bot, throws) for bot in bots}
    candidates = _factories([args.player], args)
    for bot in compare:
        candidates[CLASSIC_PREFIX + bot] = Registered(CLASSIC_PREFIX + bot, throws)
    return population, candidates


def cmd_population(args: argparse.Namespace) -> int:
    _refuse_unused_file_options(args, [args.player])
    population, candidates = population_players(args)
    result, seconds, where = _timed_tournament(
        args,
        entrants=population,
        candidates=candidates,
        n=args.games,
        reps=args.reps,
        seed=_run_seed(args),
    )
    print(f"classic RoShamBo field (open_spiel): {report.format_header(result)}")
    print()
    print(report.format_metrics(result.metrics()))
    print(
        "PR: mean score per match over the field; PE: largest mean loss to one member; "
        "AGG = PR - PE (Lanctot et al. 2023)"
    )
    print()
    print(report.format_population(result))
    print()
    print(_footer(result, seconds, where))
    _write_files(args, result)
    return 0


def cmd_match(args: argparse.Namespace) -> int:
    if args.plot is not None:
        require_matplotlib(args.plot)  # before playing, not after
    _refuse_unused_file_options(args, [args.a, args.b])
    seed = _seed(args.seed)
    a, b = _resolve(args.a, args), _resolve(args.b, args)
    _say_kinds([a] if args.a == args.b else [a, b])
    labels = short_labels([args.a, args.b])
    print(
        report.format_match(
            play_match(a, b, args.games, seed, labels=(labels[args.a], labels[args.b]))
        )
    )
    if args.plot is not None:
        _draw([trace_match(a, b, args.games, seed, label=args.b)], args.plot, player=args.a)
    return 0


def _refuse_named_twice(names: list[str], what: str) -> None:
    """A ValueError naming every player given twice, in one spelling or in several (a
    relative has many: counter: and counter:tie=first are one member)."""
    spellings: dict[str, list[str]] = {}
    for name in names:
        spellings.setdefault(canonical_name(name), []).append(name)
    twice = [
        given[0] if len(set(given)) == 1 else f"{' and '.join(dict.fromkeys(given))} (one {canon})"
        for canon, given in sorted(spellings.items())
        if len(given) > 1
    ]
    if twice:
        raise ValueError(f"{what} named twice: {', '.join(twice)}")


def cmd_tournament(args: argparse.Namespace) -> int:
    # as given (classic:* twice is named once), then as expanded (a pattern such as classic:*
    # can name a player given beside it, and a relative has many spellings: counter: and
    # counter:tie=first are one member)
    _refuse_named_twice(list(args.names), "players")
    names = expand_names(args.names) or list(known_names())
    _refuse_named_twice(names, "players")
    _refuse_unused_file_options(args, names)
    entrants = _factories(names, args)
    result, seconds, where = _timed_tournament(
        args, entrants=entrants, n=args.games, reps=args.reps, seed=_run_seed(args)
    )
    print(report.format_header(result))
    print()
    print(report.format_standings(result, matrix=len(names) <= MATRIX_MAX))
    if len(names) > MATRIX_MAX:
        print(f"(cross-table of {len(names)} players not shown: --cross-table FILE.csv writes it)")
    print()
    print(_footer(result, seconds, where))
    _write_files(args, result)
    return 0


def _default_opponents() -> list[str]:
    available = set(known_names())
    return [
        "classic:greenberg",
        "classic:iocainebot",
        *(name for name in ("copy-attacker",) if name in available),
    ]


def cmd_headtohead(args: argparse.Namespace) -> int:
    if args.plot is not None:
        require_matplotlib(args.plot)
    _refuse_named_twice(list(args.opponents), "opponents")
    opponents = expand_names(args.opponents) or _default_opponents()
    _refuse_named_twice(opponents, "opponents")
    player = canonical_name(args.player)
    among = [name for name in opponents if canonical_name(name) == player]
    if among:
        also = "" if among == [args.player] else f" (as {among[0]})"
        raise ValueError(f"{args.player!r} cannot also be one of its opponents here{also}")
    _refuse_unused_file_options(args, [args.player, *opponents])
    entrants = _factories(opponents, args, among=[args.player])
    candidates = _factories([args.player], args, among=opponents)
    result, seconds, where = _timed_tournament(
        args,
        entrants=entrants,
        candidates=candidates,
        n=args.games,
        reps=args.reps,
        seed=_run_seed(args),
    )
    print(report.format_header(result))
    print()
    print(report.format_headtohead(result))
    print()
    print(_footer(result, seconds, where))
    _write_files(args, result)
    if args.plot is not None:
        firsts = [m for m in result.matches if m.rep == 0]
        traces = [
            trace_match(candidates[m.player], entrants[m.opponent], m.n, m.seed, label=m.opponent)
            for m in firsts
        ]
        first = f" (first of {args.reps} matches)" if args.reps > 1 else ""
        _draw(traces, args.plot, player=next(iter(candidates)) + first)
    return 0


def cmd_play(args: argparse.Namespace) -> int:
    from .terminal import Explaining, run_session, session_opponent

    _refuse_unused_file_options(args, [args.opponent])
    rng = random.Random(args.seed) if args.seed is not None else None
    opponent = session_opponent(
        args.opponent, rng, move_timeout=_move_timeout(args), shims=tuple(args.shim)
    )
    _say_kinds([opponent])
    if args.explain and not isinstance(opponent, Explaining):
        raise ValueError(
            f"--explain shows our engine's beliefs: {args.opponent} has none to "
            f"show; play {ENGINE_NAME} to use it"
        )
    run_session(opponent, explain=args.explain)
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    from .web import serve

    serve(
        args.host,
        args.port,
        max_games=args.max_games,
        max_rounds=args.max_rounds,
        bots=tuple(args.bot),
    )
    return 0


def cmd_bench(args: argparse.Namespace) -> int:
    speed = _load_speed()
    if speed is None:
        raise ValueError(f"the speed benchmark lives in a checkout: {SPEED_SCRIPT} not found")
    print(speed.run(args))
    return 0


COMMANDS = {
    "population": cmd_population,
    "match": cmd_match,
    "tournament": cmd_tournament,
    "headtohead": cmd_headtohead,
    "bench": cmd_bench,
    "play": cmd_play,
    "serve": cmd_serve,
}


OUTPUTS = ("out", "json", "csv", "cross_table", "plot")  # the options that name a file to write


def _refuse_shared_outputs(args: argparse.Namespace) -> None:
    """A ValueError when two of a command's output options name one file (the last written
    would replace the other: with --out, the run log that resumes the run)."""
    seen: dict[Path, str] = {}
    for dest in OUTPUTS:
        value = getattr(args, dest, None)
        if value is None:
            continue
        flag = "--" + dest.replace("_", "-")
        where = Path(value).resolve()
        if where in seen:
            raise ValueError(f"{seen[where]} and {flag} name the same file {str(value)!r}")
        seen[where] = flag


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; returns the exit status (2 for bad names, missing open_spiel or matplotlib)."""
    args = build_parser().parse_args(argv)
    try:
        _refuse_shared_outputs(args)
        return COMMANDS[args.command](args)
    except (OpenSpielMissing, MatplotlibMissing, DaskMissing) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        resume = (
            " (rerun the same command to resume from --out)" if getattr(args, "out", None) else ""
        )
        print(f"interrupted{resume}", file=sys.stderr)
        return 130
