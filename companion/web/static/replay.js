/* The episode replay of a finished game: step through it, turn by turn and action by action,
   forward, back, at a chosen speed, or jump to a turn or a highlight (the alarm, each
   elimination, the last action). Standalone (no other script), so that the recap file carries
   it inline: the episode comes from `#replay-data` there, else from the API. */
"use strict";
(() => {
  const root = document.getElementById("replay");
  if (!root) return;
  const texts = JSON.parse(document.getElementById("texts").textContent);
  const names = texts.names || {};
  const SPEEDS = [0.5, 1, 2, 4];  // steps a second

  const t = (key, params) => R25Words.fill(texts.language, (texts.t || {})[key] || key, params);
  function el(tag, attrs, children) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attrs || {})) {
      if (value === null || value === undefined) continue;
      if (name === "text") node.textContent = value;
      else node.setAttribute(name, value);
    }
    for (const child of children || []) node.append(child);
    return node;
  }
  const room = (id) => (names.rooms || {})[id] || id || "?";
  /* A room by the word that sets it apart ("Flooded", "Inondable": the catalogue's
     room_short_<kind>), for a phone's narrow cells. */
  const shortRoom = (id) => R25Words.hyphenable((names.rooms_short || {})[id] || room(id));
  const who = (cid) => ((names.characters || {})[cid] || cid).split(" (")[0];
  const card = (id) => (names.cards || {})[id] || id;
  const action = (id) => t("action_" + id);
  const ARROWS = { north: "↑", south: "↓", east: "→", west: "←" };
  /* A line as players name it ("row 2", "colonne D"): the engine's keys are row2, colD. */
  function lineName(key) {
    const found = /^(row|col)(.)$/.exec(key || "");
    if (!found) return key || "";
    return found[1] === "row" ? t("line_row", { n: found[2] }) : t("line_col", { n: found[2] });
  }

  function told(e) {
    const params = { character: e.character ? who(e.character) : "", action: e.action ? action(e.action) : "",
      room: e.room ? room(e.room) : "", cell: e.cell || "", card: e.card ? card(e.card) : "",
      seat: e.seat || "", turns: e.turns_left === undefined ? "" : e.turns_left, line: lineName(e.line),
      direction: ARROWS[e.direction] || e.direction || "", token: e.token ? action(e.token) : "",
      characters: (e.characters || []).map(who).join(", ") };
    return t("replay_" + "ev_" + e.type, params);
  }

  let episode = null, at = 0, timer = null;
  const ui = {};

  function build() {
    const steps = episode.steps;
    const turns = [...new Set(steps.map((s) => s.turn))];
    ui.back = el("button", { type: "button", id: "replay-back", text: "◀ " + t("replay_back") });
    ui.play = el("button", { type: "button", id: "replay-play", class: "primary", text: "▶ " + t("replay_play") });
    ui.forward = el("button", { type: "button", id: "replay-forward", text: t("replay_forward") + " ▶" });
    ui.speed = el("select", { id: "replay-speed", "aria-label": t("replay_speed") },
      SPEEDS.map((s) => el("option", { value: String(s), text: "×" + s })));
    ui.speed.value = "1";
    ui.turn = el("select", { id: "replay-turn", "aria-label": t("replay_jump") },
      turns.map((n) => el("option", { value: String(n), text: t("replay_turn", { n }) })));
    ui.slider = el("input", { type: "range", id: "replay-slider", min: "0", max: String(steps.length - 1), value: "0", "aria-label": t("replay_step_of", { n: "", total: steps.length }) });
    ui.where = el("p", { id: "replay-where", class: "replay-where", "aria-live": "polite" });
    ui.board = el("div", { id: "replay-board", class: "replay-board", role: "grid", "aria-label": t("replay_complex") });
    ui.what = el("div", { id: "replay-what", class: "replay-what" });
    ui.programmes = el("table", { id: "replay-programmes", class: "replay-programmes" });
    ui.highlights = el("ol", { id: "replay-highlights", class: "replay-highlights" });
    steps.forEach((step, index) => {
      for (const mark of step.highlights) {
        const label = markLabel(step, mark);
        const jump = el("button", { type: "button", class: "mark mark-" + mark, "data-step": String(index),
          text: t("replay_turn", { n: step.turn }) + " · " + label });
        jump.addEventListener("click", () => { stop(); show(index); });
        ui.highlights.append(el("li", {}, [jump]));
      }
    });
    root.replaceChildren(
      el("div", { class: "replay-controls" }, [ui.back, ui.play, ui.forward,
        el("label", {}, [t("replay_speed") + " ", ui.speed]), el("label", {}, [t("replay_jump") + " ", ui.turn])]),
      ui.slider, ui.where,
      el("div", { class: "replay-layout" }, [ui.board,
        el("div", { class: "replay-side" }, [ui.what, el("h3", { text: t("replay_programmes") }), ui.programmes,
          el("h3", { text: t("replay_highlights") }), ui.highlights])]));
    ui.back.addEventListener("click", () => { stop(); show(at - 1); });
    ui.forward.addEventListener("click", () => { stop(); show(at + 1); });
    ui.play.addEventListener("click", () => (timer ? stop() : play()));
    ui.speed.addEventListener("change", () => { if (timer) { stop(); play(); } });
    ui.turn.addEventListener("change", () => { stop(); show(steps.findIndex((s) => String(s.turn) === ui.turn.value)); });
    ui.slider.addEventListener("input", () => { stop(); show(Number(ui.slider.value)); });
    document.addEventListener("keydown", (event) => {
      if (event.target.closest && event.target.closest("select, input")) return;
      if (event.key === "ArrowRight") { stop(); show(at + 1); }
      if (event.key === "ArrowLeft") { stop(); show(at - 1); }
    });
  }

  function markLabel(step, mark) {
    const out = step.events.filter((e) => e.type === "eliminated").map((e) => who(e.character)).join(", ");
    return t("replay_mark_" + mark, { characters: out });
  }

  function play() {
    if (at >= episode.steps.length - 1) show(0);
    ui.play.textContent = "⏸ " + t("replay_pause");
    root.dataset.playing = "1";
    timer = setInterval(() => {
      if (at >= episode.steps.length - 1) stop();
      else show(at + 1);
    }, 1000 / Number(ui.speed.value));
  }
  function stop() {
    if (timer) clearInterval(timer);
    timer = null;
    delete root.dataset.playing;
    ui.play.textContent = "▶ " + t("replay_play");
  }

  function drawBoard(step, board) {
    const here = {};
    for (const [cid, cell] of Object.entries(step.positions)) if (cell) (here[cell] = here[cell] || []).push(cid);
    const down = new Set(step.face_down);
    board.replaceChildren(...episode.cells.map((cell, i) => {
      const kind = step.rooms ? step.rooms[i] : null;
      const colour = (names.colours || {})[kind];
      const tokens = (here[cell] || []).map((cid) => el("span", { class: "token", "data-character": cid,
        title: who(cid), text: who(cid) }));
      const robots = step.robots.filter((r) => r === cell).map(() => el("span", { class: "robot", text: "⚙" }));
      return el("div", { class: ["rcell", down.has(cell) ? "down" : "up", colour ? "c-" + colour : ""].join(" "),
        role: "gridcell", "data-cell": cell, "aria-label": [cell, room(kind), ...(here[cell] || []).map(who)].join(", ") },
        [el("span", { class: "coord", text: cell }), el("span", { class: "room long", text: kind ? room(kind) : "" }),
          el("span", { class: "room short", "aria-hidden": "true", text: kind ? shortRoom(kind) : "" }), ...tokens, ...robots]);
    }));
  }

  function drawWhat(step) {
    const lines = [];
    if (step.command === null) lines.push(t("replay_setup"));
    else if (step.character && step.action) lines.push(t("replay_played", { character: who(step.character), seat: step.seat, action: action(step.action) }));
    if (step.room && step.action) lines.push(t("replay_room_effect", { room: room(step.room) }));
    const list = el("ul", { class: "replay-events" }, step.events.map((e) => el("li", { class: "ev-" + e.type, text: told(e) })));
    const cards = step.mac && step.mac.in_play.length ? [el("p", { class: "replay-mac", text: t("replay_mac", { cards: step.mac.in_play.map(card).join(", ") }) })] : [];
    const out = step.out.length ? [el("p", { class: "replay-out", text: t("replay_out", { characters: step.out.map(who).join(", ") }) })] : [];
    ui.what.replaceChildren(...lines.map((line) => el("p", { class: "replay-line", text: line })), list, ...cards, ...out);
  }

  function drawProgrammes(step) {
    const turn = (episode.programmes || {})[String(step.turn)] || {};
    const rows = Object.entries(episode.characters).map(([cid, c]) => {
      const tokens = turn[cid] || [];
      const played = step.played[cid] || [];
      return el("tr", { "data-character": cid }, [el("td", { text: t("seat_n", { seat: c.seat }) }),
        el("td", { text: who(cid) + (step.out.includes(cid) ? " ✝" : "") }),
        el("td", { text: tokens.length ? tokens.map(action).join(" · ") : "—" }),
        el("td", { class: "dim", text: played.map(action).join(" · ") })]);
    });
    ui.programmes.replaceChildren(el("tr", {}, [t("replay_seat"), t("replay_character"), t("replay_programmed"), t("replay_revealed")].map((h) => el("th", { text: h }))), ...rows);
  }

  function show(index) {
    const steps = episode.steps;
    at = Math.max(0, Math.min(steps.length - 1, index));
    const step = steps[at];
    root.dataset.step = String(at);
    root.dataset.seq = String(step.seq);
    ui.slider.value = String(at);
    ui.turn.value = String(step.turn);
    ui.back.disabled = at === 0;
    ui.forward.disabled = at === steps.length - 1;
    const marks = step.highlights.map((m) => markLabel(step, m)).join(" · ");
    ui.where.textContent = [t("replay_step_of", { n: at + 1, total: steps.length }), t("replay_turn", { n: step.turn }),
      t("replay_countdown", { n: step.turns_left }),
      step.alarm && !step.highlights.includes("alarm") ? t("replay_alarm_on") : "", marks].filter(Boolean).join(" · ");
    ui.where.classList.toggle("marked", step.highlights.length > 0);
    for (const mark of ui.highlights.querySelectorAll("button")) mark.setAttribute("aria-current", String(Number(mark.dataset.step) === at));
    if (step.rooms) drawBoard(step, ui.board);
    drawWhat(step);
    drawProgrammes(step);
  }

  async function load() {
    const inline = document.getElementById("replay-data");
    if (inline) return JSON.parse(inline.textContent);
    const answer = await fetch(root.dataset.src, { headers: { Accept: "application/json" } });
    const body = await answer.json();
    if (!answer.ok) throw new Error((body.refusal || {}).text || t("replay_not_over"));
    return body;
  }

  load().then((found) => {
    episode = found;
    build();
    show(0);
    // The recap shows the complex as the game left it beside the replay.
    const final = document.getElementById("recap-final-board");
    const last = found.steps[found.steps.length - 1];
    if (final && last.rooms) drawBoard(last, final);
    root.dataset.ready = "1";
  }).catch((error) => {
    root.replaceChildren(el("p", { class: "replay-refused", role: "alert", text: error.message }));
    root.dataset.ready = "refused";
  });
})();
