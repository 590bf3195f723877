"""The engine as an rpscontest.com bot (the runner convention, Python 3.11).

The runner executes this source once per round in one persistent namespace (a dict): it sets
``input`` to "" on the first round and then to the opponent's last move ("R", "P" or "S"),
runs the code, and reads this round's move from ``output``. All state lives in that
namespace -- one engine, ``roshambo_agent`` -- so two namespaces are two independent bots,
and ``input == ""`` (or a fresh namespace) starts a new match. A namespace without an engine
starts one even if its first ``input`` is a move: that move answered none of ours, so it is
checked and dropped. An input other than "", "R", "P", "S" raises (``parse_letter``) before
the engine changes.

Set ``roshambo_seed`` (an int) in the namespace before the first round to seed the engine;
without it the engine is seeded from the OS.

The ``roshambo`` package must be importable: install the project, or put the folder that
holds ``roshambo/`` on ``sys.path`` / ``PYTHONPATH``. If the runner defines ``__file__``,
the script adds its repository root (the parent of ``contrib/``) to ``sys.path`` itself.

A runner in five lines::

    code = compile(open("contrib/rpscontest_bot.py").read(), "rpscontest_bot.py", "exec")
    namespace = {"input": ""}
    for their_move in ["", "R", "P", "S"]:
        namespace["input"] = their_move
        exec(code, namespace)
        print(namespace["output"])
"""

if input == "" or "roshambo_agent" not in globals():
    import random
    import sys

    if "__file__" in globals():
        import os

        _roshambo_root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        if _roshambo_root not in sys.path:
            sys.path.append(_roshambo_root)
    try:
        import roshambo.engine.agent
        import roshambo.engine.moves
    except ImportError as error:
        raise ImportError(
            "rpscontest_bot.py needs the roshambo package: install the project "
            "or put the folder that contains roshambo/ on sys.path"
        ) from error
    roshambo.engine.moves.parse_letter(input)  # a bad first input raises before any engine exists
    roshambo_agent = roshambo.engine.agent.Agent(
        random.Random(globals()["roshambo_seed"]) if "roshambo_seed" in globals() else None
    )
    output = roshambo.engine.moves.to_letter(roshambo_agent.move(None))
else:
    output = roshambo.engine.moves.to_letter(
        roshambo_agent.move(roshambo.engine.moves.parse_letter(input))
    )
