"""The browser app: one page and a JSON API, as a WSGI callable (PEP 3333), standard library only.

``app`` is the callable every WSGI server imports (``roshambo.apps.web:app``): gunicorn, waitress,
or :func:`serve` here, which runs it under ``wsgiref.simple_server`` with one daemon thread per
connection. The page (``web.html`` beside this module, its script and styles inline, no
external assets) talks to nothing but the API:

    GET    /                           the page
    GET    /api/opponents              the registry names a game can be played against
    POST   /api/games                  {"opponent": "ai"} (optional) -> 201 {"id", "opponent"}
    GET    /api/games/{id}             the game so far: moves, score, belief
    POST   /api/games/{id}/moves       {"move": "R"} -> 200 the round, the score, the belief
    GET    /api/games/{id}/csv         the game as CSV (the page's Download)
    DELETE /api/games/{id}             forget a game (the page's New game)

Each game is a terminal :class:`~roshambo.apps.terminal.Session` against its own opponent
(OS-seeded unless the app is given a seeded ``rng``), behind its own lock, so two requests
for one game never interleave its rounds. :class:`GameStore` keeps at most ``max_games``
games and evicts the least recently used, so memory stays bounded however many games are
abandoned; a game stops at ``max_rounds``. Anything a client sends that is wrong gets a 4xx
with ``{"error": "..."}`` naming the problem, and changes nothing: a body's unknown field
is refused by name, and a request for an unknown game is a 404 whatever its body holds.

Bots from files (``roshambo.arena.filebots``) join the opponents only when the server is started
with them (``serve --bot PATH``): a client picks among the names the server lists and can
never make it run a file of its choosing. Each such game runs its bot in a child process,
ended when the game is forgotten or evicted; a bot that fails forfeits the game (409).
"""

from __future__ import annotations

import csv
import errno
import io
import json
import random
import re
import secrets
import socket
import sys
import threading
import traceback
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass
from http import HTTPStatus
from importlib import resources
from socketserver import ThreadingMixIn
from typing import Any, Final, TextIO
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer

from ..arena.filebots import BotFailure, BotSource, is_file_spec
from ..arena.tournaments import ENGINE_NAME, canonical_name, known_names
from ..engine.agent import Belief
from ..engine.moves import LETTERS, Move
from .explanation import explain
from .options import port_number  # noqa: F401 (re-exported)
from .terminal import QUIT, Explaining, Round, Score, Session, parse_command, session_opponent

DEFAULT_HOST: Final = "127.0.0.1"
DEFAULT_PORT: Final = 8000
DEFAULT_MAX_GAMES: Final = 1000
DEFAULT_MAX_ROUNDS: Final = 1000
MAX_BODY: Final = 4096  # bytes: a move or a new game needs a few dozen
DRAIN_LIMIT: Final = 1 << 20  # a too-large body up to this is read and dropped before the 413
PAGE: Final = "web.html"
RESULTS: Final = {1: "win", 0: "tie", -1: "loss"}
# the belief behind the AI's move: empty cells in a round without one
BELIEF_COLUMNS: Final = (
    "family",
    "strategy",
    "window",
    "rotation",
    "record",
    "hedging",
    "cautious",
    "exact",
)
CSV_COLUMNS: Final = (
    "round",
    "you",
    "ai",
    "result",
    "score_you",
    "score_ai",
    "ties",
) + BELIEF_COLUMNS
ACCEPTED_MOVES: Final = "R, P or S (any case), or rock, paper or scissors"
# the fields each body may hold: any other is refused by name (a typo such as "oponent"
# would otherwise start a game against the default unasked)
GAME_FIELDS: Final = ("opponent",)
MOVE_FIELDS: Final = ("move",)

Environ = dict[str, Any]
StartResponse = Callable[..., Any]


class ApiError(Exception):
    """A client's mistake: the HTTP status and a message naming the bad value."""

    def __init__(
        self, status: HTTPStatus, message: str, headers: tuple[tuple[str, str], ...] = ()
    ) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.headers = headers


@dataclass(frozen=True)
class Response:
    """What a handler returns: status, body bytes, content type and any extra headers."""

    status: HTTPStatus
    body: bytes
    content_type: str = "application/json; charset=utf-8"
    headers: tuple[tuple[str, str], ...] = ()


def json_response(
    status: HTTPStatus, data: object, headers: tuple[tuple[str, str], ...] = ()
) -> Response:
    return Response(status, json.dumps(data, allow_nan=False).encode("utf-8"), headers=headers)


def shown(value: object, limit: int = 60) -> str:
    """``repr(value)``, cut to ``limit`` characters, for error messages."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def parse_move(value: object) -> Move:
    """A move from the API: R/P/S or rock/paper/scissors in any case (``terminal.parse_command``)."""
    if isinstance(value, str):
        try:
            move = parse_command(value)
        except ValueError:
            pass
        else:
            if move != QUIT:
                return move
    raise ApiError(
        HTTPStatus.BAD_REQUEST, f"invalid move {shown(value)}: expected {ACCEPTED_MOVES}"
    )


def belief_data(belief: Belief | None) -> dict[str, object] | None:
    """The engine's belief as JSON (``None`` for an opponent that has none to show)."""
    if belief is None:
        return None
    data = asdict(belief)
    data["score"] = round(belief.score, 2)
    data["words"] = asdict(explain(belief))  # the sentences the page shows, as the terminal's
    return data


def score_data(score: Score) -> dict[str, object]:
    return {
        "you": score.wins,
        "ai": score.losses,
        "ties": score.ties,
        "win_rate": round(score.win_rate, 2),
    }


def round_data(played: Round) -> dict[str, object]:
    return {
        "round": played.number,
        "you": LETTERS[played.human],
        "ai": LETTERS[played.machine],
        "result": RESULTS[played.result],
    }


class Game:
    """One person's game against one opponent: a terminal session behind the game's own lock."""

    def __init__(self, game_id: str, opponent_name: str, session: Session, max_rounds: int) -> None:
        self.id = game_id
        self.opponent_name = opponent_name
        self.max_rounds = max_rounds
        self._session = session
        self._lock = threading.Lock()

    def play(self, move: Move) -> dict[str, object]:
        """Play one round (409 once the game has ``max_rounds``) and describe it."""
        with self._lock:
            if len(self._session.rounds) >= self.max_rounds:
                raise ApiError(
                    HTTPStatus.CONFLICT,
                    f"game {self.id} has reached its limit of {self.max_rounds} rounds: "
                    f"start a new game",
                )
            try:
                played = self._session.play(move)
            except BotFailure as failure:  # a bot from a file raised, cheated or timed out
                raise ApiError(
                    HTTPStatus.CONFLICT,
                    f"{self.opponent_name} forfeits in round "
                    f"{len(self._session.rounds) + 1} ({failure}): start a new game",
                ) from None
            return {
                **round_data(played),
                "score": score_data(played.score),
                "belief": belief_data(played.belief),
            }

    def close(self) -> None:
        """End the opponent's child process, if it has one (a bot from a file)."""
        close = getattr(self._session.opponent, "close", None)
        if callable(close):
            close()

    def state(self) -> dict[str, object]:
        """The game so far: every round, the score, the latest belief."""
        with self._lock:
            rounds = list(self._session.rounds)
            score = self._session.score
        return {
            "id": self.id,
            "opponent": self.opponent_name,
            "round": len(rounds),
            "max_rounds": self.max_rounds,
            "score": score_data(score),
            "belief": belief_data(rounds[-1].belief if rounds else None),
            "moves": [round_data(played) for played in rounds],
        }

    def csv(self) -> str:
        """Every round as a CSV row: moves, result, running score, the belief behind the AI's move."""
        with self._lock:
            rounds = list(self._session.rounds)
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(CSV_COLUMNS)
        for played in rounds:
            belief = played.belief
            about = (
                (
                    belief.family,
                    belief.strategy,
                    belief.window,
                    belief.rotation,
                    f"{belief.score:.2f}",
                    int(belief.hedging),
                    int(belief.cautious),
                    int(belief.exact),
                )
                if belief is not None
                else ("",) * len(BELIEF_COLUMNS)
            )
            writer.writerow(
                (
                    played.number,
                    LETTERS[played.human],
                    LETTERS[played.machine],
                    RESULTS[played.result],
                    played.score.wins,
                    played.score.losses,
                    played.score.ties,
                    *about,
                )
            )
        return out.getvalue()


class GameStore:
    """At most ``max_games`` games, the least recently used evicted first (an LRU OrderedDict).

    The mapping has its own lock, never held while a game's lock is: creating, finding and
    forgetting games is safe from any number of threads.
    """

    def __init__(
        self,
        max_games: int = DEFAULT_MAX_GAMES,
        max_rounds: int = DEFAULT_MAX_ROUNDS,
        rng: random.Random | None = None,
        bots: tuple[str, ...] = (),
    ) -> None:
        for label, value in (("max_games", max_games), ("max_rounds", max_rounds)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"{label} must be a positive integer, got {value!r}")
        files: dict[str, str] = {}  # a file's one spelling (its resolved path): its spec
        for bot in bots:
            if not is_file_spec(bot):
                raise ValueError(
                    f"bot {bot!r} is not a bot file: expected PATH.py, rpscontest:PATH or "
                    "kaggle:PATH"
                )
            file = canonical_name(bot)
            if file in files:
                also = "" if files[file] == bot else f" (as {files[file]!r})"
                raise ValueError(f"bot file {bot!r} named twice{also}")
            files[file] = bot
        # a bad file is refused now, not in some game later
        self.sources = {bot: BotSource.read(bot) for bot in bots}
        self.max_games = max_games
        self.max_rounds = max_rounds
        self.bots = tuple(bots)
        self._rng = rng
        self._lock = threading.Lock()  # guards the mapping and the count, whatever reset() does
        self.reset()

    def reset(self) -> None:
        """Forget every game."""
        with self._lock:
            self._games: OrderedDict[str, Game] = OrderedDict()
            self.evicted = 0

    def __len__(self) -> int:
        with self._lock:
            return len(self._games)

    def names(self) -> tuple[str, ...]:
        """The opponents a game may be played against: the registry, then the admitted bots."""
        return (*known_names(), *self.bots)

    def create(self, opponent_name: str) -> Game:
        """A new game against ``opponent_name`` (one of ``names()``), stored as newest."""
        if opponent_name not in self.names():
            raise ApiError(
                HTTPStatus.BAD_REQUEST,
                f"unknown opponent {shown(opponent_name)}: choose one of {', '.join(self.names())}",
            )
        with self._lock:
            seed = self._rng.getrandbits(64) if self._rng is not None else None
        rng = random.Random(seed) if seed is not None else None  # None: seeded from the OS
        opponent = session_opponent(opponent_name, rng)
        session = Session(opponent, explain=isinstance(opponent, Explaining))
        game = Game(secrets.token_urlsafe(12), opponent_name, session, self.max_rounds)
        with self._lock:
            self._games[game.id] = game
            evicted = []
            while len(self._games) > self.max_games:
                evicted.append(self._games.popitem(last=False)[1])
                self.evicted += 1
        for old in evicted:
            old.close()
        return game

    def get(self, game_id: str) -> Game:
        """The game ``game_id``, now the most recently used; 404 if unknown or evicted."""
        with self._lock:
            game = self._games.get(game_id)
            if game is not None:
                self._games.move_to_end(game_id)
        if game is None:
            raise ApiError(
                HTTPStatus.NOT_FOUND,
                f"unknown game id {shown(game_id)}: it never existed or was evicted "
                f"(at most {self.max_games} games are kept); start a new game",
            )
        return game

    def discard(self, game_id: str) -> None:
        """Forget ``game_id``; 404 if unknown."""
        with self._lock:
            game = self._games.pop(game_id, None)
        if game is None:
            self.get(game_id)  # raises the 404
        else:
            game.close()


Handler = Callable[..., Response]


@dataclass(frozen=True)
class Route:
    """One line of the routing table: a method, a path pattern, a handler."""

    method: str
    pattern: re.Pattern[str]
    handler: Handler


def _route(method: str, path: str, handler: Handler) -> Route:
    regex = re.sub(r"\{(\w+)\}", r"(?P<\1>[^/]+)", path)
    return Route(method, re.compile(regex + r"\Z"), handler)


class WebApp:
    """The WSGI application: a routing table from (method, path) to handlers over a GameStore."""

    def __init__(
        self,
        max_games: int = DEFAULT_MAX_GAMES,
        max_rounds: int = DEFAULT_MAX_ROUNDS,
        rng: random.Random | None = None,
        bots: tuple[str, ...] = (),
    ) -> None:
        self.games = GameStore(max_games, max_rounds, rng, bots)
        self.routes = (
            _route("GET", "/", self.page),
            _route("GET", "/api/opponents", self.opponents),
            _route("POST", "/api/games", self.new_game),
            _route("GET", "/api/games/{game_id}", self.game_state),
            _route("DELETE", "/api/games/{game_id}", self.forget_game),
            _route("POST", "/api/games/{game_id}/moves", self.move),
            _route("GET", "/api/games/{game_id}/csv", self.game_csv),
        )
        self._page = resources.files(__package__).joinpath(PAGE).read_bytes()

    def __call__(self, environ: Environ, start_response: StartResponse) -> Iterable[bytes]:
        method = environ.get("REQUEST_METHOD", "GET").upper()
        try:
            response = self.dispatch(method, environ.get("PATH_INFO") or "/", environ)
        except ApiError as err:
            response = json_response(err.status, {"error": err.message}, err.headers)
        except Exception:  # a bug of ours, never the client's input: say so, keep serving
            traceback.print_exc(file=environ.get("wsgi.errors", sys.stderr))
            response = json_response(HTTPStatus.INTERNAL_SERVER_ERROR, {"error": "internal error"})
        headers = [
            ("Content-Type", response.content_type),
            ("Content-Length", str(len(response.body))),
            ("Cache-Control", "no-store"),
            ("X-Content-Type-Options", "nosniff"),
            *response.headers,
        ]
        start_response(f"{response.status.value} {response.status.phrase}", headers)
        return [b"" if method == "HEAD" else response.body]

    def dispatch(self, method: str, path: str, environ: Environ) -> Response:
        """Find the route for ``path``: 404 if none, 405 (with Allow) if not for ``method``."""
        allowed: list[str] = []
        for route in self.routes:
            match = route.pattern.match(path)
            if match is None:
                continue
            if route.method == method or (method == "HEAD" and route.method == "GET"):
                return route.handler(environ, **match.groupdict())
            allowed.append(route.method)
        if allowed:
            allow = ", ".join(sorted(set(allowed) | ({"HEAD"} if "GET" in allowed else set())))
            raise ApiError(
                HTTPStatus.METHOD_NOT_ALLOWED,
                f"method {method} is not allowed on {shown(path)}: use {allow}",
                (("Allow", allow),),
            )
        raise ApiError(HTTPStatus.NOT_FOUND, f"no such page or API route: {shown(path)}")

    # --- handlers -------------------------------------------------------------------------

    def page(self, environ: Environ) -> Response:
        policy = (
            "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
            "connect-src 'self'; img-src data:; base-uri 'none'; form-action 'none'"
        )
        return Response(
            HTTPStatus.OK,
            self._page,
            "text/html; charset=utf-8",
            (("Content-Security-Policy", policy),),
        )

    def opponents(self, environ: Environ) -> Response:
        return json_response(
            HTTPStatus.OK, {"opponents": list(self.games.names()), "default": ENGINE_NAME}
        )

    def new_game(self, environ: Environ) -> Response:
        body = parse_json(read_body(environ), required=False, fields=GAME_FIELDS)
        name = body.get("opponent", ENGINE_NAME)
        if not isinstance(name, str):
            raise ApiError(
                HTTPStatus.BAD_REQUEST,
                f"invalid opponent {shown(name)}: expected a name, one of "
                f"{', '.join(self.games.names())}",
            )
        game = self.games.create(name)
        return json_response(
            HTTPStatus.CREATED,
            {"id": game.id, "opponent": game.opponent_name},
            (("Location", f"/api/games/{game.id}"),),
        )

    def game_state(self, environ: Environ, game_id: str) -> Response:
        return json_response(HTTPStatus.OK, self.games.get(game_id).state())

    def forget_game(self, environ: Environ, game_id: str) -> Response:
        self.games.discard(game_id)
        return json_response(HTTPStatus.OK, {"deleted": game_id})

    def move(self, environ: Environ, game_id: str) -> Response:
        raw = read_body(environ)  # read whatever the game, so the client hears the answer
        game = self.games.get(game_id)  # an unknown game is a 404 before its body is judged
        body = parse_json(raw, required=True, fields=MOVE_FIELDS)
        if "move" not in body:
            raise ApiError(
                HTTPStatus.BAD_REQUEST,
                f'missing field "move" in {shown(body)}: send {{"move": "R"}} '
                f"with {ACCEPTED_MOVES}",
            )
        move = parse_move(body["move"])
        return json_response(HTTPStatus.OK, game.play(move))

    def game_csv(self, environ: Environ, game_id: str) -> Response:
        game = self.games.get(game_id)
        disposition = f'attachment; filename="roshambo-{game.id}.csv"'
        return Response(
            HTTPStatus.OK,
            game.csv().encode("utf-8"),
            "text/csv; charset=utf-8",
            (("Content-Disposition", disposition),),
        )


def read_body(environ: Environ) -> bytes:
    """The request body's bytes: 413 past ``MAX_BODY`` bytes, 400 for a bad Content-Length
    or a body shorter than it, 411 for one this server cannot delimit."""
    stream = environ["wsgi.input"]
    length_text = environ.get("CONTENT_LENGTH") or ""
    if length_text.strip():
        digits = length_text.strip(" \t")  # HTTP's optional whitespace around a field value
        if not (digits.isascii() and digits.isdigit()):  # int() also takes "1_2", "+5", "-5"
            raise ApiError(
                HTTPStatus.BAD_REQUEST,
                f"invalid Content-Length {shown(length_text)}: expected a number of bytes",
            )
        length = int(digits)
        if length > MAX_BODY:
            if length <= DRAIN_LIMIT:
                _drain(stream, length)
            raise ApiError(
                HTTPStatus.REQUEST_ENTITY_TOO_LARGE,
                f"request body of {length} bytes is too large: at most {MAX_BODY}",
            )
        raw = _read(stream, length)
    elif environ.get("wsgi.input_terminated"):  # chunked, and the server marks the end
        raw = _read(stream, MAX_BODY + 1, exact=False)
        if len(raw) > MAX_BODY:
            raise ApiError(
                HTTPStatus.REQUEST_ENTITY_TOO_LARGE,
                f"request body is too large: at most {MAX_BODY} bytes",
            )
    elif environ.get("HTTP_TRANSFER_ENCODING", "").strip():  # a body this server cannot read
        raise ApiError(
            HTTPStatus.LENGTH_REQUIRED,
            f"a body sent with Transfer-Encoding {shown(environ['HTTP_TRANSFER_ENCODING'])} "
            "is not read here: send it with a Content-Length",
        )
    else:
        raw = b""
    return raw


def parse_json(raw: bytes, *, required: bool, fields: tuple[str, ...]) -> dict[str, object]:
    """The body as a JSON object of ``fields`` only ({} if empty and not ``required``); 400
    for bytes that are not UTF-8 JSON, JSON that is not an object, or an unknown field."""
    if not raw.strip():
        if required:
            raise ApiError(HTTPStatus.BAD_REQUEST, 'missing JSON body: send {"move": "R"}')
        return {}
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as err:
        text = raw.decode("utf-8", "replace")
        raise ApiError(
            HTTPStatus.BAD_REQUEST, f"malformed JSON body {shown(text)}: {err}"
        ) from None
    if not isinstance(data, dict):
        raise ApiError(
            HTTPStatus.BAD_REQUEST,
            f"the body must be a JSON object, got {type(data).__name__} {shown(data)}",
        )
    unknown = [name for name in data if name not in fields]
    if unknown:
        named = ", ".join(shown(name) for name in unknown[:5])
        more = f" and {len(unknown) - 5} more" if len(unknown) > 5 else ""
        raise ApiError(
            HTTPStatus.BAD_REQUEST,
            f"unknown field{'s' if len(unknown) > 1 else ''} {named}{more}: accepted "
            f"{'fields are' if len(fields) > 1 else 'field is'} "
            f"{', '.join(json.dumps(name) for name in fields)}",
        )
    return data


def _read(stream: Any, count: int, exact: bool = True) -> bytes:
    """``count`` bytes of the body (at most ``count`` unless ``exact``); 400 if they never come."""
    try:
        raw = stream.read(count) if count else b""
    except OSError as err:  # e.g. the connection's timeout: fewer bytes sent than announced
        raise ApiError(HTTPStatus.BAD_REQUEST, f"could not read the request body: {err}") from None
    if exact and len(raw) < count:
        raise ApiError(
            HTTPStatus.BAD_REQUEST,
            f"the request body has {len(raw)} bytes, not the {count} of its Content-Length",
        )
    return raw


def _drain(stream: Any, count: int) -> None:
    """Read and drop a refused body, so the client is still listening when the answer comes."""
    try:
        while count > 0:
            chunk = stream.read(min(count, 65536))
            if not chunk:
                return
            count -= len(chunk)
    except OSError:
        return


class ThreadingWSGIServer(ThreadingMixIn, WSGIServer):
    """``wsgiref``'s server with one daemon thread per connection.

    The listen backlog is raised from socketserver's 5: many clients connecting at once
    would otherwise see their connections refused or reset.
    """

    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 128


class QuietHandler(WSGIRequestHandler):
    """No access log on stderr, and a client that sends nothing is dropped after a while."""

    timeout = 30

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 (the base's name)
        pass


def make_server(
    host: str = DEFAULT_HOST, port: int = DEFAULT_PORT, application: WebApp | None = None
) -> ThreadingWSGIServer:
    """A threaded wsgiref server for ``application`` (a new :class:`WebApp` by default), bound
    but not yet serving; port 0 picks a free port (``server.server_port`` says which)."""
    server = ThreadingWSGIServer((host, port), QuietHandler)
    server.set_app(application if application is not None else WebApp())
    return server


def url_of(server: ThreadingWSGIServer) -> str:
    host = str(server.server_address[0])
    host = f"[{host}]" if ":" in host else host
    return f"http://{host}:{server.server_port}/"


class BackgroundServer:
    """The app served from a daemon thread, for tests and scripts: ``with BackgroundServer() as s:
    ... s.url ...``; the server is shut down and its socket closed on leaving the block."""

    def __init__(
        self, application: WebApp | None = None, host: str = DEFAULT_HOST, port: int = 0
    ) -> None:
        self.application = application if application is not None else WebApp()
        self.host = host
        self.port = port
        self.server: ThreadingWSGIServer | None = None
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        if self.server is None:
            raise RuntimeError("the server is not running: use it in a with block")
        return url_of(self.server)

    def __enter__(self) -> BackgroundServer:
        self.server = make_server(self.host, self.port, self.application)
        self._thread = threading.Thread(
            target=self.server.serve_forever,
            kwargs={"poll_interval": 0.05},
            name="roshambo-web",
            daemon=True,
        )
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self.server is not None and self._thread is not None:
            self.server.shutdown()
            self._thread.join()
            self.server.server_close()
        self.server = self._thread = None


def serve(
    host: str = DEFAULT_HOST,
    port: int = DEFAULT_PORT,
    max_games: int = DEFAULT_MAX_GAMES,
    max_rounds: int = DEFAULT_MAX_ROUNDS,
    out: TextIO | None = None,
    bots: tuple[str, ...] = (),
) -> None:
    """Serve the app until Ctrl-C, printing its URL first; ``bots`` are the bot files admitted."""
    stream = sys.stdout if out is None else out
    application = WebApp(max_games=max_games, max_rounds=max_rounds, bots=bots)
    try:
        server = make_server(host, port, application)
    except socket.gaierror as err:  # (an OSError too: the name, not the port, is at fault)
        raise ValueError(
            f"cannot listen on {host}:{port}: no such address ({err.strerror or err}); "
            f"choose another --host"
        ) from None
    except OSError as err:
        # an address this machine does not have is the host's fault; anything else the port's
        fix = (
            "choose another --host"
            if err.errno == errno.EADDRNOTAVAIL
            else "choose another --port (0 picks a free one)"
        )
        raise ValueError(f"cannot listen on {host}:{port}: {err.strerror or err}; {fix}") from None
    with server:
        for bot, source in application.games.sources.items():
            stream.write(source.describe(bot) + "\n")
        stream.write(
            f"Rock, paper, scissors in the browser: open {url_of(server)}  "
            f"(Ctrl-C stops the server)\n"
        )
        stream.flush()
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            stream.write("\nserver stopped\n")
            stream.flush()


# The one module-level object: WSGI servers import a callable by name (``roshambo.apps.web:app``).
app = WebApp()
