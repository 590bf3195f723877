"""Every command the README shows works (issue #66, 3).

The commands in its ``sh`` blocks run for real, from the repository, made cheaper only by
options appended after the README's own (argparse keeps the last value): fewer games and
repetitions, a free port, output files in a temporary folder. The set-up's test command is
this suite itself, so it is checked by test_docs instead. Commands quoted inline (the
benchmarks', the picture's) are too long to run here: their scripts must exist and take
every option the README gives them.
"""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from conftest import python_env

REPO = Path(__file__).resolve().parent.parent
README = (REPO / "README.md").read_text(encoding="utf-8")
TEST_COMMAND = 'python -m pip install -e ".[test]" && python -m pytest -n auto'
CHEAPER = {  # appended to each arena command: the README's sizes, made small
    "match": ["--games", "200"],
    "tournament": ["--games", "100", "--reps", "1"],
    "headtohead": ["--games", "100", "--reps", "2"],
    "population": ["--games", "60", "--reps", "1"],
}


def shown_commands() -> list[str]:
    """Each command line of the README's sh blocks, without its trailing comment."""
    blocks = re.findall(r"```sh\n(.*?)```", README, re.S)
    lines = [line.split("  #")[0].strip() for block in blocks for line in block.splitlines()]
    return [line for line in lines if line]


def inline_commands() -> list[str]:
    """Commands quoted inline (`python ...`, or a benchmark by its path), on one line or two."""
    found = re.findall(r"`((?:python |benchmarks/)[^`]+)`", README)
    return [("python " if c.startswith("benchmarks/") else "") + " ".join(c.split()) for c in found]


def argv_of(command: str, tmp_path: Path) -> list[str]:
    words = shlex.split(command)
    assert words[0] == "python", command
    args = words[1:]
    for i, word in enumerate(args[:-1]):
        if word == "--out":
            args[i + 1] = str(tmp_path / Path(args[i + 1]).name)
    if args[:2] == ["-m", "roshambo"] and args[2] in CHEAPER:
        args += CHEAPER[args[2]]
    return [sys.executable, *args]


def run_here(argv: list[str], stdin: str = "", timeout: float = 300) -> subprocess.CompletedProcess:
    """``argv`` from the repository, as a user would run it there."""
    return subprocess.run(
        argv,
        input=stdin,
        capture_output=True,
        text=True,
        cwd=REPO,
        env=python_env(),
        timeout=timeout,
    )


def needs(command: str) -> None:
    if "population" in command:
        pytest.importorskip("pyspiel", reason="the classic field needs open_spiel")
    if "--scheduler local" in command:
        pytest.importorskip("distributed", reason="a Dask cluster needs dask[distributed]")


def test_the_readme_shows_the_commands_this_file_expects() -> None:
    commands = shown_commands()
    assert TEST_COMMAND in commands and "python main.py" in commands
    assert any(
        "examples/frequency_bot.py" in c and "examples/markov_agent.py" in c for c in commands
    )


@pytest.mark.parametrize(
    "command", [c for c in shown_commands() if c != TEST_COMMAND and " serve" not in c]
)
def test_every_command_shown_runs(command: str, tmp_path: Path) -> None:
    needs(command)
    stdin = "r\np\ns\nq\n" if "--play" in command else ""
    done = run_here(argv_of(command, tmp_path), stdin)
    assert done.returncode == 0, f"{command}\n{done.stderr}"
    assert done.stdout.strip(), command
    assert "Traceback" not in done.stderr, done.stderr


@pytest.mark.parametrize("command", [c for c in shown_commands() if " serve" in c])
def test_the_serve_command_shown_serves_the_page(command: str, tmp_path: Path) -> None:
    argv = argv_of(command, tmp_path) + ["--port", "0"]
    server = subprocess.Popen(
        argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=REPO, env=python_env()
    )
    try:
        line = server.stdout.readline()
        url = re.search(r"http://[\d.]+:\d+/", line)
        assert url, line
        deadline = time.monotonic() + 10
        while True:
            try:
                with urllib.request.urlopen(url.group(0), timeout=5) as page:
                    assert page.status == 200 and b"<html" in page.read().lower()
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)
    finally:
        server.terminate()
        server.wait(timeout=10)


def _script_help(words: list[str]) -> str:
    target = words[1:3] if words[1] == "-m" else words[1:2]
    if target[0] == "-m" and target[1] == "roshambo":
        target = words[1:4] if not words[3].startswith("-") else words[1:3]
    done = run_here([sys.executable, *target, "--help"], timeout=60)
    assert done.returncode == 0, f"{' '.join(target)} --help: {done.stderr}"
    return done.stdout


@pytest.mark.parametrize("command", inline_commands())
def test_every_inline_command_names_a_script_that_takes_its_options(command: str) -> None:
    words = shlex.split(command)
    if words[1] != "-m":
        assert (REPO / words[1]).is_file(), f"{words[1]} is missing"
    help_text = _script_help(words)
    for option in (w.split("=")[0] for w in words if w.startswith("--")):
        assert option in help_text, f"{command}: {option} is not an option there"
