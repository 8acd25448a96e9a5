"""What every rule stands on: the state and the fold of events, the context a command is decided
on, chance, the grid, rulesets, the catalogues and the refusal texts. Depends on nothing else in
the engine."""
