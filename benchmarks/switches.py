"""Switchers: what a switch costs the engine, beside a player that knows the members.

A switcher (:class:`roshambo.opponents.relatives.Switcher`) plays three deterministic relatives
in turn, ``period`` rounds each. For every switcher of the set (periods 50, 100 and 200 with
the members drawn by seeds 1 to 8: ``--periods``, ``--seeds``), ``--matches`` fresh 1000-game
matches (match k: engine seed k) report:

- the engine's games lost a match;
- a member tracker's, over the same rounds: a player that knows the members' rules but not
  the schedule, and beats the member it last saw play (when the move played is not that
  member's, it takes the first member that played it). No general player can expect to
  know more than that, so its losses are about the least a switch costs;
- the engine's strategies in hindsight: per block, the fewest games one strategy of the
  engine's lost there (a round it was silent counts a third, a random move's chance),
  summed over the blocks: what a player choosing among them, told where each block begins
  and which of them fits it, would have lost over the same rounds. Beside the engine's own
  losses it splits them into what the strategies miss and what choosing among them costs;
- per switch (every block but the first), the rounds from the switch until some strategy of
  the engine's wins ``--run`` rounds running (its predictors have the new member) and until
  the engine's own move does (its meta levels follow them): medians over the switches, and
  the engine's games lost in a block's first 20 rounds.

The members each see every move, so the member that takes over is up to date: a
switch back to a member seen before is a chance to remember, not to relearn. ``--json``
saves every match; ``--compare BEFORE.json AFTER.json`` pairs two engines' matches by
switcher and match number and prints the difference in games lost with its standard error.

    python benchmarks/switches.py [--periods 50,100,200] [--seeds 1-8] [--matches 8]
                                  [--run 8] [--workers 2] [--json FILE]
    python benchmarks/switches.py --compare BEFORE.json AFTER.json
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from roshambo.apps import options  # noqa: E402
from roshambo.engine.agent import Agent  # noqa: E402
from roshambo.engine.moves import beats  # noqa: E402
from roshambo.opponents.relatives import Switcher, make_relative, spec_name  # noqa: E402

ROUNDS = 1000
EARLY = 20  # a block's first rounds, where a switch costs
# numbers one option may list: every switcher is played --matches times, and a range such
# as 1-1000000000 would otherwise be built in memory before the first match
MAX_VALUES = 1000
MAX_PERIOD = ROUNDS - 1  # a longer period never switches within a match


@dataclass(frozen=True)
class SwitchMatch:
    """One fresh match against a switcher: games lost by the engine, by the member tracker
    and by the engine's strategies in hindsight (the best one per block), and per switch the
    rounds until a strategy, and the engine, won ``run`` running (the block's length where
    none did) and the engine's games lost early in the block."""

    switcher: str
    number: int
    lost: int
    tracker_lost: int
    ready: tuple[int, ...]
    followed: tuple[int, ...]
    early_lost: tuple[int, ...]
    hindsight: float | None = None  # None: a run saved before it was measured


def parse_range(text: str, high: int | None = None) -> list[int]:
    """``1-8`` or ``1,3,5`` (or both, comma-separated) as a list of distinct integers from 1
    to ``high``, at most ``MAX_VALUES`` of them; ``ValueError`` naming the text otherwise."""
    values: list[int] = []
    for part in text.split(","):
        low, dash, top = part.partition("-")
        first = options.decimal(low)  # (int() would also take "1_0" or " 3")
        last = options.decimal(top) if dash else first
        if first is None or last is None:
            raise ValueError(f"invalid range {text!r}: expected numbers like 1-8 or 50,100,200")
        if last < first:
            raise ValueError(
                f"invalid range {text!r}: {part!r} runs backwards, so it is empty "
                f"(write {last}-{first})"
            )
        if first < 1 or high is not None and last > high:
            expected = "positive numbers" if high is None else f"numbers from 1 to {high}"
            raise ValueError(f"invalid range {text!r}: expected {expected}, got {part!r}")
        if len(values) + last - first + 1 > MAX_VALUES:
            raise ValueError(f"invalid range {text!r}: more than {MAX_VALUES} numbers")
        values += range(first, last + 1)
    twice = sorted({value for value in values if values.count(value) > 1})
    if twice:
        raise ValueError(f"invalid range {text!r}: {', '.join(map(str, twice))} given twice")
    return values


def first_run(wins: list[int], start: int, end: int, run: int) -> int:
    """Rounds from ``start`` until the first round from which some bit of ``wins`` stays set
    ``run`` rounds running, within ``[start, end)``; ``end - start`` if none does."""
    for t in range(start, end - run + 1):
        common = -1
        for u in range(t, t + run):
            common &= wins[u]
            if not common:
                break
        else:
            return t - start
    return end - start


def best_per_block(lost: list[list[float]], period: int) -> float:
    """The fewest games one strategy lost in each block of ``period`` rounds, summed over
    the blocks; ``lost[t][s]`` is what strategy ``s`` lost in round ``t``."""
    total = 0.0
    for start in range(0, len(lost), period):
        rounds = lost[start : start + period]
        total += min(map(sum, zip(*rounds)), default=0.0)
    return total


def play_match(switcher: str, number: int, run: int) -> SwitchMatch:
    """Match ``number`` (engine seed ``number``) against ``switcher``, fresh."""
    bot = make_relative(switcher)
    if not isinstance(bot, Switcher):
        raise ValueError(f"invalid switcher {switcher!r}: expected switcher:period=P,seed=S")
    engine = Agent(random.Random(number))
    tracked = 0  # the member the tracker follows
    ours = theirs = None
    tracker_lost = 0
    strategy_wins: list[int] = []  # per round, a bit per strategy that would have won
    engine_wins: list[int] = []  # per round, 1 if the engine won
    lost_at: list[int] = []
    strategy_lost: list[list[float]] = []  # per round, per strategy: lost 1, else 0, silent 1/3
    for t in range(ROUNDS):
        move = engine.move(theirs)
        options = engine.strategy_moves().values()
        theirs_now = bot.move(ours)
        members = bot.member_moves
        assert members is not None
        winning, beaten = (
            beats(theirs_now),
            (theirs_now + 2) % 3,
        )  # the moves theirs loses to, beats
        strategy_wins.append(sum(1 << s for s, m in enumerate(options) if m == winning))
        strategy_lost.append([1 / 3 if m is None else float(m == beaten) for m in options])
        engine_wins.append(int(move == winning))
        if move == beaten:
            lost_at.append(t)
        if beats(members[tracked]) == beaten:  # the tracker's move, chosen before this round
            tracker_lost += 1
        if members[tracked] != theirs_now:
            tracked = next((i for i, m in enumerate(members) if m == theirs_now), tracked)
        ours, theirs = move, theirs_now
    period = bot.period
    starts = range(period, ROUNDS, period)
    ready = tuple(first_run(strategy_wins, s, min(s + period, ROUNDS), run) for s in starts)
    followed = tuple(first_run(engine_wins, s, min(s + period, ROUNDS), run) for s in starts)
    early = tuple(sum(s <= t < s + EARLY for t in lost_at) for s in starts)
    return SwitchMatch(
        switcher,
        number,
        len(lost_at),
        tracker_lost,
        ready,
        followed,
        early,
        round(best_per_block(strategy_lost, period), 2),
    )


def _play(job: tuple[str, int, int]) -> SwitchMatch:
    return play_match(*job)


def measure(switchers: list[str], matches: int, run: int, workers: int) -> list[SwitchMatch]:
    jobs = [(spec, k, run) for spec in switchers for k in range(matches)]
    with ProcessPoolExecutor(max_workers=workers) as pool:
        return list(pool.map(_play, jobs, chunksize=2))


def table(results: list[SwitchMatch]) -> str:
    """Per switcher: the engine's games lost a match (mean, most), the member tracker's, the
    engine's strategies' in hindsight ("-" for runs saved before it was measured), the
    median rounds after a switch until a strategy and the engine won a run, and the engine's
    games lost in a block's first rounds, per switch; then all switchers together."""
    lines = [
        f"{'switcher':30} {'lost':>6} {'most':>5} {'tracker':>7} {'hindsight':>9} {'ready':>6}"
        f" {'followed':>8} {'early lost':>10}"
    ]
    groups = {r.switcher: [m for m in results if m.switcher == r.switcher] for r in results}
    rows = list(groups.items()) + [("all", results)]
    for name, group in rows:
        ready = [x for m in group for x in m.ready]
        followed = [x for m in group for x in m.followed]
        early = [x for m in group for x in m.early_lost]
        hindsight = [m.hindsight for m in group if m.hindsight is not None]
        lines.append(
            f"{name:30} {statistics.fmean(m.lost for m in group):6.1f} {max(m.lost for m in group):5}"
            f" {statistics.fmean(m.tracker_lost for m in group):7.1f}"
            f" {f'{statistics.fmean(hindsight):.1f}' if hindsight else '-':>9}"
            f" {statistics.median(ready) if ready else 0:6.1f}"
            f" {statistics.median(followed) if followed else 0:8.1f}"
            f" {statistics.fmean(early) if early else 0:10.2f}"
        )
    return "\n".join(lines)


def compare(before: list[SwitchMatch], after: list[SwitchMatch]) -> str:
    """Per switcher and in all: games lost a match before and after, and the paired
    difference with its standard error (matches paired by switcher and number)."""
    old = {(m.switcher, m.number): m for m in before}
    pairs = [(old[m.switcher, m.number], m) for m in after if (m.switcher, m.number) in old]
    if not pairs:
        raise ValueError(
            "the runs share no match: compare runs of the same switchers and match numbers"
        )
    lines = [
        f"{len(pairs)} paired matches ({len(before) - len(pairs)} and {len(after) - len(pairs)} unpaired)",
        f"{'switcher':30} {'before':>7} {'after':>7} {'difference':>16}",
    ]
    names = list(dict.fromkeys(m.switcher for _, m in pairs))
    for name in names + ["all"]:
        group = [(a, b) for a, b in pairs if name in ("all", b.switcher)]
        diffs = [b.lost - a.lost for a, b in group]
        se = statistics.stdev(diffs) / len(diffs) ** 0.5 if len(diffs) > 1 else 0.0
        lines.append(
            f"{name:30} {statistics.fmean(a.lost for a, _ in group):7.2f}"
            f" {statistics.fmean(b.lost for _, b in group):7.2f}"
            f" {statistics.fmean(diffs):+8.2f} +- {se:5.2f}"
        )
    return "\n".join(lines)


def save(results: list[SwitchMatch], path: Path) -> None:
    path.write_text(json.dumps([asdict(m) for m in results]))


def load(path: Path) -> list[SwitchMatch]:
    """A run saved by ``--json``; ``ValueError`` naming the file if it is not one."""
    try:
        return [
            SwitchMatch(
                **{**row, **{k: tuple(row[k]) for k in ("ready", "followed", "early_lost")}}
            )
            for row in json.loads(path.read_text())
        ]
    except (KeyError, TypeError, json.JSONDecodeError) as error:
        raise ValueError(f"{path} is not a run saved by --json ({error!r})") from None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--periods", default="50,100,200", help=f"rounds a member plays, 1 to {MAX_PERIOD}"
    )
    parser.add_argument(
        "--seeds", default="1-8", help=f"the members' draws, up to {MAX_VALUES} numbers"
    )
    parser.add_argument("--matches", type=options.positive_int, default=8)
    parser.add_argument("--run", type=options.positive_int, default=8)
    parser.add_argument("--workers", type=options.workers, default=2)
    parser.add_argument("--json", type=options.output_file)
    parser.add_argument("--compare", nargs=2, type=Path, metavar=("BEFORE", "AFTER"))
    args = parser.parse_args(argv)
    if args.compare:
        try:
            print(compare(load(args.compare[0]), load(args.compare[1])))
        except (OSError, ValueError) as error:
            parser.error(f"cannot compare {args.compare[0]} with {args.compare[1]}: {error}")
        return 0
    ranges = {}
    for name, high in (("periods", MAX_PERIOD), ("seeds", None)):
        try:
            ranges[name] = parse_range(getattr(args, name), high)
        except ValueError as error:
            parser.error(f"argument --{name}: {error}")
    periods, seeds = ranges["periods"], ranges["seeds"]
    for name in ("matches", "run", "workers"):
        if getattr(args, name) < 1:
            parser.error(f"invalid --{name} {getattr(args, name)}: expected a positive number")
    switchers = [spec_name("switcher", period=p, seed=s) for p in periods for s in seeds]
    results = measure(switchers, args.matches, args.run, args.workers)
    if args.json:
        save(results, args.json)
    print(
        f"{len(results)} fresh matches of {ROUNDS} games; a strategy or the engine 'ready' once it wins"
        f" {args.run} rounds running"
    )
    print(table(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
