"""`start` on any setup a phone, a file or a hand could send: a game or a refusal, never an
exception (issue 8, "start() raises TypeError on some malformed setups")."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.engine import start

SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-3, max_value=10),
    st.integers(),
    st.floats(allow_nan=True),
    st.sampled_from(["", "x", "2", "1.5", "emmett", "guard", "acid", "off", "madness", "C3"]),
)
JSON = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=6) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=20,
)
KEYS = [
    "edition",
    "mode",
    "tracking",
    "players",
    "seats",
    "first",
    "composition",
    "complex",
    "roles",
    "guards",
    "settings",
    "deck",
    "programming",
]
NAMED = {
    "edition": st.sampled_from(["base", "season2", "ultimate"]),
    "mode": st.sampled_from(["suspicion", "cooperation", "competition", "team", "solo"]),
    "players": st.integers(min_value=1, max_value=8),
    "complex": st.lists(st.lists(JSON, min_size=5, max_size=5), min_size=5, max_size=5),
    "composition": st.dictionaries(
        st.just("rooms"), st.dictionaries(st.sampled_from(["acid", "dark", "empty"]), JSON)
    ),
    "seats": st.lists(
        st.fixed_dictionaries({"id": JSON, "characters": st.lists(JSON, max_size=3)}),
        max_size=6,
    ),
}
SETUPS = st.fixed_dictionaries(
    {"seed": st.integers(min_value=0, max_value=2**64 - 1)},
    optional={key: (NAMED[key] | JSON) if key in NAMED else JSON for key in KEYS},
)


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(SETUPS)
def test_start_answers_every_setup_with_a_game_or_a_refusal(setup: dict) -> None:
    result = start(setup)
    if result.ok:
        assert result.state is not None
    else:
        text = str(result.refusal)
        assert text and "Traceback" not in text
        assert len(text) < 2_000  # what it repeats of the setup is cut


def test_the_setups_the_issue_names_are_refused_plainly() -> None:
    """A composition count as a string or a float, a list inside `complex`."""
    rooms = {"composition": {"rooms": {"acid": "2"}}}
    floats = {"composition": {"rooms": {"acid": 1.5}}}
    nested = {"complex": [[["empty"]] * 5] * 5}
    for extra in (rooms, floats, nested):
        result = start({"seed": 0, "mode": "cooperation", "players": 4, **extra})
        assert not result.ok and str(result.refusal), extra
