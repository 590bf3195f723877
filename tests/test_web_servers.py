"""The WSGI app unchanged under the production servers the README names (issue 20).

Each runs in its own process on a port it picks itself and logs: waitress with threads,
gunicorn (Unix only) with one worker and threads (games live in the worker's memory). Both come
with the test extra; each test skips, saying why, where its server is not installed.
"""

from __future__ import annotations

import re
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from test_web import Client

from conftest import REPO, python_env
from roshambo.apps.web import MAX_BODY


def exercise(client: Client) -> None:
    """A short game, and the errors a client can cause, through whatever server is in front."""
    status, headers, page = client.call("GET", "/")
    assert status == 200 and b'data-testid="move-rock"' in page  # type: ignore[operator]
    game = client.new_game()
    for number, move in enumerate("RPSrp", start=1):
        answer = client.move(game, move)
        assert answer["round"] == number and answer["you"] == move.upper() and set(answer["belief"])
    assert client.state(game)["round"] == 5
    for method, path, body, expected in [
        ("POST", f"/api/games/{game}/moves", b'{"move": "X"}', 400),
        ("POST", f"/api/games/{game}/moves", b"{", 400),
        ("POST", f"/api/games/{game}/moves", b'{"move": "' + b"R" * MAX_BODY + b'"}', 413),
        ("POST", "/api/games", b'{"opponent": "nobody"}', 400),
        ("GET", "/api/games/missing", b"", 404),
        ("GET", "/no/such/route", b"", 404),
        ("DELETE", "/api/games", b"", 405),
    ]:
        status, _, data = client.call(method, path, raw=body)
        assert status == expected and "error" in data, (method, path, status, data)  # type: ignore[operator]
    assert client.state(game)["round"] == 5


@contextmanager
def server_process(args: list[str], announces: str) -> Iterator[str]:
    """``python *args`` serving the app on a port of its choosing; yields the URL it logs."""
    process = subprocess.Popen(
        [sys.executable, *args],
        cwd=REPO,
        env=python_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 60
        url = None
        log: list[str] = []
        while url is None and time.monotonic() < deadline:
            line = process.stderr.readline()  # type: ignore[union-attr]
            if not line:
                break
            log.append(line)
            found = re.search(announces + r"(http://127\.0\.0\.1:\d+)", line)
            url = found.group(1) + "/" if found else None
        assert url is not None, "".join(log)
        yield url
    finally:
        process.terminate()
        process.communicate(timeout=30)


def test_under_waitress() -> None:
    pytest.importorskip("waitress", reason="waitress is not installed (pip install waitress)")
    with server_process(
        [
            "-m",
            "waitress",
            "--host",
            "127.0.0.1",
            "--port",
            "0",
            "--threads",
            "4",
            "roshambo.apps.web:app",
        ],
        "Serving on ",
    ) as url:
        exercise(Client(url))


def test_under_gunicorn() -> None:
    pytest.importorskip("gunicorn", reason="gunicorn is not installed (pip install gunicorn)")
    if sys.platform == "win32":
        pytest.skip("gunicorn runs on Unix only")
    with server_process(
        [
            "-m",
            "gunicorn",
            "--workers",
            "1",
            "--threads",
            "4",
            "--bind",
            "127.0.0.1:0",
            "roshambo.apps.web:app",
        ],
        "Listening at: ",
    ) as url:
        exercise(Client(url))
