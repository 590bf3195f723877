"""The scorecard: a candidate engine against a reference, paired, on everything at once.

    python benchmarks/scorecard.py --ref HEAD~1                       # this tree vs HEAD~1
    python benchmarks/scorecard.py --ref main --public DIR            # with the public bots
    python benchmarks/scorecard.py --ref HEAD~1 --scale 0.25          # a quick look

The candidate is this tree (working copy included); the reference a git ref, checked out in
a temporary worktree. Both engines play the same matches on the same seeds, each in child
interpreters that import the engine of their own tree, and every line is the candidate's
result minus the reference's, match by match, with the standard error over the pairs:

- **fCC**: games lost a match, the four bots in ``main.py``'s order and then the unit
  tests', in one interpreter per hash seed (state carried, as a learner runs them);
- **relatives**: games lost a match against a sample of every family of the grid (every
  n-th member, ``roshambo.opponents.relatives.member_grid``), fresh and then twice carrying
  the member's state (``new_match``, as ``RPS.player`` does), as benchmarks/relatives.py
  plays them;
- **classic**: score a match against every bot of the classic field (needs open_spiel);
- **public**: score a match against each bot file of ``--public DIR``;
- **adversaries**: score a match against the zoo's bots that model us, each adversary also
  checked alone (a loss to one of them beyond its Bonferroni-corrected bar is a LOSS);
- **speed**: chains a move (the engine's time beside the write-up's Markov chain, in the
  same interpreter), median of 15 interleaved runs of both trees (with 5, a change of 3
  chains a move read as level at -3.15 +- 2.05).

A line is ``LOSS`` when the candidate is worse by more than two standard errors, ``gain``
when better by more; keep an engine change only with no LOSS and a gain somewhere. The
default size takes about 11 minutes on 2 cores with the 21 public bots (docs/benchmarks.md);
``--scale`` multiplies every count. REF must have the arena's ``play_match`` and ``resolve``
(any ref since the arena; before the engine / arena / apps layout, in ``roshambo.arena``).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "benchmarks"))

import public_bots  # noqa: E402 (a sibling script)

from roshambo.apps import options  # noqa: E402 (the checkout's package, put on the path above)

# Each child reads its jobs as JSON from argv and prints one JSON result a line.
# The engine's Agent, in a tree of this layout or of one from before it (350aac0).
AGENT = """
try:
    from roshambo.engine.agent import Agent
except ImportError:  # a tree from before the engine / arena / apps layout
    from roshambo.agent import Agent
"""
PLAY = (
    public_bots.ARENA
    + """
import json, sys
for a, b, games, seed in json.loads(sys.argv[1]):
    r = play_match(resolve(a, throws=games), resolve(b, throws=games), games, seed)
    print(json.dumps([r.wins, r.losses, r.ties]), flush=True)
"""
)
FCC = (
    AGENT
    + """
import contextlib, io, json, random, sys
import RPS, RPS_game
RPS.player.__defaults__[0].append(Agent(random.Random(int(sys.argv[1]))))
for name in json.loads(sys.argv[2]):
    bot = getattr(RPS_game, name)
    ours, theirs = [], []
    def mine(prev, player=RPS.player):
        move = player(prev)
        ours.append(move)
        return move
    def bot_move(prev, bot=bot):
        move = bot(prev)
        theirs.append(move)
        return move
    with contextlib.redirect_stdout(io.StringIO()):
        RPS_game.play(mine, bot_move, 1000)
    beats = {"R": "P", "P": "S", "S": "R"}
    print(json.dumps(sum(beats[a] == b for a, b in zip(ours, theirs))), flush=True)
"""
)
SPEED = (
    public_bots.ARENA
    + """
import json, random, sys, time
def per_move(name, moves, seed):
    player = resolve(name, throws=moves)(random.Random(seed))
    rng = random.Random(seed + 1)
    theirs = None
    start = time.process_time()
    for _ in range(moves):
        player.move(theirs)
        theirs = rng.randrange(3)
    return (time.process_time() - start) / moves
ai = min(per_move("ai", 1000, s) for s in range(3))
chain = min(per_move("markov", 20000, s) for s in range(3))  # a chain's move is short
print(json.dumps(ai / chain))
"""
)
# One worker's members: a JSON list of [spec, seed] in argv[1]; out, a JSON line a member: the
# games lost in its fresh match and in the two that carry its state.
RELATIVES = (
    AGENT
    + """
import json, random, sys
from roshambo.opponents import make_opponent
for spec, seed in json.loads(sys.argv[1]):
    bot = make_opponent(spec, random.Random(seed ^ 0x5EED))
    rng = random.Random(seed)
    engine = Agent(rng)
    lost = []
    for number in range(3):
        if number:
            engine.new_match()  # the member keeps its state
            rng.seed(seed + 7919 * number)
        losses = 0
        ours = theirs = None
        for _ in range(1000):
            a, b = engine.move(theirs), bot.move(ours)
            losses += (a - b) % 3 == 2
            ours, theirs = a, b
        lost.append(losses)
    print(json.dumps(lost), flush=True)
"""
)
ORDER = ["quincy", "abbey", "kris", "mrugesh", "abbey", "kris", "mrugesh", "quincy"]
ADVERSARIES = [
    "copy-attacker",
    "hedge-reader",
    "engine-copy",
    "engine-variant",
    "modern-matcher",
    "bandit-ensemble",
]


@dataclass(frozen=True)
class Line:
    """One component: the candidate's mean, the reference's, and the paired difference."""

    name: str
    unit: str
    pairs: int
    candidate: float
    reference: float
    difference: float
    se: float
    higher_is_better: bool
    # per opponent, where the line checks each (see per_opponent): the one the candidate
    # does worst against, its paired difference and standard error, and the bar it was held to
    worst: tuple[str, float, float, float] | None = None

    @property
    def verdict(self) -> str:
        if math.isnan(self.se) or self.pairs < 2:
            return "-"
        better = self.difference if self.higher_is_better else -self.difference
        if better < -2 * self.se or self.worst_loses:
            return "LOSS"
        if better > 2 * self.se:
            return "gain"
        return "level"

    @property
    def worst_loses(self) -> bool:
        """Whether the worst opponent's loss is beyond its bar (in its standard errors)."""
        if self.worst is None:
            return False
        _, difference, se, bar = self.worst
        better = difference if self.higher_is_better else -difference
        return not math.isnan(se) and better < -bar * se


def per_opponent(
    opponents: Sequence[str], diffs: Sequence[float], higher_is_better: bool
) -> tuple[str, float, float, float] | None:
    """The opponent whose paired difference is the worst in its standard errors, with the bar
    a loss must pass there: two standard errors one-sided, Bonferroni-corrected for the number
    of opponents (so that a line of k opponents that all play level is flagged about one time
    in 40, as a line of one is). An average over unlike opponents can hide a loss to one of
    them (docs/experiments.md, "without the meta-player's scoreboard", 2026-12-08)."""
    by: dict[str, list[float]] = {}
    for opponent, diff in zip(opponents, diffs):
        by.setdefault(opponent, []).append(diff)
    if len(by) < 2:
        return None
    bar = statistics.NormalDist().inv_cdf(1 - 0.025 / len(by))
    sign = 1.0 if higher_is_better else -1.0
    worst = None
    for opponent, values in by.items():
        mean, se = public_bots.mean_se(values)
        if math.isnan(se) or se == 0:
            z = math.inf if sign * mean >= 0 else -math.inf
        else:
            z = sign * mean / se
        if worst is None or z < worst[0]:
            worst = (z, opponent, mean, se)
    assert worst is not None
    _, opponent, mean, se = worst
    return (opponent, mean, se, bar)


def _plays(
    tree: Path, jobs: Sequence[Sequence[object]], workers: int, script: str = PLAY
) -> list[list[int]]:
    """What ``script`` prints for each job, in order: by default [wins, losses, ties] of each
    (a, b, games, seed); the jobs dealt round-robin to ``workers`` children."""
    chunks = [jobs[i::workers] for i in range(workers) if jobs[i::workers]]
    outs = public_bots.run_children(tree, script, [([json.dumps(c)], {}) for c in chunks], workers)
    results: list[list[int]] = [[] for _ in jobs]
    for i, out in enumerate(outs):
        for k, line in enumerate(out):
            results[i + k * workers] = json.loads(line)
    return results


def _line(
    name: str,
    unit: str,
    ours: Sequence[float],
    theirs: Sequence[float],
    higher_is_better: bool,
    opponents: Sequence[str] | None = None,
) -> Line:
    """The paired line; with ``opponents`` (one a pair), each opponent checked as well."""
    diffs = [a - b for a, b in zip(ours, theirs)]
    difference, se = public_bots.mean_se(diffs)
    return Line(
        name,
        unit,
        len(diffs),
        statistics.fmean(ours),
        statistics.fmean(theirs),
        difference,
        se,
        higher_is_better,
        None if opponents is None else per_opponent(opponents, diffs, higher_is_better),
    )


def fcc(trees: Sequence[Path], hash_seeds: int, workers: int) -> Line:
    runs = [
        ([str(h), json.dumps(ORDER)], {"PYTHONHASHSEED": str(1000 + h)}) for h in range(hash_seeds)
    ]
    lost = [
        [float(x) for out in public_bots.run_children(t, FCC, runs, workers) for x in out]
        for t in trees
    ]
    return _line("fCC bots", "games lost a match", lost[0], lost[1], False)


def _scored(
    name: str,
    unit: str,
    trees: Sequence[Path],
    jobs: list[tuple[str, str, int, int]],
    workers: int,
    lost: bool = False,
    each: bool = False,
) -> Line:
    """The jobs' paired line; with ``each``, every opponent checked as well."""
    runs = [_plays(t, jobs, workers) for t in trees]
    values = [[float(r[1]) if lost else float(r[0] - r[1]) for r in run] for run in runs]
    opponents = [job[1] for job in jobs] if each else None
    return _line(name, unit, values[0], values[1], not lost, opponents)


def relatives(trees: Sequence[Path], every: int, seeds: int, workers: int) -> Line:
    from roshambo.opponents.relatives import member_grid

    sample = member_grid()[::every]
    jobs = [(spec, 7919 * s + i) for s in range(seeds) for i, spec in enumerate(sample)]
    lost = [
        [float(x) for matches in _plays(tree, jobs, workers, RELATIVES) for x in matches]
        for tree in trees
    ]
    name = f"relatives ({len(sample)} members, fresh and carrying state)"
    return _line(name, "games lost a match", lost[0], lost[1], False)


def classic(trees: Sequence[Path], reps: int, workers: int) -> Line | None:
    """Every bot of the classic field: a sample of its strongest bots misses what a change
    costs against the noisy bots the engine exploits (docs/benchmarks.md, the scorecard)."""
    try:
        import pyspiel
    except ImportError:
        return None
    bots = list(pyspiel.roshambo_bot_names())
    jobs = [
        ("ai", f"classic:{bot}", 1000, 104729 * r + i)
        for r in range(reps)
        for i, bot in enumerate(bots)
    ]
    return _scored(f"classic field ({len(bots)} bots)", "score a match", trees, jobs, workers)


def adversaries(trees: Sequence[Path], reps: int, workers: int) -> Line:
    """Each adversary models us differently: the line is LOSS where the mean is, or where one
    adversary's is (see per_opponent)."""
    jobs = [
        ("ai", name, 1000, 15485863 * r + i)
        for r in range(reps)
        for i, name in enumerate(ADVERSARIES)
    ]
    return _scored("adversaries", "score a match", trees, jobs, workers, each=True)


def public(trees: Sequence[Path], folder: Path, matches: int, workers: int) -> Line:
    files = public_bots.bot_files(folder)
    runs = [
        public_bots.play(t, files, matches, 1000, 2026, workers, (public_bots.SHIM,)) for t in trees
    ]
    # pairs where either side's bot forfeited are left out (see public_bots.paired)
    kept = [(a, b) for a, b in zip(*runs) if a.forfeit is None and b.forfeit is None]
    return _line(
        f"public bots ({len(files)})",
        "score a match",
        [float(a.score) for a, _ in kept],
        [float(b.score) for _, b in kept],
        True,
    )


def speed(trees: Sequence[Path], rounds: int) -> Line:
    chains: list[list[float]] = [[], []]
    for _ in range(rounds):  # interleaved, so that the machine's load falls on both alike
        for k, tree in enumerate(trees):
            chains[k].append(float(public_bots.run_children(tree, SPEED, [([], {})], 1)[0][0]))
    med = [statistics.median(c) for c in chains]
    _, se = public_bots.mean_se([a - b for a, b in zip(*chains)])
    return Line("speed", "chains a move", rounds, med[0], med[1], med[0] - med[1], se, False)


def format_card(lines: Sequence[Line], ref: str) -> str:
    rows = [("component", "unit", "pairs", "candidate", ref, "difference ± se", "")]
    for line in lines:
        rows.append(
            (
                line.name,
                line.unit,
                str(line.pairs),
                f"{line.candidate:.2f}",
                f"{line.reference:.2f}",
                f"{line.difference:+.2f} ± {line.se:.2f}",
                line.verdict,
            )
        )
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    text = [
        "  ".join(
            c.ljust(w) if i < 2 else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths))
        ).rstrip()
        for row in rows
    ]
    text.insert(1, "-" * len(text[0]))
    for line in lines:
        if line.worst is not None:
            opponent, difference, se, bar = line.worst
            z = difference / se if se else math.nan
            text.append(
                f"{line.name}, worst opponent: {opponent} {difference:+.2f} ± {se:.2f}"
                f" ({z:+.2f} standard errors; a LOSS past {bar:.2f})"
            )
    losses = [line.name for line in lines if line.verdict == "LOSS"]
    gains = [line.name for line in lines if line.verdict == "gain"]
    keep = "keep" if not losses and gains else "do not keep"
    text.append(
        f"significant losses: {', '.join(losses) or 'none'}; gains: "
        f"{', '.join(gains) or 'none'} -> {keep}"
    )
    return "\n".join(text)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ref", required=True, help="the reference engine: a git ref")
    parser.add_argument(
        "--public",
        type=Path,
        default=None,
        metavar="DIR",
        help="the folder of public bot files (skipped without it)",
    )
    parser.add_argument(
        "--scale",
        type=options.positive_number,
        default=1.0,
        help="multiply every count by this (default 1)",
    )
    parser.add_argument(
        "--workers",
        type=options.workers,
        default=os.cpu_count() or 1,
        help="processes at once (default: all cores)",
    )
    parser.add_argument(
        "--json", type=options.output_file, default=None, help="write the card to FILE"
    )
    args = parser.parse_args(argv)
    if args.public is not None and not args.public.is_dir():
        parser.error(f"argument --public: {str(args.public)!r} is not a folder")
    try:
        commit = public_bots.commit_of(args.ref)
    except ValueError as error:
        parser.error(f"argument --ref: {error}")

    def n(count: int) -> int:
        return max(2, round(count * args.scale))

    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as where:
        ref_tree = public_bots.worktree(commit, Path(where))
        trees = (REPO, ref_tree)
        try:
            parts: list[Callable[[], Line | None]] = [
                lambda: fcc(trees, n(24), args.workers),
                lambda: relatives(trees, max(1, round(10 / args.scale)), 2, args.workers),
                lambda: classic(trees, n(6), args.workers),
                lambda: adversaries(trees, n(48), args.workers),
                lambda: public(trees, args.public, n(4), args.workers) if args.public else None,
                lambda: speed(trees, n(15)),
            ]
            lines = []
            for part in parts:
                line = part()
                if line is not None:
                    lines.append(line)
                    print(
                        f"  {line.name}: {line.difference:+.2f} ± {line.se:.2f} "
                        f"({time.perf_counter() - start:.0f} s)",
                        file=sys.stderr,
                    )
        finally:
            subprocess.run(
                ["git", "-C", str(REPO), "worktree", "remove", "--force", str(ref_tree)],
                capture_output=True,
                check=False,
            )
    print(f"scorecard: this tree (candidate) against {args.ref} (reference), paired")
    print(format_card(lines, args.ref))
    print(f"({time.perf_counter() - start:.0f} s)")
    if args.json is not None:
        args.json.write_text(
            json.dumps([line.__dict__ for line in lines], indent=1), encoding="utf-8"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
