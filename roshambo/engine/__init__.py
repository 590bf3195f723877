"""The engine: what ``RPS.py`` needs and nothing else, standard library only.

Moves (:mod:`.moves`), the packed fields and their twin (:mod:`.kernel`), the predictors
and their registry (:mod:`.predictors`), the four layers of the ensemble (:mod:`.lineup`,
:mod:`.scoring`, :mod:`.selection`, :mod:`.hedging`), their wiring (:mod:`.ensemble`) and
one match's engine (:mod:`.agent`). Nothing here imports the arena or the apps.
"""
