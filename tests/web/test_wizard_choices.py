"""The host's wizard keeps every choice made while an answer is on its way: a host who picks the
mode, then the number of players before the companion has answered the first choice (a slow Pi,
a crowded Wi-Fi), starts the game they picked. In Chromium on a real `room25 serve`, the answer
to the first choice held back until the second one has been drawn."""

from __future__ import annotations

from serving import Serve

from .test_table_life import host_page

WAIT = 30_000  # ms: the machine is shared


def test_an_older_wizard_answer_does_not_undo_a_newer_choice(tmp_path, browser) -> None:
    server = Serve(tmp_path / "data").wait_ready()
    try:
        host = host_page(server, browser)
        host.locator("#w-first option").first.wait_for(state="attached", timeout=WAIT)
        held = []

        def answer(route) -> None:
            if "mode=cooperation" in route.request.url and "players=5" in route.request.url:
                held.append(route)  # the answer to the first choice: sent last
            else:
                route.continue_()

        host.route("**/api/host/wizard?*", answer)
        host.select_option("#w-mode", "cooperation")
        host.select_option("#w-players", "4")
        host.wait_for_function(
            "() => document.querySelectorAll('#w-first option').length === 4", timeout=WAIT
        )
        assert len(held) == 1
        held[0].continue_()
        host.wait_for_function(  # the older answer dropped, or drawn over the newer choice
            "() => document.getElementById('wizard').dataset.dropped"
            " || document.getElementById('w-players').value === '5'",
            timeout=WAIT,
        )
        assert host.input_value("#w-players") == "4"
        assert host.input_value("#w-mode") == "cooperation"
        assert host.locator("#w-first option").count() == 4
    finally:
        server.stop()
