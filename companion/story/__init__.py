"""After the game and between evenings: the episode replay, the recap to keep and the table's
history, all read from the journal (the engine's replay rebuilds every step; nothing is recorded
twice)."""
