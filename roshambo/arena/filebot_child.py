"""The child process that runs one bot from a file for one match (standard library only).

Started by :class:`roshambo.arena.filebots.FileBot` as ``python filebot_child.py`` (by path, so
it imports nothing from the package), it speaks a line protocol on the pipes it was given
as stdin and stdout, and points the bot's own stdin, stdout and stderr at the null device
so that nothing the bot prints or reads can disturb the protocol:

- the parent sends one JSON line ``{"kind", "path", "source", "seed", "throws",
  "move_timeout", "sys_path", "shims"}``; the child puts the bot's folder and then the parent's
  ``sys.path`` on its own (the bot imports what an in-process loader would), seeds ``random`` (and numpy's global generator if the source
  mentions numpy and numpy is installed), loads the bot and answers ``ok`` or ``!MESSAGE``;
- then, once per round, the parent sends the opponent's last move (``0``, ``1``, ``2``, or
  ``-`` on the first round) and the child answers the bot's move (``0``, ``1``, ``2``),
  ``!illegal MESSAGE`` for a value that is not a move, or ``!error MESSAGE`` if it raised.

Conventions (each bot in a fresh interpreter, so module state never leaks between matches):

- **rpscontest** (rpscontest.com's runner): the script runs once per round in one namespace
  kept for the whole match; the global ``input`` is ``""`` on the first round and then the
  opponent's last move as ``"R"``, ``"P"`` or ``"S"``; the script sets the global ``output``.
- **kaggle** (kaggle-environments' ``rps``): the file runs once; its last top-level callable
  is called as ``agent(observation, configuration)`` every step and returns 0, 1 or 2. The
  observation carries ``step``, ``reward`` and ``remainingOverageTime`` (and
  ``lastOpponentAction`` from step 1 on); the configuration ``episodeSteps`` (throws + 1, as
  Kaggle counts), ``actTimeout``, ``agentTimeout``, ``runTimeout``, ``signs`` = 3 and
  ``tieRewardThreshold``. Both are dicts whose keys are also attributes, like Kaggle's
  ``Struct``.
"""

from __future__ import annotations

import importlib.util
import json
import numbers
import os
import random
import sys
import threading
import time
import traceback
from collections.abc import Callable
from typing import BinaryIO

LETTERS = "RPS"


class Struct(dict):
    """A dict whose keys are also attributes (kaggle-environments' observation style)."""

    def __getattr__(self, name: str) -> object:
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name) from None

    def __setattr__(self, name: str, value: object) -> None:
        self[name] = value


class BotError(Exception):
    """The bot raised, or gave something that is not a move: ``cause`` says which."""

    def __init__(self, cause: str, message: str) -> None:
        super().__init__(message)
        self.cause = cause


def _describe(exc: BaseException) -> str:
    """The exception and the bot's own line where it happened, in one line."""
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename != __file__]
    where = f" (line {frames[-1].lineno})" if frames else ""
    text = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
    return (text + where).replace("\n", " ")


def _numpy1_scalars() -> dict[str, object]:
    """``int(a)`` and ``float(a)`` of a one-element numpy array, which NumPy 2 refuses
    ("only 0-dimensional arrays can be converted to Python scalars") and NumPy 1 allowed."""
    import builtins

    def scalar(value: object) -> object:
        size = getattr(value, "size", None)
        return value.item() if size == 1 and hasattr(value, "ndim") else value  # type: ignore[attr-defined]

    def to_int(value: object = 0, *base: int) -> int:
        return builtins.int(scalar(value), *base)  # type: ignore[call-overload]

    def to_float(value: object = 0.0) -> float:
        return builtins.float(scalar(value))  # type: ignore[arg-type]

    return {"int": to_int, "float": to_float}


# Compatibility shims, named from outside a bot file (``--shim NAME``): each gives names that
# the bot's own module sees in place of the builtins, so code written for older libraries
# runs unchanged; a bot that needs none is not affected by one (roshambo.arena.filebots.SHIMS).
SHIMS: dict[str, Callable[[], dict[str, object]]] = {"numpy1-scalars": _numpy1_scalars}


def _shimmed(path: str, shims: list[str]) -> dict[str, object]:
    """A bot's fresh module namespace, with the names the shims give."""
    namespace: dict[str, object] = {"__file__": path}
    for shim in shims:
        namespace.update(SHIMS[shim]())
    return namespace


def seed_globals(seed: int, source: str) -> None:
    """Seed the generators a bot may draw from: ``random``, and numpy's global one if the
    source mentions numpy and numpy is installed."""
    random.seed(seed)
    if "numpy" in source and importlib.util.find_spec("numpy") is not None:
        import numpy

        numpy.random.seed(seed % 2**32)


class RpscontestBot:
    """An rpscontest script: run every round in one namespace, ``input`` in, ``output`` out."""

    def __init__(self, path: str, source: str, shims: list[str]) -> None:
        self.code = compile(source, path, "exec")
        self.namespace = _shimmed(path, shims)

    def move(self, their_last: int | None) -> int:
        self.namespace["input"] = "" if their_last is None else LETTERS[their_last]
        try:
            exec(self.code, self.namespace)
        except BaseException as exc:  # the bot's failure, whatever it is, is a forfeit
            raise BotError("error", _describe(exc)) from None
        if "output" not in self.namespace:
            raise BotError("illegal", "the script set no output")
        output = self.namespace["output"]
        if not isinstance(output, str) or len(output) != 1 or output not in LETTERS:
            raise BotError("illegal", f"output is {output!r}: expected 'R', 'P' or 'S'")
        return LETTERS.index(output)


class KaggleBot:
    """A Kaggle rps agent: the file's last top-level callable, called once per step."""

    def __init__(
        self, path: str, source: str, throws: int, move_timeout: float, shims: list[str]
    ) -> None:
        namespace = _shimmed(path, shims)
        given = {id(value) for value in namespace.values()}  # the shims' names are not agents
        try:
            exec(compile(source, path, "exec"), namespace)
        except BaseException as exc:
            raise BotError("error", "loading the file: " + _describe(exc)) from None
        callables = [
            value
            for key, value in namespace.items()
            if key != "__builtins__" and callable(value) and id(value) not in given
        ]
        if not callables:
            raise BotError("error", "the file defines no callable agent")
        self.agent: Callable[..., object] = callables[-1]
        self.configuration = Struct(
            episodeSteps=throws + 1,
            actTimeout=move_timeout,
            agentTimeout=60,
            runTimeout=1200,
            signs=3,
            tieRewardThreshold=20,
        )
        self.step = 0
        self.reward = 0
        self.mine: int | None = None

    def move(self, their_last: int | None) -> int:
        observation = Struct(remainingOverageTime=60, step=self.step, reward=self.reward)
        if their_last is not None:
            observation.lastOpponentAction = their_last
            if self.mine is not None:
                self.reward += ((self.mine - their_last + 1) % 3) - 1
                observation.reward = self.reward
        try:
            action = self.agent(observation, self.configuration)
        except BaseException as exc:
            raise BotError("error", _describe(exc)) from None
        if (
            isinstance(action, bool)
            or not isinstance(action, numbers.Integral)
            or int(action) not in (0, 1, 2)
        ):
            raise BotError("illegal", f"returned {action!r}: expected 0, 1 or 2")
        self.mine = int(action)
        self.step += 1
        return self.mine


def _serve(requests: BinaryIO, replies: BinaryIO) -> None:
    def reply(text: str) -> None:
        replies.write(text.encode("utf-8", "replace") + b"\n")
        replies.flush()

    setup = json.loads(requests.readline())
    path, source = setup["path"], setup["source"]
    sys.path[:] = [os.path.dirname(os.path.abspath(path)), *setup["sys_path"]]
    bot: RpscontestBot | KaggleBot
    try:
        seed_globals(setup["seed"], source)
        if setup["kind"] == "rpscontest":
            bot = RpscontestBot(path, source, setup["shims"])
        else:
            bot = KaggleBot(path, source, setup["throws"], setup["move_timeout"], setup["shims"])
    except BotError as exc:
        reply(f"!{exc.cause} {exc}")
        return
    except BaseException as exc:
        reply(f"!error {_describe(exc)}")
        return
    reply("ok")
    for line in requests:
        text = line.strip().decode("ascii")
        try:
            move = bot.move(None if text == "-" else int(text))
        except BotError as exc:
            reply(f"!{exc.cause} {exc}")
            return
        reply(str(move))


def end_with_parent() -> None:
    """End this process once the one that started it is gone: a parent killed outright
    (SIGKILL, the out-of-memory killer) cannot end its children itself. Used here for the
    bot's process and by the arena for its pool's workers."""
    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(1)

    threading.Thread(target=watch, name="end-with-parent", daemon=True).start()


def main() -> None:
    """Keep the protocol on private copies of stdin/stdout; give the bot the null device."""
    end_with_parent()
    requests = os.fdopen(os.dup(0), "rb")
    replies = os.fdopen(os.dup(1), "wb")
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    sys.stdin = open(os.devnull, encoding="utf-8")
    sys.stdout = sys.stderr = open(os.devnull, "w", encoding="utf-8")
    _serve(requests, replies)


if __name__ == "__main__":
    main()
