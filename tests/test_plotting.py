"""--plot: running win rates from recorded moves, the PNG, and the message without matplotlib."""

from __future__ import annotations

import math
import sys

import pytest

from roshambo.apps.plotting import (
    INSTALL_HINT,
    MatchTrace,
    MatplotlibMissing,
    MoveRecorder,
    draw,
    require_matplotlib,
    running_win_rate,
    trace_match,
)
from roshambo.arena.tournaments import Registered, play_match
from roshambo.engine.moves import outcome, parse_letter
from RPS_game import play

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"

# main.py run as a script in an interpreter where ``import matplotlib`` fails.
WITHOUT_MATPLOTLIB = """
import runpy, sys
sys.modules["matplotlib"] = None  # makes every import of matplotlib raise ImportError
sys.argv = ["main.py", *sys.argv[1:]]
runpy.run_path("main.py", run_name="__main__")
"""


def test_running_win_rate_counts_decisive_games_only():
    # R-R tie (no rate yet), P-R win, S-R loss, R-S win, P-P tie
    rates = running_win_rate("RPSRP", "RRRSP")
    assert math.isnan(rates[0])
    assert rates[1:] == [100.0, 50.0, pytest.approx(200 / 3), pytest.approx(200 / 3)]


def test_running_win_rate_rejects_mismatched_or_empty_moves():
    with pytest.raises(ValueError, match="differ in length"):
        running_win_rate("RP", "R")
    with pytest.raises(ValueError, match="empty move"):
        running_win_rate(["R", ""], ["S", "S"])


def test_move_recorder_passes_moves_through_and_keeps_them():
    seen: list[str] = []

    def bot(prev: str) -> str:
        seen.append(prev)
        return "P"

    recorder = MoveRecorder(bot)
    assert [recorder(prev) for prev in ["", "R", "S"]] == ["P", "P", "P"]
    assert seen == ["", "R", "S"] and recorder.moves == ["P", "P", "P"]
    recorder.reset()
    assert recorder.moves == []


def test_recorded_trace_ends_at_the_rate_play_returns(capsys):
    ours, theirs = iter("PSSRRP"), iter("RRPPRS")
    one = MoveRecorder(lambda prev: next(ours))
    two = MoveRecorder(lambda prev: next(theirs))
    rate = play(one, two, 6)
    trace = MatchTrace("scripted", tuple(one.moves), tuple(two.moves))
    assert trace.running_win_rate()[-1] == rate == 40.0  # wins P-R, S-P; losses S-R, R-P, P-S


def counts(trace: MatchTrace) -> tuple[int, int, int]:
    results = [
        outcome(parse_letter(a), parse_letter(b))
        for a, b in zip(trace.player_moves, trace.opponent_moves)
    ]
    return results.count(1), results.count(-1), results.count(0)


@pytest.mark.parametrize(
    "a, b, seed",
    [
        ("ai", "ai", 1),
        ("ai", "tree", 2),
        ("random", "markov", 3),
        ("kris", "ai", 4),
        ("copy-attacker", "ai", 5),
    ],
)
def test_trace_match_replays_play_match_throw_for_throw(a, b, seed):
    result = play_match(Registered(a), Registered(b), 150, seed)
    trace = trace_match(Registered(a), Registered(b), 150, seed, label="them")
    assert trace.opponent == "them" and len(trace.player_moves) == len(trace.opponent_moves) == 150
    assert counts(trace) == (result.wins, result.losses, result.ties)
    assert trace.running_win_rate()[-1] == pytest.approx(result.win_rate)
    assert trace_match(Registered(a), Registered(b), 150, seed) == MatchTrace(
        b, trace.player_moves, trace.opponent_moves
    )  # label defaults to b's name


def test_trace_match_replays_a_classic_bot():
    pytest.importorskip(
        "pyspiel", reason="the classic field needs open_spiel: pip install open_spiel"
    )
    a, b = Registered("ai"), Registered("classic:iocainebot")
    result = play_match(a, b, 1000, 8)
    assert counts(trace_match(a, b, 1000, 8)) == (result.wins, result.losses, result.ties)


def test_trace_match_rejects_bad_lengths_and_names_bad_moves():
    with pytest.raises(ValueError, match="n >= 0"):
        trace_match(Registered("ai"), Registered("ai"), -1, 0)

    class Broken:
        name = "broken"

        def __init__(self, rng=None):
            pass

        def move(self, their_last):
            return 3

    with pytest.raises(ValueError, match="broken: invalid move 3"):
        trace_match(Registered("ai"), Broken, 5, 0)


def test_draw_writes_a_png(tmp_path):
    pytest.importorskip(
        "matplotlib", reason="matplotlib is an optional extra: pip install -e '.[plot]'"
    )
    traces = [
        MatchTrace("kris", tuple("PSSRP" * 20), tuple("RRPPS" * 20)),
        MatchTrace("ties", tuple("R" * 50), tuple("R" * 50)),
    ]
    target = draw(traces, tmp_path / "rates.png")
    assert target.read_bytes().startswith(PNG_MAGIC)
    named = draw(traces, tmp_path / "named.png", player="ai (first of 3 matches)")
    assert named.read_bytes().startswith(PNG_MAGIC)


def test_main_plot_writes_a_png_and_keeps_the_fcc_output(run_python, tmp_path):
    pytest.importorskip(
        "matplotlib", reason="matplotlib is an optional extra: pip install -e '.[plot]'"
    )
    target = tmp_path / "results.png"
    done = run_python("main.py", "--games", "40", "--bots", "kris,abbey", "--plot", str(target))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert [line.split(":")[0] for line in lines] == ["Final results", "Player 1 win rate"] * 2 + [
        f"Plot written to {target}"
    ]
    assert target.read_bytes().startswith(PNG_MAGIC)


def test_require_matplotlib_explains_how_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    with pytest.raises(MatplotlibMissing) as caught:
        require_matplotlib()
    assert str(caught.value) == INSTALL_HINT


def test_main_plot_without_matplotlib_says_how_to_install_and_fails(run_python, tmp_path):
    target = tmp_path / "results.png"
    done = run_python("-c", WITHOUT_MATPLOTLIB, "--games", "5", "--plot", str(target))
    assert done.returncode != 0
    assert "pip install matplotlib" in done.stderr
    assert 'pip install -e ".[plot]"' in done.stderr
    assert "Traceback" not in done.stderr
    assert done.stdout == ""  # it fails before playing, not after
    assert not target.exists()
