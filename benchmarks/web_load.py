"""Load on the browser app's API: many concurrent games, every answer checked, move latency.

Starts ``python -m roshambo serve --port 0`` in its own process (or uses ``--url`` of a
server already running, e.g. under gunicorn or waitress: ``http://HOST[:PORT]/`` or
``https://...``, the app at the root), then ``--games`` client threads
each create a game against the engine and play ``--moves`` moves, one request at a time,
each on a new connection (``wsgiref`` speaks HTTP/1.0). Every answer is checked: the round
number, the echoed move, the result against both moves, the running score, the belief; the
game's final state must hold exactly the moves played. Prints the p50/p95/p99 latency of a
move (from sending the request to reading the whole answer) and the throughput.

``--memory`` measures instead what one game against the engine holds after 100 and 1000
rounds (its engine, session and rounds: tracemalloc, in this process), which with
``--max-games`` bounds what the server can hold.

    python benchmarks/web_load.py [--games 50] [--moves 200] [--seed 1] [--url URL]
    python benchmarks/web_load.py --memory
"""

from __future__ import annotations

import argparse
import http.client
import json
import math
import random
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, fields
from pathlib import Path
from urllib.parse import SplitResult, urlsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from roshambo.apps import options  # noqa: E402
from roshambo.engine.agent import Belief  # noqa: E402
from roshambo.engine.moves import outcome  # noqa: E402

LETTERS = "RPS"
RESULTS = {1: "win", 0: "tie", -1: "loss"}
# what the API sends of a belief: its fields and, in words, what they mean
BELIEF_KEYS = {field.name for field in fields(Belief)} | {"words"}


@dataclass(frozen=True)
class LoadResult:
    """One load run: what was played, what went wrong, and how long each move took."""

    games: int
    moves: int
    errors: tuple[str, ...]
    latencies: tuple[float, ...]  # seconds per move request
    seconds: float

    def percentile(self, q: float) -> float:
        """The ``q``-th percentile of the move latencies, in seconds (nearest rank)."""
        ordered = sorted(self.latencies)
        if not ordered:
            return float("nan")
        rank = max(1, min(len(ordered), math.ceil(q / 100 * len(ordered))))
        return ordered[rank - 1]

    @property
    def throughput(self) -> float:
        """Moves answered per second over the whole run."""
        return len(self.latencies) / self.seconds if self.seconds > 0 else 0.0


def server_url(text: str) -> SplitResult:
    """The URL of a running server: http or https, a host, an optional port from 1 to 65535,
    no path but ``/`` (the API is at the app's root), no user, query or fragment;
    ``ValueError`` naming the URL and what is wrong with it otherwise."""
    try:
        parts = urlsplit(text)
        port = parts.port  # ValueError for a port that is not digits or out of range
    except ValueError as error:
        problem = str(error)
    else:
        problem = next(
            (
                why
                for wrong, why in (
                    (parts.scheme not in ("http", "https"), "the scheme must be http or https"),
                    (not parts.hostname, "it names no host"),
                    (port == 0, "port 0 names no server"),
                    (parts.path not in ("", "/"), "the API is at the root: give no path"),
                    (bool(parts.query or parts.fragment), "give no query or fragment"),
                    (parts.username is not None, "give no user or password"),
                )
                if wrong
            ),
            "",
        )
    if problem:
        raise ValueError(
            f"invalid server URL {text!r} ({problem}): expected e.g. http://127.0.0.1:8000/"
        )
    return parts


def address(parts: SplitResult) -> tuple[str, int, bool]:
    """Host, port and whether to speak TLS, of a URL :func:`server_url` accepted."""
    tls = parts.scheme == "https"
    return parts.hostname or "", parts.port or (443 if tls else 80), tls


def _url(text: str) -> SplitResult:
    try:
        return server_url(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def request(
    host: str,
    port: int,
    method: str,
    path: str,
    body: object | None = None,
    timeout: float = 60,
    tls: bool = False,
) -> tuple[int, object]:
    """One request on a new connection (HTTPS if ``tls``); returns the status and the decoded
    JSON."""
    kind = http.client.HTTPSConnection if tls else http.client.HTTPConnection
    connection = kind(host, port, timeout=timeout)
    try:
        payload = json.dumps(body).encode() if body is not None else None
        headers = {"Content-Type": "application/json"} if payload is not None else {}
        connection.request(method, path, body=payload, headers=headers)
        response = connection.getresponse()
        return response.status, json.loads(response.read())
    finally:
        connection.close()


def check_move(sent: str, number: int, answer: object, tally: dict[str, int]) -> str | None:
    """What is wrong with the answer to move ``number`` (``None`` if it is right); updates ``tally``."""
    if not isinstance(answer, dict):
        return f"round {number}: not a JSON object: {answer!r}"
    ai = answer.get("ai")
    if answer.get("round") != number or answer.get("you") != sent or ai not in ("R", "P", "S"):
        return f"round {number}: wrong round or moves in {answer!r}"
    result = outcome(LETTERS.index(sent), LETTERS.index(ai))
    if answer.get("result") != RESULTS[result]:
        return f"round {number}: result {answer.get('result')!r} for {sent} against {ai}"
    tally[{1: "you", -1: "ai", 0: "ties"}[result]] += 1
    score = answer.get("score")
    if not isinstance(score, dict) or {k: score.get(k) for k in tally} != tally:
        return f"round {number}: score {score!r}, expected {tally}"
    belief = answer.get("belief")
    if not isinstance(belief, dict) or set(belief) != BELIEF_KEYS:
        return f"round {number}: belief {belief!r}"
    return None


def play_game(
    host: str,
    port: int,
    moves: int,
    rng: random.Random,
    latencies: list[float],
    errors: list[str],
    tls: bool = False,
) -> None:
    """One client: create a game, play ``moves`` moves, check every answer and the final state."""
    status, created = request(host, port, "POST", "/api/games", {"opponent": "ai"}, tls=tls)
    if status != 201 or not isinstance(created, dict):
        errors.append(f"creating a game: {status} {created!r}")
        return
    game = created["id"]
    tally = {"you": 0, "ai": 0, "ties": 0}
    played: list[tuple[str, str]] = []
    for number in range(1, moves + 1):
        sent = rng.choice(LETTERS)
        start = time.perf_counter()
        status, answer = request(
            host, port, "POST", f"/api/games/{game}/moves", {"move": sent}, tls=tls
        )
        latencies.append(time.perf_counter() - start)
        problem = (
            f"round {number}: status {status}: {answer!r}"
            if status != 200
            else check_move(sent, number, answer, tally)
        )
        if problem is not None:
            errors.append(f"game {game}: {problem}")
            return
        played.append((sent, answer["ai"]))  # type: ignore[index]
    status, state = request(host, port, "GET", f"/api/games/{game}", tls=tls)
    recorded = [(m["you"], m["ai"]) for m in state["moves"]] if isinstance(state, dict) else None  # type: ignore[index]
    if status != 200 or recorded != played:
        errors.append(f"game {game}: the final state does not hold the moves played")


def run_load(url: str, games: int = 50, moves: int = 200, seed: int = 1) -> LoadResult:
    """``games`` concurrent clients of ``moves`` moves each against the server at ``url``
    (:func:`server_url`)."""
    host, port, tls = address(server_url(url))
    seeds = random.Random(seed)
    latencies: list[float] = []
    errors: list[str] = []

    def client(client_seed: int) -> None:
        try:
            play_game(host, port, moves, random.Random(client_seed), latencies, errors, tls)
        except (OSError, ValueError, KeyError, http.client.HTTPException) as err:
            errors.append(f"client failed: {err!r}")

    threads = [threading.Thread(target=client, args=(seeds.getrandbits(64),)) for _ in range(games)]
    start = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    seconds = time.perf_counter() - start
    return LoadResult(games, moves, tuple(errors), tuple(latencies), seconds)


@contextmanager
def server_process(max_games: int = 1000) -> Iterator[str]:
    """``python -m roshambo serve --port 0`` in its own process; yields its URL."""
    process = subprocess.Popen(
        [
            sys.executable,
            "-u",
            "-m",
            "roshambo",
            "serve",
            "--port",
            "0",
            "--max-games",
            str(max_games),
        ],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        line = process.stdout.readline() if process.stdout is not None else ""
        if "http://" not in line:
            raise RuntimeError(
                f"the server did not start: {line!r} {process.stderr.read() if process.stderr else ''}"
            )
        yield line[line.index("http://") :].split()[0]
    finally:
        process.terminate()
        process.wait(timeout=30)


def game_memory(rounds: int, seed: int = 1) -> int:
    """Bytes one game against the engine holds after ``rounds`` random moves (tracemalloc)."""
    import tracemalloc

    from roshambo.apps.web import GameStore

    rng = random.Random(seed)
    store = GameStore(max_games=1, max_rounds=rounds, rng=random.Random(seed))
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        game = store.create("ai")
        for _ in range(rounds):
            game.play(rng.randrange(3))
        return tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()


def format_result(result: LoadResult) -> str:
    ms = 1000.0
    lines = [
        f"{result.games} concurrent games x {result.moves} moves = {len(result.latencies)} moves "
        f"in {result.seconds:.1f} s: {result.throughput:.0f} moves/s",
        f"move latency: p50 {result.percentile(50) * ms:.1f} ms, p95 {result.percentile(95) * ms:.1f} ms, "
        f"p99 {result.percentile(99) * ms:.1f} ms, max {max(result.latencies, default=0) * ms:.1f} ms, "
        f"mean {statistics.fmean(result.latencies) * ms if result.latencies else 0:.1f} ms",
        f"errors: {len(result.errors)}",
        *(f"  {error}" for error in result.errors[:10]),
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=options.positive_int, default=50)
    parser.add_argument("--moves", type=options.positive_int, default=200)
    parser.add_argument(
        "--seed", type=options.seed, default=1, help="seeds the moves the clients send"
    )
    parser.add_argument(
        "--url",
        type=_url,
        default=None,
        help="a running server, http://HOST[:PORT]/ or https://... (default: start one)",
    )
    parser.add_argument(
        "--memory",
        action="store_true",
        help="measure one game's memory after 100 and 1000 rounds instead",
    )
    args = parser.parse_args(argv)
    if args.memory:
        for rounds in (100, 1000):
            print(
                f"one game against the engine after {rounds} rounds: "
                f"{game_memory(rounds, args.seed) / 2**20:.2f} MiB"
            )
        return 0
    if args.url is not None:
        url = args.url.geturl()
        host, port, tls = address(args.url)
        try:  # one line for a server that is not there, not an error from every client
            request(host, port, "GET", "/api/opponents", timeout=10, tls=tls)
        except (OSError, ValueError, http.client.HTTPException) as error:
            parser.error(f"argument --url: cannot reach {url!r}: {error}")
        result = run_load(url, args.games, args.moves, args.seed)
    else:
        with server_process(max_games=max(1000, args.games)) as url:
            result = run_load(url, args.games, args.moves, args.seed)
    print(format_result(result))
    return 1 if result.errors else 0


if __name__ == "__main__":
    sys.exit(main())
