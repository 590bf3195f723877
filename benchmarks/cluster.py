"""Matches per second of the ``population`` command on 1 and 2 local workers, per executor.

Each configuration runs the population command's tournament (its players built exactly as
``python -m roshambo population`` builds them) through ``arena.tournament``: the local
process pool of N workers (``--workers N``; 1 plays in this process) and, if Dask is
installed, a local Dask cluster of N single-threaded worker processes (``--scheduler
local:N``). The clock runs from the first match submitted to the last result back; a Dask
cluster's start-up (a second or two) is timed apart and left out. Configurations are
interleaved round after round so that a changing load on a shared machine falls on all of
them alike, and each figure is the median over the rounds. Every configuration plays the
same seeded matches, so the runs also check that the executors agree. Beside the rate:
"in parallel", the sum of the matches' own durations (from the run log) over the wall-clock
time, i.e. how many matches were running at once on average. On a machine that other work
keeps busy, 2 workers can run 2 matches at once (in parallel near 2) and still not finish
sooner, each match getting half the CPU time: the rate measures the machine, this column
the executor.

    python benchmarks/cluster.py [--reps 1] [--rounds 3] [--throws 1000] [--bots a,b,...]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from roshambo.apps import options  # noqa: E402
from roshambo.apps.cli import build_parser, population_players  # noqa: E402
from roshambo.apps.report import table  # noqa: E402
from roshambo.arena.classic_field import OpenSpielMissing  # noqa: E402
from roshambo.arena.executors import ExecutorChoice, open_executor  # noqa: E402
from roshambo.arena.tournaments import TournamentResult, tournament  # noqa: E402

SEED = 2026


@dataclass(frozen=True)
class Run:
    """One timed run of one configuration."""

    executor: str
    workers: int
    matches: int
    seconds: float
    startup: float
    busy: float

    @property
    def per_second(self) -> float:
        return self.matches / self.seconds


def configurations(dask: bool) -> list[tuple[str, int]]:
    kinds = ["process", "dask"] if dask else ["process"]
    return [(kind, workers) for kind in kinds for workers in (1, 2)]


def timed(
    kind: str, workers: int, population_args: argparse.Namespace
) -> tuple[Run, TournamentResult]:
    population, candidates = population_players(population_args)
    choice = ExecutorChoice("process") if kind == "process" else ExecutorChoice("local", workers)
    opened = time.perf_counter()
    with tempfile.TemporaryDirectory() as folder, open_executor(choice) as (executor, _):
        log = Path(folder) / "run.jsonl"
        start = time.perf_counter()
        result = tournament(
            population,
            candidates=candidates,
            n=population_args.games,
            reps=population_args.reps,
            seed=SEED,
            workers=workers,
            executor=executor,
            out=log,
        )
        seconds = time.perf_counter() - start
        lines = log.read_text(encoding="utf-8").splitlines()[1:]
        busy = sum(json.loads(line)["seconds"] for line in lines) / seconds
    return Run(kind, workers, len(result.matches), seconds, start - opened, busy), result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=options.positive_int, default=1)
    parser.add_argument("--rounds", type=options.positive_int, default=3)
    parser.add_argument("--throws", type=options.games, default=1000)
    parser.add_argument(
        "--bots", type=options.some_names, default=None, help="classic bots (default: all 43)"
    )
    parser.add_argument("--no-dask", action="store_true", help="the process pool only")
    args = parser.parse_args(argv)
    # the population command's defaults, with this script's values (already checked here,
    # so that a bad one is named by this script and its option, not by the command's)
    population_args = build_parser().parse_args(["population"])
    population_args.reps, population_args.games = args.reps, args.throws
    population_args.bots = args.bots
    try:  # an unknown bot, or no open_spiel: said now, in one line, not as a traceback
        population_players(population_args)
    except ValueError as error:
        parser.error(f"argument --bots: {error}")
    except OpenSpielMissing as error:
        parser.error(str(error))
    dask = not args.no_dask
    if dask:
        try:
            import distributed  # noqa: F401
        except ImportError:
            print("Dask is not installed: measuring the process pool only", file=sys.stderr)
            dask = False
    runs: list[Run] = []
    tables: dict[tuple[str, int], TournamentResult] = {}
    for round_ in range(args.rounds):
        for kind, workers in configurations(dask):
            run, result = timed(kind, workers, population_args)
            runs.append(run)
            first = tables.setdefault((kind, workers), result)
            if result != first or result != next(iter(tables.values())):
                raise SystemExit(f"{kind} with {workers} worker(s) changed the results")
            print(
                f"round {round_ + 1}: {kind} x{workers}: {run.matches} matches in "
                f"{run.seconds:.1f} s ({run.per_second:.2f}/s, {run.busy:.2f} at once)",
                file=sys.stderr,
            )
    rows = []
    for kind, workers in configurations(dask):
        mine = [r for r in runs if (r.executor, r.workers) == (kind, workers)]
        rate = statistics.median(r.per_second for r in mine)
        base = statistics.median(r.per_second for r in runs if (r.executor, r.workers) == (kind, 1))
        startup = statistics.median(r.startup for r in mine)
        busy = statistics.median(r.busy for r in mine)
        rows.append(
            (
                f"{kind} ({'--workers ' if kind == 'process' else '--scheduler local:'}{workers})",
                workers,
                mine[0].matches,
                f"{rate:.2f}",
                f"{rate / base:.2f}x",
                f"{busy:.2f}",
                f"{startup:.1f} s" if kind == "dask" else "-",
            )
        )
    print(
        f"population: {len(runs) // len(configurations(dask))} interleaved rounds, "
        f"{population_args.reps} rep(s), {population_args.games} throws, seed {SEED}"
    )
    print(
        table(
            (
                "executor",
                "workers",
                "matches",
                "matches/s (median)",
                "vs 1 worker",
                "in parallel",
                "cluster start-up",
            ),
            rows,
        )
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
