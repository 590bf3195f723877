"""Speed and memory of the engine beside a frequency-counting baseline, measured in one run.

Per-move time is the median over matches of each size against a random opponent (its
moves drawn up front from the seed, so only the player's ``move`` calls are timed), in CPU
time of this process (``time.process_time``): on a shared machine, the time other processes
hold the CPU is not charged to the player. Every size plays as many moves (each of the
``runs`` rounds plays ``largest // size`` matches of a size, at most ``MAX_REPEATS``), and
the matches of all sizes and players are interleaved, round after round, so that a changing
load (caches, clock) falls on all of them alike. The ratio of per-move time at the largest
size to the smallest shows whether a move stays O(1) as the history grows; so does the
ratio, inside each timed match of the largest size, of its last moves to its first: the
median of ``DRIFT_CHUNKS`` chunks of 1,000 moves at each end (median over the runs), which
neither drift between runs nor one slow chunk can move much. Beside our engine run two
baselines: a frequency counter (the cheapest adaptive player) and the freeCodeCamp
write-up's Markov chain (one real predictor), so "the engine costs N Markov chains"
survives a noisy machine.
Memory is the tracemalloc peak of one match of ``memory_moves`` moves (a separate run:
tracemalloc slows everything down), per move.

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
DRIFT_CHUNK = 1_000
DRIFT_CHUNKS = 10  # chunks timed at each end of a match for the last/first ratio
MAX_REPEATS = 100  # most matches of one size in a run


Factory = Callable[[random.Random], object]


@dataclass(frozen=True)
class Timing:
    """Median per-move time of ``player`` over ``runs`` matches of ``moves`` moves."""

    player: str
    moves: int
    runs: int
    seconds_per_move: float


@dataclass(frozen=True)
class Drift:
    """Inside matches of ``moves`` moves: the median per-move time of the last ``DRIFT_CHUNKS``
    chunks of ``chunk`` moves over that of the first ones."""

    player: str
    moves: int
    chunk: int
    ratio: float


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
    drift: tuple[Drift, ...] = ()

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


def _timed_match(factory: Factory, moves: int, seeds: random.Random,
                 chunk: int) -> tuple[float, float | None]:
    """CPU seconds per move of one fresh match, and its last/first per-move ratio: the
    median ``chunk``-move chunk of the last ``DRIFT_CHUNKS`` over that of the first (None
    when the match is too short to hold both ends apart)."""
    theirs = _random_moves(moves, seeds.getrandbits(64))
    player = factory(random.Random(seeds.getrandbits(64)))
    move = player.move  # type: ignore[attr-defined]
    clock = time.process_time
    last = None
    marks = [clock()]
    for index, their_move in enumerate(theirs, 1):
        move(last)
        last = their_move
        if index % chunk == 0:
            marks.append(clock())
    end = clock()
    chunks = [later - earlier for earlier, later in zip(marks, marks[1:])]
    ends = min(DRIFT_CHUNKS, len(chunks) // 2)
    ratio = None
    if ends:
        first = statistics.median(chunks[:ends])
        if first > 0:
            ratio = statistics.median(chunks[-ends:]) / first
    return (end - marks[0]) / moves, ratio


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
    """Our engine and the baselines it is measured beside."""
    from roshambo.agent import Agent
    from roshambo.opponents import OPPONENTS

    return {"ai": Agent, "markov": OPPONENTS["markov"], "frequency": OPPONENTS["frequency"]}


def measure(players: Mapping[str, Factory] | None = None, *,
            sizes: Sequence[int] = DEFAULT_SIZES, runs: int = 3,
            memory_moves: int | None = None, seed: int = 0) -> SpeedReport:
    """Time every player at every size, runs interleaved, and measure its memory."""
    if runs < 1 or not sizes or min(sizes) < 1:
        raise ValueError("need runs >= 1 and at least one size >= 1")
    players = dict(players) if players is not None else default_players()
    memory_moves = max(sizes) if memory_moves is None else memory_moves
    seeds = {(name, moves): random.Random(seed) for moves in sizes for name in players}
    samples: dict[tuple[str, int], list[float]] = {key: [] for key in seeds}
    drifts: dict[str, list[float]] = {name: [] for name in players}
    largest = max(sizes)
    # a run plays as many moves at every size (short matches are more of them, up to a cap),
    # so a short size's median is not left to a few tenths of a second of a noisy machine
    repeats = {moves: min(MAX_REPEATS, max(1, largest // moves)) for moves in sizes}
    for _ in range(runs):
        for moves in sizes:
            for _ in range(repeats[moves]):
                for name, factory in players.items():
                    per_move, drift = _timed_match(factory, moves, seeds[(name, moves)], DRIFT_CHUNK)
                    samples[(name, moves)].append(per_move)
                    if drift is not None and moves == largest:
                        drifts[name].append(drift)
    timings = tuple(Timing(name, moves, runs * repeats[moves], statistics.median(samples[(name, moves)]))
                    for moves in sizes for name in players)
    drift = tuple(Drift(name, max(sizes), DRIFT_CHUNK, statistics.median(values))
                  for name, values in drifts.items() if values)
    memory = tuple(memory_growth(name, factory, memory_moves, seed)
                   for name, factory in players.items())
    return SpeedReport(timings, memory, seed, drift)


def format_report(report: SpeedReport) -> str:
    """Per-move times by size, the growth ratio, and memory per move, one row per player."""
    sizes = sorted({t.moves for t in report.timings})
    headers = ["player", *(f"µs/move @{n:,}" for n in sizes), f"ratio {sizes[-1]:,}/{sizes[0]:,}"]
    rows = [[name, *(f"{report.per_move(name, n) * 1e6:.2f}" for n in sizes),
             f"{report.growth(name):.2f}"] for name in report.players()]
    memory_rows = [[m.player, f"{m.moves:,}", f"{m.peak_bytes / 1024:,.0f}",
                    f"{m.bytes_per_move:.1f}"] for m in report.memory]
    matches = ", ".join(f"{t.runs} of {t.moves:,}" for t in report.timings
                        if t.player == report.timings[0].player)
    drift_rows = [[d.player, f"{d.moves:,}", f"{d.ratio:.2f}"] for d in report.drift]
    drift_table = ["", f"inside each match: median per-move time of its last {DRIFT_CHUNKS} chunks of "
                   f"{DRIFT_CHUNK:,} moves / of its first {DRIFT_CHUNKS} (median over the runs)",
                   _table(["player", "moves", "last/first"], drift_rows)] if drift_rows else []
    return "\n".join([
        f"per-move time, median over interleaved matches against random moves ({matches} moves; "
        f"seed {report.seed})",
        _table(headers, rows),
        *drift_table,
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
