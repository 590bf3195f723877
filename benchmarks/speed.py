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

``--bots FILE ...`` times bot files beside them (PATH.py, rpscontest:PATH, kaggle:PATH), run
in this process (:class:`TimedBot`): what the bot's own moves cost, not the arena's child
process and pipe (``benchmarks/filebots.py`` measures those); only at the smallest size (a
bot file's move often grows with the history, and a match of 100,000 moves can take hours),
with no memory run; the report then gives the engine's time a move as a multiple of each
bot's. Whatever a bot prints while timed is dropped. A bot's move that runs past
``--bot-timeout`` seconds (default 10) of wall time is stopped and named (where the platform
has ``SIGALRM``: a watchdog timer that fires every ``--bot-timeout`` seconds and stops a move
it finds running at two firings running, so after one to two timeouts; it costs a move a
counter's increment, not a system call). A bot that ends the process itself (``os._exit``)
ends the benchmark: the arena's child processes are the place for untrusted files.

``--breakdown`` says where the engine's time goes instead, in chains: per fresh match
against random moves, the engine as a whole; the engine with every call into its predictors
(updates and the exact and doubt queries) answered from a record of the same match, which
leaves the meta levels alone (less the cost of reading the record, timed by itself); and
each predictor's updates, both halves, and each shared feature's (named in brackets: the
work several halves read, done once a round) timed call by call (less the cost of the
timing, timed on an empty call); beside the chain, all interleaved, medians over the matches. The
sum of the parts need not be the whole: caches and the timer's own calls differ between
the runs.

    python benchmarks/speed.py [--sizes 1000,10000,100000] [--runs 3] [--memory-moves N]
    python benchmarks/speed.py --breakdown [--matches 21] [--sizes 1000]
    python benchmarks/speed.py --bots DIR/dllu1.py [--shim numpy1-scalars] [--sizes 1000]
    python -m roshambo bench   (same options)
"""

from __future__ import annotations

import argparse
import contextlib
import io
import math
import os
import random
import signal
import statistics
import sys
import time
import tracemalloc
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from roshambo.apps import options
from roshambo.arena.filebots import RPSCONTEST, SHIMS, BotSource

DEFAULT_SIZES = (1_000, 10_000, 100_000)
DEFAULT_RUNS = 3  # runs per size
DEFAULT_MATCHES = 21  # the breakdown's matches
DEFAULT_BOT_TIMEOUT = 10.0  # seconds a bot file's move may take
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
    bots: tuple[str, ...] = ()  # the players that are bot files (timed at one size)

    def players(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(t.player for t in self.timings))

    def per_move(self, player: str, moves: int) -> float:
        return next(
            t.seconds_per_move for t in self.timings if t.player == player and t.moves == moves
        )

    def sizes(self, player: str) -> list[int]:
        """The match lengths ``player`` was timed at, shortest first."""
        return sorted({t.moves for t in self.timings if t.player == player})

    def growth(self, player: str) -> float | None:
        """Per-move time at the largest size divided by that at the smallest (None for a
        player timed at one size)."""
        sizes = self.sizes(player)
        if len(sizes) < 2:
            return None
        return self.per_move(player, sizes[-1]) / self.per_move(player, sizes[0])


@dataclass(frozen=True)
class Breakdown:
    """Where the engine's time goes (CPU seconds a move, medians over ``matches`` fresh
    matches of ``moves`` moves against random moves): the engine, the write-up's chain in the
    same run, the meta levels alone (the predictors' answers replayed) and each predictor's
    updates (both halves; largest first)."""

    moves: int
    matches: int
    seed: int
    engine: float
    chain: float
    meta: float
    predictors: tuple[tuple[str, float], ...]

    def chains(self, seconds: float) -> float:
        """``seconds`` a move as a number of the write-up's chains."""
        return seconds / self.chain


# predictors that draw from the engine's generator: replaying their answers would leave the
# engine's own draws out of step, so they run live in the replay (none in today's line-up; a
# custom one with the random guess, ``RandomGuess``, would name "random" here)
LIVE: tuple[str, ...] = ()


def _timer(
    totals: dict[str, int], answers: dict[str, list]
) -> Callable[[str, str, Callable], Callable]:
    """A wrapper for ``Agent.instrument`` that times every update (``totals``, nanoseconds
    by predictor, both halves) and records every answer (``answers``, by half and call)."""
    clock = time.perf_counter_ns

    def wrap(half: str, call: str, function: Callable) -> Callable:
        record = answers.setdefault(f"{half} {call}", []).append
        if call != "update":

            def query():  # type: ignore[no-untyped-def]
                answer = function()
                record(answer)
                return answer

            return query
        predictor = half.rstrip("'")
        totals.setdefault(predictor, 0)

        def update(mine, theirs):  # type: ignore[no-untyped-def]
            start = clock()
            answer = function(mine, theirs)
            totals[predictor] += clock() - start
            record(answer)
            return answer

        return update

    return wrap


def _replayer(answers: dict[str, list]) -> Callable[[str, str, Callable], Callable]:
    """A wrapper for ``Agent.instrument`` that answers every call from ``answers`` (but the
    ``LIVE`` predictors')."""

    def wrap(half: str, call: str, function: Callable) -> Callable:
        if half.rstrip("'") in LIVE:
            return function
        answer = iter(answers[f"{half} {call}"]).__next__
        if call != "update":
            return answer
        return lambda mine, theirs: answer()

    return wrap


def _breakdown_match(
    theirs: Sequence[int], engine_seed: int
) -> tuple[float, float, float, dict[str, float]]:
    """One match's figures, CPU seconds a move: the chain (timed before and after the rest),
    the engine, the meta levels alone, and each predictor's updates."""
    from roshambo.engine.agent import Agent
    from roshambo.opponents import OPPONENTS

    clock = time.process_time
    moves = len(theirs)

    def timed(player: object) -> tuple[float, list[int]]:
        move, last, played = player.move, None, []  # type: ignore[attr-defined]
        start = clock()
        for their_move in theirs:
            played.append(move(last))
            last = their_move
        return (clock() - start) / moves, played

    chain_before, _ = timed(OPPONENTS["markov"](random.Random(engine_seed)))
    engine, played = timed(Agent(random.Random(engine_seed)))
    totals: dict[str, int] = {}
    answers: dict[str, list] = {}
    agent = Agent(random.Random(engine_seed))
    agent.instrument(_timer(totals, answers))
    _, timed_play = timed(agent)
    agent = Agent(random.Random(engine_seed))
    agent.instrument(_replayer(answers))
    meta, replayed = timed(agent)
    chain_after, _ = timed(OPPONENTS["markov"](random.Random(engine_seed)))
    if not played == timed_play == replayed:
        raise RuntimeError(
            "the engine's moves changed when its predictors were timed or replayed: "
            "a predictor that draws from the engine's generator is missing from LIVE"
        )
    # what reading the record costs, and what timing a call costs, by themselves
    reading = _reading_cost(answers) / moves
    per_call = _timing_cost()
    predictors = {}
    for name, total in totals.items():
        calls = len(answers.get(f"{name} update", ())) + len(answers.get(f"{name}' update", ()))
        predictors[name] = max(0.0, total * 1e-9 - per_call * calls) / moves
    return (chain_before + chain_after) / 2, engine, max(0.0, meta - reading), predictors


def _reading_cost(answers: dict[str, list]) -> float:
    """CPU seconds that answering every call of a match from ``answers`` takes by itself."""
    wrap = _replayer(answers)
    calls = []
    for key, record in answers.items():
        half, call = key.split(" ")
        if half.rstrip("'") not in LIVE:
            calls.append((wrap(half, call, _nothing), call == "update", len(record)))
    clock = time.process_time
    start = clock()
    for answer, update, times in calls:
        if update:
            for _ in range(times):
                answer(0, 0)
        else:
            for _ in range(times):
                answer()
    return clock() - start


def _nothing(*_: object) -> None:
    return None


def _timing_cost(calls: int = 100_000) -> float:
    """Seconds that ``_timer`` adds to a call it times, measured on an empty one."""
    totals: dict[str, int] = {}
    update = _timer(totals, {})("empty", "update", _nothing)
    for _ in range(calls):
        update(0, 0)
    return totals["empty"] * 1e-9 / calls


def measure_breakdown(moves: int = 1_000, matches: int = 21, seed: int = 0) -> Breakdown:
    """Where the engine's time goes, over ``matches`` fresh matches of ``moves`` moves
    against random moves (see the module docstring)."""
    if moves < 1 or matches < 1:
        raise ValueError(f"need moves >= 1 and matches >= 1, not {moves!r} and {matches!r}")
    seeds = random.Random(seed)
    samples: dict[str, list[float]] = {"chain": [], "engine": [], "meta": []}
    by_predictor: dict[str, list[float]] = {}
    for _ in range(matches):
        theirs = _random_moves(moves, seeds.getrandbits(64))
        chain, engine, meta, predictors = _breakdown_match(theirs, seeds.getrandbits(64))
        for key, value in (("chain", chain), ("engine", engine), ("meta", meta)):
            samples[key].append(value)
        for name, value in predictors.items():
            by_predictor.setdefault(name, []).append(value)
    costs = sorted(
        ((name, statistics.median(values)) for name, values in by_predictor.items()),
        key=lambda item: -item[1],
    )
    median = {key: statistics.median(values) for key, values in samples.items()}
    return Breakdown(
        moves, matches, seed, median["engine"], median["chain"], median["meta"], tuple(costs)
    )


def format_breakdown(breakdown: Breakdown) -> str:
    """The engine, its meta levels and its predictors, in microseconds and chains a move."""

    def row(name: str, seconds: float) -> list[str]:
        return [name, f"{seconds * 1e6:.2f}", f"{breakdown.chains(seconds):.1f}"]

    predictors = sum(cost for _, cost in breakdown.predictors)
    rows = [
        row("the engine", breakdown.engine),
        row("  its meta levels alone", breakdown.meta),
        row("  its predictors' updates", predictors),
        *(row(f"    {name}", cost) for name, cost in breakdown.predictors),
        row("markov (the write-up's chain)", breakdown.chain),
    ]
    return "\n".join(
        [
            f"where the engine's time goes: {breakdown.matches} fresh matches of {breakdown.moves:,} moves "
            f"against random moves, medians (seed {breakdown.seed}); the meta levels with the predictors' "
            "answers replayed, each predictor's updates (both halves) and each shared feature's "
            "([in brackets]) timed call by call",
            _table(["part", "µs/move", "chains"], rows),
        ]
    )


def _random_moves(moves: int, seed: int) -> list[int]:
    rng = random.Random(seed)
    return [rng.randrange(3) for _ in range(moves)]


def _play(player: object, theirs: Sequence[int]) -> None:
    move = player.move  # type: ignore[attr-defined]
    last = None
    for their_move in theirs:
        move(last)
        last = their_move


def _timed_match(
    factory: Factory, moves: int, seeds: random.Random, chunk: int
) -> tuple[float, float | None]:
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


class MoveTimeout(BaseException):
    """Raised inside a bot's move by the :class:`Watchdog` (a ``BaseException``, so that a
    bot's ``except Exception`` does not swallow it)."""


class Watchdog:
    """Stops a bot's move that runs past ``limit`` seconds of wall time: a periodic
    ``SIGALRM`` timer every ``limit`` seconds, armed while timing (``with``); a firing that
    finds the same move running as the firing before raises :class:`MoveTimeout` in it and
    sets ``fired`` (the arena's bot wrappers report what a move raised as the bot's error). A
    move calls :meth:`start` and :meth:`stop`; without ``SIGALRM`` (Windows) nothing is
    stopped."""

    def __init__(self, limit: float) -> None:
        self.limit = limit
        self.moves = 0  # moves started
        self.running = self.fired = False
        self._seen = -1  # the move the last firing found running
        self._previous: object = None

    def start(self) -> None:
        self.moves += 1
        self.running = True

    def stop(self) -> None:
        self.running = False

    def _fire(self, signum: int, frame: object) -> None:
        if self.running and self._seen == self.moves:
            self.running, self.fired = False, True
            raise MoveTimeout
        self._seen = self.moves if self.running else -1

    def __enter__(self) -> Watchdog:
        if hasattr(signal, "SIGALRM"):
            self._previous = signal.signal(signal.SIGALRM, self._fire)
            signal.setitimer(signal.ITIMER_REAL, self.limit, self.limit)
        return self

    def __exit__(self, *exc: object) -> None:
        if hasattr(signal, "SIGALRM"):
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, self._previous)  # type: ignore[arg-type]


class TimedBot:
    """A bot file run in this process, for timing its moves (the opponent protocol's
    ``move``). The file's kind, source and conventions are the arena's
    (:mod:`roshambo.arena.filebots`, :mod:`roshambo.arena.filebot_child`), its ``random``
    module seeded from ``rng`` as there; a bot that fails, or whose move the ``watchdog``
    stops, raises ``ValueError`` naming the file and the failure."""

    def __init__(
        self,
        spec: str,
        source: BotSource,
        shims: tuple[str, ...],
        throws: int,
        rng: random.Random,
        watchdog: Watchdog | None = None,
    ) -> None:
        from roshambo.arena import filebot_child as child

        self.spec = spec
        self._watchdog = watchdog or Watchdog(math.inf)
        self._errors = child.BotError
        path, text = source.path, source.source
        folder = os.path.dirname(path)
        if folder not in sys.path:
            sys.path.insert(0, folder)  # the bot imports its neighbours, as in the arena
        try:
            child.seed_globals(rng.getrandbits(32), text)
            bot: child.RpscontestBot | child.KaggleBot
            if source.kind == RPSCONTEST:
                bot = child.RpscontestBot(path, text, list(shims))
            else:
                bot = child.KaggleBot(path, text, throws, 1.0, list(shims))
        except child.BotError as exc:
            raise ValueError(f"bot file {spec!r} failed to load: {exc}") from None
        self._move = bot.move

    def move(self, their_last: int | None) -> int:
        watchdog = self._watchdog
        watchdog.start()
        try:
            return self._move(their_last)
        except (self._errors, MoveTimeout) as exc:
            if watchdog.fired:
                raise ValueError(
                    f"bot file {self.spec!r} took over {watchdog.limit:g} s for a move while "
                    "timed (--bot-timeout)"
                ) from None
            raise ValueError(f"bot file {self.spec!r} failed while timed: {exc}") from None
        finally:
            watchdog.stop()


def bot_players(
    specs: Sequence[str],
    shims: Sequence[str] = (),
    throws: int = 1_000,
    taken: Collection[str] = (),
    watchdog: Watchdog | None = None,
) -> dict[str, Factory]:
    """Factories of :class:`TimedBot` for bot file ``specs`` (told a match has ``throws``
    throws, their moves watched by ``watchdog``), by file name, or by spec where two share a
    name or it is ``taken`` (another player's); ``ValueError`` naming a spec that is not a
    readable bot file or a shim that does not exist."""
    from roshambo.arena.filebots import check_shims, split_spec

    checked = check_shims(tuple(shims))
    names = [Path(split_spec(spec)[1]).stem for spec in specs]
    players: dict[str, Factory] = {}
    for spec, name in zip(specs, names):
        source = BotSource.read(spec)
        label = name if names.count(name) == 1 and name not in taken else spec
        players[label] = lambda rng, spec=spec, source=source: TimedBot(
            spec, source, checked, throws, rng, watchdog
        )
    return players


def default_players() -> dict[str, Factory]:
    """Our engine and the baselines it is measured beside."""
    from roshambo.engine.agent import Agent
    from roshambo.opponents import OPPONENTS

    return {"ai": Agent, "markov": OPPONENTS["markov"], "frequency": OPPONENTS["frequency"]}


def measure(
    players: Mapping[str, Factory] | None = None,
    *,
    sizes: Sequence[int] = DEFAULT_SIZES,
    runs: int = 3,
    memory_moves: int | None = None,
    seed: int = 0,
    short: Mapping[str, Factory] | None = None,
) -> SpeedReport:
    """Time every player at every size, runs interleaved, and measure its memory; the
    ``short`` players (bot files) only at the smallest size, interleaved with the others,
    and with no memory run."""
    if runs < 1 or not sizes or min(sizes) < 1:
        raise ValueError("need runs >= 1 and at least one size >= 1")
    players = dict(players) if players is not None else default_players()
    short = dict(short or {})
    clash = sorted(set(players) & set(short))
    if clash:
        raise ValueError(f"players named twice: {clash!r}")
    memory_moves = max(sizes) if memory_moves is None else memory_moves
    smallest, largest = min(sizes), max(sizes)
    timed = {(name, moves) for moves in sizes for name in players}
    timed |= {(name, smallest) for name in short}
    factories = {**players, **short}
    seeds = {key: random.Random(seed) for key in timed}
    samples: dict[tuple[str, int], list[float]] = {key: [] for key in timed}
    drifts: dict[str, list[float]] = {name: [] for name in players}
    # a run plays as many moves at every size (short matches are more of them, up to a cap),
    # so a short size's median is not left to a few tenths of a second of a noisy machine
    repeats = {moves: min(MAX_REPEATS, max(1, largest // moves)) for moves in sizes}
    for _ in range(runs):
        for moves in sizes:
            for _ in range(repeats[moves]):
                for name, factory in factories.items():
                    if (name, moves) not in timed:
                        continue
                    per_move, drift = _timed_match(
                        factory, moves, seeds[(name, moves)], DRIFT_CHUNK
                    )
                    samples[(name, moves)].append(per_move)
                    if drift is not None and moves == largest and name in players:
                        drifts[name].append(drift)
    timings = tuple(
        Timing(name, moves, runs * repeats[moves], statistics.median(samples[(name, moves)]))
        for moves in sizes
        for name in factories
        if (name, moves) in timed
    )
    drift = tuple(
        Drift(name, max(sizes), DRIFT_CHUNK, statistics.median(values))
        for name, values in drifts.items()
        if values
    )
    memory = tuple(
        memory_growth(name, factory, memory_moves, seed) for name, factory in players.items()
    )
    return SpeedReport(timings, memory, seed, drift, tuple(short))


def format_report(report: SpeedReport) -> str:
    """Per-move times by size, the growth ratio, and memory per move, one row per player."""
    sizes = sorted({t.moves for t in report.timings})
    several = len(sizes) > 1  # the growth ratio needs two sizes
    headers = ["player", *(f"µs/move @{n:,}" for n in sizes)]
    headers += [f"ratio {sizes[-1]:,}/{sizes[0]:,}"] if several else []

    def cells(name: str) -> list[str]:
        timed = report.sizes(name)
        growth = report.growth(name)
        return [
            name,
            *(f"{report.per_move(name, n) * 1e6:.2f}" if n in timed else "-" for n in sizes),
            *(["-" if growth is None else f"{growth:.2f}"] if several else []),
        ]

    rows = [cells(name) for name in report.players()]
    memory_rows = [
        [m.player, f"{m.moves:,}", f"{m.peak_bytes / 1024:,.0f}", f"{m.bytes_per_move:.1f}"]
        for m in report.memory
    ]
    matches = ", ".join(
        f"{t.runs} of {t.moves:,}" for t in report.timings if t.player == report.timings[0].player
    )
    drift_rows = [[d.player, f"{d.moves:,}", f"{d.ratio:.2f}"] for d in report.drift]
    drift_table = (
        [
            "",
            f"inside each match: median per-move time of its last {DRIFT_CHUNKS} chunks of "
            f"{DRIFT_CHUNK:,} moves / of its first {DRIFT_CHUNKS} (median over the runs)",
            _table(["player", "moves", "last/first"], drift_rows),
        ]
        if drift_rows
        else []
    )
    engine = "ai" if "ai" in report.players() else None
    versus = (
        [
            "",
            f"the engine's time a move as a multiple of each bot file's, at {sizes[0]:,} moves "
            "(the bots run in this process: their own moves' cost)",
            _table(
                ["bot file", "ai / bot"],
                [
                    [
                        bot,
                        f"{report.per_move(engine, sizes[0]) / report.per_move(bot, sizes[0]):.2f}",
                    ]
                    for bot in report.bots
                ],
            ),
        ]
        if report.bots and engine is not None
        else []
    )
    return "\n".join(
        [
            f"per-move time, median over interleaved matches against random moves ({matches} moves; "
            f"seed {report.seed})",
            _table(headers, rows),
            *versus,
            *drift_table,
            "",
            "memory: tracemalloc peak growth of one match",
            _table(["player", "moves", "peak KiB", "bytes/move"], memory_rows),
        ]
    )


def _table(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    widths = [max(len(str(r[i])) for r in [headers, *rows]) for i in range(len(headers))]
    lines = [
        "  ".join(
            [str(r[0]).ljust(widths[0]), *(str(c).rjust(w) for c, w in zip(r[1:], widths[1:]))]
        )
        for r in [headers, *rows]
    ]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


# what each mode reads of the options that only it uses (an option given for the other mode
# is refused, not ignored)
BREAKDOWN_ONLY = ("matches",)
TIMING_ONLY = ("runs", "memory_moves", "bots", "bot_timeout", "shim")
WITH_BOTS_ONLY = ("bot_timeout", "shim")


def _flag(dest: str) -> str:
    return "--" + dest.replace("_", "-")


def check_options(args: argparse.Namespace) -> None:
    """A ValueError naming an option that the mode ``args`` ask for would ignore, or a bot
    file named twice or not named as one."""
    given = [
        dest for dest in (*BREAKDOWN_ONLY, *TIMING_ONLY) if getattr(args, dest) not in (None, [])
    ]
    if args.breakdown:
        ignored = [dest for dest in given if dest in TIMING_ONLY]
        if ignored:
            raise ValueError(
                f"--breakdown takes none of {_flag(ignored[0])}: it replays --matches fresh "
                "matches of the smallest --sizes, the engine alone"
            )
    else:
        ignored = [dest for dest in given if dest in BREAKDOWN_ONLY]
        if ignored:
            raise ValueError(f"{_flag(ignored[0])} is for --breakdown")
        if not args.bots:
            ignored = [dest for dest in given if dest in WITH_BOTS_ONLY]
            if ignored:
                raise ValueError(
                    f"{_flag(ignored[0])} is for the bot files of --bots, and none is named"
                )
    from roshambo.arena.filebots import is_file_spec
    from roshambo.arena.tournaments import canonical_name

    seen: dict[str, str] = {}  # a file's one spelling (its resolved path): its spec
    for spec in args.bots:
        if not is_file_spec(spec):
            raise ValueError(
                f"--bots {spec!r} is not a bot file: expected PATH.py, rpscontest:PATH or kaggle:PATH"
            )
        file = canonical_name(spec)
        if file in seen:
            raise ValueError(f"--bots names one file twice: {seen[file]!r} and {spec!r}")
        seen[file] = spec


def build_parser(parser: argparse.ArgumentParser | None = None) -> argparse.ArgumentParser:
    """The benchmark's options (shared with ``python -m roshambo bench``)."""
    parser = parser or argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--sizes",
        type=options.positive_ints,
        default=DEFAULT_SIZES,
        help="comma-separated match lengths (default: "
        + ",".join(str(n) for n in DEFAULT_SIZES)
        + ")",
    )
    parser.add_argument(
        "--runs",
        type=options.positive_int,
        default=None,
        help=f"runs per size (median; default {DEFAULT_RUNS})",
    )
    parser.add_argument(
        "--memory-moves",
        type=options.positive_int,
        default=None,
        help="moves of the memory run (default: the largest size)",
    )
    parser.add_argument(
        "--seed", type=options.seed, default=0, help="seed of the random moves (default 0)"
    )
    parser.add_argument(
        "--breakdown",
        action="store_true",
        help="instead: where the engine's time goes (meta levels, each predictor), in chains",
    )
    parser.add_argument(
        "--matches",
        type=options.positive_int,
        default=None,
        help=f"with --breakdown: matches of the smallest size (median; default {DEFAULT_MATCHES})",
    )
    parser.add_argument(
        "--bots",
        nargs="+",
        default=[],
        metavar="FILE",
        help="bot files (PATH.py, rpscontest:PATH, kaggle:PATH) timed beside the engine, in "
        "this process, at the smallest size",
    )
    parser.add_argument(
        "--bot-timeout",
        type=options.seconds,
        default=None,
        metavar="SECONDS",
        help="with --bots: stop a bot file's move that runs longer, naming the file "
        f"(default {DEFAULT_BOT_TIMEOUT:g})",
    )
    parser.add_argument(
        "--shim",
        action="append",
        default=[],
        type=options.one_of(SHIMS, "a shim"),
        metavar="NAME",
        help="with --bots: run every bot file with this compatibility shim (repeat for more): "
        + "; ".join(f"{name}: {what}" for name, what in SHIMS.items()),
    )
    return parser


def run(args: argparse.Namespace) -> str:
    """Measure as ``args`` say and return the formatted report."""
    check_options(args)
    sizes = tuple(args.sizes)
    if args.breakdown:
        matches = args.matches if args.matches is not None else DEFAULT_MATCHES
        return format_breakdown(measure_breakdown(min(sizes), matches, args.seed))
    players = default_players()
    watchdog = Watchdog(args.bot_timeout if args.bot_timeout is not None else DEFAULT_BOT_TIMEOUT)
    bots = (
        bot_players(args.bots, args.shim, min(sizes), taken=players, watchdog=watchdog)
        if args.bots
        else {}
    )
    # whatever a bot prints while timed is dropped (the report is printed afterwards)
    with (
        contextlib.redirect_stdout(io.StringIO()) if bots else contextlib.nullcontext(),
        watchdog if bots else contextlib.nullcontext(),
    ):
        report = measure(
            players,
            sizes=sizes,
            runs=args.runs if args.runs is not None else DEFAULT_RUNS,
            memory_moves=args.memory_moves,
            seed=args.seed,
            short=bots,
        )
    return format_report(report)


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        print(run(args))
    except ValueError as exc:  # a bad bot file or option: one line, as the CLI says it
        parser.exit(2, f"error: {exc}\n")
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    raise SystemExit(main())
