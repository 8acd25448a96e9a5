/* A player's phone: join a seat, the role card, the notebook on the complex, secret
   programming, this seat's actions and choices. Every role sees the same screens and taps. */
"use strict";
(() => {
  const { $, t, tn, room, who, firstName, el, post, get, listen, banners, summary, status, describe } = R25;
  const CENTRE_NEIGHBOURS = ["B3", "C2", "C4", "D3"];
  let seat = null;
  let update = null;
  let draft = {};        // programming being chosen, per character (kept across updates)
  let draftTurn = null;  // the turn (and game) the draft is for: every turn starts empty
  let clueRoom = null;   // the room a physical starting clue turned out to be
  let revealing = null;  // the move whose physical tile is being turned over: which room is it?
  let roleTimer = null;
  let wakeLock = null;
  let hadGame = false;   // a game was on the table: its end by the host is said as such

  async function start() {
    const seats = await get("/api/seats");
    seat = seats.mine;
    if (!seat) return showJoin(seats);
    $("join").hidden = true;
    $("play").hidden = false;
    $("title").textContent = t("seat_n", { seat });
    listen("seat", (u) => {
      if (u === null) { location.reload(); return; }
      update = u;
      render();
      // A refusal of this seat's own button (pressed at the table) said here too.
      for (const e of u.events || []) if (e.type === "button_refused") status((e.texts || {})[R25.texts.lang] || e.code, true);
    });
  }

  /* The join page: a free seat is one tap; a taken one (or any seat mid-game) is asked for,
     then given by holding that seat's button, which proves the player sits there. */
  function showJoin(seats) {
    $("play").hidden = true;
    $("join").hidden = false;
    const list = el("div");
    const anyTaken = (seats.seats || []).some((s) => s.taken);
    for (const s of seats.seats || []) {
      list.append(el("button", {
        type: "button", class: "big" + (s.taken ? " taken" : ""),
        "aria-label": t("seat_n", { seat: s.seat }) + (s.taken ? ", " + t("taken") : ""),
        on: { click: () => join(s.seat) },
      }, t("seat_n", { seat: s.seat }) + (s.taken ? " · " + t("taken") : "")));
    }
    R25.patch($("seat-list"), [...list.childNodes]);  // a seat under a finger stays the same button
    $("join-hint").textContent = anyTaken ? t("taken_hint") : "";
    if (seats.asking) asking(seats.asking);
  }

  async function join(chosen) {
    const answer = await post("/api/join", { seat: chosen });
    if (answer.ok) location.reload();
    else if (answer.pending) asking(answer);
    else start();
  }

  /* A seat asked for: its code on this phone and the companion's screen, until the seat's
     button is held (then the seat is this phone's) or the request lapses. */
  let askTimer = null;
  function asking(ask) {
    $("join-ask").hidden = false;
    $("join-ask").replaceChildren(el("p", { class: "ask-code", text: t("ask_code", { ask: ask.ask }) }),
      el("p", { text: t("ask_pending", { ask: ask.ask, seat: ask.seat }) }));
    clearTimeout(askTimer);
    askTimer = setTimeout(async () => {
      const seats = await get("/api/seats");
      if (seats.ok === false) asking(ask);  // offline for a moment: the request still stands
      else if (seats.mine) location.reload();
      else if (seats.asking) asking(seats.asking);
      else { $("join-ask").hidden = true; showJoin(seats); }
    }, 1500);
  }

  function mine() {
    const chars = (update && update.view && update.view.characters) || {};
    return Object.entries(chars).filter(([, c]) => c.seat === seat);
  }

  function render() {
    banners(update);
    // A seat the running game does not have: one sentence and the way to another seat.
    const outsider = !!update.game && !update.view;
    $("play").classList.toggle("outsider", outsider);
    if (outsider) $("summary").replaceChildren();
    else summary(update, $("summary"));
    const view = update.view || {};
    const waiting = update.waiting || {};
    const notebook = view.notebook || {};
    const pick = pickable(view, waiting);
    Board.draw($("board"), view, { notebook, pick: pick.cells, onPick: pick.onPick, coords: true, short: true });
    renderTask(view, waiting);
    if (waiting.phase === "over" || (!update.game && hadGame)) R25.reveal($("reveal"), update.game || "ended", seat);
    else $("reveal").hidden = true;
    renderMac(view);
    keepAwake(update.game && waiting.phase !== "over");
    if (!$("role").hidden) showRole();
  }

  /* The role card: shown on demand, hidden again after a few seconds. */
  function showRole() {
    const box = $("role");
    box.replaceChildren();
    for (const [cid, c] of mine()) {
      const role = c.role ? t("role_" + c.role) : t("role_none");
      box.append(el("p", { text: who(cid) + " — " + role + (c.alive ? "" : " ✝") }));
    }
    if (!mine().length) box.append(el("p", { text: t("no_character") }));
    box.hidden = false;
    $("role-toggle").textContent = t("hide_role");
    clearTimeout(roleTimer);
    roleTimer = setTimeout(hideRole, 6000);
  }
  function hideRole() {
    $("role").hidden = true;
    $("role").replaceChildren();
    $("role-toggle").textContent = t("show_role");
  }

  function isMyTurn(waiting) {
    return (waiting.seats || []).includes(seat);
  }

  function pickable(view, waiting) {
    if (waiting.phase === "clue" && isMyTurn(waiting)) {
      return { cells: CENTRE_NEIGHBOURS, onPick: takeClue };
    }
    if (waiting.phase === "choice" && isMyTurn(waiting) && view.pending) {
      const offers = moves(legal("choose")).filter((m) => m.move.cell);
      const cells = [...new Set(offers.map((m) => m.move.cell))];
      return { cells, onPick: (cell) => {
        const same = offers.filter((m) => m.move.cell === cell);
        if (same.length !== 1) status(t("pick_below"));
        else if (same[0].rooms.length) { revealing = same[0].key; render(); }
        else send(same[0].move);
      } };
    }
    return { cells: [] };
  }

  /* The commands the engine allows this seat now, of one type (and one character). */
  function legal(type, character) {
    return ((update && update.legal) || []).filter((c) => c.type === type && (!character || c.character === character));
  }

  /* With physical tiles the engine offers one command per room a hidden tile may turn out to
     be; on the phone that is one move, and the room is asked once the table turns the tile. */
  function moves(commands) {
    const found = new Map();
    for (const c of commands) {
      const { room: seen, ...move } = c;
      const key = JSON.stringify(move);
      if (!found.has(key)) found.set(key, { key, move, rooms: [] });
      if (seen) found.get(key).rooms.push(seen);
    }
    return [...found.values()];
  }

  function offer(m, group) {
    const label = describe(m.move);
    const play = m.rooms.length ? () => { revealing = m.key; render(); } : () => send(m.move);
    const seen = previewOf(m.move);
    return el("button", { type: "button", class: "offer", "aria-label": group + ": " + label,
      on: { click: play } }, label, ...(seen ? [el("small", { class: "preview", text: seen })] : []));
  }

  /* While the table is taught, what a look, move, push or control would do, as this seat
     knows the complex: the server builds each from this seat's own view (session/publish.py),
     the page only says it in its language. */
  function previewOf(move) {
    const p = ((update && update.previews) || []).find((found) => found.character === move.character
      && found.params.action === move.action && found.params.direction === move.direction
      && (found.params.target || null) === (move.target || null));
    if (!p) return null;
    const { action, direction, target, room: kind } = p.params;
    return t(p.key, { action: t("action_" + action), direction: t("dir_" + direction),
      target: target ? who(target) : "", room: kind ? room(kind) : "" });
  }

  function roomPicker(m) {
    return el("section", { class: "offers", role: "group", "aria-label": t("tile_turned") },
      el("h3", { text: describe(m.move) }), el("p", { text: t("tile_turned") }),
      el("div", { class: "grid-buttons" }, m.rooms.map((kind) => el("button", { type: "button", class: "offer",
        on: { click: () => { revealing = null; send({ ...m.move, room: kind }); } } }, room(kind)))),
      el("button", { type: "button", on: { click: () => { revealing = null; render(); } } }, t("back")));
  }

  function offerGroup(name, commands, rule) {
    const offered = moves(commands);
    const asked = offered.find((m) => m.key === revealing);
    if (asked) return roomPicker(asked);
    return el("section", { class: "offers", role: "group", "aria-label": name },
      el("h3", { "data-rule": rule, text: name }), el("div", { class: "grid-buttons" }, offered.map((m) => offer(m, name))));
  }

  /* Commands carry the version they were made against (a late tap after a reconnect is refused,
     not applied twice), except those of the phases every seat plays at once: setting a programme
     again is harmless, a second clue is refused as such, and another seat's clue or lock-in just
     before this tap must not make it stale. */
  async function send(command) {
    const guarded = ["program", "clue"].includes(command.type) ? command : { ...command, version: update.version };
    const answer = await post("/api/commands", { command: guarded });
    if (answer.ok) status(t("done"));
    return answer;
  }

  function heading(text) { return el("h2", { text }); }

  /* The task is drawn afresh and patched in: the buttons under a finger stay the same. */
  function renderTask(view, waiting) {
    const box = document.createElement("div");
    drawTask(box, view, waiting);
    R25.patch($("task"), [...box.childNodes]);
  }

  function drawTask(box, view, waiting) {
    if (!update.game && hadGame) { box.append(heading(t("game_over"))); return; }
    if (!update.game) { box.append(heading(t("no_game")), el("p", { text: t("wait_for_host") })); return; }
    if (!update.view) {
      box.append(heading(t("seat_not_in_game", { seat })), el("button", { type: "button", class: "big",
        on: { click: async () => { await post("/api/leave", {}); location.reload(); } } }, t("pick_seat")));
      return;
    }
    hadGame = true;
    const phase = waiting.phase;
    if (phase === "clue") return clueTask(box, view, waiting);
    if (phase === "programming") return programmingTask(box, view, waiting);
    if (phase === "choice" && isMyTurn(waiting) && view.pending) return choiceTask(box, view.pending);
    if (phase === "action" && isMyTurn(waiting)) return actionTask(box, view, waiting);
    if (phase === "over") { box.append(heading(t("game_over"))); return; }
    box.append(heading(t("phase_" + phase)), el("p", { text: waiting.character ? R25.withName("whose_action", waiting.character) : t("please_wait") }));
  }

  /* A hidden tile can only be a room of which the box still holds an unrevealed tile. */
  function possibleRooms(view) {
    const edition = (view.ruleset || {}).edition || "base";
    const shown = {};
    for (const cell of (view.complex || []).flat()) if (cell.room) shown[cell.room] = (shown[cell.room] || 0) + 1;
    return Object.entries(R25.texts.names.boxes)
      .filter(([id, box]) => id !== "central" && (box[edition] || 0) > (shown[id] || 0))
      .map(([id]) => id);
  }

  function roomSelect(view, label, onChange, value) {
    const select = el("select", { "aria-label": label, on: { change: (e) => onChange(e.target.value || null) } },
      el("option", { value: "", text: "—" }),
      possibleRooms(view).map((id) => el("option", { value: id, selected: id === value, text: room(id) })));
    return el("label", {}, label, select);
  }

  function tracking(view) { return (view.ruleset || {}).tracking; }

  function clueTask(box, view, waiting) {
    box.append(heading(t("phase_clue")));
    if (!isMyTurn(waiting)) { box.append(el("p", { text: t("clue_taken") })); return; }
    box.append(el("p", { text: t("clue_help") }));
    if (tracking(view) === "physical") box.append(roomSelect(view, t("room_seen"), (v) => { clueRoom = v; }, clueRoom));
    box.append(el("div", { class: "row" }, CENTRE_NEIGHBOURS.map((cell) =>
      el("button", { type: "button", on: { click: () => takeClue(cell) } }, cell))));
  }

  /* The starting clue, from the board or a button; with physical tiles, the room it showed. */
  function takeClue(cell) {
    return send({ type: "clue", cell, room: clueRoom || undefined });
  }

  function settings(view) { return ((view.ruleset || {}).settings) || {}; }

  /* The seat's programming, offered from the engine's legal programmes for each character
     (never a copy of the rules here): the first action among the programmes' first actions,
     the second among those that follow it (none in the Cold chamber), the Adrenaline when a
     programme carries it, and a talent's ability when the programme names one. */
  function programmingTask(box, view, waiting) {
    const locked = (waiting.locked_in || []).includes(seat);
    const thinking = isMyTurn(waiting);
    box.append(heading(t("phase_programming")));
    const byApp = settings(view).programming !== "tokens";
    const turn = update.game + "/" + view.turn;
    if (draftTurn !== turn) { draft = {}; draftTurn = turn; }
    if (byApp) {
      for (const [cid, c] of mine()) {
        if (!c.alive) continue;
        // A locked-in seat shows what it sent; otherwise each turn starts empty, never with
        // the last turn's plan (a hasty Lock in would send it again).
        const sent = { actions: [...(c.program || [])], adrenaline: !!c.adrenaline_programmed, talent_choice: c.talent_choice || null };
        const d = locked ? sent : draft[cid] || (draft[cid] = { actions: [], adrenaline: false, talent_choice: null });
        box.append(programmeFields(cid, d, locked ? [] : legal("program", cid), locked,
          settings(view).talents ? "talent:" + cid : null));
      }
    } else {
      box.append(el("p", { text: t("tokens_help") }));
    }
    box.append(el("p", { text: locked ? t("locked_in") : thinking ? t("not_locked_in") : t("please_wait") }));
    box.append(el("button", { type: "button", class: "big primary", "aria-pressed": locked ? "true" : "false",
      on: { click: () => lockIn(view, locked, byApp) } }, locked ? t("unlock") : t("lock_in")));
  }

  const distinct = (values) => [...new Set(values)];

  /* One character's choices: each a button among the values the programmes `offers` allow
     after what is already chosen; a locked-in programme is shown as sent, its buttons off. */
  function programmeFields(cid, d, offers, locked, rule) {
    const fieldset = el("fieldset", {}, el("legend", { "data-rule": rule, text: who(cid) }));
    const pick = (label, values, chosen, onPick, texts) => {
      const row = el("div", { class: "slot", role: "group", "aria-label": label },
        el("span", { class: "slot-label", text: label }), el("div", { class: "slot-options" },
          values.map((v) => el("button", { type: "button", class: v === "none" ? "none-option" : null,
            "aria-pressed": chosen === v ? "true" : "false", disabled: locked,
            on: { click: () => { onPick(v); render(); share(cid, d); } } }, texts(v)))));
      fieldset.append(row);
    };
    const acting = offers.filter((p) => p.actions);
    const firsts = locked ? d.actions.slice(0, 1) : distinct(acting.map((p) => p.actions[0]));
    const seconds = locked ? [d.actions[1] || "none"] : distinct(acting.filter((p) => p.actions[0] === d.actions[0])
      .map((p) => p.actions[1] || "none"));
    const actionText = (a) => t("action_" + a);
    if (firsts.length) {
      pick(t("action_n", { n: 1 }), firsts, d.actions[0], (a) => { d.actions = [a]; keepAbility(d); }, actionText);
      const twoAllowed = locked ? d.actions.length > 1 : acting.some((p) => p.actions.length > 1);
      if (!twoAllowed) fieldset.append(el("p", { class: "hint", text: t("programming_one_action") }));
      else if (d.actions[0]) pick(t("action_n", { n: 2 }), seconds, d.actions[1] || (d.actions.length ? "none" : null),
        (a) => { d.actions = a === "none" ? d.actions.slice(0, 1) : [d.actions[0], a]; keepAbility(d); }, actionText);
    }
    const abilities = locked ? [d.talent_choice].filter(Boolean)
      : distinct(offers.filter((p) => same(p.actions, d.actions) && p.talent_choice).map((p) => p.talent_choice));
    if (abilities.length) {
      pick(R25.withName("programming_talent_choice", cid), abilities, d.talent_choice, (x) => { d.talent_choice = x; }, (x) => t("ability_" + x));
    }
    if (locked ? d.adrenaline : offers.some((p) => p.adrenaline)) {
      fieldset.append(el("button", { type: "button", "aria-pressed": d.adrenaline ? "true" : "false", disabled: locked,
        on: { click: () => { d.adrenaline = !d.adrenaline; render(); share(cid, d); } } }, t("adrenaline")));
    }
    if (!locked && !offers.length) fieldset.append(el("p", { text: t("programming_nothing") }));
    return fieldset;
  }

  /* The talent's ability stays chosen while the talent stays in the programme. */
  function keepAbility(d) { if (!d.actions.includes("talent")) d.talent_choice = null; }

  const same = (a, b) => (a || []).length === (b || []).length && (a || []).every((x, i) => x === b[i]);

  /* The legal programme that is what the phone shows for a character, if it is whole (an
     action chosen where the programme needs one, the talent's ability where it asks one). */
  function chosenProgramme(cid, d) {
    return legal("program", cid).find((p) => same(p.actions, p.actions ? d.actions : undefined)
      && !!p.adrenaline === !!d.adrenaline && (p.talent_choice || null) === (d.talent_choice || null));
  }

  /* The programme as it is chosen goes to the companion at once, privately (only this seat's
     view shows it), without locking in: the seat's button then locks in what the phone shows. */
  async function share(cid, d) {
    const programme = chosenProgramme(cid, d);
    if (programme) await post("/api/commands", { command: { ...programme, lock_in: false } });
  }

  /* Lock in: each character's whole programme sent, then the seat's lock; a programme not
     whole yet is said in the page, in the player's words, and nothing is sent. */
  async function lockIn(view, locked, byApp) {
    if (!locked && byApp) {
      for (const [cid, c] of mine()) {
        if (!c.alive || !legal("program", cid).length) continue;
        const d = draft[cid] || { actions: [] };
        const programme = chosenProgramme(cid, d);
        if (!programme) {
          status(d.actions.length ? R25.withName("talent_needed", cid) : R25.withName("program_first", cid), true);
          return;
        }
        const answer = await post("/api/commands", { command: { ...programme, lock_in: false } });
        if (!answer.ok) return;
      }
    }
    const answer = await post("/api/seats/" + seat + "/press", {});
    if (answer.ok) status(locked ? t("unlocked") : t("locked_in"));
  }

  function choiceTask(box, pending) {
    box.append(heading(t("choice_" + pending.kind)), el("p", { text: t("choice_help", { name: firstName(pending.character) }) }));
    box.append(offerGroup(t("choice_" + pending.kind), legal("choose")));
  }

  /* The turn's screen offers exactly the seat's legal commands, grouped by action. Exposing
     oneself stays offered to everyone in Suspicion (only guards may, so hiding it would tell). */
  function actionTask(box, view, waiting) {
    const cid = waiting.character;
    const c = (view.characters || {})[cid] || {};
    const round = waiting.round || 1;
    const programmed = (c.program || [])[round - 1] || (round === 3 ? "adrenaline" : null);
    box.append(heading(t("your_action", { name: firstName(cid) })));
    if (!view.ruleset || tracking(view) === "countdown") {
      box.append(el("p", { text: t("countdown_action") }),
        el("button", { type: "button", class: "big primary", on: { click: () => send({ type: "next" }) } }, t("action_done")));
      return;
    }
    if (programmed) box.append(el("p", { text: t("programmed", { action: t("action_" + programmed) }) }));
    const plays = new Map();
    for (const command of legal("act", cid)) {
      const action = command.action || programmed;
      if (!plays.has(action)) plays.set(action, []);
      plays.get(action).push(command);
    }
    for (const [action, commands] of plays) box.append(offerGroup(t("action_" + action), commands, "action:" + action));
    const more = [...legal("wait", cid), ...legal("pass", cid)].map((command) =>
      el("button", { type: "button", class: "offer", on: { click: () => send(command) } }, t(command.type)));
    if ((view.ruleset || {}).mode === "suspicion") {
      more.push(el("button", { type: "button", class: "offer", on: { click: () => send({ type: "expose", character: cid }) } }, t("expose")));
    }
    if (!plays.size && !more.length) box.append(el("p", { text: t("nothing_to_play") }));
    if (more.length) box.append(el("div", { class: "grid-buttons", role: "group", "aria-label": t("other_moves") }, more));
    const reminders = legal("reminder");
    if (reminders.length) {
      box.append(el("details", { class: "offers" }, el("summary", { text: t("reminder") }),
        el("div", { class: "grid-buttons", role: "group", "aria-label": t("reminder") }, moves(reminders).map((m) => offer(m, t("reminder"))))));
    }
  }

  function renderMac(view) {
    const mac = view.mac || {};
    $("mac").hidden = !mac.level;
    if (!mac.level) return;
    R25.patch($("mac-body"), [
      el("p", { "data-rule": mac.current ? "card:" + mac.current : null, text: R25.colon(t("mac_current")) + R25.cardWithEffect(mac.current) }),
      el("p", { text: tn("mac_draw_pile", mac.draw_pile ?? 0) }),
      el("h3", { text: t("mac_discard") }),
      el("ol", {}, (mac.discard || []).map((card) => el("li", { text: R25.cardText(card) })))]);
  }

  /* Keep the screen awake while a game runs (released by the browser when hidden). */
  async function keepAwake(on) {
    if (!("wakeLock" in navigator)) return;
    try {
      if (on && !wakeLock) {
        wakeLock = await navigator.wakeLock.request("screen");
        wakeLock.addEventListener("release", () => { wakeLock = null; });
      } else if (!on && wakeLock) {
        await wakeLock.release();
      }
    } catch (e) { wakeLock = null; }
  }

  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible" && update) keepAwake(update.game && (update.waiting || {}).phase !== "over");
  });

  document.addEventListener("DOMContentLoaded", () => {
    $("role-toggle").addEventListener("click", () => ($("role").hidden ? showRole() : hideRole()));
    $("leave").addEventListener("click", async () => {
      const playing = update && update.game && (update.waiting || {}).phase !== "over";
      if (!confirm(playing ? t("leave_confirm_game", { seat }) : t("leave_confirm", { seat }))) return;
      await post("/api/leave", {});
      location.reload();
    });
    start();
  });
})();
