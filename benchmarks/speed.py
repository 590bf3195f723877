"""Speed and memory of the engine beside a frequency-counting baseline, measured in one run.

Per-move time is the median over ``runs`` matches of each size against a random opponent
(its moves drawn up front from the seed, so only the player's ``move`` calls are timed). The
ratio of per-move time at the largest size to the smallest shows whether a move stays O(1)
as the history grows. Memory is the tracemalloc peak of one match of ``memory_moves`` moves
(a separate run: tracemalloc slows everything down), per move.

    python benchmarks/speed.py [--sizes 1000,10000,100000] [--runs 3] [--memory-moves N]
    python -m roshambo bench   (same options)
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
import tracemalloc
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

DEFAULT_SIZES = (1_000, 10_000, 100_000)


class FrequencyBaseline:
    """The simplest adaptive player: beat the opponent's most frequent move so far."""

    name = "frequency"

    def __init__(self, rng: random.Random | None = None) -> None:
        self._rng = rng if rng is not None else random.Random()
        self.reset()

    def reset(self) -> None:
        self._counts = [0, 0, 0]

    def move(self, their_last: int | None) -> int:
        if their_last is not None:
            self._counts[their_last] += 1
        top = max(self._counts)
        if top == 0:
            return self._rng.randrange(3)
        return (self._counts.index(top) + 1) % 3


Factory = Callable[[random.Random], object]


@dataclass(frozen=True)
class Timing:
    """Median per-move time of ``player`` over ``runs`` matches of ``moves`` moves."""

    player: str
    moves: int
    runs: int
    seconds_per_move: float


@dataclass(frozen=True)
class Memory:
    """tracemalloc peak growth of one ``moves``-move match of ``player``."""

    player: str
    moves: int
    peak_bytes: int

    @property
    def bytes_per_move(self) -> float:
        return self.peak_bytes / self.moves if self.moves else 0.0


@dataclass(frozen=True)
class SpeedReport:
    """All timings and memory figures of one benchmark run, with its seed."""

    timings: tuple[Timing, ...]
    memory: tuple[Memory, ...]
    seed: int

    def players(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(t.player for t in self.timings))

    def per_move(self, player: str, moves: int) -> float:
        return next(t.seconds_per_move for t in self.timings
                    if t.player == player and t.moves == moves)

    def growth(self, player: str) -> float:
        """Per-move time at the largest size divided by that at the smallest."""
        sizes = sorted({t.moves for t in self.timings if t.player == player})
        return self.per_move(player, sizes[-1]) / self.per_move(player, sizes[0])


def _random_moves(moves: int, seed: int) -> list[int]:
    rng = random.Random(seed)
    return [rng.randrange(3) for _ in range(moves)]


def _play(player: object, theirs: Sequence[int]) -> None:
    move = player.move  # type: ignore[attr-defined]
    last = None
    for their_move in theirs:
        move(last)
        last = their_move


def time_player(name: str, factory: Factory, moves: int, runs: int, seed: int) -> Timing:
    """Median seconds per ``move`` call over ``runs`` fresh matches against random moves."""
    seeds = random.Random(seed)
    samples = []
    for _ in range(runs):
        theirs = _random_moves(moves, seeds.getrandbits(64))
        player = factory(random.Random(seeds.getrandbits(64)))
        start = time.perf_counter()
        _play(player, theirs)
        samples.append((time.perf_counter() - start) / moves)
    return Timing(name, moves, runs, statistics.median(samples))


def memory_growth(name: str, factory: Factory, moves: int, seed: int) -> Memory:
    """tracemalloc peak (bytes above the start) while a fresh player plays ``moves`` moves."""
    seeds = random.Random(seed)
    theirs = _random_moves(moves, seeds.getrandbits(64))
    was_tracing = tracemalloc.is_tracing()
    if not was_tracing:
        tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        before, _ = tracemalloc.get_traced_memory()
        player = factory(random.Random(seeds.getrandbits(64)))
        _play(player, theirs)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        if not was_tracing:
            tracemalloc.stop()
    return Memory(name, moves, peak - before)


def default_players() -> dict[str, Factory]:
    """Our engine and the baseline it is measured beside."""
    from roshambo.agent import Agent

    return {"ai": Agent, "frequency": FrequencyBaseline}


def measure(players: Mapping[str, Factory] | None = None, *,
            sizes: Sequence[int] = DEFAULT_SIZES, runs: int = 3,
            memory_moves: int | None = None, seed: int = 0) -> SpeedReport:
    """Time every player at every size and measure its memory, all in this one run."""
    if runs < 1 or not sizes or min(sizes) < 1:
        raise ValueError("need runs >= 1 and at least one size >= 1")
    players = dict(players) if players is not None else default_players()
    memory_moves = max(sizes) if memory_moves is None else memory_moves
    timings = tuple(time_player(name, factory, moves, runs, seed)
                    for moves in sizes for name, factory in players.items())
    memory = tuple(memory_growth(name, factory, memory_moves, seed)
                   for name, factory in players.items())
    return SpeedReport(timings, memory, seed)


def format_report(report: SpeedReport) -> str:
    """Per-move times by size, the growth ratio, and memory per move, one row per player."""
    sizes = sorted({t.moves for t in report.timings})
    headers = ["player", *(f"µs/move @{n:,}" for n in sizes), f"ratio {sizes[-1]:,}/{sizes[0]:,}"]
    rows = [[name, *(f"{report.per_move(name, n) * 1e6:.2f}" for n in sizes),
             f"{report.growth(name):.2f}"] for name in report.players()]
    memory_rows = [[m.player, f"{m.moves:,}", f"{m.peak_bytes / 1024:,.0f}",
                    f"{m.bytes_per_move:.1f}"] for m in report.memory]
    runs = report.timings[0].runs if report.timings else 0
    return "\n".join([
        f"per-move time, median of {runs} run(s) against random moves (seed {report.seed})",
        _table(headers, rows),
        "",
        "memory: tracemalloc peak growth of one match",
        _table(["player", "moves", "peak KiB", "bytes/move"], memory_rows),
    ])


def _table(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    widths = [max(len(str(r[i])) for r in [headers, *rows]) for i in range(len(headers))]
    lines = ["  ".join([str(r[0]).ljust(widths[0]),
                        *(str(c).rjust(w) for c, w in zip(r[1:], widths[1:]))]) for r in [headers, *rows]]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def build_parser(parser: argparse.ArgumentParser | None = None) -> argparse.ArgumentParser:
    """The benchmark's options (shared with ``python -m roshambo bench``)."""
    parser = parser or argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default=",".join(str(n) for n in DEFAULT_SIZES),
                        help="comma-separated match lengths (default: %(default)s)")
    parser.add_argument("--runs", type=int, default=3, help="runs per size (median; default 3)")
    parser.add_argument("--memory-moves", type=int, default=None,
                        help="moves of the memory run (default: the largest size)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the random moves (default 0)")
    return parser


def run(args: argparse.Namespace) -> str:
    """Measure as ``args`` say and return the formatted report."""
    sizes = tuple(int(s) for s in str(args.sizes).split(",") if s.strip())
    report = measure(sizes=sizes, runs=args.runs, memory_moves=args.memory_moves, seed=args.seed)
    return format_report(report)


def main(argv: Sequence[str] | None = None) -> int:
    print(run(build_parser().parse_args(argv)))
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    raise SystemExit(main())
