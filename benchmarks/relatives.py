"""The fCC bots' relatives, measured: the engine against every member of the relatives' grid.

Every member of :func:`roshambo.opponents.relatives.member_grid` plays three 1000-game
matches against the engine: fresh, then twice more carrying its state (``move(None)``
starts the next match without ``reset()``, as the fCC bots do). The engine plays all three,
starting each with ``new_match()``, as ``RPS.player`` does.
Members whose tie rule is ``set`` depend on ``PYTHONHASHSEED``, as mrugesh does, so they are
played under every hash seed of the run, each in its own interpreter; the others under the
first. The engine seed of a match is drawn from an engine seed (``--engine-seeds``), the
member's spec, the hash seed and the match number, so two versions of the engine meet the
same bots with the same seeds. ``--engine-seeds 0-3`` plays the whole grid once per engine
seed: a deterministic member's few losses fall mostly in the first rounds, where a seed
decides whether a match ends a game either side of the 99% bar, so several seeds show a
tail that one hides.

    python benchmarks/relatives.py [--hash-seeds 4] [--workers 2] [--engine-seeds 0]
                                   [--only FAMILY] [--beyond] [--json FILE]
    python benchmarks/relatives.py --compare BEFORE.json AFTER.json
    python benchmarks/relatives.py --show RUN.json

Prints, per family (noisy members apart, by noise share): the members and matches, the
worst and median win rate of decisive games, the matches under 99%, the games lost a match
(mean and most); for noisy members, the worst and median shortfall from the best achievable
rate in the same match: that of a player beating the member's rule every round (the noise
draws do not depend on what we play, so it meets the same random moves); then the worst
matches; last, the issue's targets, each met or not: every deterministic match at 99% or
more, their median at 99.5% or more, and every noisy member within a point of the best
achievable on average over its matches (the members that are not, with the standard error
of that mean). ``--compare`` pairs matches by member, hash seed, match number and engine
seed, gives the difference in games lost with its standard error over the pairs, and the
noisy members more than a point short in each run. ``--show`` reports a saved run as if it
had just been played.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import zlib
from collections import Counter
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from roshambo.apps import options  # noqa: E402
from roshambo.opponents.relatives import NOISE, best_rate, beyond_grid, member_grid  # noqa: E402

BAR = 99.0
MEDIAN_BAR = 99.5
SHORT_BAR = 1.0  # points a noisy member may fall short of the best achievable
MATCHES = 3  # fresh, then carrying state twice
ROUNDS = 1000
CHUNK = 12  # members per interpreter

SCRIPT = """
import json, random, sys
from roshambo.engine.agent import Agent
from roshambo.opponents import make_opponent
seeds = json.loads(sys.argv[1])
out = []
for spec, match_seeds in seeds:
    bot = make_opponent(spec, random.Random(match_seeds[0] ^ 0x5EED))
    for number, seed in enumerate(match_seeds):
        if number:
            engine.new_match()  # as RPS.player does: the opponent may remember the last match
            rng.seed(seed)
        else:
            rng = random.Random(seed)
            engine = Agent(rng)
        wins = losses = 0
        lost = []
        noisy = hasattr(bot, "rule_move")
        best_wins = best_losses = 0 if noisy else None
        ours = theirs = None
        for turn in range(ROUNDS):
            a, b = engine.move(theirs), bot.move(ours)
            d = (a - b) % 3
            if d == 1:
                wins += 1
            elif d == 2:
                losses += 1
                lost.append(turn)
            if noisy:  # a player beating the bot's rule every round, against the same noise
                d = (bot.rule_move + 1 - b) % 3
                best_wins += d == 1
                best_losses += d == 2
            ours, theirs = a, b
        out.append([spec, wins, losses, lost, best_wins, best_losses])
print(json.dumps(out))
""".replace("ROUNDS", str(ROUNDS))


@dataclass(frozen=True)
class Match:
    """One 1000-game match against a member: which one, its number (0 fresh, 1 and 2 carrying
    state), the hash seed, and the games won and lost (``lost``: the rounds); against a noisy
    member, also those of a player beating its rule every round, over the same noise
    (``best_wins``, ``best_losses``; None otherwise, and in runs saved before they were);
    and the engine seed of the run (0 in runs saved before it was kept)."""

    member: str
    number: int
    hash_seed: int
    wins: int
    losses: int
    lost: tuple[int, ...]
    best_wins: int | None = None
    best_losses: int | None = None
    engine_seed: int = 0

    @property
    def rate(self) -> float:
        decisive = self.wins + self.losses
        return 100.0 * self.wins / decisive if decisive else 0.0

    @property
    def best(self) -> float | None:
        """The best achievable rate in this match (noisy members only): the rule beater's,
        or, for a run saved without it, the expectation :func:`best_rate`."""
        if self.best_wins is not None and self.best_losses is not None:
            decisive = self.best_wins + self.best_losses
            return 100.0 * self.best_wins / decisive if decisive else 0.0
        share = noise_share(self.member)
        return None if share is None else 100.0 * best_rate(share)

    @property
    def family(self) -> str:
        name = self.member.split(":", 1)[0]
        noise = noise_share(self.member)
        return name if noise is None else f"{name}+{NOISE}{noise:g}"


def noise_share(member: str) -> float | None:
    for item in member.split(":", 1)[1].split(","):
        key, _, value = item.partition("=")
        if key == NOISE:
            return float(value)
    return None


@dataclass(frozen=True)
class Shortfall:
    """A noisy member's shortfall from the best achievable rate, in points, over its matches:
    the mean and its standard error (0 from a single match)."""

    member: str
    matches: int
    mean: float
    stderr: float


def shortfalls(matches: Sequence[Match]) -> list[Shortfall]:
    """Every noisy member's shortfall over its matches (all numbers, hash and engine seeds),
    the largest first."""
    by_member: dict[str, list[float]] = {}
    for m in matches:
        best = m.best
        if best is not None:
            by_member.setdefault(m.member, []).append(best - m.rate)
    found = [
        Shortfall(
            member,
            len(gaps),
            statistics.fmean(gaps),
            statistics.stdev(gaps) / len(gaps) ** 0.5 if len(gaps) > 1 else 0.0,
        )
        for member, gaps in by_member.items()
    ]
    return sorted(found, key=lambda f: (-f.mean, f.member))


@dataclass(frozen=True)
class Verdict:
    """One of the issue's targets over a run: what it asks, whether the run meets it, the
    figure behind that, and (when it is not met) the members that miss it."""

    target: str
    met: bool
    figure: str
    misses: tuple[str, ...] = ()


def targets(matches: Sequence[Match]) -> list[Verdict]:
    """The issue's targets for the relatives, judged on a run (none for a part it lacks)."""
    verdicts = []
    plain = [m for m in matches if noise_share(m.member) is None]
    if plain:
        under = [m for m in plain if m.rate < BAR]
        where = ", ".join(
            f"{family} {count}" for family, count in Counter(m.family for m in under).most_common()
        )
        played = Counter(m.member for m in plain)
        missed = Counter(m.member for m in under)
        verdicts.append(
            Verdict(
                f"every deterministic match at {BAR:g}% or more",
                not under,
                f"{len(under)} of {len(plain)} under" + (f" ({where})" if where else ""),
                tuple(
                    f"{member} ({missed[member]} of {played[member]} matches)"
                    for member in sorted(missed)
                ),
            )
        )
        median = statistics.median(m.rate for m in plain)
        verdicts.append(
            Verdict(
                f"the deterministic matches' median at {MEDIAN_BAR:g}% or more",
                median >= MEDIAN_BAR,
                f"{median:.2f}%",
            )
        )
    noisy = shortfalls(matches)
    if noisy:
        short = [f for f in noisy if f.mean > SHORT_BAR]
        verdicts.append(
            Verdict(
                f"every noisy member within {SHORT_BAR:g} point of the best, on average",
                not short,
                f"{len(short)} of {len(noisy)} more than {SHORT_BAR:g} point short",
                tuple(f"{f.member} {f.mean:.2f} +- {f.stderr:.2f}" for f in short),
            )
        )
    return verdicts


def render_targets(verdicts: Sequence[Verdict]) -> str:
    """The verdicts as the report's last lines: met or not, the target, its figure, and
    under it the members that miss it."""
    lines = ["the issue's targets:"]
    for v in verdicts:
        lines.append(f"  {'met' if v.met else 'NOT met':8} {v.target}: {v.figure}")
        lines.extend(f"{'':13}{miss}" for miss in v.misses)
    return "\n".join(lines)


def match_seeds(engine_seed: int, member: str, hash_seed: int) -> list[int]:
    base = zlib.crc32(f"{member}|{hash_seed}".encode()) ^ engine_seed * 0x9E3779B1
    return [(base + 7919 * number) % 2**63 for number in range(MATCHES)]


def play_process(hash_seed: int, members: list[str], engine_seed: int) -> list[Match]:
    env = dict(os.environ, PYTHONHASHSEED=str(hash_seed))
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    jobs = [[m, match_seeds(engine_seed, m, hash_seed)] for m in members]
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, json.dumps(jobs)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        check=True,
    )
    rows = json.loads(done.stdout)
    return [
        Match(
            spec,
            i % MATCHES,
            hash_seed,
            wins,
            losses,
            tuple(lost),
            best_wins,
            best_losses,
            engine_seed,
        )
        for i, (spec, wins, losses, lost, best_wins, best_losses) in enumerate(rows)
    ]


def parse_seeds(text: str) -> tuple[int, ...]:
    """Engine seeds from ``N``, ``A-B`` (both included) or a comma-separated list of either."""
    seeds: dict[int, None] = {}  # in order, once each
    for part in text.split(","):
        low, dash, high = part.strip(" ").partition("-")
        first = options.decimal(low)
        last = options.decimal(high) if dash else first
        if first is None or last is None:  # (int() would also take "1_0" or " 3")
            raise ValueError(f"invalid engine seeds {text!r}: expected N, A-B or a list of them")
        if first < 0 or last < first:
            raise ValueError(
                f"invalid engine seeds {text!r}: {part.strip()!r} is not a non-negative range"
            )
        seeds.update(dict.fromkeys(range(first, last + 1)))
    return tuple(seeds)


def measure(
    hash_seeds: int,
    workers: int,
    engine_seeds: Sequence[int],
    only: str | None,
    grid: Sequence[str] | None = None,
) -> list[Match]:
    """Every member of ``grid`` (the relatives' grid by default) in ``only``'s family."""
    grid = member_grid() if grid is None else grid
    members = [m for m in grid if only is None or m.split(":")[0] == only]
    plain = [m for m in members if "tie=set" not in m]
    hashed = [m for m in members if "tie=set" in m]
    jobs = [(0, plain[i : i + CHUNK]) for i in range(0, len(plain), CHUNK)]
    jobs += [
        (h, hashed[i : i + CHUNK]) for h in range(hash_seeds) for i in range(0, len(hashed), CHUNK)
    ]
    with ThreadPoolExecutor(max_workers=workers) as pool:
        futures = [
            pool.submit(play_process, h, chunk, seed)
            for seed in engine_seeds
            for h, chunk in jobs
            if chunk
        ]
        return [match for future in futures for match in future.result()]


def save(matches: list[Match], path: Path) -> None:
    path.write_text(json.dumps([asdict(m) for m in matches]))


def load(path: Path) -> list[Match]:
    return [Match(**{**row, "lost": tuple(row["lost"])}) for row in json.loads(path.read_text())]


def table(matches: list[Match]) -> str:
    """Per family: members, matches, worst and median win rate, matches under 99%, games
    lost a match (mean, most); for noisy ones, the shortfall from the best achievable."""
    families = sorted({m.family for m in matches}, key=lambda f: ("+" in f, f))
    lines = [
        f"{'family':20} {'members':>7} {'matches':>7} {'worst':>7} {'median':>7} {'< 99%':>6}"
        f" {'lost':>6} {'most':>5} {'short worst':>11} {'short median':>12}"
    ]
    for family in families:
        group = [m for m in matches if m.family == family]
        rates = [m.rate for m in group]
        line = (
            f"{family:20} {len({m.member for m in group}):7} {len(group):7} {min(rates):7.2f}"
            f" {statistics.median(rates):7.2f} {sum(r < BAR for r in rates):6}"
            f" {statistics.fmean(m.losses for m in group):6.2f} {max(m.losses for m in group):5}"
        )
        if noise_share(group[0].member) is not None:
            shortfall = [m.best - m.rate for m in group]  # type: ignore[operator]
            line += f" {max(shortfall):11.2f} {statistics.median(shortfall):12.2f}"
        lines.append(line)
    plain = [m for m in matches if noise_share(m.member) is None]
    if plain:
        rates = [m.rate for m in plain]
        lines.append(
            f"deterministic members: {len(plain)} matches, worst {min(rates):.2f}, median "
            f"{statistics.median(rates):.2f}, {sum(r < BAR for r in rates)} under {BAR:g}%"
        )
    return "\n".join(lines)


def worst(matches: list[Match], count: int = 15) -> str:
    """The matches furthest under their bar (99%, or the best achievable rate for noisy ones)."""

    def gap(m: Match) -> float:
        best = m.best
        return (BAR if best is None else best) - m.rate

    lines = [
        f"{'member':52} {'match':>5} {'hash':>4} {'seed':>4} {'rate':>7} {'lost':>5} {'after 100':>9}"
    ]
    for m in sorted(matches, key=gap, reverse=True)[:count]:
        lines.append(
            f"{m.member:52} {m.number:5} {m.hash_seed:4} {m.engine_seed:4} {m.rate:7.2f} {m.losses:5}"
            f" {sum(i >= 100 for i in m.lost):9}"
        )
    return "\n".join(lines)


def report(matches: list[Match]) -> str:
    """A run's report: the engine seeds, the families' table, the worst matches, the targets."""
    seeds = sorted({m.engine_seed for m in matches})
    return "\n\n".join(
        [
            f"engine seeds {', '.join(map(str, seeds))}: every match once per seed\n{table(matches)}",
            worst(matches),
            render_targets(targets(matches)),
        ]
    )


def compare(before: list[Match], after: list[Match]) -> str:
    """Games lost by two runs over the same matches, paired, per family and in all."""

    def key(m: Match) -> tuple[str, int, int, int]:
        return m.member, m.hash_seed, m.number, m.engine_seed

    first = {key(m): m for m in before}
    second = {key(m): m for m in after}
    common = [k for k in first if k in second]
    if len(common) < 2:
        raise ValueError(
            f"the runs share {len(common)} matches: compare runs over the same members"
        )
    lines = [
        f"{len(common)} paired matches ({len(first) - len(common)} and {len(second) - len(common)} unpaired)",
        f"{'family':20} {'games lost':>16} {'difference':>16} {'< 99%':>10} {'worst':>16}",
    ]
    families = sorted({first[k].family for k in common}, key=lambda f: ("+" in f, f))
    for family in (*families, "all"):
        keys = [k for k in common if family in ("all", first[k].family)]
        diffs = [second[k].losses - first[k].losses for k in keys]
        spread = statistics.stdev(diffs) * len(diffs) ** 0.5 if len(diffs) > 1 else 0.0
        a = sum(first[k].losses for k in keys)
        b = sum(second[k].losses for k in keys)
        misses = (
            f"{sum(first[k].rate < BAR for k in keys)} -> {sum(second[k].rate < BAR for k in keys)}"
        )
        low = f"{min(first[k].rate for k in keys):.2f} -> {min(second[k].rate for k in keys):.2f}"
        lines.append(
            f"{family:20} {f'{a} -> {b}':>16} {f'{b - a:+d} +- {spread:.0f}':>16} {misses:>10} {low:>16}"
        )
    runs = [shortfalls([run[k] for k in common]) for run in (first, second)]
    if runs[0]:
        counts = [sum(f.mean > SHORT_BAR for f in run) for run in runs]
        lines.append(
            f"noisy members more than {SHORT_BAR:g} point short: {counts[0]} -> {counts[1]} of {len(runs[0])}"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--hash-seeds",
        type=options.positive_int,
        default=4,
        help="hash seeds for the set-tie members (default 4)",
    )
    parser.add_argument(
        "--workers", type=options.workers, default=2, help="interpreters at once (default 2)"
    )
    parser.add_argument(
        "--engine-seeds",
        "--engine-seed",
        default="0",
        metavar="SEEDS",
        help="seeds of the engine's seeds: N, A-B or a list (default 0); the grid is played once per seed",
    )
    parser.add_argument("--only", default=None, help="one family only (counter, context, ...)")
    parser.add_argument(
        "--beyond",
        action="store_true",
        help="instead of the grid, members past its ranges (a window of 250-1000, an order "
        "of 7-64, a lag of 51-120, a cycle of 41-80)",
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
    parser.add_argument(
        "--show",
        type=Path,
        default=None,
        metavar="FILE",
        help="report a saved run instead of playing",
    )
    args = parser.parse_args(argv)
    if args.compare:
        try:
            print(compare(*(load(path) for path in args.compare)))
        except (OSError, ValueError, TypeError, KeyError) as error:
            parser.error(f"cannot compare {args.compare[0]} and {args.compare[1]}: {error}")
        return 0
    if args.show:
        try:
            matches = load(args.show)
        except (OSError, ValueError, TypeError, KeyError) as error:
            parser.error(f"cannot read {args.show}: {error}")
        if not matches:
            parser.error(f"{args.show} holds no matches")
        print(report(matches))
        return 0
    if args.hash_seeds < 1 or args.workers < 1:
        parser.error("--hash-seeds and --workers must be at least 1")
    try:
        engine_seeds = parse_seeds(args.engine_seeds)
    except ValueError as error:
        parser.error(str(error))
    grid = beyond_grid() if args.beyond else None
    matches = measure(args.hash_seeds, args.workers, engine_seeds, args.only, grid)
    if not matches:
        parser.error(f"no members in family {args.only!r}")
    if args.json:
        save(matches, args.json)
    print(report(matches))
    return 0


if __name__ == "__main__":
    sys.exit(main())
