"""roshambo: an Iocaine Powder ensemble for rock-paper-scissors (standard library only).

The engine behind ``RPS.py``'s ``player``. Import :class:`roshambo.engine.agent.Agent` for one
match's engine; see the README for the architecture.
"""
