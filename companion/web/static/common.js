/* Room 25 Companion: what every page shares. Texts, the JSON API (with the X-Room25 header
   every write needs), the live event stream with its reconnects, and the banners. */
"use strict";
const R25 = (() => {
  const texts = JSON.parse(document.getElementById("texts").textContent);
  const T = texts.t;
  const N = texts.names;

  /* A text of the catalogue filled in (words.js: elision, lists, the language's spacing). */
  function t(key, params) {
    return R25Words.fill(texts.language, T[key] !== undefined ? T[key] : key, params);
  }
  /* Some languages set a no-break space before : ; ? ! (so they never start a line), whichever
     part of the catalogue the sentence came from (the pages', the notices', a refusal's). */
  const typography = (s) => R25Words.typography(texts.language, s);
  /* A text that counts: key_one, key_other... chosen by the language's own plural rules
     (French says "1 tour", "0 tour"; English "1 turn", "0 turns"). */
  const plurals = new Intl.PluralRules(texts.lang);
  function tn(key, n, params) {
    const wanted = key + "_" + plurals.select(Number(n));
    return t(T[wanted] !== undefined ? wanted : key + "_other", { n, ...(params || {}) });
  }
  /* A cell as players name it (C2), whether the engine gave its index (0..24) or its name. */
  function cellName(c) {
    if (typeof c === "number") return "ABCDE"[c % 5] + (Math.floor(c / 5) + 1);
    return c === undefined || c === null ? "" : String(c);
  }
  /* A sentence about a character by his first name (elided where the language elides). */
  const withName = (key, id) => t(key, { name: firstName(id) });
  /* "Label: value" with the language's space before the colon. */
  const colon = (label) => R25Words.colon(texts.language, label);
  const room = (id) => (id && N.rooms[id]) || id || "?";
  const who = (id) => (id && N.characters[id]) || id || "?";
  const firstName = (id) => who(id).split(" (")[0];
  /* A composition's free slots ({"green": 5}) in one sentence, the colours joined with the
     language's "and" (the wizard and the set-up step's tiles), or "" when it has none; each
     colour agrees with its count ("5 vertes"). */
  const freeSlots = (free) => {
    const slots = Object.entries(free || {}).map(([colour, n]) => tn("colour_" + colour + "_count", n));
    return slots.length ? t("free_slots", { slots }) : "";
  };
  const $ = (id) => document.getElementById(id);
  const ARROWS = { north: "↑", west: "←", east: "→", south: "↓" };

  /* A node's handlers live on the node, behind one listener per event, so that a redraw which
     keeps the node (patch, below) can hand it the new ones. */
  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === undefined || v === null || v === false) continue;
      if (k === "on") listenOn(node, v);
      else if (k === "text") node.textContent = v;
      else node.setAttribute(k, v === true ? "" : v);
    }
    for (const c of children.flat()) if (c !== null && c !== undefined) node.append(c);
    return node;
  }

  function listenOn(node, handlers) {
    node.handlers = handlers;
    for (const ev of Object.keys(handlers)) node.addEventListener(ev, dispatch);
  }
  function dispatch(event) {
    const handler = this.handlers && this.handlers[event.type];
    if (handler) handler.call(this, event);
  }

  /* Draws `fresh` (the nodes of a new drawing) into `parent`, keeping each node that is the
     same element as before, its attributes, text and handlers brought up to date. A browser
     clicks only where a finger went down and up on one element: a panel drawn anew on each
     update lost the tap of a finger that an update arrived under (a Lock in, at the table). */
  function patch(parent, fresh) {
    const old = [...parent.childNodes];
    fresh.forEach((node, i) => {
      const was = old[i];
      if (!was) parent.append(node);
      else if (was.nodeType === node.nodeType && was.nodeName === node.nodeName) keep(was, node);
      else parent.replaceChild(node, was);
    });
    for (const extra of old.slice(fresh.length)) extra.remove();
  }
  function keep(was, node) {
    if (node.nodeType !== Node.ELEMENT_NODE) {
      if (was.nodeValue !== node.nodeValue) was.nodeValue = node.nodeValue;
      return;
    }
    for (const { name } of [...was.attributes]) if (!node.hasAttribute(name)) was.removeAttribute(name);
    for (const { name, value } of node.attributes) if (was.getAttribute(name) !== value) was.setAttribute(name, value);
    if (node.handlers) listenOn(was, node.handlers);
    else was.handlers = null;
    patch(was, [...node.childNodes]);
  }

  /* Feedback in a banner fixed in view (read out by screen readers): a refusal stays until
     the game moves on or the next tap, a plain acknowledgement goes after a few seconds. */
  let statusTimer = null;
  /* The banner goes just under the bar, or under the countdown while it is in view: it never
     covers the turns left, the phase or whose action it is. */
  function statusTop() {
    const bar = document.querySelector(".bar");
    let top = bar ? bar.getBoundingClientRect().bottom + 6 : 6;
    const shown = document.getElementById("summary");
    if (shown && shown.offsetParent && shown.childElementCount) {
      const bottom = shown.getBoundingClientRect().bottom;
      if (bottom > top) top = bottom + 6;
    }
    return Math.round(top);
  }
  function status(message, bad) {
    const box = $("status");
    box.textContent = typography(message || "");
    box.className = "status" + (message ? " shown" : "") + (bad ? " bad" : "");
    if (message) box.style.top = statusTop() + "px";
    clearTimeout(statusTimer);
    if (message && !bad) statusTimer = setTimeout(() => status(""), 5000);
  }
  let seenVersion = null;
  let seenGame;
  /* What a refusal said is stale once the game has moved on (another version, another game). */
  function clearStale(update) {
    if (!update) return;
    const moved = seenGame !== undefined && (update.game !== seenGame || update.version !== seenVersion);
    seenGame = update.game;
    seenVersion = update.version;
    if (moved && $("status").classList.contains("bad")) status("");
  }

  async function call(method, path, body) {
    const options = { method, credentials: "same-origin", headers: {} };
    if (method === "POST") {
      options.headers["X-Room25"] = "1";
      options.headers["Content-Type"] = "application/json";
      options.body = JSON.stringify(body || {});
    }
    let answer;
    try {
      const response = await fetch(path, options);
      answer = await response.json();
      answer.status = response.status;
    } catch (e) {
      answer = { ok: false, refusal: { code: "offline", text: t("offline") } };
    }
    if (answer.ok === false && answer.refusal) status(answer.refusal.text, true);
    else if (method === "POST" && $("status").classList.contains("bad")) status("");  // a new tap: the old refusal is stale
    return answer;
  }
  const post = (path, body) => call("POST", path, body);
  const get = (path) => call("GET", path);

  /* A stream of updates: a fresh snapshot at every (re)connect, then changes. */
  function listen(as, onUpdate) {
    let source = null;
    let retry = 1000;
    function open() {
      source = new EventSource("/api/stream?as=" + encodeURIComponent(as));
      source.addEventListener("update", (e) => {
        retry = 1000;
        const said = $("status").textContent;
        if (said === t("reconnecting") || said === t("offline")) status("");
        const update = JSON.parse(e.data);
        if (update.view && update.view.characters) cast = Object.keys(update.view.characters);
        clearStale(update);
        onUpdate(update);
        sayDecisions(update);
      });
      source.addEventListener("bye", () => { source.close(); onUpdate(null); });
      source.onerror = () => {
        status(t("reconnecting"));
        if (source.readyState === EventSource.CLOSED) {
          setTimeout(open, retry);
          retry = Math.min(retry * 2, 15000);
        }
      };
    }
    open();
    /* Back on the network: whatever was said of the connection is stale, and the stream may
       have missed updates: a fresh one at once. */
    window.addEventListener("online", () => {
      if ([t("offline"), t("reconnecting")].includes($("status").textContent)) status("");
      if (source) source.close();
      retry = 1000;
      open();
    });
    /* A phone that slept has missed updates, and its stream may look open yet be dead (iOS
       cuts it as soon as the page is hidden): back after more than a moment away, at once a
       fresh stream and a fresh snapshot. (A glance away of a second keeps its stream.) */
    let hiddenAt = null;
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState !== "visible") { hiddenAt = Date.now(); return; }
      const away = hiddenAt !== null && Date.now() - hiddenAt > 2000;
      hiddenAt = null;
      if (!away && source && source.readyState !== EventSource.CLOSED) return;
      if (source) source.close();
      retry = 1000;
      open();
    });
    return () => source && source.close();
  }

  function banners(update) {
    const box = el("div");
    if (update) bannersInto(update, box);
    patch($("banners"), [...box.childNodes]);
  }
  function bannersInto(update, box) {
    const view = update.view || {};
    const session = update.session || {};
    const playing = new Set(Object.values(view.characters || {}).map((c) => c.seat));
    const about = (notice) => (notice.params || {}).seat;
    if (view.jammed) box.append(el("div", { class: "banner jammed", role: "alert", text: "⚠ " + t("jammed") }));
    if (session.paused) box.append(el("div", { class: "banner paused", text: "⏸ " + t("paused") }));
    for (const notice of session.notices || []) {
      if (about(notice) && !playing.has(about(notice))) continue;
      if (notice.code === "lesson") box.append(...lessonCards(notice));
      else box.append(el("div", { class: "banner notice", text: "ℹ " + noticeText(notice) }));
    }
  }

  /* A lesson's card: its name, what the voice says, and the full rule (the rule at a tap, or
     the lesson's own text folded). It never covers a control: "Got it" closes it, and a page
     shows each showing once (the host's replay is a new showing). */
  const closedLessons = new Set();
  const openLessons = new Set();  // a rule unfolded stays unfolded under the next update
  function lessonCards(notice) {
    const params = notice.params || {};
    const key = JSON.stringify([params.lessons, params.shown]);
    if (closedLessons.has(key)) return [];
    return (params.lessons || []).map((id, i) => {
      const rule = (params.rules || [])[i];
      const full = rule
        ? el("button", { class: "lesson-rule", type: "button", "data-rule": rule, text: t("lessons_rule") })
        : el("details", { open: openLessons.has(key + id), on: { toggle: (e) => (e.target.open ? openLessons.add(key + id) : openLessons.delete(key + id)) } },
          el("summary", { text: t("lessons_rule") }), el("p", { text: T["lessons_" + id + "_text"] || "" }));
      const close = (e) => { closedLessons.add(key); e.target.closest(".lesson").remove(); };
      return el("section", { class: "banner lesson", "data-lesson": id, role: "status" },
        el("strong", { text: t("lessons_title") + " · " + (T["lessons_" + id + "_name"] || id) }),
        el("p", { text: T["lessons_" + id + "_said"] || "" }),
        el("div", { class: "lesson-actions" }, full,
          el("button", { class: "lesson-close", type: "button", text: t("lessons_got_it"), on: { click: close } })));
    });
  }

  /* A notice is a code and its parameters, said from the session's catalogue in the page's
     language ({seats}: a list; {button}: a control button's name); an unknown code by its English
     text. */
  function noticeText(notice) {
    const key = "notice_" + notice.code;
    if (T[key] === undefined) return notice.text;
    const params = {};
    for (const [k, v] of Object.entries(notice.params || {})) {
      params[k] = Array.isArray(v) ? v.join(", ") : k === "button" ? N.buttons[v] || v : v;
    }
    return t(key, params);
  }

  function phaseText(waiting) {
    return waiting && waiting.phase ? t("phase_" + waiting.phase) : "";
  }

  /* Countdown, timer, turn order and whose action it is: public, the same on every screen.
     Patched in, as the banners: the mode tapped for its rule is not lost under an update. */
  function summary(update, shown) {
    const box = el("div");
    summaryInto(update, box);
    patch(shown, [...box.childNodes]);
  }
  function summaryInto(update, box) {
    if (!update || !update.view || update.game === null) {
      box.append(el("p", { text: t("no_game") }));
      return;
    }
    const view = update.view, waiting = update.waiting || {};
    const timer = (update.session || {}).timer;
    if (waiting.phase === "over") {  // no countdown, alarm or clock left: the game is over
      alarmed(false);
      box.append(el("div", { class: "row" },
        el("span", { class: "turns-word over-word", text: t("game_over") }),
        view.ruleset ? el("span", { class: "mode-word", "data-rule": "mode:" + view.ruleset.mode, text: t("mode_" + view.ruleset.mode) }) : null),
        el("div", { class: "phase-line", text: t("turn_n", { n: view.turn ?? "–" }) }));
      return;
    }
    box.append(el("div", { class: "row" },
      el("span", { class: "big-number", "aria-label": tn("turns_left_label", view.turns_left ?? 0) }, String(view.turns_left ?? "–")),
      el("span", { class: "turns-word", text: tn("turns_left", view.turns_left ?? 0) + (view.last_turn ? " · " + t("last_turn") : "") }),
      view.ruleset ? el("span", { class: "mode-word", "data-rule": "mode:" + view.ruleset.mode, text: t("mode_" + view.ruleset.mode) }) : null));
    if (view.alarm) box.append(el("div", { class: "alarm", role: "alert", text: "🚨 " + t("alarm") }));
    alarmed(!!view.alarm);
    box.append(el("div", { class: "phase-line", text: t("turn_n", { n: view.turn ?? "–" }) + " · " + phaseText(waiting) + (waiting.round ? " · " + t("round_n", { n: waiting.round }) : "") }));
    if (timer && timer.left !== null && timer.left !== undefined) {
      const ends = Date.now() + timer.left * 1000;
      const shown = el("div", { "data-ends": update.session.paused ? null : String(ends), text: "⏱ " + t("seconds_left", { n: Math.ceil(timer.left) }) });
      box.append(shown);
    }
    const lines = Object.entries(view.controls || {});
    if (lines.length) box.append(el("div", { text: t("do_not_cross") + " " + lines.map(([line, d]) => lineName(line) + " " + ARROWS[d] + " " + t("dir_" + d)).join(", ") }));
    if (waiting.character) box.append(el("div", { class: "whose", text: withName("whose_action", waiting.character) }));
    if (waiting.phase === "programming" || waiting.phase === "clue") {
      box.append(el("div", { text: t("waiting_for", { seats: (waiting.seats || []).join(", ") || "–" }) }));
    }
    const order = el("ol", { class: "order row", "aria-label": t("turn_order") });
    const cast = view.characters || {};
    const everyone = [...(view.order || []), ...Object.keys(cast).filter((cid) => !(view.order || []).includes(cid))];
    for (const [i, cid] of everyone.entries()) {
      const c = cast[cid] || {};
      order.append(el("li", { "aria-current": cid === waiting.character ? "true" : null, text: (i + 1) + ". " + firstName(cid) + (c.alive === false ? " ✝ " + t("dead") : "") }));
    }
    box.append(el("div", { class: "order-label", text: colon(t("turn_order")).trimEnd() }), order);
  }

  function outcomeText(outcome) {
    if (!outcome) return "";
    if (typeof outcome === "string") return t("outcome_" + outcome);
    const winners = outcome.winners || [];
    return t("outcome_" + outcome.result) + (winners.length ? " " + tn("winning_seats", winners.length, { seats: winners.join(", ") }) : "");
  }

  /* What the host decided once the programming time was up, said on every page. */
  function hostDecision(e) {
    const list = (seats) => (seats && seats.length ? seats.join(", ") : t("nobody"));
    if (e.type === "late_locked_in") return t("said_late_locked_in", { locked: list(e.locked), unchosen: list(e.unchosen) });
    if (e.type === "more_time") return tn("said_more_time", e.seconds);
    return null;
  }
  function sayDecisions(update) {
    for (const e of (update && update.events) || []) {
      const said = hostDecision(e);
      if (said) status(said);
    }
  }

  /* The alarm as loud on a phone as on the OLED: a banner, and a vibration where allowed. */
  let alarmOn = false;
  function alarmed(on) {
    if (on && !alarmOn && navigator.vibrate) navigator.vibrate([400, 150, 400, 150, 400]);
    alarmOn = on;
  }

  /* The end of a game for every page: why it ended, who won, who was what (the seat's own
     characters first on a phone), and the whole complex; from /api/reveal, in this page's
     language. */
  let revealed = null;
  async function reveal(box, game, mySeat) {
    if (revealed === game && box.childElementCount) return;
    revealed = game;
    const answer = await get("/api/reveal");
    if (!answer.view) { revealed = null; return; }
    const view = answer.view;
    const cast = Object.entries(view.characters || {});
    if (mySeat) cast.sort(([, a], [, b]) => (b.seat === mySeat) - (a.seat === mySeat));
    const winners = (answer.outcome || {}).winners || [];
    box.replaceChildren(
      el("h2", { text: t("reveal") }),
      el("p", { class: "outcome", text: answer.outcome ? outcomeText(answer.outcome) : t("outcome_ended") }),
      el("p", { class: "reason", text: t("reason") + " " + typography(answer.reason) }),
      el("ul", { class: "roles" }, cast.map(([cid, c]) => el("li", { class: winners.includes(c.seat) ? "won" : null,
        text: t("seat_n", { seat: c.seat }) + " · " + who(cid) + " — " + (c.role ? t("role_" + c.role) : t("role_none")) + (c.alive ? "" : " ✝") + (winners.includes(c.seat) ? " ★" : "") }))),
      el("p", {}, el("a", { class: "replay-link", href: "/replay/" + encodeURIComponent(answer.game) }, t("replay_link"))),
      el("div", { class: "board reveal-board" }));
    box.hidden = false;
    Board.draw(box.querySelector(".reveal-board"), view, { coords: true, short: !!mySeat });
  }

  /* A M.A.C. card (its id) as players read it: its name and what sets it apart (the line it
     slides, named like the cells); a card of an owner's own deck the pages do not know, by the
     kind its id starts with, and the id. */
  function cardText(id) {
    if (!id) return "—";
    const lone = loneCard(id);
    if (lone) return lone[0];
    if (N.cards[id]) return N.cards[id];
    const kind = id.split("-")[0];
    return (N.card_kinds[kind] || kind) + " (" + id + ")";
  }
  /* What a card does, in words. */
  function cardEffect(id) {
    const lone = loneCard(id);
    return lone ? lone[1] : (id && N.card_texts[id]) || "";
  }
  /* A Punishment card in a game without one or both of its pictured characters names only
     those in the game (as the engine shows it drawn): its [name, text], else null. */
  let cast = null;
  function loneCard(id) {
    const pictured = N.card_characters[id];
    if (!pictured || !cast) return null;
    const named = pictured.filter((cid) => cast.includes(cid));
    return named.length === pictured.length ? null : N.punishments[named[0] || ""];
  }
  /* A card's name with what it does, in words: for the table and the seat's M.A.C. panel. */
  function cardWithEffect(id) {
    const effect = cardEffect(id);
    return effect ? colon(cardText(id)) + effect : cardText(id);
  }

  function lineName(line) {
    if (typeof line !== "string") return "";
    return line.startsWith("row") ? t("line_row", { n: line.slice(3) }) : t("line_col", { n: line.slice(3) });
  }

  /* A legal command in the page's words, from its own fields: a seat's move on its phone, the
     table's choice on the host page. */
  function describe(c) {
    const parts = [];
    if (c.mimic) parts.push(t("mimics", { name: firstName(c.mimic) }));
    if (c.ability) parts.push(t("ability_" + c.ability));
    if (c.token) parts.push(t("action_" + c.token));
    if (c.robot !== undefined) parts.push(t("robot_at", { cell: cellName(c.robot) }));
    if (c.order) parts.push(t("order_" + c.order));
    if (c.line) parts.push(lineName(c.line));
    if (c.direction) parts.push(ARROWS[c.direction] + " " + t("dir_" + c.direction));
    if (c.target) parts.push(who(c.target));
    if (c.from !== undefined) parts.push(t("from_cell", { cell: cellName(c.from) }));
    if (c.cell !== undefined) parts.push(cellName(c.cell));
    if (c.cells) parts.push(c.cells.map(cellName).join(" ⇄ "));
    if (c.answer) parts.push(t("answer_" + c.answer));
    if (c.card) parts.push(N.cards[c.card] || cardText(c.card));  // as printed: the table finds it in hand
    return parts.join(" · ") || (c.action ? t("action_" + c.action) : t(c.type));
  }

  /* The programming clock counts down between updates. */
  setInterval(() => {
    for (const node of document.querySelectorAll("[data-ends]")) {
      const left = Math.max(0, Math.ceil((Number(node.dataset.ends) - Date.now()) / 1000));
      node.textContent = "⏱ " + t("seconds_left", { n: left });
    }
  }, 1000);

  document.addEventListener("DOMContentLoaded", () => {
    const pick = $("lang");
    if (pick) pick.addEventListener("change", async () => {
      const answer = await post("/api/language", { lang: pick.value });
      if (answer.ok) location.reload();
    });
  });

  return { texts, t, tn, typography, hostDecision, cellName, withName, colon, lineName, clearStale, reveal, room, who, firstName, freeSlots, $, el, patch, status, post, get, listen, banners, summary, outcomeText, cardText, cardEffect, cardWithEffect, describe };
})();
