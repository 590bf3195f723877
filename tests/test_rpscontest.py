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

from roshambo.engine.moves import outcome

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
    wins = sum(
        outcome("RPS".index(mine), "RPS".index(script[index % len(script)])) == 1
        for index, mine in enumerate(outputs)
    )
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


# Runs the bot the runner's way in a bare interpreter: ``-I`` ignores PYTHONPATH and keeps the
# working directory off sys.path, ``-S`` skips site-packages, so an installed roshambo
# (CI's ``pip install -e``) is invisible and only the script's own ``__file__`` lookup can
# find the package.
BARE_PYTHON = (sys.executable, "-I", "-S")
RUNNER = """\
import sys
path = sys.argv[1]
code = compile(open(path).read(), path, 'exec')
namespace = {'input': ''}
if sys.argv[2] == 'with-file':
    namespace['__file__'] = path
try:
    exec(code, namespace)
except ImportError as error:
    print('ImportError:', error)
else:
    print('output', namespace['output'])
"""


def run_bare(script: Path, mode: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [*BARE_PYTHON, "-c", RUNNER, str(script), mode],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_finds_roshambo_from_file_or_says_how(tmp_path: Path) -> None:
    hidden = subprocess.run(
        [*BARE_PYTHON, "-c", "import roshambo"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert hidden.returncode != 0, "roshambo is importable even without site-packages"
    alone = tmp_path / "rpscontest_bot.py"  # a copy far from the repository
    alone.write_text(SCRIPT.read_text())

    with_file = run_bare(SCRIPT, "with-file", tmp_path)
    assert with_file.stdout.split()[:1] == ["output"], with_file.stdout + with_file.stderr
    assert with_file.stdout.split()[1] in ("R", "P", "S")
    for script, mode in ((SCRIPT, "without-file"), (alone, "with-file"), (alone, "without-file")):
        done = run_bare(script, mode, tmp_path)
        assert done.stdout.startswith(
            "ImportError: rpscontest_bot.py needs the roshambo package"
        ), (script, mode, done.stdout, done.stderr)
