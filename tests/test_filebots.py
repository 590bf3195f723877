"""Bots from files: detection, both conventions, seeding, isolation, and every forfeit cause."""

from __future__ import annotations

import io
import pickle
import random
import time
from pathlib import Path

import pytest

from roshambo.apps import report
from roshambo.apps.cli import main
from roshambo.apps.terminal import run_session
from roshambo.arena.filebots import BotFailure, BotSource, FileBot, FileBotFactory, is_file_spec
from roshambo.arena.tournaments import (
    Forfeit,
    MatchResult,
    make_player,
    play_match,
    resolve,
    tournament,
)
from roshambo.opponents import RockBot

BOTS = Path(__file__).resolve().parent / "bots"
CYCLE = str(BOTS / "rpscontest_cycle.py")
BEAT_LAST = str(BOTS / "kaggle_beat_last.py")
REPO = Path(__file__).resolve().parent.parent


def write(tmp_path: Path, name: str, source: str) -> str:
    path = tmp_path / name
    path.write_text(source, encoding="utf-8")
    return str(path)


def moves(bot: FileBot, their: list[int | None]) -> list[int]:
    return [bot.move(last) for last in their]


# --- specs and detection ---------------------------------------------------------------


def test_file_specs_are_told_from_names() -> None:
    assert is_file_spec("bots/x.py") and is_file_spec("kaggle:x") and is_file_spec("rpscontest:x")
    assert not is_file_spec("ai") and not is_file_spec("classic:greenberg")


def test_kinds_are_detected_from_the_syntax_tree() -> None:
    assert BotSource.read(CYCLE).kind == "rpscontest"
    assert BotSource.read(BEAT_LAST).kind == "kaggle"
    assert BotSource.read(str(REPO / "contrib" / "rpscontest_bot.py")).kind == "rpscontest"
    assert BotSource.read(str(REPO / "roshambo" / "apps" / "kaggle_agent.py")).kind == "kaggle"


def test_output_set_inside_a_branch_or_through_global_is_rpscontest(tmp_path) -> None:
    branch = write(
        tmp_path,
        "a.py",
        "def f():\n    return 'R'\nif input:\n    output = f()\nelse:\n    output = 'P'\n",
    )
    through_global = write(tmp_path, "b.py", "def f():\n    global output\n    output = 'S'\nf()\n")
    assert BotSource.read(branch).kind == "rpscontest"
    assert BotSource.read(through_global).kind == "rpscontest"


def test_forced_kinds_override_detection_and_need_no_py_suffix(tmp_path) -> None:
    path = write(tmp_path, "agent.txt", "output = 'R'\ndef agent(obs, conf):\n    return 2\n")
    assert BotSource.read(f"kaggle:{path}").kind == "kaggle"
    assert BotSource.read(f"rpscontest:{path}").kind == "rpscontest"
    assert play_match(resolve(f"kaggle:{path}"), RockBot, 5, 1).losses == 5  # scissors
    assert play_match(resolve(f"rpscontest:{path}"), RockBot, 5, 1).ties == 5  # rock


@pytest.mark.parametrize(
    "spec, complaint",
    [
        ("nowhere/bot.py", "'nowhere/bot.py' not found"),
        ("kaggle:nowhere/agent", "'nowhere/agent' not found"),
    ],
)
def test_missing_files_are_named(spec: str, complaint: str) -> None:
    with pytest.raises(ValueError, match=complaint):
        BotSource.read(spec)


def test_unreadable_kinds_and_syntax_errors_are_clear(tmp_path) -> None:
    neither = write(tmp_path, "neither.py", "x = 1\n")
    with pytest.raises(ValueError, match="cannot tell what kind of bot.*rpscontest:.*kaggle:"):
        BotSource.read(neither)
    broken = write(tmp_path, "broken.py", "def agent(:\n")
    with pytest.raises(ValueError, match="not valid Python: line 1"):
        BotSource.read(broken)


def test_files_are_read_as_python_reads_them(tmp_path) -> None:
    # a byte-order mark, and a coding declaration: Python runs both, so the arena does
    bom = tmp_path / "bom.py"
    bom.write_bytes(b"\xef\xbb\xbfdef agent(observation, configuration):\n    return 2\n")
    latin = tmp_path / "latin.py"
    latin.write_bytes(
        b"# -*- coding: latin-1 -*-\n# caf\xe9\ndef agent(observation, configuration):\n"
        b"    return 2\n"
    )
    for path in (bom, latin):
        assert BotSource.read(str(path)).kind == "kaggle"
        assert play_match(resolve(str(path)), RockBot, 5, 1).losses == 5  # scissors


def test_null_bytes_and_directories_are_named(tmp_path) -> None:
    nul = tmp_path / "nul.py"
    nul.write_bytes(b"def agent(o, c):\n    return 1\x00\n")
    with pytest.raises(ValueError, match="'.*nul.py' is not valid Python: .*null bytes"):
        BotSource.read(str(nul))
    folder = tmp_path / "folder.py"
    folder.mkdir()
    with pytest.raises(ValueError, match="folder.py' is a directory"):
        BotSource.read(str(folder))


def test_cli_refuses_a_bad_file_with_one_line_and_exit_2(tmp_path, capsys) -> None:
    assert main(["match", "ai", str(tmp_path / "none.py"), "--games", "5"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: bot file") and "none.py" in err and len(err.splitlines()) == 1


# --- the two conventions ------------------------------------------------------------------


def test_rpscontest_namespace_persists_within_a_match_and_is_fresh_after_reset() -> None:
    bot = make_player(CYCLE, random.Random(3))
    first = moves(bot, [None, 0, 0, 0, 0, 0])
    start = first[0]
    assert first == [(start + k) % 3 for k in range(6)]  # the namespace kept `position`
    bot.reset()
    assert moves(bot, [None, 0, 0]) == first[:3]  # a fresh namespace, seeded alike
    bot.close()


def test_kaggle_module_state_does_not_leak_between_matches() -> None:
    # kaggle_beat_last raises if its module-level list carries calls over from a match.
    result = tournament({"a": resolve(BEAT_LAST), "b": resolve(CYCLE)}, n=20, reps=3, seed=5)
    assert [m.forfeit for m in result.matches] == [None] * 3
    bot = make_player(BEAT_LAST, random.Random(1))
    moves(bot, [None, 0, 1])
    bot.reset()
    assert moves(bot, [None, 0, 1])[1:] == [1, 2]  # beats the last sign, no leak error
    bot.close()


def test_kaggle_observation_and_configuration_match_kaggle_environments(tmp_path) -> None:
    checker = write(
        tmp_path,
        "checker.py",
        """
def agent(observation, configuration):
    assert configuration.signs == configuration["signs"] == 3
    assert configuration.episodeSteps == 13 and configuration.actTimeout == 0.5
    for key in ("agentTimeout", "runTimeout", "tieRewardThreshold"):
        assert key in configuration
    assert observation.step == observation["step"]
    assert observation.remainingOverageTime > 0
    if observation.step == 0:
        assert "lastOpponentAction" not in observation and observation.reward == 0
    else:
        assert observation.lastOpponentAction == 0       # rockbot
        assert observation.reward == observation.step    # paper beat rock every time
    return 1
""",
    )
    result = play_match(resolve(checker, throws=12, move_timeout=0.5), RockBot, 12, 7)
    assert result.forfeit is None and result.wins == 12


@pytest.mark.parametrize(
    "returned, legal",
    [("1", True), ("__import__('numpy').int64(1)", True), ("True", False), ("1.0", False)],
)
def test_kaggle_agents_may_return_any_integral_sign_but_a_bool(
    tmp_path, returned: str, legal: bool
) -> None:
    if "numpy" in returned:
        pytest.importorskip("numpy")
    path = write(
        tmp_path, "ints.py", f"def agent(observation, configuration):\n    return {returned}\n"
    )
    result = play_match(resolve(path), RockBot, 4, 1)
    assert (result.forfeit is None) == legal
    assert result.wins == (4 if legal else 0)


def test_the_last_top_level_callable_is_the_agent(tmp_path) -> None:
    path = write(
        tmp_path, "two.py", "def first(o, c):\n    return 0\ndef second(o, c):\n    return 1\n"
    )
    assert play_match(resolve(path), RockBot, 6, 2).wins == 6


def test_our_engine_plays_as_an_rpscontest_script_and_as_a_kaggle_agent() -> None:
    contrib = f"rpscontest:{REPO / 'contrib' / 'rpscontest_bot.py'}"
    kaggle = f"kaggle:{REPO / 'roshambo' / 'apps' / 'kaggle_agent.py'}"
    for spec in (contrib, kaggle):
        result = play_match(resolve(spec, throws=100), RockBot, 100, 3)
        assert result.forfeit is None and result.wins >= 90, spec


# --- seeding --------------------------------------------------------------------------------

RANDOM_KAGGLE = (
    "import random\ndef agent(observation, configuration):\n    return random.randrange(3)\n"
)
RANDOM_RPSCONTEST = "import random\noutput = random.choice('RPS')\n"
NUMPY_KAGGLE = (
    "import numpy as np\n"
    "def agent(observation, configuration):\n    return int(np.random.randint(3))\n"
)
HASHING = (
    "def agent(observation, configuration):\n"
    "    return list({'rock', 'paper', 'scissors', str(observation.step)}).index('paper') % 3\n"
)


@pytest.mark.parametrize(
    "source",
    [RANDOM_KAGGLE, RANDOM_RPSCONTEST, NUMPY_KAGGLE, HASHING],
    ids=["random-kaggle", "random-rpscontest", "numpy", "hash-seed"],
)
def test_a_seeded_match_replays_and_another_seed_differs(tmp_path, source: str) -> None:
    if "numpy" in source:
        pytest.importorskip("numpy")
    path = write(tmp_path, "rand.py", source)
    factory = resolve(path, throws=60)
    traces = {}
    for seed in (11, 11, 12):
        bot = factory(random.Random(seed))
        traces.setdefault(seed, []).append(moves(bot, [None] + [0] * 59))
        bot.close()
    assert traces[11][0] == traces[11][1]
    assert traces[11][0] != traces[12][0]


# --- forfeits -------------------------------------------------------------------------------

FAILURES = {
    "raises": ("def agent(o, c):\n    return [0, 1][o.step]\n", "error", 3, "IndexError"),
    "raises-at-load": (
        "raise ImportError('no such model')\ndef agent(o, c):\n    return 0\n",
        "error",
        1,
        "loading the file: ImportError: no such model",
    ),
    "returns-a-letter": (
        "def agent(o, c):\n    return 'R' if o.step == 1 else 0\n",
        "illegal",
        2,
        "returned 'R'",
    ),
    "returns-out-of-range": ("def agent(o, c):\n    return 3\n", "illegal", 1, "returned 3"),
    "no-output": ("if input == 'x':\n    output = 'R'\n", "illegal", 1, "set no output"),
    "bad-output": ("output = 'R' if input == '' else 'rock'\n", "illegal", 2, "output is 'rock'"),
    "exits": (
        "import os\ndef agent(o, c):\n    os._exit(3) if o.step == 4 else None\n    return 0\n",
        "error",
        5,
        "exit code 3",
    ),
    "sys-exit": (
        "import sys\noutput = 'P'\nif input:\n    sys.exit(0)\n",
        "error",
        2,
        "SystemExit",
    ),
    "slow": (
        "import time\ndef agent(o, c):\n    time.sleep(5 if o.step == 3 else 0)\n    return 0\n",
        "timeout",
        4,
        "no move within 0.3 s",
    ),
}


@pytest.mark.parametrize("case", sorted(FAILURES))
def test_every_failure_is_a_forfeit_naming_the_bot_round_and_error(tmp_path, case: str) -> None:
    source, cause, round_, words = FAILURES[case]
    path = write(tmp_path, f"{case}.py", source)
    result = play_match(
        RockBot, resolve(path, throws=10, move_timeout=0.3), 10, 1, labels=("rockbot", "bad")
    )
    assert result.forfeit is not None
    assert (result.forfeit.player, result.forfeit.round, result.forfeit.cause) == (
        "bad",
        round_,
        cause,
    )
    assert words in result.forfeit.error
    # the rule: throws before the forfeit stand; its round and the rest are the bot's losses
    assert result.wins >= 10 - round_ + 1 and result.wins + result.losses + result.ties == 10


def test_forfeit_counts_the_rest_as_lost_from_either_side(tmp_path) -> None:
    path = write(
        tmp_path,
        "late.py",
        "def agent(o, c):\n    if o.step == 6:\n        raise ValueError('tired')\n    return 1\n",
    )
    as_a = play_match(resolve(path), RockBot, 10, 1, labels=("late", "rock"))
    assert (as_a.wins, as_a.losses, as_a.ties) == (6, 4, 0)  # 6 papers won, then 4 lost
    assert as_a.forfeit == Forfeit("late", 7, "error", "error: ValueError: tired (line 3)")
    as_b = play_match(RockBot, resolve(path), 10, 1, labels=("rock", "late"))
    assert (as_b.wins, as_b.losses, as_b.ties) == (4, 6, 0)
    assert as_b.flipped().forfeit == as_b.forfeit


def test_a_failed_bot_stays_failed_until_reset(tmp_path) -> None:
    path = write(tmp_path, "once.py", "def agent(o, c):\n    return 9\n")
    bot = make_player(path, random.Random(0))
    for _ in range(2):
        with pytest.raises(BotFailure, match="illegal: returned 9"):
            bot.move(None)
    bot.reset()
    with pytest.raises(BotFailure):
        bot.move(None)


def test_a_tournament_goes_on_past_forfeits_and_lists_them(tmp_path, capsys) -> None:
    bad = write(
        tmp_path, "bad.py", "def agent(o, c):\n    return o.step % 3 if o.step < 5 else 1 // 0\n"
    )
    code = main(
        [
            "tournament",
            "rockbot",
            CYCLE,
            bad,
            "--games",
            "20",
            "--reps",
            "2",
            "--seed",
            "3",
            "--workers",
            "2",
        ]
    )
    out = capsys.readouterr().out
    assert code == 0 and "forfeits (4;" in out and "ZeroDivisionError" in out
    assert out.count("bad.py") >= 5  # the ranking, the cross-table and four forfeit rows


def test_file_factories_pickle_with_their_source(tmp_path) -> None:
    factory = resolve(CYCLE, throws=50, move_timeout=2.0)
    assert isinstance(factory, FileBotFactory)
    clone = pickle.loads(pickle.dumps(factory))
    assert clone == factory and clone.source.source == Path(CYCLE).read_text(encoding="utf-8")
    assert "rpscontest sha256:" in clone.fingerprint() and "move_timeout=2" in clone.fingerprint()


def test_a_forfeit_is_reported_in_the_match_line() -> None:
    forfeited = MatchResult(
        "a", "b", 0, 5, 0, 1, 5, forfeit=Forfeit("a", 1, "timeout", "timeout: x")
    )
    assert "a forfeits in round 1 of 5 (timeout: x)" in report.format_match(forfeited)


def test_play_against_a_file_bot_ends_the_session_on_its_forfeit(tmp_path) -> None:
    path = write(
        tmp_path, "quits.py", "def agent(o, c):\n    assert o.step < 2, 'bored'\n    return 0\n"
    )
    out = io.StringIO()
    score = run_session(
        make_player(path, random.Random(1)), stdin=io.StringIO("p\np\np\np\n"), stdout=out
    )
    assert score.wins == 2 and "forfeits: error: AssertionError: bored" in out.getvalue()


# --- every command --------------------------------------------------------------------------


def test_match_and_headtohead_take_bot_files(capsys) -> None:
    assert main(["match", CYCLE, "rockbot", "--games", "30", "--seed", "2"]) == 0
    assert "rpscontest_cycle.py vs rockbot: 30 games, seed 2" in capsys.readouterr().out
    assert (
        main(
            [
                "headtohead",
                "rockbot",
                CYCLE,
                "--player",
                BEAT_LAST,
                "--games",
                "30",
                "--matches",
                "2",
                "--seed",
                "2",
                "--workers",
                "1",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "kaggle_beat_last.py" in out and "rpscontest_cycle.py" in out and "forfeit" not in out


def test_population_takes_a_bot_file_as_candidate(capsys) -> None:
    pytest.importorskip("pyspiel", reason="the classic field needs open_spiel")
    assert (
        main(
            [
                "population",
                "--player",
                BEAT_LAST,
                "--bots",
                "rockbot,rotatebot",
                "--compare",
                "",
                "--throws",
                "50",
                "--reps",
                "1",
                "--seed",
                "1",
                "--workers",
                "1",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "kaggle_beat_last.py" in out and "rotatebot" in out


def test_classic_star_adds_the_whole_field(capsys) -> None:
    pyspiel = pytest.importorskip("pyspiel", reason="the classic field needs open_spiel")
    from roshambo.arena.tournaments import expand_names

    field = [f"classic:{name}" for name in pyspiel.roshambo_bot_names()]
    assert expand_names(["ai", "classic:*", "x.py"]) == ["ai", *field, "x.py"]
    assert (
        main(
            [
                "headtohead",
                "classic:*",
                "--player",
                CYCLE,
                "--games",
                "20",
                "--matches",
                "1",
                "--seed",
                "4",
                "--workers",
                "2",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert f"{len(field)} entrants" in out and "classic:greenberg" in out


def test_the_cross_table_is_written_on_request(tmp_path, capsys) -> None:
    path = tmp_path / "cross.csv"
    assert (
        main(
            [
                "tournament",
                "rockbot",
                "rotatebot",
                CYCLE,
                "--games",
                "30",
                "--seed",
                "1",
                "--workers",
                "1",
                "--cross-table",
                str(path),
            ]
        )
        == 0
    )
    rows = [line.split(",") for line in path.read_text(encoding="utf-8").splitlines()]
    assert rows[0] == ["player", "rockbot", "rotatebot", "rpscontest_cycle.py"]
    assert rows[1][:2] == ["rockbot", ""] and rows[2][2] == ""
    assert float(rows[1][2]) == -float(rows[2][1])  # one match seen from both sides
    assert f"wrote {path}" in capsys.readouterr().out


def test_the_play_command_takes_a_bot_file(run_python) -> None:
    done = run_python("-m", "roshambo", "play", CYCLE, "--seed", "3", stdin="r\np\ns\nq\n")
    assert done.returncode == 0, done.stderr
    assert "against " + CYCLE in done.stdout and "after 3 rounds" in done.stdout


ORPHAN = """
import random, sys, threading
from roshambo.arena.tournaments import make_player
bot = make_player(sys.argv[1], random.Random(1))
threading.Timer(1.0, lambda: print(bot._process.pid, flush=True)).start()
bot.move(None)
"""


def test_a_bot_stuck_in_a_loop_ends_when_the_arena_is_killed(tmp_path) -> None:
    import os
    import signal
    import subprocess
    import sys
    import time

    from conftest import python_env

    loop = write(tmp_path, "loop.py", "def agent(o, c):\n    while True:\n        pass\n")
    parent = subprocess.Popen(
        [sys.executable, "-c", ORPHAN, loop],
        stdout=subprocess.PIPE,
        text=True,
        cwd=REPO,
        env=python_env(),
    )
    child = int(parent.stdout.readline())
    parent.send_signal(signal.SIGKILL)
    parent.wait()
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            os.kill(child, 0)
        except ProcessLookupError:
            break
        stat = Path(f"/proc/{child}/stat")
        if stat.exists() and stat.read_text().rsplit(")", 1)[-1].split()[0] == "Z":
            break  # ended; only waiting for whoever adopted it to reap it
        time.sleep(0.1)
    else:
        os.kill(child, signal.SIGKILL)
        pytest.fail("the bot's process outlived the arena")


@pytest.mark.parametrize("value", ["0", "-1", "soon", "inf", "nan", "86401", "1e10"])
def test_a_bad_move_timeout_is_refused_with_exit_2(capsys, value: str) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["match", CYCLE, "rockbot", "--move-timeout", value])
    assert exit_.value.code == 2
    assert (
        f"argument --move-timeout: expected a positive number of seconds up to 86,400, "
        f"got '{value}'" in capsys.readouterr().err
    )


# --- the browser ----------------------------------------------------------------------------


def web_call(app, method: str, path: str, body: object = None) -> tuple[int, dict]:
    import json

    raw = b"" if body is None else json.dumps(body).encode()
    environ = {
        "REQUEST_METHOD": method,
        "PATH_INFO": path,
        "CONTENT_LENGTH": str(len(raw)),
        "CONTENT_TYPE": "application/json",
        "wsgi.input": io.BytesIO(raw),
        "wsgi.errors": io.StringIO(),
    }
    seen: list[str] = []
    out = b"".join(app(environ, lambda status, headers: seen.append(status)))
    return int(seen[0].split()[0]), json.loads(out)


def test_the_browser_offers_the_bot_files_the_server_was_started_with(tmp_path) -> None:
    from roshambo.apps.web import WebApp

    quits = write(
        tmp_path, "quits.py", "def agent(o, c):\n    assert o.step < 1, 'bored'\n    return 0\n"
    )
    app = WebApp(max_games=2, bots=(CYCLE, quits))
    status, listed = web_call(app, "GET", "/api/opponents")
    assert status == 200 and listed["opponents"][-2:] == [CYCLE, quits]
    status, game = web_call(app, "POST", "/api/games", {"opponent": CYCLE})
    assert status == 201
    letters = [
        web_call(app, "POST", f"/api/games/{game['id']}/moves", {"move": "R"})[1]["ai"]
        for _ in range(4)
    ]
    start = "RPS".index(letters[0])
    assert letters == ["RPS"[(start + k) % 3] for k in range(4)]  # the cycle, round after round
    status, other = web_call(app, "POST", "/api/games", {"opponent": quits})
    assert web_call(app, "POST", f"/api/games/{other['id']}/moves", {"move": "P"})[0] == 200
    status, error = web_call(app, "POST", f"/api/games/{other['id']}/moves", {"move": "P"})
    assert status == 409 and "forfeits in round 2" in error["error"] and "bored" in error["error"]
    # a client cannot make the server run a file it was not started with
    status, error = web_call(app, "POST", "/api/games", {"opponent": BEAT_LAST})
    assert status == 400 and "unknown opponent" in error["error"]
    games = list(app.games._games.values())
    web_call(app, "POST", "/api/games", {"opponent": "rockbot"})  # evicts the cycle's game
    assert games[0].opponent_name == CYCLE and games[0]._session.opponent._process is None


def test_serve_refuses_a_bad_bot_file_before_listening(tmp_path, capsys) -> None:
    assert main(["serve", "--port", "0", "--bot", str(tmp_path / "none.py")]) == 2
    assert "none.py' not found" in capsys.readouterr().err
    bot = tmp_path / "rock.py"
    bot.write_text("output = 'R'\n")
    assert main(["serve", "--port", "0", "--bot", str(bot), "--bot", str(bot)]) == 2
    assert f"bot file {str(bot)!r} named twice" in capsys.readouterr().err
    # one file by two paths, or read two ways, is one opponent too
    other = str(tmp_path / ".." / tmp_path.name / "rock.py")
    for second in (other, f"rpscontest:{bot}"):
        assert main(["serve", "--port", "0", "--bot", str(bot), "--bot", second]) == 2
        assert f"bot file {second!r} named twice (as {str(bot)!r})" in capsys.readouterr().err
    # a file that is not named as a bot file is refused at start, not when a game starts
    text = tmp_path / "rock.txt"
    text.write_text("output = 'R'\n")
    assert main(["serve", "--port", "0", "--bot", str(text)]) == 2
    assert f"bot {str(text)!r} is not a bot file: expected PATH.py" in capsys.readouterr().err


def _alive(pid: int) -> bool:
    """Whether process ``pid`` runs (a zombie, dead but not yet reaped, does not)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="utf-8") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_a_bot_that_forks_leaves_no_process_behind_its_timeout(tmp_path) -> None:
    pid_file = tmp_path / "pid"
    source = (
        "import subprocess, sys, time\n"
        "def agent(o, c):\n"
        "    if o.step == 1:\n"
        "        child = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(600)'])\n"
        f"        open({str(pid_file)!r}, 'w').write(str(child.pid))\n"
        "        time.sleep(60)\n"
        "    return 0\n"
    )
    path = write(tmp_path, "forker.py", source)
    result = play_match(RockBot, resolve(path, throws=5, move_timeout=2.0), 5, 1)
    assert result.forfeit is not None and result.forfeit.cause == "timeout"
    pid = int(pid_file.read_text())
    deadline = time.monotonic() + 10
    while _alive(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _alive(pid)
