"""The voice in the browser, in headless Chromium against a real `room25 serve` off a Pi (its
panel in the browser; the voice renders with espeak-ng and plays nothing itself): the
virtual panel fetches and plays each announcement's WAV and stays silent while muted; the table
page says the announcement's words through `speechSynthesis` only when the host ticked it, in the
voice's language; the host page's voice controls change the voice."""

from __future__ import annotations

import pytest
from serving import PIN, Phone, Serve
from waiting import eventually, page_until

from companion.voice.script import Line

from .trusted import network_address

TURN = Line.of("turn", turn=1, turns_left=10)  # what the test button says before a game
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "has_touch": True}
# Records what the page asks the browser to say (and says nothing: no speaker here).
SPY = (
    "window.__said = [];"
    "speechSynthesis.speak = (u) => {"
    "  window.__said.push({text: u.text, lang: u.lang, volume: u.volume}); };"
)


@pytest.fixture(scope="module")
def host(server: Serve) -> Phone:
    phone = Phone(server.url)
    assert phone.post("/api/host/login", {"pin": PIN})[0] == 200
    return phone


@pytest.fixture(autouse=True)
def fresh_voice(host: Phone) -> None:
    """Each test starts from the voice as the config sets it."""
    status, _ = host.post(
        "/api/host/voice",
        {"volume": 0.8, "mute": False, "quiet": False, "lang": "en", "table_speaks": False},
    )
    assert status == 200


def _latest(phone: Phone) -> dict:
    return phone.get("/api/voice/latest")[1]


def _announce(host: Phone) -> dict:
    """The host's "test the voice": a new announcement; returns it once the voice made it."""
    before = _latest(host)["id"]
    status, reply = host.post("/api/host/voice", {"test": True})
    assert status == 200, reply
    return eventually(lambda: (found := _latest(host))["id"] > before and found, 20)


def _opened(page, url: str, poll: str) -> None:
    """Open a page and wait until its voice poll knows where the voice is (then it waits for
    the next announcement)."""
    with page.expect_response(lambda r: poll in r.url and "after=" not in r.url):
        page.goto(url)
    page_until(page, "document.querySelector('[data-seen]') !== null")


def test_the_virtual_panel_plays_each_announcement_and_mute_silences_it(
    server: Serve, host: Phone, browser
) -> None:
    page = browser.new_page()
    wavs: list[str] = []
    page.on("request", lambda r: wavs.append(r.url) if r.url.endswith(".wav") else None)
    _opened(page, server.url + "/panel", "/panel/voice/latest")
    page.check("#sound")  # the panel's Sound: a tap, so the browser lets it play
    said = _announce(host)
    assert said["text"] == TURN.text("en")
    page_until(page, f"document.getElementById('voice').dataset.heard === '{said['id']}'")
    assert wavs == [f"{server.url}/panel/voice/{said['id']}.wav"]
    assert page.evaluate("document.getElementById('voice').volume") == pytest.approx(0.8)

    assert host.post("/api/host/voice", {"mute": True})[0] == 200
    muted = _announce(host)
    page_until(page, f"document.getElementById('voice').dataset.seen === '{muted['id']}'")
    assert len(wavs) == 1  # muted: the WAV is not even fetched (the next one shows it never was)
    assert page.get_attribute("#voice", "data-played") == str(said["id"])

    assert host.post("/api/host/voice", {"mute": False, "volume": 0.3})[0] == 200
    again = _announce(host)
    page_until(page, f"document.getElementById('voice').dataset.heard === '{again['id']}'")
    # What else the voice said meanwhile (a notice) may be played too; never the muted one.
    assert wavs[-1].endswith(f"/panel/voice/{again['id']}.wav")
    assert not any(w.endswith(f"/panel/voice/{muted['id']}.wav") for w in wavs)
    assert page.evaluate("document.getElementById('voice').volume") == pytest.approx(0.3)
    page.close()


def test_the_table_page_speaks_only_when_the_host_ticked_it(
    server: Serve, host: Phone, browser
) -> None:
    where = network_address() or "127.0.0.1"  # a TV on the table's Wi-Fi: no cookie, no PIN
    url = server.url.replace("127.0.0.1", where)
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.add_init_script(SPY)
    page = context.new_page()
    _opened(page, url + "/table", "/api/voice/latest")
    unticked = _announce(host)
    page_until(
        page, f"document.getElementById('voice-let-speak').dataset.seen === '{unticked['id']}'"
    )
    assert page.evaluate("window.__said") == []

    assert host.post("/api/host/voice", {"table_speaks": True})[0] == 200
    said = _announce(host)
    page_until(page, "window.__said.length === 1")
    assert page.evaluate("window.__said") == [
        {"text": said["text"], "lang": "en-GB", "volume": pytest.approx(0.8)}
    ]
    assert said["text"] == TURN.text("en")
    # A page nobody has tapped yet offers the tap the browser wants before it speaks.
    # (Playwright's evaluate counts as a tap: a second page, never evaluated.)
    untapped = context.new_page()
    untapped.goto(url + "/table")
    untapped.wait_for_selector("#voice-let-speak", state="visible", timeout=20_000)
    untapped.click("#voice-let-speak")
    untapped.wait_for_selector("#voice-let-speak", state="hidden", timeout=20_000)
    untapped.close()

    assert host.post("/api/host/voice", {"lang": "fr"})[0] == 200
    french = _announce(host)
    page_until(page, "window.__said.length === 2")
    assert page.evaluate("window.__said[1]") == {
        "text": TURN.text("fr"),
        "lang": "fr-FR",
        "volume": pytest.approx(0.8),
    }
    assert french["text"] == TURN.text("fr")

    assert host.post("/api/host/voice", {"mute": True})[0] == 200
    muted = _announce(host)
    page_until(page, f"document.getElementById('voice-let-speak').dataset.seen === '{muted['id']}'")
    # The page says an announcement before it marks it seen: muted, nothing more was said.
    assert page.evaluate("window.__said.length") == 2
    context.close()


def test_the_host_page_sets_the_voice(server: Serve, host: Phone, browser) -> None:
    page = host.in_browser(browser, **PHONE)
    page.goto(server.url + "/host")
    page.wait_for_selector("#voice-controls", state="visible", timeout=20_000)
    page.click("#voice-controls > summary")
    page_until(page, "document.getElementById('voice-volume').value === '80'")
    page.evaluate(
        "(() => { const v = document.getElementById('voice-volume'); v.value = '40';"
        " v.dispatchEvent(new Event('change')); })()"
    )
    page.check("#voice-quiet")
    page.select_option("#voice-lang", "fr")
    page.check("#voice-table")
    page.check("#voice-mute")
    wanted = {"volume": 0.4, "quiet": True, "lang": "fr", "table_speaks": True, "mute": True}
    eventually(lambda: {k: host.get("/api/host/voice")[1][k] for k in wanted} == wanted, 20)
    page_until(page, "document.getElementById('status').textContent === 'Voice settings saved.'")
    before = _latest(host)["id"]
    page.click("#voice-test")
    page_until(
        page, "document.getElementById('status').textContent === 'The voice says the turn now.'"
    )
    eventually(lambda: _latest(host)["id"] > before, 20)  # the test button said something
    assert _latest(host)["text"] == TURN.text("fr")
    page.context.close()
