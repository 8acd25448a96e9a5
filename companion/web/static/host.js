/* The host page: PIN login, the setup wizard, the game's controls, the end-of-game reveal of
   everything and the past games of the journal. */
"use strict";
(() => {
  const { $, t, who, el, post, get, listen, banners, summary, status, describe, freeSlots } = R25;
  let wizard = null;
  let update = null;
  let lastGame = null;  // the game on the table, kept to reveal it once the host ends it
  let listed = null;    // how the game on the table stood when the past games were listed

  async function start() {
    const seats = await get("/api/seats");
    if (!seats.host) { $("login").hidden = false; $("host").hidden = true; return; }
    $("login").hidden = true;
    $("host").hidden = false;
    await refreshWizard();
    pastGames();
    showPin();
    listen("host", (u) => { if (u === null) { location.reload(); return; } update = u; render(); });
  }

  function fill(select, values, label, chosen) {
    select.replaceChildren(...values.map((v) => el("option", { value: String(v), selected: String(v) === String(chosen), text: label(v) })));
  }

  /* Only the answer to the latest choice is drawn: a host who picks the mode, then the number
     of players before the first answer is back, keeps both (the older answer no longer puts the
     old number back). */
  let asked = 0;
  async function refreshWizard() {
    const form = $("wizard");
    const mine = ++asked;
    const q = new URLSearchParams({ edition: form.edition.value || "base", mode: form.mode.value || "suspicion",
      players: form.players.value || "5", composition: wizard && form.composition.value && wizard.compositions && wizard.compositions.includes(form.composition.value) ? form.composition.value : "" });
    const answer = await get("/api/host/wizard?" + q);
    if (mine !== asked) { form.dataset.dropped = String(mine); return; }
    wizard = answer;
    fill($("w-edition"), wizard.editions, (e) => t("edition_" + e), q.get("edition"));
    fill($("w-mode"), wizard.modes, (m) => t("mode_" + m), q.get("mode"));
    const players = wizard.players || [];
    const wanted = players.includes(Number(q.get("players"))) ? q.get("players") : players[0];
    fill($("w-players"), players, (n) => String(n), wanted);
    if (wizard.error && players.length && !players.includes(Number(q.get("players")))) return refreshWizard();
    fill($("w-composition"), wizard.compositions || [], (c) => (wizard.composition_names || {})[c] || c, wizard.composition);
    const n = Number(wanted) || 0;
    const seatIds = Array.from({ length: n }, (_, i) => String(i + 1));
    fill($("w-first"), seatIds, (s) => t("seat_n", { seat: s }), form.first.value || "1");
    seatsFieldset(seatIds, wizard.characters_per_seat || 1);
    const tiles = $("w-tiles");
    tiles.replaceChildren();
    if (wizard.error) { tiles.append(el("p", { class: "bad", text: wizard.error })); return; }
    tiles.append(el("p", { text: t("tiles_to_take", { turns: wizard.turns }) }),
      el("ul", {}, (wizard.tiles || []).map((l) => el("li", { "data-rule": "room:" + l.room, "data-rule-edition": form.edition.value || "base", text: l.count + " × " + l.name + " (" + t("colour_" + l.colour) + ")" + (l.placement && l.placement !== "any" ? " — " + t("placement_" + l.placement) : "") }))));
    const free = freeSlots(wizard.free_slots);
    if (free) tiles.append(el("p", { text: free }));
  }

  function seatsFieldset(seatIds, per) {
    const box = $("w-seats");
    const keep = {};
    for (const s of box.querySelectorAll("select")) keep[s.name] = s.value;
    box.replaceChildren(el("legend", { text: t("seats_and_characters") }));
    const cast = Object.keys(R25.texts.names.characters);
    let next = 0;
    for (const sid of seatIds) {
      const row = el("div", { class: "row" }, el("span", { text: t("seat_n", { seat: sid }) }));
      for (let k = 0; k < per; k++) {
        const name = "seat" + sid + "_" + k;
        const chosen = keep[name] || cast[next % cast.length];
        next++;
        row.append(el("select", { name, "aria-label": t("seat_n", { seat: sid }) + " " + t("character") },
          cast.map((c) => el("option", { value: c, selected: c === chosen, text: who(c) }))));
      }
      box.append(row);
    }
  }

  function setupFromForm() {
    const form = $("wizard");
    const per = wizard.characters_per_seat || 1;
    const players = Number(form.players.value);
    const seats = Array.from({ length: players }, (_, i) => {
      const sid = String(i + 1);
      return { id: sid, characters: Array.from({ length: per }, (_, k) => form.elements["seat" + sid + "_" + k].value) };
    });
    const settings = { programming: form.programming.value, mac_deck: form.mac_deck.value };
    if (form.mac.value) settings.mac = form.mac.value;
    return { edition: form.edition.value, mode: form.mode.value, players, seats, first: form.first.value,
      composition: form.composition.value || undefined, tracking: form.tracking.value, settings,
      time_limit: Number(form.time_limit.value) || 0, seat_claims: form.seat_claims.value };
  }

  /* The PIN, for the host's eyes only (the public screens never show it). */
  async function showPin() {
    const answer = await fetch("/api/host/pin", { credentials: "same-origin" }).then((r) => r.json()).catch(() => ({}));
    $("host-pin").textContent = answer.pin || "—";
  }

  /* A game in play: the controls come first and the wizard folds away, so no stray tap on
     "Start the game" replaces it (and starting one still asks, naming what would be lost). */
  function playing() {
    return !!(update && update.game && (update.waiting || {}).phase !== "over");
  }

  function foldWizard() {
    const on = playing();
    const setup = $("setup");
    if (on !== setup.classList.contains("replacing")) {
      setup.classList.toggle("replacing", on);
      setup.open = !on;
      $("setup-title").textContent = on ? t("wizard_folded") : t("new_game");
      if (on) $("host").insertBefore($("controls"), setup);
      else $("host").insertBefore(setup, $("controls"));
    }
  }

  function render() {
    if (update.game) lastGame = update.game;
    banners(update);
    summary(update, $("summary"));
    const view = update.view || {};
    const waiting = update.waiting || {};
    foldWizard();
    // The past games say how each game stands: listed again when the game on the table
    // changes or ends (a finished game never stays "being played").
    const stands = update.game + "/" + (waiting.phase === "over");
    if (stands !== listed) { listed = stands; pastGames(); }
    hostSeats(view, waiting);
    hostTask(view, waiting);
    teaching();
    if (waiting.phase === "over" && view.notebooks) reveal(view, update.game);
  }

  async function revealGame(game) {
    const answer = await get("/api/host/games/" + encodeURIComponent(game) + "/reveal");
    if (answer.view) reveal({ ...answer.view, outcome: answer.outcome || answer.view.outcome }, game);
  }

  /* A phone asking for a seat: the host gives it with one tap, confirmed, once its code has
     been up for 3 s (the companion gives a request only then: a newer one slipped in is not
     the code the host read). When each code was first seen here, by seat and code. */
  const STEADY_MS = 3000;
  const askSeen = new Map();
  let askTimer = null;

  function giveButton(seat, ask) {
    const key = seat + ":" + ask;
    if (!askSeen.has(key)) askSeen.set(key, Date.now());
    const wait = askSeen.get(key) + STEADY_MS - Date.now();
    if (wait > 0 && askTimer === null) askTimer = setTimeout(() => { askTimer = null; render(); }, wait + 50);
    const give = async () => {
      if (!confirm(t("give_confirm", { seat, ask }))) return;
      const answer = await post("/api/host/seats/" + seat + "/give", {});
      if (answer.ok) status(t("seat_given", { seat, ask }));
    };
    return el("button", { type: "button", class: "small primary", disabled: wait > 0, on: { click: give } }, t("give_seat", { seat, ask }));
  }

  function hostSeats(view, waiting) {
    const box = $("host-seats");
    const seats = [...new Set(Object.values(view.characters || {}).map((c) => c.seat))].sort();
    const asked = new Map(((update.session || {}).notices || []).filter((n) => n.code === "seat_asked").map((n) => [n.params.seat, n.params.ask]));
    R25.patch(box, seats.map((s) => {
      const locked = (waiting.locked_in || []).includes(s);
      return el("div", {},
        el("button", { type: "button", "aria-pressed": locked ? "true" : "false", on: { click: () => post("/api/seats/" + s + "/press", {}) } },
          t("seat_n", { seat: s }) + (locked ? " · " + t("locked_in") : "")),
        asked.has(s) ? giveButton(s, asked.get(s)) : null,
        el("button", { type: "button", class: "small", on: { click: async () => { if (confirm(t("reset_confirm", { seat: s }))) { const a = await post("/api/host/seats/" + s + "/reset", {}); if (a.ok) status(t("seat_freed", { seat: s })); } } } }, t("reset_seat")));
    }));
  }

  /* The table's own commands: the end of an action in countdown-only games, reports, and the
     choices the rules give the table. Drawn afresh and patched in, as the seats above: the
     button under the host's finger stays the same node when an update arrives. */
  function hostTask(view, waiting) {
    const box = el("div");
    const send = (command) => post("/api/commands", { command: { ...command, seat: "host", version: update.version } });
    if ((waiting.seats || []).includes("host") && waiting.phase === "action") {
      box.append(el("button", { type: "button", class: "big primary", on: { click: () => send({ type: "next" }) } }, t("action_done")));
    }
    // The programming time is up: the host's two choices, one tap each.
    if (((update.session || {}).notices || []).some((n) => n.code === "time_up")) {
      box.append(el("p", { text: t("time_up_choices") }), el("div", { class: "grid-buttons" },
        el("button", { type: "button", class: "big", on: { click: () => post("/api/host/more_time", {}) } }, t("more_time")),
        el("button", { type: "button", class: "big primary", on: { click: () => post("/api/host/lock_in_late", {}) } }, t("lock_in_late"))));
    }
    const answers = (update.legal || []).filter((c) => c.type === "choose");
    if (view.pending && answers.length) {
      box.append(el("h3", { text: t("choice_" + view.pending.kind) }), el("div", { class: "grid-buttons" },
        answers.map((c) => el("button", { type: "button", on: { click: () => send(c) } }, describe(c)))));
    }
    if (view.ruleset && view.ruleset.tracking === "countdown" && waiting.phase !== "over") {
      box.append(el("h3", { text: t("report") }), el("div", { class: "grid-buttons" },
        ["entered_room25", "entered_timer", "eliminated", "escaped"].map((e) => el("button", { type: "button", on: { click: () => send({ type: "report", event: e, character: waiting.character || undefined }) } }, t("report_" + e)))));
    }
    R25.patch($("host-task"), [...box.childNodes]);
  }

  /* Teaching (the session's, for the evening): the wizard's switch and the controls' one show
     the same state; a lesson taught can be taught again, on every page and aloud. */
  function teaching() {
    const taught = (update.session || {}).teaching || { on: false, taught: [] };
    for (const box of document.querySelectorAll("[data-teach]")) box.checked = taught.on;
    const pick = el("select", { id: "teach-pick", "aria-label": t("wizard_teach_pick") },
      taught.taught.map((id) => el("option", { value: id, text: t("lessons_" + id + "_name") })));
    const again = () => post("/api/host/lessons/replay", { lesson: $("teach-pick").value });
    R25.patch($("teach-again"), taught.taught.length
      ? [pick, el("button", { type: "button", class: "small", id: "teach-again-button", on: { click: again } }, t("wizard_teach_again"))]
      : [el("p", { text: t("wizard_teach_none") })]);
  }

  function reveal(view, game) {
    $("reveal").hidden = false;
    const body = $("reveal-body");
    body.replaceChildren(el("p", { text: view.outcome ? R25.outcomeText(view.outcome) : t("outcome_ended") }),
      el("ul", {}, Object.entries(view.characters || {}).map(([cid, c]) =>
        el("li", { text: R25.colon(t("seat_n", { seat: c.seat })) + who(cid) + " — " + (c.role ? t("role_" + c.role) : "") + (c.alive ? "" : " ✝") }))),
      game ? storyLinks(game) : "");
    Board.draw($("reveal-board"), view, { coords: true });
  }

  /* A finished game's replay (public) and its recap to keep, in this page's language. */
  function storyLinks(game) {
    const id = encodeURIComponent(game);
    return el("p", { class: "story-links" },
      el("a", { class: "replay-link", href: "/replay/" + id }, t("replay_link")), " · ",
      el("a", { class: "recap-link", href: "/recap/" + id + "?lang=" + R25.texts.lang, download: "room25-" + game + ".html" }, t("replay_download")));
  }

  async function pastGames() {
    const answer = await get("/api/host/games");
    const list = $("past");
    list.replaceChildren(...(answer.games || []).map((g) => {
      // "being played" only for the game on the table; a replaced game says it may resume.
      const state = g.status === "playing" && update && g.game !== update.game ? "unfinished" : g.status === "abandoned" ? "replaced" : g.status;
      const label = [g.game, t("mode_" + g.mode), t("players_n", { n: g.players || "?" }), g.outcome ? R25.outcomeText(g.outcome) : t("status_" + state)].join(" · ");
      const item = el("li", {}, label, " ", el("a", { href: "/api/host/games/" + encodeURIComponent(g.game) + "/export", download: "room25-" + g.game + ".json" }, t("export")));
      if (g.status === "abandoned") item.append(" ", el("button", { type: "button", class: "small", on: { click: () => resumeGame(g.game) } }, t("resume_button")));
      else if (g.status !== "playing") item.append(" ", el("button", { type: "button", class: "small", on: { click: () => revealGame(g.game) } }, t("reveal_button")));
      if (g.status === "over" || g.status === "ended") item.append(storyLinks(g.game));
      return item;
    }));
    if (!list.children.length) list.append(el("li", { text: t("no_past_games") }));
    R25History.refresh();
  }

  async function resumeGame(game) {
    if (!confirm(t("resume_confirm", { game }))) return;
    const answer = await post("/api/host/games/" + encodeURIComponent(game) + "/resume", {});
    if (answer.ok) { status(t("game_resumed")); pastGames(); }
  }

  /* What a new game would stop, named: the mode, the players and the turn of the game in play. */
  function replaceConfirmed() {
    if (!playing()) return true;
    const view = update.view || {};
    const players = new Set(Object.values(view.characters || {}).map((c) => c.seat)).size;
    return confirm(t("replace_confirm", { mode: t("mode_" + ((view.ruleset || {}).mode || "suspicion")), players, turn: view.turn ?? "–" }));
  }

  document.addEventListener("DOMContentLoaded", () => {
    $("login-form").addEventListener("submit", async (e) => {
      e.preventDefault();
      const answer = await post("/api/host/login", { pin: $("pin").value });
      if (answer.ok) location.reload();
    });
    for (const id of ["w-edition", "w-mode", "w-players", "w-composition"]) $(id).addEventListener("change", refreshWizard);
    for (const box of document.querySelectorAll("[data-teach]")) {
      box.addEventListener("change", () => post("/api/host/teaching", { on: box.checked }));
    }
    $("wizard").addEventListener("submit", async (e) => {
      e.preventDefault();
      if (!replaceConfirmed()) return;
      const answer = await post("/api/host/games", { setup: setupFromForm() });
      if (answer.ok) { status(t("game_started")); pastGames(); }
    });
    for (const button of document.querySelectorAll("[data-host]")) {
      button.addEventListener("click", async () => {
        const action = button.dataset.host;
        if (action === "end" && !confirm(t("end_confirm"))) return;
        const game = lastGame;
        const answer = await post("/api/host/" + action, action === "undo" ? { count: 1 } : {});
        if (answer.ok) status(t("done"));
        if (answer.ok && action === "end" && game) { await revealGame(game); pastGames(); }
      });
    }
    start();
  });
})();
