"""Bots from files: rpscontest scripts and Kaggle ``rps`` agents as arena players.

A player spec that ends in ``.py`` is a file; ``rpscontest:PATH`` and ``kaggle:PATH`` force
the convention. Otherwise the kind is read from the file's syntax tree: a script that
assigns the global ``output`` outside any function is an rpscontest script (rpscontest.com's
runner convention); a file that defines a function or class at top level is a Kaggle agent
(kaggle-environments calls the last top-level callable).

:class:`FileBot` adapts such a file to the opponent protocol (``reset()``, ``move()``): the
bot runs in its own child process (``filebot_child.py``, a fresh interpreter per match), so
its module state and its crashes stay there, and a per-move time limit can be enforced by
killing it. Its ``random`` module -- and numpy's global generator if the file mentions numpy
-- and its ``PYTHONHASHSEED`` are seeded from the seed the match hands it, so a seeded run
replays (a bot that reads the clock or the OS's randomness cannot be replayed).

A bot that raises, answers something other than a move, or exceeds its time raises
:class:`BotFailure` from ``move``; ``arena.play_match`` turns that into a forfeit. Loading
the file and the first move may take up to ``STARTUP_TIMEOUT`` (imports, set-up); every
later move has the per-move limit. The parent waits with ``select`` on the child's pipe,
which needs a POSIX system.
"""
from __future__ import annotations

import ast
import hashlib
import json
import os
import random
import select
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from .moves import Move, check_move

RPSCONTEST = "rpscontest"
KAGGLE = "kaggle"
KINDS = (RPSCONTEST, KAGGLE)
DEFAULT_MOVE_TIMEOUT = 1.0
STARTUP_TIMEOUT = 10.0
CHILD = Path(__file__).resolve().with_name("filebot_child.py")


class BotFailure(Exception):
    """A file bot lost its match: ``cause`` is "error", "illegal" or "timeout"."""

    def __init__(self, cause: str, message: str) -> None:
        super().__init__(f"{cause}: {message}")
        self.cause = cause


def is_file_spec(name: str) -> bool:
    """Whether a player spec names a bot file (``*.py``, ``rpscontest:PATH``, ``kaggle:PATH``)."""
    return name.endswith(".py") or name.startswith(tuple(kind + ":" for kind in KINDS))


def _assigns_output(tree: ast.Module) -> bool:
    """Whether module-level code (or a function declaring ``global output``) sets ``output``."""
    pending: list[ast.AST] = list(tree.body)
    while pending:
        node = pending.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            if any(isinstance(n, ast.Global) and "output" in n.names for n in ast.walk(node)):
                return True
            continue
        if isinstance(node, ast.ClassDef):
            continue
        if isinstance(node, ast.Name) and node.id == "output" and isinstance(node.ctx, ast.Store):
            return True
        pending.extend(ast.iter_child_nodes(node))
    return False


def detect_kind(tree: ast.Module) -> str | None:
    """"rpscontest", "kaggle", or None when the syntax tree shows neither convention."""
    if _assigns_output(tree):
        return RPSCONTEST
    if any(isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
           for node in tree.body):
        return KAGGLE
    return None


@dataclass(frozen=True)
class BotSource:
    """A bot file as read once in the parent: its convention, absolute path and source.

    The source travels with the factory, so a worker on another machine runs the same code.
    """

    kind: str
    path: str
    source: str = field(repr=False)

    @classmethod
    def read(cls, spec: str) -> BotSource:
        """Read and check ``spec``; ``ValueError`` naming it if it cannot be a bot."""
        kind, _, rest = spec.partition(":")
        forced = kind in KINDS and rest != ""
        path = Path(rest if forced else spec)
        if not path.is_file():
            raise ValueError(f"bot file {str(path)!r} not found (from player {spec!r})")
        try:
            source = path.read_text(encoding="utf-8")
            tree = ast.parse(source, filename=str(path))
        except (OSError, UnicodeDecodeError) as exc:
            raise ValueError(f"cannot read bot file {str(path)!r}: {exc}") from None
        except SyntaxError as exc:
            raise ValueError(f"bot file {str(path)!r} is not valid Python: line {exc.lineno}: "
                             f"{exc.msg}") from None
        detected = kind if forced else detect_kind(tree)
        if detected is None:
            raise ValueError(
                f"cannot tell what kind of bot {str(path)!r} is: an rpscontest script sets the "
                f"global output, a Kaggle agent defines a function; force one with "
                f"rpscontest:{path} or kaggle:{path}")
        return cls(detected, str(path.resolve()), source)

    @property
    def digest(self) -> str:
        """The first 16 hex digits of the source's SHA-256 (names the code in run logs)."""
        return hashlib.sha256(self.source.encode("utf-8")).hexdigest()[:16]


class FileBot:
    """A bot file behind the opponent protocol, run in a child process for each match.

    ``reset()`` ends the child; the next ``move`` starts a fresh one (a new namespace, a new
    interpreter) seeded as the first one was, so reset equals fresh.
    """

    def __init__(self, source: BotSource, rng: random.Random | None = None, *,
                 throws: int = 1000, move_timeout: float = DEFAULT_MOVE_TIMEOUT,
                 name: str | None = None) -> None:
        if os.name != "posix":
            raise ValueError("bots from files need a POSIX system (they are timed with select)")
        if not move_timeout > 0:
            raise ValueError(f"move_timeout must be > 0 seconds, got {move_timeout}")
        self.source = source
        self.name = name if name is not None else f"{source.kind}:{source.path}"
        self.throws = throws
        self.move_timeout = move_timeout
        self._seed = (rng if rng is not None else random.Random()).getrandbits(63)
        self._process: subprocess.Popen[bytes] | None = None
        self.reset()

    def reset(self) -> None:
        """End any running child; the next move starts a new one."""
        self.close()
        self._buffer = b""
        self._moves = 0
        self._failure: BotFailure | None = None

    def close(self) -> None:
        """Kill the child process, if one runs."""
        process, self._process = self._process, None
        if process is not None:
            process.kill()
            process.wait()
            for stream in (process.stdin, process.stdout):
                if stream is not None:
                    stream.close()

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:  # interpreter shutdown: nothing left to clean up with
            pass

    def move(self, their_last: Move | None) -> Move:
        if self._failure is not None:
            raise self._failure
        if their_last is not None:
            check_move(their_last)
        try:
            if self._process is None:
                self._start()
            limit = max(self.move_timeout, STARTUP_TIMEOUT) if self._moves == 0 else self.move_timeout
            reply = self._ask(b"-" if their_last is None else str(their_last).encode(), limit)
            if reply.startswith("!"):
                cause, _, message = reply[1:].partition(" ")
                raise BotFailure(cause, message)
            self._moves += 1
            return int(reply)
        except BotFailure as failure:
            self._failure = failure
            self.close()
            raise

    def _start(self) -> None:
        env = dict(os.environ, PYTHONHASHSEED=str(self._seed % 2**32))
        self._process = subprocess.Popen(
            [sys.executable, str(CHILD)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL, env=env)
        setup = {"kind": self.source.kind, "path": self.source.path, "source": self.source.source,
                 "seed": self._seed, "throws": self.throws, "move_timeout": self.move_timeout,
                 "sys_path": [entry for entry in sys.path if entry]}
        reply = self._ask(json.dumps(setup).encode("utf-8"), STARTUP_TIMEOUT)
        if reply != "ok":
            cause, _, message = reply[1:].partition(" ")
            raise BotFailure(cause, message)

    def _ask(self, request: bytes, limit: float) -> str:
        """Send one line and wait up to ``limit`` seconds for one line back."""
        process = self._process
        assert process is not None and process.stdin is not None and process.stdout is not None
        try:
            process.stdin.write(request + b"\n")
            process.stdin.flush()
        except (BrokenPipeError, OSError):
            raise BotFailure("error", self._ended()) from None
        fd = process.stdout.fileno()
        deadline = time.monotonic() + limit
        while b"\n" not in self._buffer:
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not select.select([fd], [], [], remaining)[0]:
                raise BotFailure("timeout", f"no move within {limit:g} s")
            chunk = os.read(fd, 65536)
            if not chunk:
                raise BotFailure("error", self._ended())
            self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        return line.decode("utf-8", "replace")

    def _ended(self) -> str:
        assert self._process is not None
        try:
            code = self._process.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            return "the bot's process stopped answering"
        return f"the bot's process ended (exit code {code})"


@dataclass(frozen=True)
class FileBotFactory:
    """A picklable factory for a bot file: ``factory(rng) -> FileBot`` named ``label``."""

    label: str
    source: BotSource
    throws: int = 1000
    move_timeout: float = DEFAULT_MOVE_TIMEOUT

    def __call__(self, rng: random.Random) -> FileBot:
        return FileBot(self.source, rng, throws=self.throws, move_timeout=self.move_timeout,
                       name=self.label)

    def fingerprint(self) -> str:
        """What identifies this player in a run log: kind, code digest, limits."""
        return (f"{self.source.kind} sha256:{self.source.digest} throws={self.throws} "
                f"move_timeout={self.move_timeout:g}")
