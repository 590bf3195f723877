"""contrib/rpscontest_bot.py, run exactly as the rpscontest.com runner runs a bot.

The runner compiles the source once, keeps one namespace per bot, and each round sets
``input`` ("" first, then the opponent's last move), execs the code and reads ``output``.
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from types import CodeType

import pytest

from roshambo.moves import outcome

SCRIPT = Path(__file__).resolve().parent.parent / "contrib" / "rpscontest_bot.py"


@pytest.fixture(scope="module")
def code() -> CodeType:
    return compile(SCRIPT.read_text(), str(SCRIPT), "exec")


def play_round(code: CodeType, namespace: dict, their_last: str) -> str:
    namespace["input"] = their_last
    exec(code, namespace)
    return namespace["output"]


def play(code: CodeType, namespace: dict, script: str, rounds: int) -> list[str]:
    """One match against a cycling script; returns the bot's outputs."""
    outputs, their_last = [], ""
    for index in range(rounds):
        outputs.append(play_round(code, namespace, their_last))
        their_last = script[index % len(script)]
    return outputs


@pytest.mark.parametrize("script", ["R", "RPS", "RRPPS", "PSSRPRSS"])
def test_legal_outputs_and_a_clear_win_against_a_cycle(code: CodeType, script: str) -> None:
    outputs = play(code, {}, script, 1000)
    assert set(outputs) <= {"R", "P", "S"} and len(outputs) == 1000
    # Any engine that learns beats a fixed cycle; the fCC bar is a 60% win rate.
    wins = sum(outcome("RPS".index(mine), "RPS".index(script[index % len(script)])) == 1
               for index, mine in enumerate(outputs))
    assert wins >= 600


def test_seeded_matches_replay(code: CodeType) -> None:
    first = play(code, {"roshambo_seed": 7}, "RRPPS", 300)
    assert play(code, {"roshambo_seed": 7}, "RRPPS", 300) == first


def test_two_namespaces_are_independent(code: CodeType) -> None:
    alone_a = play(code, {"roshambo_seed": 1}, "RRPPS", 300)
    alone_b = play(code, {"roshambo_seed": 2}, "PSP", 300)
    a, b = {"roshambo_seed": 1}, {"roshambo_seed": 2}
    together_a, together_b, last_a, last_b = [], [], "", ""
    for index in range(300):
        together_a.append(play_round(code, a, last_a))
        together_b.append(play_round(code, b, last_b))
        last_a, last_b = "RRPPS"[index % 5], "PSP"[index % 3]
    assert (together_a, together_b) == (alone_a, alone_b)


def test_empty_input_restarts_the_match_in_the_same_namespace(code: CodeType) -> None:
    namespace = {"roshambo_seed": 4}
    first = play(code, namespace, "SSPR", 200)
    assert play(code, namespace, "RRPPS", 200) == play(code, {"roshambo_seed": 4}, "RRPPS", 200)
    assert play(code, namespace, "SSPR", 200) == first


def test_a_fresh_namespace_starts_even_if_its_first_input_is_a_move(code: CodeType) -> None:
    namespace = {"roshambo_seed": 9}
    assert play_round(code, namespace, "P") == play_round(code, {"roshambo_seed": 9}, "")


@pytest.mark.parametrize("bad", ["X", "rock", "r", None, 1])
def test_bad_input_raises_and_leaves_the_match_unchanged(code: CodeType, bad: object) -> None:
    expected = play(code, {"roshambo_seed": 3}, "RRPPS", 60)
    namespace = {"roshambo_seed": 3}
    outputs, their_last = [], ""
    for index in range(60):
        if index == 30:
            with pytest.raises((ValueError, TypeError), match="invalid move"):
                play_round(code, namespace, bad)
        outputs.append(play_round(code, namespace, their_last))
        their_last = "RRPPS"[index % 5]
    assert outputs == expected


def test_finds_roshambo_from_file_or_says_how(code: CodeType, tmp_path: Path) -> None:
    # -I keeps the repository off sys.path: only the runner-provided __file__ can lead there.
    installed = subprocess.run([sys.executable, "-I", "-c", "import roshambo"], cwd=tmp_path,
                               capture_output=True, timeout=60).returncode == 0
    if installed:
        pytest.skip("roshambo is installed here, so the script finds it without help")
    runner = (
        "import sys\n"
        "path = sys.argv[1]\n"
        "code = compile(open(path).read(), path, 'exec')\n"
        "namespace = {'input': ''}\n"
        "if sys.argv[2] == 'with-file':\n"
        "    namespace['__file__'] = path\n"
        "try:\n"
        "    exec(code, namespace)\n"
        "except ImportError as error:\n"
        "    print('ImportError:', error)\n"
        "else:\n"
        "    print('output', namespace['output'])\n")
    results = {mode: subprocess.run([sys.executable, "-I", "-c", runner, str(SCRIPT), mode],
                                    cwd=tmp_path, capture_output=True, text=True, timeout=60)
               for mode in ("with-file", "without-file")}
    assert results["with-file"].stdout.split()[:1] == ["output"], results["with-file"].stderr
    assert results["with-file"].stdout.split()[1] in ("R", "P", "S")
    assert "needs the roshambo package" in results["without-file"].stdout
