"""What opponents take from the engine in the opening: the first rounds of many matches.

Against an opponent that simulates our code (the copy-attacker, the hedge-reader) all of the
score is made in the first rounds, before the trust hedge has the evidence to stop
following; the rest of a match is a uniform draw worth 0 in expectation, and only adds noise.
So a change to the hedge is screened on the first ``--rounds`` rounds of many matches: the
mean score (ours, +1 a win, -1 a loss) ± its standard error, the games lost in those
rounds a match (the mean, the most, and how many matches lost at least 5 to 9: the fCC bar
allows about ten a 1000-game match, and the opening is where a match spends them), and per
round the share of matches lost and the share where the engine followed its choice. Beside
the score, the same score with every hedged round counted at its expectation, 0: a hedged
move is a fair coin, independent of the opponent's move in that round, so the estimate is
unbiased, and it drops the coin's noise (against a simulator, most rounds after the
first few), which makes a paired comparison several times sharper. Match k
seeds the engine with k and the opponent with 10000 + k, so two engines run with the same
arguments meet the same opponents; the per-match scores can be saved (``--json``) and
compared paired (``--compare``: per opponent, the mean difference of both scores and its
standard error over the pairs).

    python benchmarks/opening.py copy-attacker hedge-reader [--rounds 150] [--matches 200] [--json F]
    python benchmarks/opening.py quincy --rounds 100 --matches 4000   # the tail of games lost
    python benchmarks/opening.py --compare BEFORE.json AFTER.json
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from roshambo.apps import options  # noqa: E402
from roshambo.arena.tournaments import make_player  # noqa: E402
from roshambo.engine.agent import Agent  # noqa: E402

TAIL = (5, 6, 7, 8, 9)  # games lost a match, counted in the report's tail
OPPONENT_SEED = 10_000  # match k: engine seed k, opponent seed OPPONENT_SEED + k


@dataclass(frozen=True)
class Opening:
    """The engine's score and games lost in each match's first rounds, and per round over
    the matches: how many were lost, and how many followed the engine's choice (did not hedge)."""

    opponent: str
    rounds: int
    scores: tuple[int, ...]
    lost: tuple[int, ...]
    followed: tuple[int, ...]
    losses: tuple[int, ...]  # games lost, per match (``lost`` counts matches, per round)
    expected: tuple[int, ...]  # per match, the score of the rounds that followed (hedged: 0)

    @property
    def mean(self) -> float:
        return statistics.fmean(self.scores)

    @property
    def stderr(self) -> float:
        return _stderr(self.scores)

    @property
    def expected_mean(self) -> float:
        return statistics.fmean(self.expected)

    @property
    def expected_stderr(self) -> float:
        return _stderr(self.expected)


def _stderr(values: Sequence[int]) -> float:
    return statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else math.nan


def play_opening(opponent: str, rounds: int, match: int) -> tuple[int, list[bool], list[bool], int]:
    """Match ``match``'s first ``rounds`` rounds: our score, per round lost / followed, and
    the score of the rounds that followed."""
    ours = Agent(random.Random(match))
    theirs = make_player(opponent, random.Random(OPPONENT_SEED + match))
    score = expected = 0
    lost: list[bool] = []
    followed: list[bool] = []
    mine = other = None
    for _ in range(rounds):
        a = ours.move(other)
        b = theirs.move(mine)
        result = (a - b) % 3  # 1 we won, 2 we lost
        points = (result == 1) - (result == 2)
        score += points
        lost.append(result == 2)
        followed.append(not ours.belief().hedging)
        expected += points if followed[-1] else 0
        mine, other = a, b
    return score, lost, followed, expected


def measure(opponent: str, rounds: int, matches: int, workers: int = 2) -> Opening:
    """Play the openings of ``matches`` matches against ``opponent`` (in ``workers`` processes)."""
    if rounds < 1 or matches < 1:
        raise ValueError(
            f"need at least one round and one match, got rounds={rounds}, matches={matches}"
        )
    make_player(opponent)  # a bad name fails here, with the arena's message
    jobs = range(matches)
    if workers > 1:
        with ProcessPoolExecutor(workers) as pool:
            results = list(pool.map(play_opening, [opponent] * matches, [rounds] * matches, jobs))
    else:
        results = [play_opening(opponent, rounds, k) for k in jobs]
    scores, lost_by_match, followed_by_match, expected = zip(*results)
    lost = [0] * rounds
    followed = [0] * rounds
    for match_lost, match_followed in zip(lost_by_match, followed_by_match):
        for r in range(rounds):
            lost[r] += match_lost[r]
            followed[r] += match_followed[r]
    return Opening(
        opponent,
        rounds,
        scores,
        tuple(lost),
        tuple(followed),
        tuple(sum(match_lost) for match_lost in lost_by_match),
        expected,
    )


def report(opening: Opening, shown: int = 12) -> str:
    """The mean score ± standard error, the games lost a match (mean, most, the tail), and
    the first ``shown`` rounds' shares."""
    n = len(opening.scores)
    head = (
        f"{opening.opponent}: {opening.mean:+.2f} +- {opening.stderr:.2f} over the first "
        f"{opening.rounds} rounds of {n} matches (hedged rounds at 0: "
        f"{opening.expected_mean:+.2f} +- {opening.expected_stderr:.2f})"
    )
    shown = min(shown, opening.rounds)

    def cells(counts: tuple[int, ...]) -> str:
        return " ".join(f"{c / n:4.2f}" for c in counts[:shown])

    tail = " ".join(f">={k}: {sum(games >= k for games in opening.losses)}" for k in TAIL)
    summary = (
        f"  games lost a match: mean {statistics.fmean(opening.losses):.2f}, most {max(opening.losses)};"
        f" matches with {tail}"
    )
    return "\n".join(
        [
            head,
            summary,
            f"  round     {' '.join(f'{r + 1:4d}' for r in range(shown))}",
            f"  lost      {cells(opening.lost)}",
            f"  followed  {cells(opening.followed)}",
        ]
    )


def compare(before: dict[str, dict[str, list[int]]], after: dict[str, dict[str, list[int]]]) -> str:
    """Per opponent in both runs, the paired difference (after minus before) of the score
    and of the score with hedged rounds at 0, ± the standard error over the pairs."""
    lines = []
    for opponent in before:
        if opponent not in after:
            continue
        old, new = before[opponent], after[opponent]
        if old.get("rounds") != new.get("rounds") or len(old["scores"]) != len(new["scores"]):
            raise ValueError(
                f"{opponent}: the runs differ in rounds or matches, so they cannot be paired"
            )
        cells = []
        for key, label in (("scores", "score"), ("expected", "hedged rounds at 0")):
            if key not in old or key not in new:
                continue
            differences = [b - a for a, b in zip(old[key], new[key])]
            cells.append(
                f"{label} {statistics.fmean(old[key]):+.2f} -> {statistics.fmean(new[key]):+.2f}"
                f" ({statistics.fmean(differences):+.2f} +- {_stderr(differences):.2f})"
            )
        lines.append(f"{opponent}: " + "; ".join(cells))
    if not lines:
        raise ValueError("the runs share no opponent")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("opponents", nargs="*", metavar="OPPONENT", help="registry names or specs")
    parser.add_argument(
        "--rounds",
        type=options.positive_int,
        default=150,
        help="rounds of each match (default 150)",
    )
    parser.add_argument(
        "--matches",
        type=options.positive_int,
        default=200,
        help="matches per opponent (default 200)",
    )
    parser.add_argument("--workers", type=options.workers, default=2, help="processes (default 2)")
    parser.add_argument(
        "--json", type=options.output_file, help="also save every match's score to FILE"
    )
    parser.add_argument(
        "--compare",
        nargs=2,
        metavar=("BEFORE", "AFTER"),
        help="compare two saved runs, paired by match, instead of playing",
    )
    args = parser.parse_args(argv)
    if args.compare:
        try:
            runs = [json.loads(Path(name).read_text()) for name in args.compare]
            print(compare(*runs))
        except (OSError, ValueError, KeyError, TypeError) as error:
            parser.error(f"cannot compare {' and '.join(args.compare)}: {error}")
        return 0
    if not args.opponents:
        parser.error("name at least one opponent (or --compare two saved runs)")
    try:
        openings = [
            measure(name, args.rounds, args.matches, args.workers) for name in args.opponents
        ]
    except ValueError as error:
        parser.error(str(error))
    for opening in openings:
        print(report(opening))
    if args.json:
        Path(args.json).write_text(
            json.dumps(
                {
                    o.opponent: {
                        "rounds": o.rounds,
                        "scores": list(o.scores),
                        "expected": list(o.expected),
                    }
                    for o in openings
                }
            )
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
