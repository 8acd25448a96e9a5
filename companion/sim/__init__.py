"""Complete games played by the computer, for composition difficulty and win rates: the drivers
(`simulate`) and the players who sit at each seat knowing only what their seat may know."""
