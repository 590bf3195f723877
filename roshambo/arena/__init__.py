"""The arena: matches and tournaments between any players (the engine, the opponent zoo,
bots from files, the classic field), their seeds, run logs and executors, and the
population metrics (PR, PE, AGG). Imports the opponents and the engine, never the apps."""
