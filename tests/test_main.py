"""main.py: the official default output, and the command-line options."""

from __future__ import annotations

import ast
import re
import types

import pytest

import main
from roshambo.apps import terminal
from roshambo.apps.terminal import Score
from roshambo.engine.agent import Agent
from roshambo.opponents import OPPONENTS

RESULT = re.compile(r"Final results: (\{.*\})")
RATE = re.compile(r"Player 1 win rate: (\d+(?:\.\d+)?(?:e-?\d+)?)%")


def matches_in(stdout: str) -> list[tuple[dict[str, int], float]]:
    """(results dict, win rate) for each match printed, checking the fCC two-line shape."""
    lines = stdout.splitlines()
    pairs = []
    for result, rate in zip(lines[::2], lines[1::2]):
        found_result, found_rate = RESULT.fullmatch(result), RATE.fullmatch(rate)
        assert found_result and found_rate, (result, rate)
        pairs.append((ast.literal_eval(found_result.group(1)), float(found_rate.group(1))))
    return pairs


def test_default_run_prints_exactly_the_four_official_results(run_python):
    done = run_python("main.py")
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    lines = done.stdout.splitlines()
    assert len(lines) == 8
    assert sum(line.startswith("Player 1 win rate") for line in lines) == 4
    for results, rate in matches_in(done.stdout):
        assert set(results) == {"p1", "p2", "tie"} and sum(results.values()) == 1000
        decisive = results["p1"] + results["p2"]
        assert rate == pytest.approx(results["p1"] / decisive * 100 if decisive else 0)


def test_games_and_bots_choose_the_matches(run_python):
    done = run_python("main.py", "--games", "12", "--bots", "kris, Mrugesh,random")
    assert done.returncode == 0, done.stderr
    assert [sum(results.values()) for results, _ in matches_in(done.stdout)] == [12, 12, 12]


def test_verbose_prints_every_game(run_python):
    done = run_python("main.py", "--games", "3", "--bots", "quincy", "--verbose")
    assert done.returncode == 0, done.stderr
    assert len(re.findall(r"^Player 1: [RPS] \| Player 2: [RPS]$", done.stdout, re.M)) == 3
    # quincy's first three moves in a fresh process
    assert re.findall(r"Player 2: ([RPS])", done.stdout) == ["R", "P", "P"]


@pytest.mark.parametrize(
    "args, complaint",
    [
        (["--bots", "quincy,bob"], "unknown bot(s) bob"),
        (["--bots", ","], "(none given)"),
        (
            ["--games", "0"],
            "argument --games: expected a number of games from 1 to 1,000,000, got '0'",
        ),
        (["--games", "ten"], "expected a number of games from 1 to 1,000,000, got 'ten'"),
        (["--games", "1000001"], "from 1 to 1,000,000, got '1000001'"),
        (["--games", "1_0"], "from 1 to 1,000,000, got '1_0'"),  # int() reads 10
        (["--games", " 10"], "from 1 to 1,000,000, got ' 10'"),
        (["--serve", "+80"], "argument --serve: expected a port from 0 to 65535, got '+80'"),
        (["--explain"], "--explain only works with --play ai"),
        (["--play", "kris", "--explain"], "use it with --play ai"),
        (["--play", "--games", "5"], "does not take --games"),
        (["--play", "bob"], "unknown player 'bob': expected one of ai, quincy"),
        (["--play", "copy-attacker", "--explain"], "use it with --play ai"),
    ],
)
def test_bad_options_are_refused_with_a_reason(run_python, args, complaint):
    done = run_python("main.py", *args)
    assert done.returncode == 2
    assert complaint in done.stderr
    assert done.stdout == ""


def test_help_lists_every_option(run_python):
    done = run_python("main.py", "--help")
    assert done.returncode == 0
    for option in ("--games", "--bots", "--verbose", "--test", "--plot", "--play", "--explain"):
        assert option in done.stdout


def test_play_option_defaults_to_our_engine(run_python):
    done = run_python("main.py", "--play", stdin="r\nq\n")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("Rock, paper, scissors against ai.")
    assert "Round 1: you rock, ai " in done.stdout


@pytest.mark.parametrize("opponent", [*OPPONENTS, "ai"])
def test_play_option_takes_every_registry_name(run_python, opponent):
    done = run_python("main.py", "--play", opponent, stdin="p\ns\n")
    assert done.returncode == 0, done.stderr
    assert "Game over (end of input) after 2 rounds" in done.stdout
    assert f"Round 2: you scissors, {opponent} " in done.stdout


def test_play_option_uses_the_registry_opponent(monkeypatch):
    built = []

    def fake_session(opponent, explain):
        built.append((opponent, explain))
        return Score()

    monkeypatch.setattr(terminal, "run_session", fake_session)
    assert main.main(["--play", "tree"]) == 0
    assert main.main(["--play", "--explain"]) == 0
    (tree, tree_explain), (engine, engine_explain) = built
    assert type(tree) is OPPONENTS["tree"] and not tree_explain
    assert isinstance(engine, Agent) and engine_explain


def test_play_option_with_a_classic_bot(run_python):
    pytest.importorskip(
        "pyspiel", reason="the classic field needs open_spiel: pip install open_spiel"
    )
    done = run_python("main.py", "--play", "classic:rotatebot", stdin="r\nr\nr\n")
    assert done.returncode == 0, done.stderr
    assert "Game over (end of input) after 3 rounds" in done.stdout


def test_test_option_runs_test_module_after_the_matches(monkeypatch, capsys):
    calls = []

    def fake_unittest_main(**kwargs):
        calls.append(kwargs)
        return types.SimpleNamespace(result=types.SimpleNamespace(wasSuccessful=lambda: False))

    monkeypatch.setattr(main, "run_matches", lambda *args: calls.append(args) or 0)
    monkeypatch.setattr(main.unittest, "main", fake_unittest_main)
    assert main.main(["--test", "--games", "7", "--bots", "kris"]) == 1
    assert calls[0] == (["kris"], 7, False, None)
    assert calls[1]["module"] == "test_module" and calls[1]["exit"] is False
    assert len(calls[1]["argv"]) == 1  # main.py's own options are not passed on to unittest


@pytest.mark.slow
def test_test_option_for_real(run_python):
    done = run_python("main.py", "--games", "10", "--bots", "kris", "--test", timeout=600)
    assert "Ran 4 tests" in done.stderr
    assert done.stdout.count("Player 1 win rate") == 5
    assert done.returncode == (0 if done.stderr.rstrip().endswith("OK") else 1)


def test_a_plot_format_matplotlib_cannot_write_is_refused_before_any_game(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    target = tmp_path / "rates.xyz"
    assert main.main(["--games", "10", "--bots", "kris", "--plot", str(target)]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""  # no match played (each prints its win rate)
    assert f"could not write the plot to {target}: cannot draw to" in captured.err
    assert not target.exists()
