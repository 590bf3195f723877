"""The Kaggle rps adapter: observation handling, episodes, and real kaggle-environments runs."""

from __future__ import annotations

import random
import subprocess
import sys
import tarfile
from pathlib import Path
from types import ModuleType, SimpleNamespace

import pytest

from roshambo.apps import kaggle_agent
from roshambo.apps.kaggle_agent import KaggleAgent, write_submission
from roshambo.engine.agent import Agent

CONFIG = {"signs": 3}
# kaggle-environments' built-in rps agents (kaggle_environments/envs/rps/agents.py).
BUILTINS = (
    "rock",
    "paper",
    "scissors",
    "copy_opponent",
    "reactionary",
    "counter_reactionary",
    "statistical",
)
EPISODE_STEPS = 201  # 200 rounds: kaggle plays episodeSteps - 1


def play_episode(player: KaggleAgent, script: str, steps: int) -> list[int]:
    """Drive ``player`` as kaggle does (dict observations) against a cycling script."""
    moves = []
    for step in range(steps):
        observation = {"step": step, "reward": 0}
        if step:
            observation["lastOpponentAction"] = "RPS".index(script[(step - 1) % len(script)])
        moves.append(player(observation, CONFIG))
    return moves


@pytest.fixture(scope="module")
def kaggle() -> ModuleType:
    return pytest.importorskip(
        "kaggle_environments",
        reason="kaggle-environments is optional: pip install kaggle-environments",
    )


def run(kaggle: ModuleType, players: list[object], steps: int = EPISODE_STEPS, **config: int):
    env = kaggle.make("rps", configuration={"episodeSteps": steps, **config})
    return env.run(players)


# --- the adapter on its own -------------------------------------------------------------


def test_dict_and_attribute_access_give_legal_moves() -> None:
    player = KaggleAgent(random.Random(1))
    assert player({"step": 0}, {"signs": 3}) in (0, 1, 2)
    move = player(SimpleNamespace(step=1, lastOpponentAction=2), SimpleNamespace(signs=3))
    assert move in (0, 1, 2) and type(move) is int


@pytest.mark.parametrize("signs", [2, 4, 5, "3"])
def test_other_sign_counts_are_rejected(signs: object) -> None:
    with pytest.raises(ValueError, match="signs"):
        KaggleAgent()({"step": 0}, {"signs": signs})
    with pytest.raises(ValueError, match="signs"):
        KaggleAgent()(SimpleNamespace(step=0), SimpleNamespace(signs=signs))


@pytest.mark.parametrize(
    "observation, message",
    [
        ({}, "step"),
        ({"step": -1}, "step"),
        ({"step": "1", "lastOpponentAction": 0}, "step"),
        ({"step": True, "lastOpponentAction": 0}, "step"),
        ({"step": 1}, "lastOpponentAction"),
        ({"step": 1, "lastOpponentAction": None}, "lastOpponentAction"),
        ({"step": 1, "lastOpponentAction": 3}, "lastOpponentAction is 3 at step 1"),
        ({"step": 1, "lastOpponentAction": -1}, "lastOpponentAction is -1 at step 1"),
        ({"step": 1, "lastOpponentAction": 1.0}, "lastOpponentAction is 1.0 at step 1"),
        ({"step": 1, "lastOpponentAction": "1"}, "lastOpponentAction is '1' at step 1"),
        ({"step": 1, "lastOpponentAction": True}, "lastOpponentAction is True at step 1"),
        ({"step": 1.0, "lastOpponentAction": 0}, "observation.step is 1.0"),
    ],
)
def test_bad_observations_raise_clearly(observation: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        KaggleAgent()(observation, CONFIG)


class Sign:
    """An integral number that is not an int, as numpy's integers are (``__index__``)."""

    def __init__(self, value: int) -> None:
        self.value = value

    def __index__(self) -> int:
        return self.value


def test_any_integral_numbers_are_read_as_kaggle_sends_them() -> None:
    script = "RRPPS"
    plain = play_episode(KaggleAgent(random.Random(8)), script, 30)
    player, moves = KaggleAgent(random.Random(8)), []
    for step in range(30):
        last = {"lastOpponentAction": Sign("RPS".index(script[(step - 1) % 5]))} if step else {}
        moves.append(player({"step": Sign(step), **last}, {"signs": Sign(3)}))
    assert moves == plain and all(type(move) is int for move in moves)
    numpy = pytest.importorskip("numpy")
    player = KaggleAgent(random.Random(8))
    numbered = [
        player(
            {"step": numpy.int64(step), "lastOpponentAction": numpy.int64("RPS".index(s))},
            {"signs": numpy.int32(3)},
        )
        for step, s in enumerate("S" + script * 6)
    ][:30]
    assert numbered == plain
    with pytest.raises(ValueError, match="lastOpponentAction is np.True_"):
        KaggleAgent()({"step": 1, "lastOpponentAction": numpy.bool_(True)}, CONFIG)


def test_the_same_step_again_is_answered_alike_and_changes_nothing() -> None:
    """A retried call gets the sign already played; the episode goes on as if it was asked
    once. The same step with another lastOpponentAction contradicts the first: refused."""
    once = play_episode(KaggleAgent(random.Random(4)), "RPPS", 40)
    player, moves = KaggleAgent(random.Random(4)), []
    for step in range(40):
        observation = {"step": step}
        if step:
            observation["lastOpponentAction"] = "RPS".index("RPPS"[(step - 1) % 4])
        moves.append(player(observation, CONFIG))
        if step in (0, 7, 8, 20):
            assert player(dict(observation), CONFIG) == moves[-1]
        if step == 20:
            other = (observation["lastOpponentAction"] + 1) % 3
            with pytest.raises(
                ValueError, match=f"observation.step 20 again, with lastOpponentAction {other}"
            ):
                player({"step": 20, "lastOpponentAction": other}, CONFIG)
    assert moves == once


def test_an_episode_is_the_engine_playing_one_match() -> None:
    engine = Agent(random.Random(17))
    expected = [engine.move(None)]
    expected += [engine.move("RPS".index("RRPPS"[(i - 1) % 5])) for i in range(1, 120)]
    assert play_episode(KaggleAgent(random.Random(17)), "RRPPS", 120) == expected


def test_nothing_leaks_from_one_episode_into_the_next() -> None:
    player = KaggleAgent(random.Random(5))
    play_episode(player, "R", 200)
    second = play_episode(player, "RRPPS", 150)
    assert second == play_episode(KaggleAgent(random.Random(5)), "RRPPS", 150)


def test_joining_mid_episode_starts_a_fresh_match() -> None:
    # A step that does not move forward is a new episode even if step 0 was missed; the
    # opponent move reported there answered none of ours, so the engine opens a match.
    player = KaggleAgent(random.Random(3))
    play_episode(player, "PS", 50)
    fresh = KaggleAgent(random.Random(3))
    expected = play_episode(KaggleAgent(random.Random(3)), "P", 4)
    for step in (5, 6, 7, 8):
        observation = {"step": step, "lastOpponentAction": 1}
        assert player(observation, CONFIG) == fresh(observation, CONFIG) == expected[step - 5]


def test_the_module_shim_is_the_last_callable_of_the_file() -> None:
    # kaggle-environments execs a submitted file in an empty dict and calls its last callable.
    namespace: dict = {}
    exec(compile(Path(kaggle_agent.__file__).read_text(), "main.py", "exec"), namespace)
    last = [value for value in namespace.values() if callable(value)][-1]
    assert last is namespace["agent"] and isinstance(last, namespace["KaggleAgent"])
    assert isinstance(kaggle_agent.agent, KaggleAgent)


def test_submission_archive_has_main_py_and_the_package(tmp_path: Path) -> None:
    first = write_submission(tmp_path / "a.tar.gz")
    with tarfile.open(first) as archive:
        names = archive.getnames()
    assert names[0] == "main.py"
    assert {"roshambo/__init__.py", "roshambo/engine/agent.py", "roshambo/engine/moves.py"} <= set(
        names
    )
    assert all(name.endswith(".py") and "__pycache__" not in name for name in names)
    assert write_submission(tmp_path / "b.tar.gz").read_bytes() == first.read_bytes()


# --- real episodes in kaggle-environments ------------------------------------------------


def test_builtin_list_is_complete(kaggle: ModuleType) -> None:
    assert set(kaggle.make("rps").agents) == set(BUILTINS)


@pytest.mark.parametrize("opponent", BUILTINS)
def test_beats_every_builtin_agent(kaggle: ModuleType, opponent: str) -> None:
    steps = run(kaggle, [KaggleAgent(random.Random(11)), opponent])
    ours, theirs = steps[-1]
    assert len(steps) == EPISODE_STEPS
    assert (ours.status, theirs.status) == ("DONE", "DONE")
    assert ours.reward == -theirs.reward
    # kaggle scores the net wins over the episode (a tie below tieRewardThreshold = 20);
    # any engine that learns beats these, and a constant move outright.
    assert (
        ours.reward > (EPISODE_STEPS - 1) / 2
        if opponent in ("rock", "paper", "scissors")
        else ours.reward > 0
    )


def test_seats_are_independent_and_the_game_is_zero_sum(kaggle: ModuleType) -> None:
    steps = run(kaggle, [KaggleAgent(random.Random(1)), KaggleAgent(random.Random(2))])
    assert [player.status for player in steps[-1]] == ["DONE", "DONE"]
    assert steps[-1][0].reward == -steps[-1][1].reward


def test_no_leak_between_episodes_in_the_real_env(kaggle: ModuleType) -> None:
    player = KaggleAgent(random.Random(23))
    run(kaggle, [player, "paper"], steps=101)
    second = run(kaggle, [player, "rock"], steps=101)
    fresh = run(kaggle, [KaggleAgent(random.Random(23)), "rock"], steps=101)
    assert [step[0].action for step in second] == [step[0].action for step in fresh]


def test_five_signs_fail_in_the_real_env_with_our_message(kaggle: ModuleType) -> None:
    env = kaggle.make("rps", configuration={"episodeSteps": 10, "signs": 5})
    ours, theirs = env.run([KaggleAgent(), "rock"])[-1]
    # kaggle marks the raising seat ERROR, then rps's interpreter turns it INVALID.
    assert (ours.status, theirs.status) == ("INVALID", "DONE")
    assert "configuration.signs is 5" in env.logs[-1][0]["stderr"]


def test_the_submission_runs_through_kaggles_file_loader(
    kaggle: ModuleType, tmp_path: Path
) -> None:
    with tarfile.open(write_submission(tmp_path / "submission.tar.gz")) as archive:
        archive.extractall(tmp_path / "sub", filter="data")
    steps = run(kaggle, [str(tmp_path / "sub" / "main.py"), "statistical"])
    assert [player.status for player in steps[-1]] == ["DONE", "DONE"]
    assert steps[-1][0].reward > 0


def test_the_submission_is_self_contained(kaggle: ModuleType, tmp_path: Path) -> None:
    # -I: neither the repository nor the working directory is on sys.path, so roshambo can
    # only come from the archive, through the folder kaggle adds while loading main.py.
    with tarfile.open(write_submission(tmp_path / "submission.tar.gz")) as archive:
        archive.extractall(tmp_path / "sub", filter="data")
    script = (
        "import sys\n"
        "from kaggle_environments import make\n"
        "env = make('rps', configuration={'episodeSteps': 101})\n"
        "ours, theirs = env.run([sys.argv[1], 'rock'])[-1]\n"
        "print(ours.status, ours.reward, sys.modules['roshambo'].__file__)\n"
    )
    result = subprocess.run(
        [sys.executable, "-I", "-c", script, str(tmp_path / "sub" / "main.py")],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    status, reward, origin = result.stdout.split()[-3:]
    assert status == "DONE" and float(reward) > 0
    assert Path(origin).is_relative_to(tmp_path / "sub")


def test_command_line_writes_the_archive(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    assert kaggle_agent.main([str(tmp_path / "out.tar.gz")]) == 0
    assert (tmp_path / "out.tar.gz").is_file() and "out.tar.gz" in capsys.readouterr().out
    for bad, complaint in (
        (["a", "b"], "unrecognized arguments: b"),
        (["--bogus"], "unrecognized arguments: --bogus"),
        ([str(tmp_path)], "is a directory"),
        ([str(tmp_path / "none" / "x.tar.gz")], "no directory"),
        ([""], "expected a file name"),
    ):
        with pytest.raises(SystemExit) as exit_:
            kaggle_agent.main(bad)
        assert exit_.value.code == 2 and complaint in capsys.readouterr().err, bad
    assert not (tmp_path / "--bogus").exists() and not Path("--bogus").exists()


def test_a_bad_call_leaves_the_episode_as_it_was() -> None:
    def episode(bad_at: int | None) -> list[int]:
        agent = kaggle_agent.KaggleAgent(random.Random(3))
        moves = []
        for step in range(12):
            if step == bad_at:
                with pytest.raises(ValueError, match="'X'"):
                    agent({"step": 2, "lastOpponentAction": "X"}, {})
            last = {} if step == 0 else {"lastOpponentAction": (step * 7) % 3}
            moves.append(agent({"step": step, **last}, {}))
        return moves

    assert episode(6) == episode(None)
