"""The game itself: the four actions, the rooms, the characters and their talents, robots, the
M.A.C. deck in play, the turn cycle, the modes' victories and setting a game up. A new room's
effect goes in `rooms.py` (base rooms) or `new_rooms.py` (Season 2 and Ultimate rooms)."""
