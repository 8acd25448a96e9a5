"""What the world calls: `start` and `apply`, the typed commands and their schema, the legal
commands, who the game waits for, the views per seat and their shapes, writing a position down."""
