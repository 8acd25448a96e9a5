"""Random legal play from random setups: never raises, and the invariants hold after every
command (hypothesis stateful testing through the public interface)."""

from __future__ import annotations

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from companion.engine import (
    HOST,
    apply,
    full_view,
    grid,
    legal_commands,
    public_view,
    replay,
    seat_view,
    start,
)
from companion.engine.face.commands import REPORTS
from companion.engine.kernel.catalogue import box, colour
from companion.engine.kernel.grid import CENTRE
from companion.engine.kernel.ruleset import EDITIONS, MODES
from companion.engine.rules.compose import legal_players

TABLES = [
    (edition, mode, n)
    for edition in EDITIONS
    for mode in MODES
    for n in legal_players(edition, mode)
]
SETUPS = st.sampled_from(TABLES).flatmap(
    lambda table: st.fixed_dictionaries(
        {
            "edition": st.just(table[0]),
            "mode": st.just(table[1]),
            "players": st.just(table[2]),
            "tracking": st.sampled_from(["dealt", "dealt", "physical", "countdown"]),
            "seed": st.integers(0, 2**32),
            "settings": st.fixed_dictionaries(
                {
                    "flooded_deadline": st.sampled_from(
                        ["second_action_next_turn", "end_of_next_turn"]
                    ),
                    "masks": st.sampled_from(["majority", "left_outside"]),
                    "mac": st.sampled_from(["off", "standard", "madness"]),
                    "mac_deck": st.sampled_from(["virtual", "physical"]),
                    "call_blocked": st.sampled_from(["into", "from"]),
                    "kevin_chooses": st.sampled_from(["reveal", "programming"]),
                    "lock_own_room": st.booleans(),
                    "lock_from_central": st.booleans(),
                    "programming": st.sampled_from(["app", "tokens"]),
                }
            ),
        }
    )
)


class RandomPlay(RuleBasedStateMachine):
    @initialize(setup=SETUPS)
    def begin(self, setup: dict) -> None:
        result = start(setup)
        assert result.ok, result.refusal
        self.state = result.state
        self.events = list(result.events)
        self.turns_left = [self.state.turns_left]

    def options(self) -> list[dict]:
        seats = [*self.state.seats, HOST]
        return [c for seat in seats for c in legal_commands(self.state, seat)]

    @precondition(lambda self: self.state.outcome is None)
    @rule(data=st.data())
    def play(self, data: st.DataObject) -> None:
        options = self.options()
        assert options, f"no legal command in phase {self.state.phase}"
        command = data.draw(st.sampled_from(options))
        result = apply(self.state, command)
        assert result.ok, (command, result.refusal)
        self.state = result.state
        self.events.extend(result.events)
        self.turns_left.append(self.state.turns_left)

    @precondition(lambda self: not self.state.tracked and self.state.outcome is None)
    @rule(data=st.data())
    def report(self, data: st.DataObject) -> None:
        """Countdown-only games: the table's reports, legal or not, never break anything."""
        living = [c.id for c in self.state.living()]
        command = {
            "type": "report",
            "seat": HOST,
            "event": data.draw(st.sampled_from(REPORTS)),
            "character": data.draw(st.sampled_from(living)),
            "characters": data.draw(st.lists(st.sampled_from(living), unique=True)),
        }
        result = apply(self.state, command)
        if result.ok:
            self.state = result.state
            self.events.extend(result.events)
            self.turns_left.append(self.state.turns_left)
        else:
            assert result.state is self.state

    @invariant()
    def complex_is_whole(self) -> None:
        state = self.state
        if not state.tracked:
            return
        assert len(state.cells) == 25 and sorted(state.cells) == sorted(state.tiles)
        assert state.tile_at(CENTRE).kind == "central"
        for c in state.living():
            assert c.tile is None or c.tile in state.cells

    @invariant()
    def mac_deck_holds_its_cards(self) -> None:
        """The draw pile, the discard, the cards in play and the card being applied always
        hold exactly the deck's cards (with a physical deck, never more than it)."""
        mac = self.state.mac
        if mac is None:
            return
        expected = sorted(c.id for c in self.state.mac_deck.cards for _ in range(c.count))
        out = [*mac.discard, *mac.in_play, *([mac.current] if mac.current else [])]
        if mac.draw is None:
            assert all(out.count(card) <= expected.count(card) for card in set(out))
        else:
            assert sorted([*mac.draw, *out]) == expected

    @invariant()
    def robots_stand_in_the_complex(self) -> None:
        """A robot is always on a tile of the complex, on a revealed room that is neither red
        (it would have been destroyed) nor inaccessible; never more than the box's two."""
        state = self.state
        assert len(state.robots) <= box(state.ruleset.edition)["robot"]
        for tile in state.robots:
            assert tile in state.cells
            room = state.tiles[tile]
            assert room.revealed and not room.sealed and colour(room.kind) != "red"

    @invariant()
    def countdown_never_increases(self) -> None:
        assert all(a >= b for a, b in zip(self.turns_left, self.turns_left[1:], strict=False))

    @invariant()
    def views_keep_secrets(self) -> None:
        state = self.state
        table = public_view(state)
        for seat in state.seats:
            view = seat_view(state, seat)
            for cid, shown in view["characters"].items():
                c = state.characters[cid]
                # A Paranoia pile is face down, for its owner too: only its contents show.
                assert shown["paranoia"] == (None if c.paranoia is None else sorted(c.paranoia))
                if c.seat == seat:
                    continue
                assert "program" not in shown
                if state.ruleset.mode == "suspicion" and not c.role_public:
                    assert shown["role"] is None
            own = state.seats[seat].notebook
            for cell, room in view["notebook"].items():
                assert own[state.cells[grid.parse_cell(cell)]] == room
            hidden = [e for row in view["complex"] or [] for e in row if not e["revealed"]]
            assert all(e["room"] is None for e in hidden)
        assert "notebook" not in table and "notebooks" not in table

    @precondition(lambda self: self.state.outcome is not None)
    @rule(data=st.data())
    def over_is_over(self, data: st.DataObject) -> None:
        """Once the game is over every command is refused and changes nothing."""
        seat = data.draw(st.sampled_from(list(self.state.seats)))
        command = {"type": "act", "seat": seat, "action": "move", "direction": "north"}
        result = apply(self.state, command)
        assert result.refusal.code == "game_over" and result.state is self.state

    def teardown(self) -> None:
        """Replaying the events reproduces the state (checked once a game: it is quadratic)."""
        if hasattr(self, "state"):
            assert full_view(replay(self.events)) == full_view(self.state)


RandomPlay.TestCase.settings = settings(
    max_examples=40,
    stateful_step_count=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
TestRandomPlay = RandomPlay.TestCase
