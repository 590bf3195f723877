"""The browser app's API (issue 20), over loopback against a server started here.

The server is ``roshambo.apps.web.BackgroundServer`` on a free port, shut down at the end. Every
bad input the issue lists gets a 4xx with an error naming the problem, and changes nothing.
"""

from __future__ import annotations

import http.client
import io
import json
import random
import re
import signal
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import REPO, python_env
from roshambo.apps.web import (
    CSV_COLUMNS,
    MAX_BODY,
    ApiError,
    BackgroundServer,
    GameStore,
    WebApp,
    parse_move,
    serve,
)
from roshambo.arena.tournaments import known_names
from roshambo.engine.moves import LETTERS, outcome

BELIEF_KEYS = {
    "strategy",
    "family",
    "window",
    "rotation",
    "score",
    "hedging",
    "cautious",
    "exact",
    "words",
}
RESULTS = {1: "win", 0: "tie", -1: "loss"}


class Client:
    """A loopback HTTP client: one connection per request, JSON decoded when it is JSON."""

    def __init__(self, url: str) -> None:
        match = re.fullmatch(r"http://([^:/]+):(\d+)/", url)
        assert match, url
        self.host, self.port = match.group(1), int(match.group(2))

    def call(
        self,
        method: str,
        path: str,
        body: object = None,
        *,
        raw: bytes | None = None,
        headers: dict[str, str] | None = None,
    ) -> tuple[int, dict[str, str], object]:
        connection = http.client.HTTPConnection(self.host, self.port, timeout=30)
        try:
            payload = (
                raw
                if raw is not None
                else (json.dumps(body).encode() if body is not None else None)
            )
            connection.request(method, path, body=payload, headers=headers or {})
            response = connection.getresponse()
            data = response.read()
            kind = response.getheader("Content-Type", "")
            decoded: object = json.loads(data) if kind.startswith("application/json") else data
            return response.status, {k.lower(): v for k, v in response.getheaders()}, decoded
        finally:
            connection.close()

    def new_game(self, opponent: str | None = None) -> str:
        status, _, data = self.call(
            "POST", "/api/games", {} if opponent is None else {"opponent": opponent}
        )
        assert status == 201, data
        return data["id"]  # type: ignore[index]

    def move(self, game: str, move: str) -> dict:
        status, _, data = self.call("POST", f"/api/games/{game}/moves", {"move": move})
        assert status == 200, data
        return data  # type: ignore[return-value]

    def state(self, game: str) -> dict:
        status, _, data = self.call("GET", f"/api/games/{game}")
        assert status == 200, data
        return data  # type: ignore[return-value]


@pytest.fixture(scope="module")
def server() -> Iterator[BackgroundServer]:
    with BackgroundServer(WebApp(max_games=50, max_rounds=30, rng=random.Random(20))) as running:
        yield running


@pytest.fixture
def client(server: BackgroundServer) -> Client:
    return Client(server.url)


def test_the_page_is_served_with_its_hooks_and_nothing_external(client: Client) -> None:
    status, headers, page = client.call("GET", "/")
    assert status == 200 and headers["content-type"].startswith("text/html")
    text = page.decode()  # type: ignore[union-attr]
    for testid in (
        "move-rock",
        "move-paper",
        "move-scissors",
        "round",
        "score-you",
        "score-ai",
        "chart",
        "belief",
        "history",
        "opponent",
        "new-game",
        "download",
    ):
        assert f'data-testid="{testid}"' in text
    # offline: no script, style, image or font from anywhere else, and the policy forbids it
    assert not re.search(r"""(src|href)\s*=\s*["'](https?:)?//""", text)
    assert "@import" not in text and "url(http" not in text
    assert "default-src 'none'" in headers["content-security-policy"]
    assert "connect-src 'self'" in headers["content-security-policy"]


def test_the_page_shows_the_servers_words_and_keeps_no_text_of_its_own() -> None:
    """The families' ideas live in roshambo/apps/explanation.py (tested there), not in the page."""
    page = (REPO / "roshambo" / "apps" / "web.html").read_text(encoding="utf-8")
    assert "const FAMILIES" not in page and "belief.words" in page
    for field in ("lead", "idea", "window", "rotation", "record", "mode", "mode_text"):
        assert f"words.{field}" in page


def test_opponents_are_the_registry(client: Client) -> None:
    status, _, data = client.call("GET", "/api/opponents")
    assert status == 200 and data == {"opponents": list(known_names()), "default": "ai"}


def test_a_game_against_the_engine(client: Client) -> None:
    status, headers, created = client.call("POST", "/api/games", {"opponent": "ai"})
    assert status == 201 and created["opponent"] == "ai"  # type: ignore[index]
    game = created["id"]  # type: ignore[index]
    assert headers["location"] == f"/api/games/{game}"
    tally = {"you": 0, "ai": 0, "ties": 0}
    sent = "RRPSPRSSPR"
    for number, move in enumerate(sent, start=1):
        answer = client.move(game, move)
        assert answer["round"] == number and answer["you"] == move and answer["ai"] in LETTERS
        result = outcome(LETTERS.index(move), LETTERS.index(answer["ai"]))
        assert answer["result"] == RESULTS[result]
        tally[{1: "you", -1: "ai", 0: "ties"}[result]] += 1
        assert {k: answer["score"][k] for k in tally} == tally
        decisive = tally["you"] + tally["ai"]
        assert answer["score"]["win_rate"] == pytest.approx(
            100 * tally["you"] / decisive if decisive else 0, abs=0.01
        )
        assert set(answer["belief"]) == BELIEF_KEYS
        assert answer["belief"]["window"] in (10, 100, 1000) and answer["belief"]["rotation"] in (
            0,
            1,
            2,
        )
    state = client.state(game)
    assert state["id"] == game and state["opponent"] == "ai" and state["round"] == len(sent)
    assert "".join(m["you"] for m in state["moves"]) == sent
    assert [m["round"] for m in state["moves"]] == list(range(1, len(sent) + 1))
    assert {k: state["score"][k] for k in tally} == tally
    assert state["belief"] == answer["belief"]


def test_a_zoo_bot_plays_its_rules_and_shows_no_belief(client: Client) -> None:
    game = client.new_game("rockbot")
    answers = [client.move(game, "p") for _ in range(5)]
    assert [a["ai"] for a in answers] == ["R"] * 5 and [a["result"] for a in answers] == ["win"] * 5
    assert all(a["belief"] is None for a in answers) and client.state(game)["belief"] is None


@pytest.mark.parametrize(
    "spelled, letter",
    [
        ("R", "R"),
        ("r", "R"),
        ("rock", "R"),
        ("ROCK", "R"),
        ("Paper", "P"),
        ("p", "P"),
        ("scissors", "S"),
        ("S", "S"),
        (" s ", "S"),
    ],
)
def test_moves_in_any_case_or_as_words(client: Client, spelled: str, letter: str) -> None:
    game = client.new_game("rockbot")
    assert client.move(game, spelled)["you"] == letter


def test_the_csv_holds_every_round_and_the_belief(client: Client) -> None:
    game = client.new_game()
    answers = [client.move(game, move) for move in "RPSRP"]
    status, headers, data = client.call("GET", f"/api/games/{game}/csv")
    assert status == 200 and headers["content-type"].startswith("text/csv")
    assert f'filename="roshambo-{game}.csv"' in headers["content-disposition"]
    rows = data.decode().splitlines()  # type: ignore[union-attr]
    assert rows[0].split(",") == list(CSV_COLUMNS) and len(rows) == 6
    for row, answer in zip(rows[1:], answers):
        cells = row.split(",")
        assert cells[:4] == [str(answer["round"]), answer["you"], answer["ai"], answer["result"]]
        assert cells[4:7] == [str(answer["score"][k]) for k in ("you", "ai", "ties")]
        assert cells[7:11] == [
            answer["belief"][k]
            if isinstance(answer["belief"][k], str)
            else str(answer["belief"][k])
            for k in ("family", "strategy", "window", "rotation")
        ]


def test_the_csv_leaves_the_belief_empty_against_a_bot_that_has_none(client: Client) -> None:
    """Against a zoo bot (no belief behind its moves), every row still has a cell per
    column: the moves, result and score, then an empty cell per belief column."""
    game = client.new_game("quincy")
    answers = [client.move(game, move) for move in "RPS"]
    assert all(answer["belief"] is None for answer in answers)
    rows = client.call("GET", f"/api/games/{game}/csv")[2].decode().splitlines()  # type: ignore[union-attr]
    assert rows[0].split(",") == list(CSV_COLUMNS) and len(rows) == 4
    for row, answer in zip(rows[1:], answers):
        cells = row.split(",")
        assert len(cells) == len(CSV_COLUMNS)
        assert cells[:4] == [str(answer["round"]), answer["you"], answer["ai"], answer["result"]]
        assert cells[7:] == [""] * (len(CSV_COLUMNS) - 7)


def test_delete_forgets_a_game(client: Client) -> None:
    game = client.new_game()
    assert client.call("DELETE", f"/api/games/{game}")[0] == 200
    status, _, data = client.call("GET", f"/api/games/{game}")
    assert status == 404 and game in data["error"]  # type: ignore[index]
    assert client.call("DELETE", f"/api/games/{game}")[0] == 404


def test_a_game_stops_at_its_round_limit(client: Client, server: BackgroundServer) -> None:
    game = client.new_game("rockbot")
    limit = server.application.games.max_rounds
    for _ in range(limit):
        client.move(game, "P")
    status, _, data = client.call("POST", f"/api/games/{game}/moves", {"move": "P"})
    assert status == 409 and f"limit of {limit} rounds" in data["error"]  # type: ignore[index]
    assert client.state(game)["round"] == limit


# Each bad request: method, path (GAME is a live game's id), body bytes, status, words the
# error must contain. None of them may change the game or the number of games.
BAD_REQUESTS = [
    ("POST", "/api/games/GAME/moves", b'{"move": "X"}', 400, ["'X'", "R, P or S"]),
    ("POST", "/api/games/GAME/moves", b'{"move": "q"}', 400, ["'q'"]),
    ("POST", "/api/games/GAME/moves", b'{"move": "rocks"}', 400, ["'rocks'"]),
    ("POST", "/api/games/GAME/moves", b'{"move": ""}', 400, ["''"]),
    ("POST", "/api/games/GAME/moves", b'{"move": 0}', 400, ["invalid move 0"]),
    ("POST", "/api/games/GAME/moves", b'{"move": null}', 400, ["invalid move None"]),
    ("POST", "/api/games/GAME/moves", b'{"move": ["R"]}', 400, ["['R']"]),
    ("POST", "/api/games/GAME/moves", b'{"move": "R"', 400, ["malformed JSON"]),
    ("POST", "/api/games/GAME/moves", b"move=R", 400, ["malformed JSON", "move=R"]),
    ("POST", "/api/games/GAME/moves", b'\xff\xfe{"move": "R"}', 400, ["malformed JSON"]),
    ("POST", "/api/games/GAME/moves", b'["R"]', 400, ["JSON object", "list"]),
    ("POST", "/api/games/GAME/moves", b'"R"', 400, ["JSON object", "str"]),
    ("POST", "/api/games/GAME/moves", b"[" * 2000 + b"]" * 2000, 400, ["malformed JSON"]),
    ("POST", "/api/games/GAME/moves", b"", 400, ["missing JSON body"]),
    ("POST", "/api/games/GAME/moves", b"{}", 400, ['missing field "move"']),
    ("POST", "/api/games/GAME/moves", b'{"mvoe": "R"}', 400, ["unknown field 'mvoe'", '"move"']),
    (
        "POST",
        "/api/games/GAME/moves",
        b'{"move": "R", "round": 4, "x": 1}',
        400,
        ["unknown fields 'round', 'x'", 'accepted field is "move"'],
    ),
    (
        "POST",
        "/api/games/GAME/moves",
        b'{"move": "' + b"R" * (MAX_BODY + 10) + b'"}',
        413,
        [f"at most {MAX_BODY}"],
    ),
    ("POST", "/api/games/nosuchgame/moves", b'{"move": "R"}', 404, ["'nosuchgame'"]),
    # an unknown game is named first, whatever the body holds
    ("POST", "/api/games/nosuchgame/moves", b'{"mvoe": "R"}', 404, ["'nosuchgame'"]),
    ("POST", "/api/games/nosuchgame/moves", b"{", 404, ["'nosuchgame'"]),
    ("POST", "/api/games/nosuchgame/moves", b"", 404, ["'nosuchgame'"]),
    ("GET", "/api/games/nosuchgame", b"", 404, ["'nosuchgame'"]),
    ("GET", "/api/games/nosuchgame/csv", b"", 404, ["'nosuchgame'"]),
    ("POST", "/api/games", b'{"opponent": "zorro"}', 400, ["'zorro'", ", ".join(known_names())]),
    ("POST", "/api/games", b'{"opponent": 3}', 400, ["invalid opponent 3", "quincy"]),
    ("POST", "/api/games", b'{"oponent": "kris"}', 400, ["unknown field 'oponent'", '"opponent"']),
    (
        "POST",
        "/api/games",
        b'{"opponent": "kris", "seed": 1}',
        400,
        ["unknown field 'seed'", 'accepted field is "opponent"'],
    ),
    ("POST", "/api/games", b'{"opponent": "classic:greenberg"}', 400, ["'classic:greenberg'"]),
    ("POST", "/api/games", b"{", 400, ["malformed JSON"]),
    ("POST", "/api/games", b"[]", 400, ["JSON object"]),
    ("GET", "/api/nothing", b"", 404, ["'/api/nothing'"]),
    ("GET", "/api/games/GAME/moves", b"", 405, ["GET", "POST"]),
    ("PUT", "/api/games", b"{}", 405, ["PUT", "POST"]),
    ("DELETE", "/", b"", 405, ["DELETE", "GET"]),
    ("PATCH", "/api/games/GAME", b"{}", 405, ["PATCH", "use DELETE, GET, HEAD"]),
]


@pytest.mark.parametrize(
    "method, path, body, status, words",
    BAD_REQUESTS,
    ids=[f"{m} {p} {b[:20]!r}" for m, p, b, _, _ in BAD_REQUESTS],
)
def test_bad_input_is_a_clear_4xx_and_changes_nothing(
    client: Client,
    server: BackgroundServer,
    method: str,
    path: str,
    body: bytes,
    status: int,
    words: list[str],
) -> None:
    game = client.new_game()
    for move in "RPS":
        client.move(game, move)
    before, games = client.state(game), len(server.application.games)
    got, headers, data = client.call(
        method, path.replace("GAME", game), raw=body, headers={"Content-Type": "application/json"}
    )
    assert got == status and headers["content-type"].startswith("application/json")
    assert set(data) == {"error"}  # type: ignore[arg-type]
    for word in words:
        assert word in data["error"]  # type: ignore[index]
    if status == 405:
        assert method not in headers["allow"] and headers["allow"]
    assert client.state(game) == before and len(server.application.games) == games


def raw_request(url: str, request: bytes) -> bytes:
    """Send bytes exactly as given, close our sending side, and read the whole answer."""
    host, port = Client(url).host, Client(url).port
    with socket.create_connection((host, port), timeout=30) as connection:
        connection.sendall(request)
        connection.shutdown(socket.SHUT_WR)
        chunks = []
        while chunk := connection.recv(65536):
            chunks.append(chunk)
    return b"".join(chunks)


@pytest.mark.parametrize("length", [b"abc", b"-5", b"1_3", b"+13", b"13.0"])
def test_a_bad_content_length_is_a_400(
    server: BackgroundServer, client: Client, length: bytes
) -> None:
    game = client.new_game()
    answer = raw_request(
        server.url,
        b"POST /api/games/" + game.encode() + b"/moves HTTP/1.0\r\n"
        b"Content-Length: " + length + b'\r\n\r\n{"move": "R"}',
    )
    assert answer.startswith(b"HTTP/1.0 400") and b"invalid Content-Length" in answer
    assert client.state(game)["round"] == 0


def test_a_body_shorter_than_announced_is_a_400(server: BackgroundServer, client: Client) -> None:
    game = client.new_game()
    answer = raw_request(
        server.url,
        b"POST /api/games/" + game.encode() + b"/moves HTTP/1.0\r\n"
        b'Content-Length: 100\r\n\r\n{"move": "R"}',
    )
    assert answer.startswith(b"HTTP/1.0 400") and b"13 bytes, not the 100" in answer
    assert client.state(game)["round"] == 0


def test_a_huge_body_is_refused_without_reading_it_all(
    server: BackgroundServer, client: Client
) -> None:
    answer = raw_request(
        server.url, b"POST /api/games HTTP/1.0\r\nContent-Length: 10000000000\r\n\r\n{}"
    )
    assert answer.startswith(b"HTTP/1.0 413") and b"10000000000 bytes is too large" in answer


def test_head_gives_the_headers_only(client: Client) -> None:
    status, headers, data = client.call("HEAD", "/")
    assert status == 200 and data == b"" and int(headers["content-length"]) > 1000


def test_the_least_recently_used_game_is_evicted() -> None:
    with BackgroundServer(WebApp(max_games=3)) as running:
        client = Client(running.url)
        first, second, third = (client.new_game("rockbot") for _ in range(3))
        client.move(first, "P")  # first is now the most recently used: second goes next
        fourth = client.new_game("rockbot")
        status, _, data = client.call("POST", f"/api/games/{second}/moves", {"move": "R"})
        assert status == 404 and "evicted" in data["error"] and "at most 3 games" in data["error"]  # type: ignore[index]
        assert [client.state(g)["round"] for g in (first, third, fourth)] == [1, 0, 0]
        assert len(running.application.games) == 3 and running.application.games.evicted == 1


def test_many_abandoned_games_keep_the_store_bounded() -> None:
    store = GameStore(max_games=5, rng=random.Random(1))
    games = [store.create("ai") for _ in range(40)]
    assert len(store) == 5 and store.evicted == 35
    assert store.get(games[-1].id) is games[-1]
    with pytest.raises(ApiError) as caught:
        store.get(games[0].id)
    assert caught.value.status == 404
    store.reset()
    assert len(store) == 0 and store.evicted == 0
    with pytest.raises(ApiError):
        store.get(games[-1].id)


def test_concurrent_requests_for_one_game_never_interleave_its_rounds(client: Client) -> None:
    game = client.new_game()
    answers: list[dict] = []
    lock = threading.Lock()

    def player(moves: str) -> None:
        for move in moves:
            answer = client.move(game, move)
            with lock:
                answers.append(answer)

    threads = [threading.Thread(target=player, args=("RPS"[i % 3] * 3,)) for i in range(9)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(a["round"] for a in answers) == list(range(1, 28))
    by_round = {a["round"]: a for a in answers}
    state = client.state(game)
    assert [(m["you"], m["ai"]) for m in state["moves"]] == [
        (by_round[n]["you"], by_round[n]["ai"]) for n in range(1, 28)
    ]
    final = by_round[27]["score"]
    assert final["you"] + final["ai"] + final["ties"] == 27 and final == state["score"]


def test_games_are_isolated_and_a_seeded_app_replays() -> None:
    def play(app: WebApp, moves: str) -> list[str]:
        game = app.games.create("ai")
        return [game.play(LETTERS.index(m))["ai"] for m in moves]  # type: ignore[misc]

    moves = "RRPSPSRPRRSPSPRS" * 2
    first, second = WebApp(rng=random.Random(5)), WebApp(rng=random.Random(5))
    a1, b1 = play(first, moves), play(first, moves[::-1])
    a2, b2 = play(second, moves), play(second, moves[::-1])
    assert (a1, b1) == (
        a2,
        b2,
    )  # each game has its own engine: a second game leaves the first alone
    interleaved = WebApp(rng=random.Random(5))
    g1, g2 = interleaved.games.create("ai"), interleaved.games.create("ai")
    out1, out2 = [], []
    for m1, m2 in zip(moves, moves[::-1]):
        out1.append(g1.play(LETTERS.index(m1))["ai"])
        out2.append(g2.play(LETTERS.index(m2))["ai"])
    assert (out1, out2) == (a1, b1)


@pytest.mark.parametrize("value", ["x", "q", "quit", "", "rok", 1, None, True, ["r"], {"m": "r"}])
def test_parse_move_names_the_bad_value(value: object) -> None:
    with pytest.raises(ApiError) as caught:
        parse_move(value)
    assert caught.value.status == 400 and repr(value)[:20] in caught.value.message


@pytest.mark.parametrize("max_games, max_rounds", [(0, 10), (10, 0), (-1, 5), (2.5, 5), (True, 5)])
def test_the_limits_must_be_positive_integers(max_games: object, max_rounds: object) -> None:
    with pytest.raises(ValueError, match="must be a positive integer"):
        WebApp(max_games=max_games, max_rounds=max_rounds)  # type: ignore[arg-type]


def wsgi_call(app: WebApp, method: str, path: str, body: bytes) -> tuple[str, bytes]:
    environ = {
        "REQUEST_METHOD": method,
        "PATH_INFO": path,
        "CONTENT_LENGTH": str(len(body)),
        "wsgi.input": io.BytesIO(body),
        "wsgi.errors": io.StringIO(),
    }
    seen: list[str] = []
    out = b"".join(app(environ, lambda status, headers: seen.append(status)))
    return seen[0], out


FUZZ_APP = WebApp(max_games=20)
FUZZ_GAME = FUZZ_APP.games.create("rockbot").id


@settings(max_examples=150, deadline=None)
@given(
    method=st.sampled_from(["GET", "POST", "PUT", "DELETE", "HEAD", "PATCH", "OPTIONS"]),
    path=st.one_of(
        st.sampled_from(
            [
                "/",
                "/api/games",
                f"/api/games/{FUZZ_GAME}",
                f"/api/games/{FUZZ_GAME}/moves",
                f"/api/games/{FUZZ_GAME}/csv",
            ]
        ),
        st.text(max_size=30).map(lambda t: "/" + t),
    ),
    body=st.one_of(
        st.binary(max_size=64),
        st.recursive(
            st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
            lambda inner: (
                st.lists(inner, max_size=3)
                | st.dictionaries(st.sampled_from(["move", "opponent", "x"]), inner, max_size=3)
            ),
            max_leaves=8,
        ).map(lambda v: json.dumps(v).encode()),
    ),
)
def test_nothing_a_client_sends_is_a_500(method: str, path: str, body: bytes) -> None:
    status, out = wsgi_call(FUZZ_APP, method, path, body)
    assert not status.startswith("5"), (status, out)
    if not status.startswith("2") and method != "HEAD":
        assert set(json.loads(out)) == {"error"}


def test_serve_names_a_port_in_use() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with pytest.raises(ValueError, match=f"cannot listen on 127.0.0.1:{port}"):
            serve(port=port, out=io.StringIO())


def test_serve_blames_the_host_for_an_address_this_machine_does_not_have() -> None:
    # 192.0.2.1 is TEST-NET-1 (RFC 5737): never an address of this machine
    with pytest.raises(ValueError, match="192.0.2.1:0: .*; choose another --host$"):
        serve(host="192.0.2.1", port=0, out=io.StringIO())
    with socket.socket() as taken:  # while a port in use is still the port's fault
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with pytest.raises(ValueError, match="choose another --port"):
            serve(port=port, out=io.StringIO())


def test_serve_names_an_address_that_does_not_resolve() -> None:
    with pytest.raises(ValueError, match="nosuch.invalid:0: no such address.*another --host"):
        serve(host="nosuch.invalid", port=0, out=io.StringIO())


@pytest.mark.parametrize("host", ["", "  "])
def test_an_empty_host_is_refused_not_every_interface(host: str, capsys) -> None:
    from roshambo.apps.cli import main

    with pytest.raises(SystemExit) as exit_:
        main(["serve", "--host", host, "--port", "0"])
    assert (
        exit_.value.code == 2 and "argument --host: expected an address" in capsys.readouterr().err
    )


def test_a_chunked_body_is_refused_with_411_and_changes_nothing() -> None:
    app = WebApp(max_games=5)
    for path in ("/api/games", f"/api/games/{app.games.create('rockbot').id}/moves"):
        environ = {
            "REQUEST_METHOD": "POST",
            "PATH_INFO": path,
            "HTTP_TRANSFER_ENCODING": "chunked",
            "wsgi.input": io.BytesIO(b'{"opponent": "kris"}'),
            "wsgi.errors": io.StringIO(),
        }
        seen: list[str] = []
        before = len(app.games)
        out = b"".join(app(environ, lambda status, headers: seen.append(status)))
        assert seen[0].startswith("411"), (path, seen, out)
        assert "Content-Length" in json.loads(out)["error"]
        assert len(app.games) == before


@pytest.mark.parametrize(
    "command",
    [["-m", "roshambo", "serve", "--port", "0", "--max-games", "7"], ["main.py", "--serve", "0"]],
)
def test_the_commands_print_the_url_serve_and_stop_on_ctrl_c(command: list[str]) -> None:
    process = subprocess.Popen(
        [sys.executable, "-u", *command],
        cwd=REPO,
        env=python_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        line = process.stdout.readline()  # type: ignore[union-attr]
        url = re.search(r"http://127\.0\.0\.1:\d+/", line)
        assert url, line
        client = Client(url.group(0))
        game = client.new_game()
        assert client.move(game, "rock")["round"] == 1
    finally:
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=30)
    assert process.returncode == 0, err
    assert "server stopped" in out


def test_main_serve_takes_no_other_options(run_python) -> None:  # type: ignore[no-untyped-def]
    result = run_python("main.py", "--serve", "--games", "5")
    assert (
        result.returncode == 2
        and "--serve starts the web app; it does not take --games" in result.stderr
    )


def test_serve_rejects_a_bad_port(run_python) -> None:  # type: ignore[no-untyped-def]
    result = run_python("-m", "roshambo", "serve", "--port", "70000")
    assert result.returncode == 2 and "70000" in result.stderr
