"""Load on the browser app (issue 20): 50 concurrent games x 100 moves, every answer right.

The server runs in its own process (``python -m roshambo serve --port 0``), the clients in
threads here; ``benchmarks/web_load.py`` checks each answer (round, moves, result, running
score, belief) and each game's final state. Latency is the benchmark's to report, not this
test's to judge: a shared machine makes any bound on it flaky.
"""

from __future__ import annotations

import pytest

from conftest import load_benchmark


def load_web_load():  # type: ignore[no-untyped-def]
    return load_benchmark("web_load.py", "web_load")


@pytest.mark.slow
def test_fifty_concurrent_games_of_a_hundred_moves_are_all_answered_right() -> None:
    load = load_web_load()
    with load.server_process(max_games=100) as url:
        result = load.run_load(url, games=50, moves=100, seed=20)
    assert result.errors == ()
    assert len(result.latencies) == 50 * 100
    assert "errors: 0" in load.format_result(result)


def test_the_checker_catches_a_wrong_answer() -> None:
    load = load_web_load()
    tally = {"you": 0, "ai": 0, "ties": 0}
    right = {
        "round": 1,
        "you": "R",
        "ai": "S",
        "result": "win",
        "score": {"you": 1, "ai": 0, "ties": 0},
        "belief": dict.fromkeys(load.BELIEF_KEYS),
    }
    assert load.check_move("R", 1, right, dict(tally)) is None
    for wrong in (
        {**right, "round": 2},
        {**right, "result": "loss"},
        {**right, "ai": "X"},
        {**right, "score": {"you": 0, "ai": 1, "ties": 0}},
        {**right, "belief": None},
    ):
        assert load.check_move("R", 1, wrong, dict(tally)) is not None


def test_percentiles_are_nearest_rank() -> None:
    load = load_web_load()
    result = load.LoadResult(1, 100, (), tuple(float(i) for i in range(100, 0, -1)), 2.0)
    assert (result.percentile(50), result.percentile(95), result.percentile(99)) == (
        50.0,
        95.0,
        99.0,
    )
    assert result.throughput == 50.0


def test_a_longer_game_holds_more_memory() -> None:
    load = load_web_load()
    load.game_memory(5)  # the first game in a process also builds what every later one shares
    short, longer = load.game_memory(5), load.game_memory(60)
    assert 0 < short < longer
