"""Matches, tournaments and population metrics (Lanctot et al. 2023).

A *factory* is a picklable callable ``factory(rng) -> player`` (a module-level class, a
``functools.partial`` or a :class:`Registered` name, never a lambda), so every match builds
fresh players seeded from that match's seed, in whatever process plays it. A tournament draws
every match's seed from its master seed before any match runs, so one worker and many
workers give the same results (the Axelrod library's rule).

Metrics follow Lanctot et al. 2023, "Population-based Evaluation in Repeated Rock-Paper-
Scissors as a Benchmark for Multiagent Reinforcement Learning": a match scores +1 per won
throw and -1 per lost one; scores are averaged over repetitions; population return PR is the
mean over the population, exploitability PE the largest mean return of any one member against
the candidate, and AGG = PR - PE. The fCC win rate is wins / decisive throws.

Where matches run is the caller's choice: this process, a process pool, or any
``concurrent.futures.Executor`` (``roshambo.arena.executors``: Dask on a cluster); finished matches
can stream to a resumable JSONL run log (``roshambo.arena.runlog``). A player may be a bot from a
file (``roshambo.arena.filebots``); one that fails in a match forfeits it (:class:`Forfeit`).

Nothing here prints: progress is reported through a callback, tables live in ``report``.
"""

from __future__ import annotations

import importlib
import random
import statistics
import time
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Executor, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path

from ..engine.moves import Move, check_move
from .filebot_child import end_with_parent
from .filebots import (
    DEFAULT_MOVE_TIMEOUT,
    BotFailure,
    BotSource,
    FileBot,
    FileBotFactory,
    check_shims,
    is_file_spec,
    split_spec,
)
from .matches import Factory, Forfeit, MatchResult, MatchSpec, Player, Progress
from .runlog import RunHeader, RunLog

ENGINE_NAME = "ai"
CLASSIC_PREFIX = "classic:"
CLASSIC_GROUP = "classic:*"
DEFAULT_THROWS = 1000
# Matches submitted to an executor at a time: enough to keep a cluster busy, few enough
# that results stream to the run log as they finish and memory stays flat.
IN_FLIGHT_PER_WORKER = 4
MIN_IN_FLIGHT = 64


@dataclass(frozen=True)
class PairSummary:
    """All repetitions of ``player`` against ``opponent``, from ``player``'s point of view."""

    player: str
    opponent: str
    matches: int
    mean_score: float
    std_score: float
    mean_win_rate: float
    wins: int
    losses: int
    ties: int


@dataclass(frozen=True)
class PopulationMetrics:
    """Lanctot et al. 2023 metrics of one candidate against a population."""

    candidate: str
    members: int
    pr: float
    pe: float
    agg: float
    worst: str
    win_rate: float
    wins: int  # throws won, and won or lost, over all the candidate's matches
    decisive: int


@dataclass(frozen=True)
class TournamentResult:
    """Every match of a tournament, in schedule order, and how it was set up.

    ``candidates`` is empty for a round robin; otherwise each candidate played each member
    of ``population`` and is always the ``player`` side of its results.
    """

    matches: tuple[MatchResult, ...]
    n: int
    reps: int
    seed: int
    population: tuple[str, ...]
    candidates: tuple[str, ...] = ()
    # of the matches, those read from the run log rather than played (not part of the result)
    resumed: int = field(default=0, compare=False)

    @property
    def played(self) -> int:
        """The matches played by this run (the others were resumed from its run log)."""
        return len(self.matches) - self.resumed

    @property
    def round_robin(self) -> bool:
        return not self.candidates

    def oriented(self) -> tuple[MatchResult, ...]:
        """Each result once per participant's point of view (round robin adds the mirror)."""
        if not self.round_robin:
            return self.matches
        return self.matches + tuple(m.flipped() for m in self.matches)

    def forfeits(self) -> tuple[MatchResult, ...]:
        """The matches that ended by forfeit, in schedule order."""
        return tuple(m for m in self.matches if m.forfeit is not None)

    def pairs(self) -> tuple[PairSummary, ...]:
        """Per-pair aggregates over repetitions."""
        return summarize_pairs(self.oriented())

    def metrics(self) -> tuple[PopulationMetrics, ...]:
        """PR, PE, AGG for every candidate (round robin: every entrant against the rest)."""
        oriented = self.oriented()
        names = self.candidates or self.population
        return tuple(population_metrics(oriented, name) for name in names)


@dataclass(frozen=True)
class Registered:
    """A picklable factory that builds a player from its registry name.

    "ai" is our engine, "classic:NAME" a classic RoShamBo bot from open_spiel (sized for
    ``throws``), anything else a name in ``roshambo.opponents``.
    """

    name: str
    throws: int = DEFAULT_THROWS

    def __call__(self, rng: random.Random) -> Player:
        return make_player(self.name, rng, throws=self.throws)


def play_match(
    a: Factory,
    b: Factory,
    n: int,
    seed: int,
    *,
    labels: tuple[str, str] | None = None,
    rep: int = 0,
) -> MatchResult:
    """Play ``n`` throws between fresh players from factories ``a`` and ``b``.

    Both players' random sources are drawn from ``seed``, so the same seed replays the same
    match. Results are counted from ``a``'s side and named by ``labels`` (default: the
    players' ``name``). Each round asks ``a`` first, then ``b``; a player whose ``move``
    raises :class:`BotFailure` (a bot from a file that raised, answered a non-move or ran
    out of time) forfeits there: that round and the rest count as lost, the other player
    is not asked again. Players with a ``close()`` method are closed after the match.
    """
    if n < 0:
        raise ValueError(f"a match needs n >= 0 throws, got {n}")
    seeds = random.Random(seed)
    player_a = a(random.Random(seeds.getrandbits(64)))
    try:
        player_b = b(random.Random(seeds.getrandbits(64)))
    except BaseException:
        _close(player_a)
        raise
    try:
        return _play(player_a, player_b, n, seed, labels, rep)
    finally:
        _close(player_a)
        _close(player_b)


def _play(
    player_a: Player, player_b: Player, n: int, seed: int, labels: tuple[str, str] | None, rep: int
) -> MatchResult:
    name_a, name_b = labels if labels is not None else (player_a.name, player_b.name)
    wins = losses = 0
    forfeit: Forfeit | None = None
    last_a: Move | None = None
    last_b: Move | None = None
    for played in range(n):
        try:
            move_a = _legal(player_a.move(last_b), name_a)
        except BotFailure as failure:
            forfeit = Forfeit(name_a, played + 1, failure.cause, str(failure))
            losses += n - played
            break
        try:
            move_b = _legal(player_b.move(last_a), name_b)
        except BotFailure as failure:
            forfeit = Forfeit(name_b, played + 1, failure.cause, str(failure))
            wins += n - played
            break
        difference = (move_a - move_b) % 3
        if difference == 1:
            wins += 1
        elif difference == 2:
            losses += 1
        last_a, last_b = move_a, move_b
    return MatchResult(name_a, name_b, wins, losses, n - wins - losses, seed, n, rep, forfeit)


def _close(player: Player) -> None:
    close = getattr(player, "close", None)
    if callable(close):
        close()


def _legal(move: Move, name: str) -> Move:
    try:
        return check_move(move)
    except ValueError as exc:
        raise ValueError(f"{name}: {exc}") from None


def schedule(pairs: Sequence[tuple[str, str]], reps: int, seed: int) -> tuple[MatchSpec, ...]:
    """Every match of ``reps`` repetitions over ``pairs``, each seed drawn now from ``seed``."""
    if reps < 1:
        raise ValueError(f"a tournament needs reps >= 1, got {reps}")
    master = random.Random(seed)
    return tuple(
        MatchSpec(a, b, rep, master.getrandbits(63)) for rep in range(reps) for a, b in pairs
    )


def tournament(
    entrants: Mapping[str, Factory],
    *,
    n: int,
    reps: int,
    seed: int,
    candidates: Mapping[str, Factory] | None = None,
    workers: int = 1,
    executor: Executor | None = None,
    out: str | Path | None = None,
    progress: Progress | None = None,
) -> TournamentResult:
    """A round robin among ``entrants``, or each of ``candidates`` against them.

    Seeds are drawn before any match runs, so where the matches run cannot change a result:
    in this process (``workers == 1``), in a process pool of ``workers``, or on ``executor``
    (anything with the ``concurrent.futures.Executor`` interface, such as a Dask client's
    ``get_executor()``; factories must pickle). With ``out``, every finished match is
    appended to that JSONL run log as it arrives, and matches already in it are not played
    again (``runlog.RunLog``: it must hold this same run). ``progress(done, total)`` is
    called after every match.
    """
    if workers < 1:
        raise ValueError(f"workers must be >= 1, got {workers}")
    population = tuple(entrants)
    if candidates:
        pairs = [(c, member) for c in candidates for member in population]
        factories = {**entrants, **candidates}
        if set(candidates) & set(entrants):
            clash = sorted(set(candidates) & set(entrants))
            raise ValueError(f"candidate labels clash with population labels: {clash}")
    else:
        if len(population) < 2:
            raise ValueError("a round robin needs at least two entrants")
        pairs = [(a, b) for i, a in enumerate(population) for b in population[i + 1 :]]
        factories = dict(entrants)
    specs = schedule(pairs, reps, seed)
    results: list[MatchResult | None] = [None] * len(specs)
    log = None
    if out is not None:
        header = RunHeader.of(
            seed=seed,
            n=n,
            reps=reps,
            population=population,
            candidates=tuple(candidates or ()),
            factories=factories,
        )
        log = RunLog(out, header)
        scheduled = {(spec.player, spec.opponent, spec.rep): spec.seed for spec in specs}
        for key, found in log.done.items():
            if scheduled.get(key) != found.seed:
                log.close()
                what = (
                    "is not scheduled"
                    if key not in scheduled
                    else (f"has seed {found.seed}, but this run draws {scheduled[key]}")
                )
                raise ValueError(
                    f"{out}, line {log.lines[key]}: the match {key[0]} against {key[1]} "
                    f"(rep {key[2]}) {what}: the file was changed; choose another --out file"
                )
        for index, spec in enumerate(specs):
            results[index] = log.done.get((spec.player, spec.opponent, spec.rep))
    jobs = [
        (
            index,
            (factories[s.player], factories[s.opponent], n, s.seed, (s.player, s.opponent), s.rep),
        )
        for index, s in enumerate(specs)
        if results[index] is None
    ]
    done = resumed = len(specs) - len(jobs)
    try:
        for index, result, seconds in _execute(jobs, executor, workers):
            results[index] = result
            if log is not None:
                log.record(result, seconds)
            done += 1
            if progress is not None:
                progress(done, len(specs))
    finally:
        if log is not None:
            log.close()
    return TournamentResult(
        tuple(r for r in results if r is not None),
        n,
        reps,
        seed,
        population,
        tuple(candidates or ()),
        resumed,
    )


def processes(workers: int, matches: int) -> int:
    """The processes a local run of ``matches`` on ``workers`` uses: one per match at most,
    and this process alone for a single match."""
    return 1 if workers == 1 or matches <= 1 else min(workers, matches)


def _play_job(job: tuple) -> tuple[MatchResult, float]:
    a, b, n, seed, labels, rep = job
    start = time.perf_counter()
    result = play_match(a, b, n, seed, labels=labels, rep=rep)
    return result, time.perf_counter() - start


def _execute(
    jobs: Sequence[tuple[int, tuple]], executor: Executor | None, workers: int
) -> Iterator[tuple[int, MatchResult, float]]:
    """(index, result, seconds) for every job, in the order they finish."""
    if executor is not None:
        yield from _windowed(jobs, executor, max(MIN_IN_FLIGHT, IN_FLIGHT_PER_WORKER * workers))
    elif processes(workers, len(jobs)) == 1:
        for index, job in jobs:
            yield (index, *_play_job(job))
    else:
        workers = processes(workers, len(jobs))  # no process without a match to play
        pool = ProcessPoolExecutor(max_workers=workers, initializer=end_with_parent)
        try:
            yield from _windowed(jobs, pool, IN_FLIGHT_PER_WORKER * workers)
        finally:
            pool.shutdown(wait=True, cancel_futures=True)


def _windowed(
    jobs: Sequence[tuple[int, tuple]], executor: Executor, window: int
) -> Iterator[tuple[int, MatchResult, float]]:
    """Keep at most ``window`` jobs submitted; yield each as it finishes."""
    pending: dict[Future, int] = {}
    queue = iter(jobs)
    try:
        while True:
            for index, job in queue:
                pending[executor.submit(_play_job, job)] = index
                if len(pending) >= window:
                    break
            if not pending:
                return
            finished, _ = wait(pending, return_when=FIRST_COMPLETED)
            for future in finished:
                index = pending.pop(future)
                yield (index, *future.result())
    finally:
        for future in pending:
            future.cancel()


def summarize_pairs(results: Iterable[MatchResult]) -> tuple[PairSummary, ...]:
    """Group results by (player, opponent), in first-seen order, and aggregate them."""
    groups: dict[tuple[str, str], list[MatchResult]] = {}
    for result in results:
        groups.setdefault((result.player, result.opponent), []).append(result)
    return tuple(_summary(player, opponent, group) for (player, opponent), group in groups.items())


def _summary(player: str, opponent: str, group: list[MatchResult]) -> PairSummary:
    scores = [r.score for r in group]
    return PairSummary(
        player=player,
        opponent=opponent,
        matches=len(group),
        mean_score=statistics.fmean(scores),
        std_score=statistics.stdev(scores) if len(scores) > 1 else 0.0,
        mean_win_rate=statistics.fmean(r.win_rate for r in group),
        wins=sum(r.wins for r in group),
        losses=sum(r.losses for r in group),
        ties=sum(r.ties for r in group),
    )


def population_metrics(results: Iterable[MatchResult], candidate: str) -> PopulationMetrics:
    """PR, PE and AGG of ``candidate`` from results counted on its side (Lanctot et al. 2023).

    PR = mean over members of the candidate's mean score against that member;
    PE = max over members of the member's mean score against the candidate;
    AGG = PR - PE; win rate = the candidate's wins / decisive throws over all its matches.
    """
    own = [r for r in results if r.player == candidate]
    if not own:
        raise ValueError(f"no results for candidate {candidate!r}")
    pairs = summarize_pairs(own)
    pr = statistics.fmean(p.mean_score for p in pairs)
    worst = min(pairs, key=lambda p: p.mean_score)
    pe = -worst.mean_score
    wins = sum(r.wins for r in own)
    decisive = sum(r.decisive for r in own)
    return PopulationMetrics(
        candidate=candidate,
        members=len(pairs),
        pr=pr,
        pe=pe,
        agg=pr - pe,
        worst=worst.opponent,
        win_rate=100.0 * wins / decisive if decisive else 0.0,
        wins=wins,
        decisive=decisive,
    )


def match_record(results: Iterable[MatchResult]) -> tuple[int, int, int]:
    """(matches won, lost, drawn) by score, over ``results``."""
    won = lost = drawn = 0
    for result in results:
        if result.score > 0:
            won += 1
        elif result.score < 0:
            lost += 1
        else:
            drawn += 1
    return won, lost, drawn


def _opponents_registry() -> object | None:
    """``roshambo.opponents`` if it offers ``make_opponent`` (imported lazily)."""
    try:
        module = importlib.import_module("roshambo.opponents")
    except ImportError:
        return None
    return module if hasattr(module, "make_opponent") else None


def canonical_name(name: str) -> str:
    """The one spelling of a player: a relative's whole spec (``counter:`` and
    ``counter:tie=first`` are one member), a bot file's resolved path (however it is
    reached, and whichever reading is forced), any other name as given."""
    if is_file_spec(name):
        return str(Path(split_spec(name)[1]).resolve())
    module = _opponents_registry()
    if module is not None and getattr(module, "is_relative", lambda _: False)(name):
        return str(module.canonical_name(name))  # type: ignore[attr-defined]
    return name


def known_names() -> tuple[str, ...]:
    """Registry names usable without open_spiel: "ai" and every registered opponent."""
    module = _opponents_registry()
    others = tuple(getattr(module, "OPPONENTS", {})) if module is not None else ()
    return (ENGINE_NAME, *others)


def expand_names(names: Iterable[str]) -> list[str]:
    """``names`` with ``classic:*`` replaced by every classic bot (open_spiel's order)."""
    expanded: list[str] = []
    for name in names:
        if name == CLASSIC_GROUP:
            from .classic_field import bot_names

            expanded.extend(CLASSIC_PREFIX + bot for bot in bot_names())
        else:
            expanded.append(name)
    return expanded


def short_labels(names: Sequence[str]) -> dict[str, str]:
    """Each player spec's label for tables: a bot file by its file name (``my_bot.py``,
    ``kaggle:agent.py`` when forced), unless two files would share one; others as given."""

    def short(name: str) -> str:
        if not is_file_spec(name):
            return name
        kind, path = split_spec(name)
        return Path(path).name if kind is None else f"{kind}:{Path(path).name}"

    shorts = {name: short(name) for name in names}
    taken = Counter(shorts.values())
    return {
        name: label if taken[label] == 1 and (label == name or label not in shorts) else name
        for name, label in shorts.items()
    }


def make_player(
    name: str,
    rng: random.Random | None = None,
    *,
    throws: int = DEFAULT_THROWS,
    move_timeout: float = DEFAULT_MOVE_TIMEOUT,
    shims: tuple[str, ...] = (),
) -> Player:
    """A fresh player by spec: "ai", "classic:NAME", a ``roshambo.opponents`` name, a
    relative's spec (``counter:window=20``), or a bot file (``PATH.py``, ``rpscontest:PATH``,
    ``kaggle:PATH``, run with ``shims``; see ``roshambo.arena.filebots``)."""
    if name == ENGINE_NAME:
        from ..engine.agent import Agent

        return Agent(rng)
    if is_file_spec(name):
        return FileBot(
            BotSource.read(name),
            rng,
            throws=throws,
            move_timeout=move_timeout,
            name=name,
            shims=shims,
        )
    if name.startswith(CLASSIC_PREFIX):
        from .classic_field import ClassicBot

        return ClassicBot(name[len(CLASSIC_PREFIX) :], rng, throws=throws)
    module = _opponents_registry()
    relative = getattr(module, "is_relative", lambda _: False)(name)
    if module is None or not relative and name not in getattr(module, "OPPONENTS", {name: None}):
        raise ValueError(
            f"unknown player {name!r}: expected one of {', '.join(known_names())}, "
            f"{CLASSIC_PREFIX}NAME for a classic open_spiel bot, a relative's spec "
            f"({getattr(module, 'usage', str)()}), or a bot file "
            f"(PATH.py, rpscontest:PATH, kaggle:PATH)"
        )
    return module.make_opponent(name, rng)  # type: ignore[attr-defined]


def resolve(
    name: str,
    *,
    throws: int = DEFAULT_THROWS,
    move_timeout: float = DEFAULT_MOVE_TIMEOUT,
    shims: tuple[str, ...] = (),
) -> Factory:
    """A checked, picklable factory for ``name`` (raises ``ValueError`` for unknown names).

    A bot file is read (and parsed) once, here: its factory carries the source, so workers
    on other machines need not see the file.
    """
    if is_file_spec(name):
        if not move_timeout > 0:
            raise ValueError(f"the move timeout must be > 0 seconds, got {move_timeout}")
        return FileBotFactory(name, BotSource.read(name), throws, move_timeout, check_shims(shims))
    if name.startswith(CLASSIC_PREFIX):
        from .classic_field import check_bot_name

        check_bot_name(name[len(CLASSIC_PREFIX) :])
    else:
        make_player(name, random.Random(0), throws=throws)
    return Registered(name, throws)
