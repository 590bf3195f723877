"""The applications over the arena and the engine: the command line (``python -m
roshambo``), terminal play, the browser app, plots, reports, and the Kaggle agent."""
