"""The terminal session (issue 5): parsing, scoring, the loop's endings, and real terminals."""

from __future__ import annotations

import dataclasses
import io
import os
import random
import select
import signal
import subprocess
import sys
import time

import pytest

from conftest import REPO, python_env
from roshambo.apps.terminal import (
    PROMPT,
    QUIT,
    SESSION_THROWS,
    Explaining,
    Score,
    Session,
    format_belief,
    parse_command,
    run_session,
    session_opponent,
)
from roshambo.arena.tournaments import known_names
from roshambo.engine.agent import Agent, Belief
from roshambo.engine.moves import PAPER, ROCK, SCISSORS, Move
from roshambo.opponents import OPPONENTS


class ScriptedOpponent:
    """Plays a fixed script and logs the previous moves it was shown."""

    name = "bot"

    def __init__(self, moves: list[Move]) -> None:
        self.moves = moves
        self.shown: list[Move | None] = []

    def move(self, their_last: Move | None) -> Move:
        self.shown.append(their_last)
        return self.moves[len(self.shown) - 1]


def markov_belief(
    strategy: str = "markov.1", hedging: bool = False, cautious: bool = False
) -> Belief:
    return Belief(
        strategy=strategy,
        family="markov",
        window=9,
        rotation=1,
        score=1.5,
        hedging=hedging,
        cautious=cautious,
    )


class BelievingOpponent(ScriptedOpponent):
    def belief(self) -> Belief:
        return markov_belief(f"markov.{len(self.shown)}")


class LinesThenInterrupt(io.StringIO):
    """Gives its lines, then raises KeyboardInterrupt as Ctrl-C would inside readline."""

    def readline(self, *args) -> str:  # type: ignore[override]
        line = super().readline(*args)
        if not line:
            raise KeyboardInterrupt
        return line


@pytest.mark.parametrize(
    "text, move",
    [
        ("r", ROCK),
        ("R", ROCK),
        ("  rock \n", ROCK),
        ("ROCK", ROCK),
        ("RoCk", ROCK),
        ("p", PAPER),
        ("Paper\n", PAPER),
        ("\tP", PAPER),
        ("s", SCISSORS),
        ("SCISSORS", SCISSORS),
        ("scissors\r\n", SCISSORS),
    ],
)
def test_parse_command_accepts_letters_and_words_in_any_case(text, move):
    assert parse_command(text) == move


@pytest.mark.parametrize("text", ["q", "Q", " quit\n", "QUIT"])
def test_parse_command_quits(text):
    assert parse_command(text) == QUIT


@pytest.mark.parametrize("text", ["", "\n", "x", "rocks", "rp", "1", "scissor", "r p", "exit"])
def test_parse_command_explains_anything_else_in_one_line(text):
    with pytest.raises(ValueError) as caught:
        parse_command(text)
    message = str(caught.value)
    assert "\n" not in message and "r, p or s" in message


def test_score_counts_decisive_games_only():
    score = Score().after(1).after(0).after(-1).after(1)
    assert (score.wins, score.losses, score.ties, score.rounds) == (2, 1, 1, 4)
    assert score.win_rate == pytest.approx(200 / 3)
    assert Score().after(0).win_rate == 0.0


def test_session_shows_the_opponent_only_the_previous_move():
    opponent = ScriptedOpponent([PAPER, PAPER, ROCK])
    session = Session(opponent)
    rounds = [session.play(move) for move in (ROCK, SCISSORS, ROCK)]
    assert opponent.shown == [None, ROCK, SCISSORS]
    assert [r.result for r in rounds] == [-1, 1, 0]
    assert [r.number for r in rounds] == [1, 2, 3]
    assert rounds[-1].score == Score(1, 1, 1) == session.score
    assert all(r.belief is None for r in rounds)


def test_session_explains_only_when_asked():
    explained = Session(BelievingOpponent([ROCK, ROCK]), explain=True)
    assert explained.play(PAPER).belief == markov_belief("markov.1")
    assert Session(BelievingOpponent([ROCK]), explain=False).play(PAPER).belief is None


def test_session_reset_equals_fresh():
    session = Session(ScriptedOpponent([ROCK] * 5))
    session.play(PAPER)
    session.reset()
    assert session.score == Score() and session.rounds == []


def test_run_session_plays_explains_bad_input_and_quits():
    opponent = ScriptedOpponent([SCISSORS, PAPER, ROCK])
    out = io.StringIO()
    score = run_session(opponent, stdin=io.StringIO("r\nxx\n\nPaper\nq\ns\n"), stdout=out)
    text = out.getvalue()
    assert score == Score(1, 0, 1)
    assert opponent.shown == [None, ROCK]  # bad lines and the line after q were not played
    assert "Round 1: you rock, bot scissors -> you win." in text
    assert "Round 2: you paper, bot paper -> tie." in text
    assert "Round 3" not in text
    assert text.count("is not a move") == 2
    assert text.count(PROMPT) == 5
    assert PROMPT + "r\n" in text and PROMPT + "xx\n" in text  # piped input is echoed
    assert text.rstrip().splitlines()[-1] == (
        "Game over (quit) after 2 rounds: you 1, bot 0, ties 1; your win rate 100.0%."
    )


def test_run_session_ends_cleanly_at_end_of_input():
    out = io.StringIO()
    score = run_session(ScriptedOpponent([ROCK]), stdin=io.StringIO("s"), stdout=out)
    assert score == Score(0, 1, 0)
    assert (
        out.getvalue()
        .rstrip()
        .endswith(
            "Game over (end of input) after 1 round: you 0, bot 1, ties 0; your win rate 0.0%."
        )
    )


def test_run_session_ends_cleanly_on_ctrl_c():
    out = io.StringIO()
    score = run_session(ScriptedOpponent([ROCK, ROCK]), stdin=LinesThenInterrupt("p\n"), stdout=out)
    assert score == Score(1, 0, 0)
    assert "Game over (interrupted) after 1 round" in out.getvalue()


def test_run_session_shows_beliefs_with_explain():
    out = io.StringIO()
    run_session(
        BelievingOpponent([ROCK, ROCK]), explain=True, stdin=io.StringIO("p\nr\n"), stdout=out
    )
    lines = out.getvalue().splitlines()
    assert out.getvalue().count(format_belief(markov_belief("markov.1"))) == 1
    assert sum(line.startswith("  It follows markov.") for line in lines) == 2


def test_format_belief_says_what_it_follows_over_what_how_sure_and_whether_it_hedges():
    assert format_belief(markov_belief("markov.2", hedging=True)) == (
        "  It is hedging; its best idea is markov. The markov idea counts what was played after\n"
        "    each short run of moves (a Markov chain). This idea predicts your move, and the AI\n"
        "    second-guesses it by 2 steps.\n"
        "  Window: the strategy with the best record over the last 9 rounds. Record: +1.50 (wins\n"
        "    minus losses of following it; each older round counts 1% less). Mode: hedging: it\n"
        "    trusts no strategy and plays at random."
    )
    assert " ".join(format_belief(markov_belief("markov.2")).split()).endswith(
        "Mode: confident: it follows the strategy."
    )
    assert "Mode: cautious: it played for a tie or a win." in " ".join(
        format_belief(markov_belief("markov.2", cautious=True)).split()
    )
    exact = dataclasses.replace(markov_belief("period40-their.0"), exact=True)
    assert "Window: none: a rule you have kept" in format_belief(exact)


def test_run_session_against_the_real_agent_with_explain():
    out = io.StringIO()
    score = run_session(
        Agent(random.Random(7)), explain=True, stdin=io.StringIO("r\n" * 12), stdout=out
    )
    assert score.rounds == 12
    assert sum(line.startswith("  It ") for line in out.getvalue().splitlines()) == 12
    assert out.getvalue().count("Mode:") == 12


def test_session_opponent_builds_fresh_players_by_registry_name():
    assert isinstance(session_opponent("ai"), Agent)
    assert isinstance(session_opponent("ai"), Explaining)
    for name, cls in OPPONENTS.items():
        first, second = session_opponent(name), session_opponent(name)
        assert type(first) is cls and first is not second
    assert set(known_names()) == {"ai", *OPPONENTS}


def test_session_opponent_is_seeded_by_the_rng_it_is_given():
    def moves(opponent, n=40):
        last, played = None, []
        for index in range(n):
            played.append(opponent.move(last))
            last = index * 7 % 3
        return played

    assert moves(session_opponent("ai", random.Random(3))) == moves(
        session_opponent("ai", random.Random(3))
    )
    assert moves(session_opponent("random", random.Random(3))) == moves(
        session_opponent("random", random.Random(3))
    )
    # and by that rng: another seed gives other moves (40 random moves alike: 3 ** -40)
    assert moves(session_opponent("random", random.Random(3))) != moves(
        session_opponent("random", random.Random(4))
    )


def test_session_opponent_refuses_unknown_names():
    with pytest.raises(ValueError, match="unknown player 'bob'.*quincy"):
        session_opponent("bob")


def test_session_opponent_builds_classic_bots_for_long_sessions():
    pytest.importorskip(
        "pyspiel", reason="the classic field needs open_spiel: pip install open_spiel"
    )
    bot = session_opponent("classic:greenberg", random.Random(1))
    assert bot.name == "classic:greenberg" and bot.capacity == SESSION_THROWS
    score = run_session(bot, stdin=io.StringIO("r\np\ns\n"), stdout=io.StringIO())
    assert score.rounds == 3


# --- through real processes ---------------------------------------------------------------


def test_play_kris_through_a_subprocess_with_scripted_stdin(run_python):
    # kris plays P first (it reads "" as R), then beats our previous move.
    done = run_python("main.py", "--play", "kris", stdin="rock\n  nope \nS\n")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert any(
        line.endswith(
            "Round 1: you rock, kris paper -> kris wins. "
            "Score: you 0, kris 1, ties 0; your win rate 0.0%"
        )
        for line in lines
    )
    assert any("'nope' is not a move" in line for line in lines)
    assert any(
        line.endswith(
            "Round 2: you scissors, kris paper -> you win. "
            "Score: you 1, kris 1, ties 0; your win rate 50.0%"
        )
        for line in lines
    )
    assert (
        lines[-1]
        == "Game over (end of input) after 2 rounds: you 1, kris 1, ties 0; your win rate 50.0%."
    )


def test_play_ai_with_explain_through_a_subprocess(run_python):
    done = run_python("main.py", "--play", "--explain", stdin="r\np\ns\nquit\n")
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("Mode:") == 3
    assert "Game over (quit) after 3 rounds" in done.stdout


def _read_until(
    fd: int, needle: bytes, buffer: bytearray, start: int = 0, timeout: float = 20
) -> int:
    """Read from ``fd`` into ``buffer`` until ``needle`` appears at or after ``start``.

    Returns the needle's position; fails after ``timeout`` seconds or if the other side closes.
    """
    deadline = time.monotonic() + timeout
    while (found := buffer.find(needle, start)) < 0:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise AssertionError(f"{needle!r} did not appear; got {bytes(buffer)!r}")
        ready, _, _ = select.select([fd], [], [], remaining)
        if ready:
            try:
                chunk = os.read(fd, 4096)
            except OSError:  # EIO: the terminal's other side closed
                chunk = b""
            if not chunk:
                raise AssertionError(f"closed before {needle!r}; got {bytes(buffer)!r}")
            buffer.extend(chunk)
    return found


@pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pseudo-terminal")
def test_ctrl_c_in_a_real_pseudo_terminal_ends_with_a_summary():
    pty = pytest.importorskip("pty", reason="needs a POSIX pseudo-terminal")
    pid, fd = pty.fork()
    if pid == 0:  # the child: its controlling terminal is the pty
        try:
            os.chdir(REPO)
            os.execve(sys.executable, [sys.executable, "main.py", "--play", "kris"], python_env())
        finally:
            os._exit(127)
    output = bytearray()
    try:
        _read_until(fd, PROMPT.encode(), output)
        os.write(fd, b"r\n")
        round_1 = _read_until(fd, b"Round 1:", output)
        _read_until(fd, PROMPT.encode(), output, start=round_1)
        os.write(fd, b"\x03")  # Ctrl-C: the terminal sends SIGINT to the foreground process
        summary = _read_until(fd, b"Game over", output)
        _read_until(fd, b"\n", output, start=summary)
    finally:
        _, status = os.waitpid(pid, 0)
        os.close(fd)
    assert os.waitstatus_to_exitcode(status) == 0
    assert b"Game over (interrupted) after 1 round" in output


@pytest.mark.skipif(sys.platform == "win32", reason="needs POSIX signals")
def test_sigint_through_pipes_ends_with_a_summary():
    process = subprocess.Popen(
        [sys.executable, "main.py", "--play", "kris"],
        cwd=REPO,
        env=python_env(),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        assert process.stdin is not None and process.stdout is not None
        output = bytearray()
        stdout = process.stdout.fileno()
        _read_until(stdout, PROMPT.encode(), output)
        process.stdin.write(b"p\n")
        process.stdin.flush()
        round_1 = _read_until(stdout, b"Round 1:", output)
        _read_until(stdout, PROMPT.encode(), output, start=round_1)
        process.send_signal(signal.SIGINT)
        rest, errors = process.communicate(timeout=20)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 0, errors
    assert b"Traceback" not in errors
    assert b"Game over (interrupted) after 1 round: you 0, kris 0, ties 1" in output + rest
