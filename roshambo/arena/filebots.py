"""Bots from files: rpscontest scripts and Kaggle ``rps`` agents as arena players.

A player spec that ends in ``.py`` is a file; ``rpscontest:PATH`` and ``kaggle:PATH`` force
the convention. Otherwise the kind is read from what the file's syntax tree does
(:func:`detect`): a top-level function taking (observation, configuration) makes a Kaggle
agent; top-level code that sets the global ``output`` makes an rpscontest script (the
runner's convention). A file that could run either way, or neither, is refused with the two
forced forms, and every command says once which kind a file was read as.

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
import importlib.util
import json
import os
import random
import select
import signal
import subprocess
import sys
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from ..engine.moves import Move, check_move

RPSCONTEST = "rpscontest"
KAGGLE = "kaggle"
KINDS = (RPSCONTEST, KAGGLE)
DEFAULT_MOVE_TIMEOUT = 1.0
# Compatibility shims a run may give every bot file (``--shim NAME``; the code is the
# child's, filebot_child.SHIMS): the names a bot's module then sees instead of builtins.
SHIMS = {
    "numpy1-scalars": "int() and float() of a one-element numpy array, as NumPy 1 allowed",
}
STARTUP_TIMEOUT = 10.0
CHILD = Path(__file__).resolve().with_name("filebot_child.py")


class BotFailure(Exception):
    """A file bot lost its match: ``cause`` is "error", "illegal" or "timeout"."""

    def __init__(self, cause: str, message: str) -> None:
        super().__init__(f"{cause}: {message}")
        self.cause = cause


def check_shims(shims: tuple[str, ...]) -> tuple[str, ...]:
    """``shims`` if every one is known; ``ValueError`` naming the one that is not."""
    for shim in shims:
        if shim not in SHIMS:
            raise ValueError(f"unknown shim {shim!r}: expected one of {', '.join(SHIMS)}")
    return tuple(shims)


def split_spec(spec: str) -> tuple[str | None, str]:
    """(forced kind or None, path) of a bot file spec: ``kaggle:a.py`` -> ("kaggle", "a.py")."""
    kind, _, rest = spec.partition(":")
    return (kind, rest) if kind in KINDS and rest else (None, spec)


def is_file_spec(name: str) -> bool:
    """Whether a player spec names a bot file (``*.py``, ``rpscontest:PATH``, ``kaggle:PATH``)."""
    return name.endswith(".py") or name.startswith(tuple(kind + ":" for kind in KINDS))


# --- telling the two conventions apart ------------------------------------------------------
# What the file does decides, not one assignment: a Kaggle agent is a top-level function (or
# a callable class's __call__) that takes an observation and a configuration; an rpscontest
# script is top-level code that sets the global ``output`` (and usually reads ``input``).

OBSERVATION_KEYS = frozenset({"step", "lastOpponentAction", "reward", "remainingOverageTime"})
CONFIGURATION_KEYS = frozenset(
    {"signs", "episodeSteps", "actTimeout", "agentTimeout", "runTimeout", "tieRewardThreshold"}
)
_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)
_SCOPES = (*_FUNCTIONS, ast.ClassDef)


@dataclass(frozen=True)
class Detection:
    """What a file's syntax tree shows: the kind it reads as (None: neither or both) and why."""

    kind: str | None
    reason: str


def _top_level(tree: ast.Module) -> list[ast.AST]:
    """Every node of the module's own code, not inside a function or class body."""
    found: list[ast.AST] = []
    pending: list[ast.AST] = list(tree.body)
    while pending:
        node = pending.pop()
        found.append(node)
        if isinstance(node, _SCOPES):
            # decorators and default values run at the top level; the body does not
            if not isinstance(node, ast.Lambda):
                pending.extend(node.decorator_list)
            if not isinstance(node, ast.ClassDef):
                pending.extend(d for d in (*node.args.defaults, *node.args.kw_defaults) if d)
            continue
        pending.extend(ast.iter_child_nodes(node))
    return found


def _reads_input(nodes: list[ast.AST]) -> bool:
    """Whether these nodes read the name ``input`` other than by calling the builtin."""
    called = {id(node.func) for node in nodes if isinstance(node, ast.Call)}
    return any(
        isinstance(node, ast.Name)
        and node.id == "input"
        and isinstance(node.ctx, ast.Load)
        and id(node) not in called
        for node in nodes
    )


def _sets_output(tree: ast.Module, top: list[ast.AST]) -> bool:
    """Whether top-level code, or a function declaring ``global output``, sets ``output``."""
    if any(
        isinstance(node, ast.Name) and node.id == "output" and isinstance(node.ctx, ast.Store)
        for node in top
    ):
        return True
    return any(
        isinstance(node, _FUNCTIONS[:2])
        and any(isinstance(n, ast.Global) and "output" in n.names for n in ast.walk(node))
        for node in ast.walk(tree)
    )


def _positional(arguments: ast.arguments, skip_self: bool) -> list[str]:
    names = [a.arg for a in (*arguments.posonlyargs, *arguments.args)]
    return names[1:] if skip_self else names


def _uses_keys(function: ast.AST, parameter: str, keys: frozenset[str]) -> bool:
    """Whether the body reads ``parameter.KEY`` or ``parameter["KEY"]`` for one of ``keys``."""
    for node in ast.walk(function):
        if isinstance(node, ast.Attribute) and node.attr in keys:
            target = node.value
        elif (
            isinstance(node, ast.Subscript)
            and isinstance(node.slice, ast.Constant)
            and node.slice.value in keys
        ):
            target = node.value
        else:
            continue
        if isinstance(target, ast.Name) and target.id == parameter:
            return True
    return False


def _agent_shape(
    function: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda, skip_self: bool = False
) -> int:
    """How much a function looks like an agent(observation, configuration): 2 when its
    parameters carry Kaggle's names (obs..., conf.../cfg) or the body reads Kaggle's keys from
    them, 1 for any other function of two positional parameters, else 0."""
    names = _positional(function.args, skip_self)
    if not 1 <= len(names) <= 2:
        return 0
    if names[0].lower().startswith("obs") or _uses_keys(function, names[0], OBSERVATION_KEYS):
        return 2
    if len(names) == 1:
        return 0
    if names[1].lower().startswith(("conf", "cfg")) or _uses_keys(
        function, names[1], CONFIGURATION_KEYS
    ):
        return 2
    return 1


def _agents(tree: ast.Module) -> list[tuple[str, int]]:
    """The top-level callables shaped like a Kaggle agent: (name, how much, as above)."""
    found = []
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            found.append((node.name, _agent_shape(node)))
        elif isinstance(node, ast.ClassDef):
            found.extend(
                (node.name + ".__call__", _agent_shape(item, skip_self=True))
                for item in node.body
                if isinstance(item, ast.FunctionDef) and item.name == "__call__"
            )
        elif isinstance(node, ast.Assign) and isinstance(node.value, ast.Lambda):
            shape = _agent_shape(node.value)
            found.extend((t.id, shape) for t in node.targets if isinstance(t, ast.Name))
    return [(name, shape) for name, shape in found if shape]


def detect(tree: ast.Module) -> Detection:
    """Which convention a bot file's syntax tree follows, and why (see the section comment).

    Top-level code that reads ``input`` and sets ``output`` is a script, unless a top-level
    function also carries Kaggle's parameter names or keys: that file could run either way
    and is refused. A function of two parameters otherwise makes an agent, even beside a
    global named ``output``; a file that shows neither convention is refused.
    """
    top = _top_level(tree)
    agents = _agents(tree)
    strong = [name for name, shape in agents if shape == 2]
    sets_output = _sets_output(tree, top)
    script = sets_output and _reads_input(top)
    if script and strong:
        return Detection(
            None,
            f"it defines {strong[-1]}(observation, configuration), a Kaggle "
            f"agent, and its top-level code reads input and sets output, "
            f"an rpscontest script",
        )
    if script:
        return Detection(RPSCONTEST, "its top-level code sets output from input")
    if agents:
        name = (strong or [name for name, _ in agents])[-1]
        return Detection(KAGGLE, f"it defines {name}(observation, configuration)")
    if sets_output:
        return Detection(RPSCONTEST, "its top-level code sets output")
    return Detection(
        None,
        "it neither defines a function of (observation, configuration) "
        "nor sets output at the top level",
    )


@dataclass(frozen=True)
class BotSource:
    """A bot file as read once in the parent: its convention, absolute path and source.

    The source travels with the factory, so a worker on another machine runs the same code.
    """

    kind: str
    path: str
    source: str = field(repr=False)
    reason: str = field(default="forced", compare=False)  # why this kind: see detect()

    @classmethod
    def read(cls, spec: str) -> BotSource:
        """Read and check ``spec``; ``ValueError`` naming it if it cannot be a bot."""
        kind, rest = split_spec(spec)
        path = Path(rest)
        if path.is_dir():
            raise ValueError(f"bot file {str(path)!r} is a directory (from player {spec!r})")
        if not path.is_file():
            raise ValueError(f"bot file {str(path)!r} not found (from player {spec!r})")
        try:
            # decoded as Python decodes a source file: UTF-8, a byte-order mark, or the
            # encoding its coding declaration names
            source = importlib.util.decode_source(path.read_bytes())
            tree = ast.parse(source, filename=str(path))
        except (OSError, UnicodeDecodeError) as exc:
            raise ValueError(f"cannot read bot file {str(path)!r}: {exc}") from None
        except SyntaxError as exc:
            where = f"line {exc.lineno}: " if exc.lineno else ""  # (none for null bytes)
            raise ValueError(
                f"bot file {str(path)!r} is not valid Python: {where}{exc.msg}"
            ) from None
        except ValueError as exc:  # null bytes, before Python 3.12
            raise ValueError(f"bot file {str(path)!r} is not valid Python: {exc}") from None
        if kind is not None:
            return cls(kind, str(path.resolve()), source, reason="forced")
        found = detect(tree)
        if found.kind is None:
            raise ValueError(
                f"cannot tell what kind of bot {str(path)!r} is: {found.reason}; force one with "
                f"rpscontest:{path} or kaggle:{path}"
            )
        return cls(found.kind, str(path.resolve()), source, reason=found.reason)

    def describe(self, spec: str) -> str:
        """One line saying how the file ``spec`` will run, and how to make it run the other way."""
        kind = "an rpscontest script" if self.kind == RPSCONTEST else "a Kaggle agent"
        if self.reason == "forced":
            return f"bot file {spec}: runs as {kind} (forced)"
        other = KAGGLE if self.kind == RPSCONTEST else RPSCONTEST
        return (
            f"bot file {spec}: runs as {kind}, since {self.reason} "
            f"(force the other reading with {other}:{spec})"
        )

    @property
    def digest(self) -> str:
        """The first 16 hex digits of the source's SHA-256 (names the code in run logs)."""
        return hashlib.sha256(self.source.encode("utf-8")).hexdigest()[:16]


class FileBot:
    """A bot file behind the opponent protocol, run in a child process for each match.

    ``reset()`` ends the child; the next ``move`` starts a fresh one (a new namespace, a new
    interpreter) seeded as the first one was, so reset equals fresh.
    """

    def __init__(
        self,
        source: BotSource,
        rng: random.Random | None = None,
        *,
        throws: int = 1000,
        move_timeout: float = DEFAULT_MOVE_TIMEOUT,
        name: str | None = None,
        shims: tuple[str, ...] = (),
    ) -> None:
        if os.name != "posix":
            raise ValueError("bots from files need a POSIX system (they are timed with select)")
        if not move_timeout > 0:
            raise ValueError(f"move_timeout must be > 0 seconds, got {move_timeout}")
        self.shims = check_shims(shims)
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
        """Kill the child process, if one runs, and any process it started: the child leads
        a process group of its own (a bot that forks leaves no orphan behind a timeout)."""
        process, self._process = self._process, None
        if process is not None:
            try:
                os.killpg(process.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):  # the group is gone already
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
            limit = (
                max(self.move_timeout, STARTUP_TIMEOUT) if self._moves == 0 else self.move_timeout
            )
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
            [sys.executable, str(CHILD)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=env,
            start_new_session=True,  # its own process group, killed whole by close()
        )
        setup = {
            "kind": self.source.kind,
            "path": self.source.path,
            "source": self.source.source,
            "seed": self._seed,
            "throws": self.throws,
            "move_timeout": self.move_timeout,
            "sys_path": [entry for entry in sys.path if entry],
            "shims": list(self.shims),
        }
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
    shims: tuple[str, ...] = ()

    def __call__(self, rng: random.Random) -> FileBot:
        return FileBot(
            self.source,
            rng,
            throws=self.throws,
            move_timeout=self.move_timeout,
            name=self.label,
            shims=self.shims,
        )

    def fingerprint(self) -> str:
        """What identifies this player in a run log: kind, code digest, limits, shims."""
        shims = f" shims={','.join(self.shims)}" if self.shims else ""
        return (
            f"{self.source.kind} sha256:{self.source.digest} throws={self.throws} "
            f"move_timeout={self.move_timeout:g}{shims}"
        )


def kind_lines(players: Iterable[object]) -> list[str]:
    """One line per bot file among ``players`` (bots or factories) saying how it will run."""
    lines = []
    for player in players:
        if isinstance(player, FileBot):
            lines.append(player.source.describe(player.name))
        elif isinstance(player, FileBotFactory):
            lines.append(player.source.describe(player.label))
    return lines
