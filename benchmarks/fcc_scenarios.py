"""The fCC bar, measured: win rates against quincy, abbey, kris and mrugesh in every scenario.

Each hash seed gets its own interpreter (``PYTHONHASHSEED`` decides mrugesh's tie-breaks),
which plays, through ``RPS.player`` and ``RPS_game.play`` exactly as a learner's run does,
1000-game matches in the official ``main.py`` order (quincy, abbey, kris, mrugesh), then the
unit tests' order (abbey, kris, mrugesh, quincy), then a third round (mrugesh, kris, quincy,
abbey): the bots carry their state from one match to the next, as they do in the real
harness. Fresh bots get one interpreter per bot. The engine draws from OS entropy unless
``--engine-seed`` is given, so by default every run is a new sample.

    python benchmarks/fcc_scenarios.py [--hash-seeds 20] [--workers 2] [--engine-seed N]

Prints, per bot and scenario, the lowest and mean win rate, how many matches reached 99%,
and the games lost: the mean and the most in one match, and how many of them came after the
first ``EARLY`` rounds (the rest is the price of finding a bot out; the misses of the 99% bar
are made of it).
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
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
from roshambo.agent import Agent
seed, early = sys.argv[1], int(sys.argv[2])
RPS.player.__defaults__[0].append(Agent(random.Random(int(seed)) if seed else None))
BEATS = {"R": "P", "P": "S", "S": "R"}
results = []
for name in sys.argv[3:]:
    ours, theirs = [], []
    def player(prev, ours=ours):
        ours.append(RPS.player(prev))
        return ours[-1]
    def bot(prev, theirs=theirs, play=getattr(RPS_game, name)):
        theirs.append(play(prev))
        return theirs[-1]
    with contextlib.redirect_stdout(io.StringIO()):
        rate = RPS_game.play(player, bot, 1000)
    lost = [i for i, (a, b) in enumerate(zip(ours, theirs)) if BEATS[a] == b]
    results.append([rate, len(lost), sum(i >= early for i in lost)])
print(json.dumps(results))
"""


@dataclass(frozen=True)
class Match:
    """One 1000-game match's win rate and games lost (``late``: after the first ``EARLY``
    rounds), with where it was played."""

    scenario: str
    hash_seed: int
    bot: str
    rate: float
    losses: int
    late: int


def play_process(hash_seed: int, bots: list[str], engine_seed: int | None) -> list[list[float]]:
    """Play ``bots`` in order in one interpreter; per match: win rate, losses, late losses."""
    env = dict(os.environ, PYTHONHASHSEED=str(hash_seed))
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    seed = "" if engine_seed is None else str(engine_seed + hash_seed)
    done = subprocess.run([sys.executable, "-c", SCRIPT, seed, str(EARLY), *bots], capture_output=True,
                          text=True, cwd=ROOT, env=env, check=True)
    return json.loads(done.stdout)


def measure(hash_seeds: int, workers: int, engine_seed: int | None) -> list[Match]:
    """Every scenario under ``hash_seeds`` hash seeds."""
    chained = [bot for order in ROUNDS.values() for bot in order]
    labels = [label for label, order in ROUNDS.items() for _ in order]
    with ThreadPoolExecutor(max_workers=workers) as pool:
        chains = {seed: pool.submit(play_process, seed, chained, engine_seed) for seed in range(hash_seeds)}
        fresh = {(seed, bot): pool.submit(play_process, seed, [bot], engine_seed)
                 for seed in range(hash_seeds) for bot in BOTS}
        matches = [Match(label, seed, bot, rate, int(losses), int(late))
                   for seed, job in chains.items()
                   for label, bot, (rate, losses, late) in zip(labels, chained, job.result())]
        matches += [Match("fresh", seed, bot, rate, int(losses), int(late))
                    for (seed, bot), job in fresh.items()
                    for rate, losses, late in job.result()]
    return matches


def table(matches: list[Match]) -> str:
    """Per bot and scenario, then per bot overall: win rates (lowest, mean, share at 99%) and
    games lost (mean, most, share after the opening)."""
    lines = [f"{'bot':8}  {'scenario':16}  {'matches':>7}  {'lowest':>7}  {'mean':>7}  {'>= 99%':>7}"
             f"  {'lost':>5}  {'most':>4}  {f'after {EARLY}':>8}"]
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
            lines.append(f"{bot:8}  {scenario:16}  {len(rates):7}  {min(rates):7.2f}  "
                         f"{statistics.fmean(rates):7.2f}  {reached:3}/{len(rates):<3}  "
                         f"{losses / len(group):5.2f}  {max(m.losses for m in group):4}  "
                         f"{late / losses if losses else 0.0:8.0%}")
    total = sum(m.rate >= BAR for m in matches)
    lines.append(f"all matches at 99% or more: {total} of {len(matches)}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hash-seeds", type=int, default=20, help="hash seeds 0..N-1 (default 20)")
    parser.add_argument("--workers", type=int, default=2, help="interpreters at once (default 2)")
    parser.add_argument("--engine-seed", type=int, default=None,
                        help="seed the engine (plus the hash seed); default: OS entropy")
    args = parser.parse_args(argv)
    if args.hash_seeds < 1 or args.workers < 1:
        parser.error("--hash-seeds and --workers must be at least 1")
    print(table(measure(args.hash_seeds, args.workers, args.engine_seed)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
