"""The weights of the heuristic players' evaluation, in one place so they can be tuned together
(by playing: `room25 simulate`)."""

from typing import Final

DEATH: Final = 1000.0  # a character of one's side eliminated (an opponent's: a gain, by his weight)
ESCAPE: Final = 5000.0  # Room 25 taken out with one's side
DIST_W: Final = 30.0  # per action still needed to reach Room 25
EXIT_W: Final = 35.0  # per slide still needed to bring Room 25 to an exit zone
FRONT_W: Final = 10.0  # per action to reach a room where Room 25 may be, while it is not found
INFO_BASE: Final = 6.0  # a Look at a room nobody told this seat about
R25_FOUND: Final = 160.0  # finding Room 25 (times the chance that a room is it)
VISION_GAIN: Final = 25.0  # the Vision chamber's look
LATE_W: Final = 150.0  # per action a way to Room 25 is longer than the actions left
KEY_GAIN: Final = 600.0  # entering the Key room while it is needed
KEY_FOUND: Final = 120.0  # finding the Key room (times the chance)
ALARM_PRISONER: Final = 60.0  # per turn the alarm would take off the countdown
ALARM_GUARD: Final = 10.0
# Talents, robots and the Adrenaline token (Season 2 and Ultimate).
TOKEN_SPENT: Final = 5.0  # a talent played for little: the token could have done something else
ADRENALINE_BACK: Final = 30.0  # Franck's Recover: one more action later in the game
# Alice hidden, per companion who might push her (as `my_value` counts him).
HIDDEN_COVER: Final = 25.0
SABOTAGE_SPEND: Final = 10.0  # one of Sarah's two Empty rooms spent
ROBOT_REVEAL: Final = 0.8  # a robot's move into a hidden room: a Look's worth, shown to everyone
