"""The fCC bar, measured: win rates against quincy, abbey, kris and mrugesh in every scenario.

Each hash seed gets its own interpreter (``PYTHONHASHSEED`` decides mrugesh's tie-breaks),
which plays, through ``RPS.player`` and ``RPS_game.play`` exactly as a learner's run does,
1000-game matches in the official ``main.py`` order (quincy, abbey, kris, mrugesh), then the
unit tests' order (abbey, kris, mrugesh, quincy), then a third round (mrugesh, kris, quincy,
abbey): the bots carry their state from one match to the next, as they do in the real
harness. Fresh bots get one interpreter per bot. The engine draws from OS entropy unless
``--engine-seed`` is given, so by default every run is a new sample.

    python benchmarks/fcc_scenarios.py [--hash-seeds 20] [--first-hash-seed 0] [--workers 2]
                                       [--engine-seed N] [--json FILE]
    python benchmarks/fcc_scenarios.py --compare BEFORE.json AFTER.json

Prints, per bot and scenario, the lowest and mean win rate, how many matches reached 99%,
and the games lost: the mean and the most in one match, and how many of them came after the
first ``EARLY`` rounds (the rest is the price of finding a bot out; the misses of the 99% bar
are made of it); then the tail (matches with 7, 8, 9, 10 or more games lost) and the opening,
round by round: the share of matches that lost the round, and the share that lost it while
hedging (playing at random).

Comparing two versions of the engine: run both with the same ``--engine-seed`` and hash
seeds (the engine seed of an interpreter is that number plus its hash seed), save each with
``--json``, and ``--compare`` the files: matches are paired by scenario, hash seed and
bot, and the difference in games lost comes with its standard error over the pairs.
Paired or not, a change that alters one early move sends the rest of the opening elsewhere,
so the pairs differ by a few games either way: for changes that reach the opening of most
matches the standard error of the total came out at 67 to 142 games over 3,600 to 4,800
matches, and a difference within two of them is noise.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from roshambo.apps import options  # noqa: E402

BOTS = ("quincy", "abbey", "kris", "mrugesh")
ROUNDS = {
    "main.py order": ("quincy", "abbey", "kris", "mrugesh"),
    "unit-test order": ("abbey", "kris", "mrugesh", "quincy"),
    "third round": ("mrugesh", "kris", "quincy", "abbey"),
}
BAR = 99.0
EARLY = 30  # rounds counted as the opening when losses are split by time

SCRIPT = """
import contextlib, io, json, random, sys
import RPS, RPS_game
from roshambo.engine.agent import Agent
seed = sys.argv[1]
RPS.player.__defaults__[0].append(Agent(random.Random(int(seed)) if seed else None))
engine = RPS.player.__defaults__[0][0]
BEATS = {"R": "P", "P": "S", "S": "R"}
results = []
for name in sys.argv[2:]:
    ours, theirs, hedged = [], [], []
    def player(prev, ours=ours, hedged=hedged):
        ours.append(RPS.player(prev))
        hedged.append(engine.belief().hedging)
        return ours[-1]
    def bot(prev, theirs=theirs, play=getattr(RPS_game, name)):
        theirs.append(play(prev))
        return theirs[-1]
    with contextlib.redirect_stdout(io.StringIO()):
        rate = RPS_game.play(player, bot, 1000)
    lost = [i for i, (a, b) in enumerate(zip(ours, theirs)) if BEATS[a] == b]
    results.append([rate, lost, [i for i in lost if hedged[i]]])
print(json.dumps(results))
"""
OPENING = 12  # rounds shown one by one in the opening profile
TAIL = (7, 8, 9, 10)  # games lost a match, counted in the tail


@dataclass(frozen=True)
class Match:
    """One 1000-game match: where it was played, its win rate, and the rounds it lost
    (``hedged``: those lost while the engine played at random)."""

    scenario: str
    hash_seed: int
    bot: str
    rate: float
    lost: tuple[int, ...]
    hedged: tuple[int, ...] = ()

    @property
    def losses(self) -> int:
        return len(self.lost)

    @property
    def late(self) -> int:
        """Games lost after the first ``EARLY`` rounds."""
        return sum(i >= EARLY for i in self.lost)


def play_process(hash_seed: int, bots: list[str], engine_seed: int | None) -> list[list]:
    """Play ``bots`` in order in one interpreter; per match: the win rate, the rounds lost,
    and the rounds lost while hedging."""
    env = dict(os.environ, PYTHONHASHSEED=str(hash_seed))
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    seed = "" if engine_seed is None else str(engine_seed + hash_seed)
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, seed, *bots],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        check=True,
    )
    return json.loads(done.stdout)


def measure(hash_seeds: int, workers: int, engine_seed: int | None, first: int = 0) -> list[Match]:
    """Every scenario under the hash seeds ``first`` .. ``first + hash_seeds - 1``."""
    chained = [bot for order in ROUNDS.values() for bot in order]
    labels = [label for label, order in ROUNDS.items() for _ in order]
    seeds = range(first, first + hash_seeds)
    with ThreadPoolExecutor(max_workers=workers) as pool:
        chains = {seed: pool.submit(play_process, seed, chained, engine_seed) for seed in seeds}
        fresh = {
            (seed, bot): pool.submit(play_process, seed, [bot], engine_seed)
            for seed in seeds
            for bot in BOTS
        }
        matches = [
            Match(label, seed, bot, rate, tuple(lost), tuple(hedged))
            for seed, job in chains.items()
            for label, bot, (rate, lost, hedged) in zip(labels, chained, job.result())
        ]
        matches += [
            Match("fresh", seed, bot, rate, tuple(lost), tuple(hedged))
            for (seed, bot), job in fresh.items()
            for rate, lost, hedged in job.result()
        ]
    return matches


def save(matches: list[Match], path: Path) -> None:
    path.write_text(json.dumps([asdict(m) for m in matches]))


def load(path: Path) -> list[Match]:
    rows = json.loads(path.read_text())
    return [
        Match(**{**row, "lost": tuple(row["lost"]), "hedged": tuple(row["hedged"])}) for row in rows
    ]


def table(matches: list[Match]) -> str:
    """Per bot and scenario, then per bot overall: win rates (lowest, mean, share at 99%) and
    games lost (mean, most, share after the opening)."""
    lines = [
        f"{'bot':8}  {'scenario':16}  {'matches':>7}  {'lowest':>7}  {'mean':>7}  {'>= 99%':>7}"
        f"  {'lost':>5}  {'most':>4}  {f'after {EARLY}':>8}"
    ]
    scenarios = ["fresh", *ROUNDS, "all"]
    for bot in BOTS:
        for scenario in scenarios:
            group = [m for m in matches if m.bot == bot and scenario in ("all", m.scenario)]
            if not group:
                continue
            rates = [m.rate for m in group]
            reached = sum(rate >= BAR for rate in rates)
            losses = sum(m.losses for m in group)
            late = sum(m.late for m in group)
            lines.append(
                f"{bot:8}  {scenario:16}  {len(rates):7}  {min(rates):7.2f}  "
                f"{statistics.fmean(rates):7.2f}  {reached:3}/{len(rates):<3}  "
                f"{losses / len(group):5.2f}  {max(m.losses for m in group):4}  "
                f"{late / losses if losses else 0.0:8.0%}"
            )
    total = sum(m.rate >= BAR for m in matches)
    lines.append(f"all matches at 99% or more: {total} of {len(matches)}")
    return "\n".join(lines)


def tail(matches: list[Match]) -> str:
    """Per bot: how many matches lost at least 7, 8, 9 and 10 games, and missed 99%."""
    head = "  ".join(f"{f'>= {k}':>5}" for k in TAIL)
    lines = [f"{'bot':8}  {'matches':>7}  {head}  {'< 99%':>5}"]
    for bot in (*BOTS, "all"):
        group = [m for m in matches if bot in ("all", m.bot)]
        if group:
            counts = "  ".join(f"{sum(m.losses >= k for m in group):5}" for k in TAIL)
            lines.append(f"{bot:8}  {len(group):7}  {counts}  {sum(m.rate < BAR for m in group):5}")
    return "\n".join(lines)


def opening(matches: list[Match]) -> str:
    """Per bot and round of the opening: the share of matches that lost it (and lost it
    while hedging, in brackets)."""
    lines = [f"{'bot':8}  " + " ".join(f"{i:>10}" for i in range(OPENING))]
    for bot in BOTS:
        group = [m for m in matches if m.bot == bot]
        if not group:
            continue
        lost = [0] * OPENING
        hedged = [0] * OPENING
        for m in group:
            for i in m.lost:
                if i < OPENING:
                    lost[i] += 1
            for i in m.hedged:
                if i < OPENING:
                    hedged[i] += 1
        n = len(group)
        lines.append(
            f"{bot:8}  "
            + " ".join(f"{lost[i] / n:.2f}({hedged[i] / n:.2f})" for i in range(OPENING))
        )
    return "\n".join(lines)


def compare(before: list[Match], after: list[Match]) -> str:
    """Games lost by two runs over the same matches, paired, with the standard error of the
    difference over the pairs."""

    def key(m: Match) -> tuple[str, int, str]:
        return m.scenario, m.hash_seed, m.bot

    first = {key(m): m for m in before}
    second = {key(m): m for m in after}
    common = [k for k in first if k in second]
    if len(common) < 2:
        raise ValueError(
            f"the runs share {len(common)} matches: compare runs over the same hash seeds"
        )
    diffs = [second[k].losses - first[k].losses for k in common]
    spread = statistics.stdev(diffs) * len(diffs) ** 0.5
    lines = [
        f"{len(common)} paired matches ({len(first) - len(common)} and {len(second) - len(common)} unpaired)",
        f"games lost: {sum(first[k].losses for k in common)} -> {sum(second[k].losses for k in common)}, "
        f"difference {sum(diffs):+d} +- {spread:.0f} (standard error over the pairs)",
        f"{'bot':8}  {'lost a match':>14}  "
        + "  ".join(f"{f'>= {k}':>9}" for k in TAIL)
        + f"  {'< 99%':>9}",
    ]
    for bot in (*BOTS, "all"):
        keys = [k for k in common if bot in ("all", k[2])]
        if not keys:
            continue
        a = [first[k] for k in keys]
        b = [second[k] for k in keys]
        means = f"{statistics.fmean(m.losses for m in a):.2f} -> {statistics.fmean(m.losses for m in b):.2f}"
        counts = "  ".join(
            f"{sum(m.losses >= t for m in a):3} -> {sum(m.losses >= t for m in b):<3}" for t in TAIL
        )
        misses = f"{sum(m.rate < BAR for m in a):3} -> {sum(m.rate < BAR for m in b):<3}"
        lines.append(f"{bot:8}  {means:>14}  {counts}  {misses}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--hash-seeds",
        type=options.positive_int,
        default=20,
        help="how many hash seeds (default 20)",
    )
    parser.add_argument(
        "--first-hash-seed", type=options.seed, default=0, help="the first hash seed (default 0)"
    )
    parser.add_argument(
        "--workers", type=options.workers, default=2, help="interpreters at once (default 2)"
    )
    parser.add_argument(
        "--engine-seed",
        type=options.seed,
        default=None,
        help="seed the engine (plus the hash seed); default: OS entropy",
    )
    parser.add_argument(
        "--json", type=options.output_file, default=None, help="also save every match to FILE"
    )
    parser.add_argument(
        "--compare",
        type=Path,
        nargs=2,
        metavar=("BEFORE", "AFTER"),
        default=None,
        help="compare two saved runs instead of playing",
    )
    args = parser.parse_args(argv)
    if args.compare:
        try:
            before, after = (load(path) for path in args.compare)
            print(compare(before, after))
        except (OSError, ValueError, TypeError, KeyError) as error:
            parser.error(f"cannot compare {args.compare[0]} and {args.compare[1]}: {error}")
        return 0
    if args.hash_seeds < 1 or args.workers < 1:
        parser.error("--hash-seeds and --workers must be at least 1")
    if args.first_hash_seed < 0 or args.first_hash_seed + args.hash_seeds > 2**32:
        parser.error(
            f"invalid --first-hash-seed {args.first_hash_seed}: hash seeds run from 0 to 4294967295"
        )
    matches = measure(args.hash_seeds, args.workers, args.engine_seed, args.first_hash_seed)
    if args.json:
        save(matches, args.json)
    print(table(matches))
    print()
    print(tail(matches))
    print()
    print(opening(matches))
    return 0


if __name__ == "__main__":
    sys.exit(main())
