"""Arena: seeded matches, tournaments whose seeds are drawn before play, metrics, writers."""

from __future__ import annotations

import csv
import io
import json
import pickle
import random
from functools import partial

import pytest

from roshambo.apps import report
from roshambo.arena.tournaments import (
    MatchResult,
    Registered,
    TournamentResult,
    make_player,
    match_record,
    play_match,
    population_metrics,
    resolve,
    schedule,
    summarize_pairs,
    tournament,
)
from roshambo.engine.moves import LETTERS


class Scripted:
    """Plays ``pattern`` ("RRPPS") over and over, ignoring the opponent."""

    name = "scripted"

    def __init__(self, pattern: str, rng: random.Random | None = None) -> None:
        self.pattern = [LETTERS.index(c) for c in pattern]
        self.reset()

    def reset(self) -> None:
        self._turn = 0

    def move(self, their_last: int | None) -> int:
        move = self.pattern[self._turn % len(self.pattern)]
        self._turn += 1
        return move


class Uniform:
    """Uniformly random moves from the injected generator."""

    name = "uniform"

    def __init__(self, rng: random.Random | None = None) -> None:
        self._rng = rng if rng is not None else random.Random()

    def reset(self) -> None:
        pass

    def move(self, their_last: int | None) -> int:
        return self._rng.randrange(3)


class BeatLast:
    """Plays what beats the opponent's last move (random on the first)."""

    name = "beat-last"

    def __init__(self, rng: random.Random | None = None) -> None:
        self._rng = rng if rng is not None else random.Random()

    def reset(self) -> None:
        pass

    def move(self, their_last: int | None) -> int:
        return self._rng.randrange(3) if their_last is None else (their_last + 1) % 3


class Broken:
    name = "broken"

    def __init__(self, rng: random.Random | None = None) -> None:
        pass

    def reset(self) -> None:
        pass

    def move(self, their_last: int | None) -> int:
        return 3


ROCK = partial(Scripted, "R")
PAPER = partial(Scripted, "P")
CYCLE = partial(Scripted, "RRPPS")


def result(player: str, opponent: str, wins: int, losses: int, n: int = 100) -> MatchResult:
    return MatchResult(player, opponent, wins, losses, n - wins - losses, seed=0, n=n)


# --- matches -----------------------------------------------------------------------------


def test_match_counts_from_first_players_side() -> None:
    lost = play_match(ROCK, PAPER, 10, seed=1)
    assert (lost.wins, lost.losses, lost.ties) == (0, 10, 0)
    assert lost.score == -10 and lost.win_rate == 0.0 and lost.n == 10 and lost.seed == 1
    assert (lost.player, lost.opponent) == ("scripted", "scripted")


def test_all_ties_give_zero_win_rate() -> None:
    tie = play_match(ROCK, ROCK, 7, seed=0, labels=("a", "b"))
    assert (tie.wins, tie.losses, tie.ties, tie.win_rate) == (0, 0, 7, 0.0)
    assert (tie.player, tie.opponent) == ("a", "b")


def test_scripted_game_pins_reactive_play() -> None:
    # Against "RRPPS" repeated, beating their last move wins on a repeat (R->R, P->P) and ties
    # on R->P, P->S, S->R: 2 wins and 3 ties per cycle, never a loss after the random first move.
    outcome = play_match(BeatLast, CYCLE, 1 + 5 * 20, seed=3)
    first = play_match(BeatLast, CYCLE, 1, seed=3)
    assert (
        outcome.wins - first.wins,
        outcome.losses - first.losses,
        outcome.ties - first.ties,
    ) == (40, 0, 60)


def test_match_replays_from_its_seed() -> None:
    first = play_match(Uniform, BeatLast, 300, seed=42)
    again = play_match(Uniform, BeatLast, 300, seed=42)
    other = play_match(Uniform, BeatLast, 300, seed=43)
    assert first == again
    assert first != other


def test_illegal_move_names_the_player() -> None:
    with pytest.raises(ValueError, match="broken"):
        play_match(Broken, ROCK, 3, seed=0, labels=("broken", "rock"))


def test_flipped_is_the_other_side() -> None:
    r = result("a", "b", 30, 10)
    f = r.flipped()
    assert (f.player, f.opponent, f.wins, f.losses, f.ties) == ("b", "a", 10, 30, r.ties)
    assert f.score == -r.score


# --- tournaments ---------------------------------------------------------------------------


def test_schedule_draws_every_seed_from_the_master_seed() -> None:
    specs = schedule([("a", "b"), ("a", "c")], reps=2, seed=9)
    master = random.Random(9)
    assert [s.seed for s in specs] == [master.getrandbits(63) for _ in range(4)]
    assert [(s.player, s.opponent, s.rep) for s in specs] == [
        ("a", "b", 0),
        ("a", "c", 0),
        ("a", "b", 1),
        ("a", "c", 1),
    ]


def test_round_robin_plays_every_pair_every_repetition() -> None:
    entrants = {"rock": ROCK, "paper": PAPER, "uniform": Uniform}
    done: list[tuple[int, int]] = []
    outcome = tournament(entrants, n=20, reps=3, seed=5, progress=lambda d, t: done.append((d, t)))
    assert outcome.round_robin and len(outcome.matches) == 3 * 3
    assert {(m.player, m.opponent) for m in outcome.matches} == {
        ("rock", "paper"),
        ("rock", "uniform"),
        ("paper", "uniform"),
    }
    assert done[-1] == (9, 9) and len(done) == 9
    assert len({m.seed for m in outcome.matches}) == 9


def test_same_master_seed_same_results_in_one_or_two_processes() -> None:
    entrants = {"uniform": Uniform, "beat-last": BeatLast, "cycle": CYCLE}
    candidates = {"challenger": Uniform}
    one = tournament(entrants, candidates=candidates, n=200, reps=2, seed=11, workers=1)
    two = tournament(entrants, candidates=candidates, n=200, reps=2, seed=11, workers=2)
    assert one == two
    assert tournament(entrants, candidates=candidates, n=200, reps=2, seed=12) != one


def test_candidates_play_the_population_from_their_side() -> None:
    outcome = tournament(
        {"rock": ROCK, "cycle": CYCLE}, candidates={"paper": PAPER}, n=10, reps=2, seed=0
    )
    assert not outcome.round_robin
    assert all(m.player == "paper" for m in outcome.matches)
    (metrics,) = outcome.metrics()
    assert metrics.candidate == "paper" and metrics.members == 2
    by_member = {p.opponent: p for p in outcome.pairs()}
    assert by_member["rock"].mean_score == 10 and by_member["rock"].std_score == 0


def test_candidate_labels_must_differ_from_population_labels() -> None:
    with pytest.raises(ValueError, match="clash"):
        tournament({"rock": ROCK}, candidates={"rock": PAPER}, n=1, reps=1, seed=0)


def test_round_robin_needs_two_entrants_and_reps() -> None:
    with pytest.raises(ValueError):
        tournament({"rock": ROCK}, n=1, reps=1, seed=0)
    with pytest.raises(ValueError):
        tournament({"rock": ROCK, "paper": PAPER}, n=1, reps=0, seed=0)


# --- metrics -------------------------------------------------------------------------------


def test_population_metrics_on_hand_made_results() -> None:
    results = [
        result("c", "x", 40, 30),
        result("c", "x", 50, 30),  # scores +10, +20 -> mean 15
        result("c", "y", 20, 24),
        result("c", "y", 30, 36),  # scores -4, -6  -> mean -5
        result("other", "x", 0, 100),  # not the candidate's
    ]
    m = population_metrics(results, "c")
    assert m.members == 2
    assert m.pr == pytest.approx(5.0)  # (15 + -5) / 2
    assert m.pe == pytest.approx(5.0)  # y's mean return against c
    assert m.agg == pytest.approx(0.0)
    assert m.worst == "y"
    assert m.win_rate == pytest.approx(100 * 140 / (140 + 120))


def test_exploitability_is_negative_when_every_member_loses() -> None:
    m = population_metrics([result("c", "x", 60, 10), result("c", "y", 30, 20)], "c")
    assert m.pe == pytest.approx(-10.0) and m.pr == pytest.approx(30.0)
    assert m.agg == pytest.approx(40.0)


def test_pair_summary_mean_std_win_rate() -> None:
    (pair,) = summarize_pairs([result("c", "x", 40, 30), result("c", "x", 50, 30)])
    assert pair.matches == 2 and pair.mean_score == 15
    assert pair.std_score == pytest.approx(7.0710678)
    assert pair.mean_win_rate == pytest.approx((100 * 40 / 70 + 100 * 50 / 80) / 2)
    assert (pair.wins, pair.losses) == (90, 60)


def test_round_robin_metrics_use_both_sides() -> None:
    matches = (result("a", "b", 60, 40), result("a", "c", 10, 30), result("b", "c", 50, 50))
    outcome = TournamentResult(matches, n=100, reps=1, seed=0, population=("a", "b", "c"))
    metrics = {m.candidate: m for m in outcome.metrics()}
    assert metrics["a"].pr == pytest.approx((20 - 20) / 2)
    assert metrics["b"].pr == pytest.approx((-20 + 0) / 2) and metrics["b"].worst == "a"
    assert metrics["c"].pe == pytest.approx(0.0) and metrics["c"].pr == pytest.approx(10.0)


def test_no_results_for_candidate_is_an_error() -> None:
    with pytest.raises(ValueError, match="nobody"):
        population_metrics([result("c", "x", 1, 0)], "nobody")


def test_match_record_counts_matches_by_score() -> None:
    assert match_record(
        [result("c", "x", 5, 1), result("c", "x", 1, 5), result("c", "x", 2, 2)]
    ) == (1, 1, 1)


# --- registry names --------------------------------------------------------------------------


def test_ai_is_our_engine_and_factories_pickle() -> None:
    from roshambo.engine.agent import Agent

    assert isinstance(make_player("ai", random.Random(0)), Agent)
    factory = resolve("ai")
    assert pickle.loads(pickle.dumps(factory)) == factory == Registered("ai")
    assert play_match(factory, ROCK, 30, seed=2).n == 30


def test_unknown_name_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="unknown player 'nobody'"):
        resolve("nobody")


# --- report: tables and files ----------------------------------------------------------------


def small_tournament() -> TournamentResult:
    return tournament(
        {"rock": ROCK, "cycle": CYCLE},
        candidates={"paper": PAPER, "uniform": Uniform},
        n=30,
        reps=2,
        seed=1,
    )


def test_csv_has_one_row_per_match(tmp_path) -> None:
    outcome = small_tournament()
    path = tmp_path / "matches.csv"
    report.write_csv(path, outcome.matches)
    with open(path, newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == len(outcome.matches) == 8
    assert tuple(rows[0]) == report.CSV_FIELDS
    first = outcome.matches[0]
    assert (rows[0]["player"], int(rows[0]["seed"]), int(rows[0]["score"])) == (
        first.player,
        first.seed,
        first.score,
    )


def test_json_holds_setup_metrics_pairs_and_matches(tmp_path) -> None:
    outcome = small_tournament()
    path = tmp_path / "run.json"
    report.write_json(path, outcome)
    data = json.loads(path.read_text(encoding="utf-8"))
    assert (data["n"], data["reps"], data["seed"]) == (30, 2, 1)
    assert data["candidates"] == ["paper", "uniform"] and data["population"] == ["rock", "cycle"]
    assert [m["candidate"] for m in data["metrics"]] == ["paper", "uniform"]
    assert len(data["pairs"]) == 4 and len(data["matches"]) == 8
    assert data["metrics"][0]["pr"] == pytest.approx(outcome.metrics()[0].pr)


def test_tables_name_everyone() -> None:
    outcome = small_tournament()
    metrics = report.format_metrics(outcome.metrics())
    assert "PR" in metrics and "AGG" in metrics and "paper" in metrics
    per_member = report.format_population(outcome)
    assert "rock" in per_member and "±" in per_member
    assert "W/L/D" in report.format_headtohead(outcome)
    assert "seed 1" in report.format_header(outcome)
    robin = tournament({"rock": ROCK, "paper": PAPER}, n=5, reps=1, seed=0)
    assert "+5" in report.format_standings(robin) and "-5" in report.format_standings(robin)
    assert "seed 7" in report.format_match(play_match(ROCK, PAPER, 3, seed=7))


def test_progress_bar_draws_in_place() -> None:
    stream = io.StringIO()
    bar = report.ProgressBar(stream, width=10)
    bar(1, 2)
    bar(2, 2)
    text = stream.getvalue()
    assert text.startswith("\r[#####.....] 1/2") and text.endswith("[##########] 2/2 matches\n")
