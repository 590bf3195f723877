"""Executors: the same seed gives the same table on the process pool and on Dask."""

from __future__ import annotations

from pathlib import Path

import pytest

from roshambo.apps.cli import main
from roshambo.arena.executors import ExecutorChoice

BOTS = Path(__file__).resolve().parent / "bots"
PLAYERS = [
    "ai",
    "rockbot",
    "markov",
    str(BOTS / "rpscontest_cycle.py"),
    str(BOTS / "kaggle_beat_last.py"),
]
MISSING_DASK = (
    "import sys; sys.modules['distributed'] = None\n"  # makes `import distributed` fail
    "from roshambo.apps.cli import main\n"
    "raise SystemExit(main(['tournament', 'rockbot', 'random', '--games', '5',"
    " '--scheduler', 'local:2']))"
)


@pytest.mark.parametrize(
    "text, parsed",
    [
        ("process", ExecutorChoice("process")),
        ("local:3", ExecutorChoice("local", workers=3)),
        ("tcp://10.0.0.5:8786", ExecutorChoice("tcp", address="tcp://10.0.0.5:8786")),
    ],
)
def test_schedulers_parse(text: str, parsed: ExecutorChoice) -> None:
    assert ExecutorChoice.parse(text) == parsed


@pytest.mark.parametrize(
    "text",
    [
        "local:0",
        "local:x",
        "local:257",  # (local:100000 started spawning workers)
        "local:٥",  # a digit, but not an ASCII one
        "tcp://nohost",
        "tcp://127.0.0.1:99999",
        "tcp://127.0.0.1:0",
        "tcp://:8786",
        "dask",
        "",
    ],
)
def test_bad_schedulers_are_named(text: str) -> None:
    with pytest.raises(ValueError, match=f"bad scheduler {text!r}"):
        ExecutorChoice.parse(text)


def test_the_cli_refuses_a_bad_scheduler_with_exit_2(capsys) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["tournament", "rockbot", "random", "--scheduler", "local:0"])
    assert exit_.value.code == 2
    assert "bad scheduler 'local:0'" in capsys.readouterr().err


def test_without_dask_the_flag_says_how_to_install_it(run_python) -> None:
    done = run_python("-c", MISSING_DASK)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert 'pip install -e ".[cluster]"' in done.stderr


def table_of(output: str) -> str:
    """The printed tables, without the timing footer and the note on the match log."""
    lines = [
        line
        for line in output.splitlines()
        if " matches in " not in line and not line.startswith("match log:")
    ]
    return "\n".join(lines).strip()


def tournament_output(capsys, *extra: str, players: list[str] = PLAYERS) -> str:
    """A seeded round robin, once (and so every bot from a file plays each other player once)."""
    assert main(["tournament", *players, "--games", "60", "--seed", "8", *extra]) == 0
    out = capsys.readouterr().out
    matches = len(players) * (len(players) - 1) // 2
    assert f"{matches} matches" in out.splitlines()[0]
    return out


def test_a_local_dask_cluster_of_two_gives_the_process_pools_table(capsys) -> None:
    pytest.importorskip("distributed", reason='Dask is optional: pip install -e ".[cluster]"')
    pool = tournament_output(capsys, "--workers", "2")
    dask = tournament_output(capsys, "--scheduler", "local:2")
    assert "on a local Dask cluster of 2 workers" in dask
    assert table_of(dask) == table_of(pool)


def test_a_running_scheduler_is_reached_by_its_address(capsys, tmp_path) -> None:
    distributed = pytest.importorskip("distributed")
    players = PLAYERS[:3]  # the bots from files ran on Dask in the test above
    in_process = tournament_output(capsys, "--workers", "1", players=players)
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None
    ) as cluster:
        out = tmp_path / "run.jsonl"
        remote = tournament_output(
            capsys, "--scheduler", cluster.scheduler_address, "--out", str(out), players=players
        )
    assert f"the Dask scheduler at {cluster.scheduler_address}" in remote
    assert table_of(remote) == table_of(in_process)
    assert out.read_text(encoding="utf-8").count("\n") == 1 + 3


def test_a_cluster_of_multithreaded_workers_is_refused(capsys) -> None:
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=2, processes=True, host="127.0.0.1", dashboard_address=None
    ) as cluster:
        code = main(
            [
                "tournament",
                "rockbot",
                "random",
                "--games",
                "5",
                "--scheduler",
                cluster.scheduler_address,
            ]
        )
    assert code == 2
    assert "run 2 threads each: start them with --nthreads 1" in capsys.readouterr().err


# --- a run killed outright leaves nothing behind -------------------------------------------


def _children(pid: int) -> set[int]:
    """Every live process whose parent is ``pid`` (from /proc)."""
    found = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(fields[1]) == pid and fields[0] != "Z":
            found.add(int(stat.parent.name))
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"  # a zombie has ended; it only waits to be reaped


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="needs /proc to find the workers")
def test_a_killed_tournament_leaves_no_worker_behind(tmp_path) -> None:
    import os
    import signal
    import subprocess
    import sys
    import time

    from conftest import REPO, python_env

    command = [
        sys.executable,
        "-m",
        "roshambo",
        "tournament",
        "ai",
        "markov",
        "tree",
        "rockbot",
        "--reps",
        "8",
        "--seed",
        "7",
        "--workers",
        "2",
        "--out",
        str(tmp_path / "r.jsonl"),
    ]
    run = subprocess.Popen(
        command, cwd=REPO, env=python_env(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        deadline = time.monotonic() + 60
        while len(workers := _children(run.pid)) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(workers) >= 2, "the pool's workers never started"
        time.sleep(0.5)  # mid-run: the workers are playing
        run.send_signal(signal.SIGKILL)
        run.wait()
        deadline = time.monotonic() + 5
        while any(_alive(w) for w in workers) and time.monotonic() < deadline:
            time.sleep(0.1)
        left = [w for w in workers if _alive(w)]
    finally:
        if run.poll() is None:
            run.kill()
    for worker in left:
        os.kill(worker, signal.SIGKILL)
    assert not left, f"workers {left} outlived the killed run"
