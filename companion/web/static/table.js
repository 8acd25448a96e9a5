/* The table page: the public board, countdown, turn order, the last card and a public log of
   the game in plain sentences. It asks for the public view only, so it holds no secret. */
"use strict";
(() => {
  const { $, t, room, firstName, el, listen, banners, summary } = R25;
  let logGame = null;  // the game whose log is shown
  let played = false;  // a game was on the table: its end by the host is revealed too

  /* An event of the public record as a sentence: cells by name (C2), characters by name. */
  function sentence(e) {
    const p = { who: firstName(e.character), room: room(e.room || e.kind), cell: R25.cellName(e.cell), seat: e.seat || "", card: R25.cardText(e.card),
      line: R25.lineName(e.line), direction: e.direction ? t("dir_" + e.direction).toLowerCase() : "" };
    const key = "log_" + e.type;
    const text = t(key, p);
    return text === key ? R25.hostDecision(e) : text;
  }

  function render(update) {
    banners(update);
    summary(update, $("summary"));
    const view = update.view || {};
    if (update.game) played = true;
    const over = (update.waiting || {}).phase === "over" || (!update.game && played);
    $("live").hidden = !!over;
    document.querySelector(".table-layout").classList.toggle("over", !!over);
    if (over) R25.reveal($("reveal"), update.game || "ended");
    else $("reveal").hidden = true;
    Board.draw($("board"), view, { coords: true });
    const cast = $("cast");
    R25.patch(cast, Object.entries(view.characters || {}).map(([cid, c]) =>
      el("li", { "data-rule": ((view.ruleset || {}).settings || {}).talents ? "talent:" + cid : null, text: firstName(cid) + " · " + t("seat_n", { seat: c.seat }) + (c.cell !== undefined && c.cell !== null ? " · " + R25.cellName(c.cell) : "") + (c.alive ? "" : " · ✝ " + t("dead")) + (c.locked_in && (update.waiting || {}).phase === "programming" ? " · " + t("locked_in") : "") + (c.role ? " · " + t("role_" + c.role) : "") })));
    const mac = view.mac || {};
    const pile = mac.discard || [];
    const last = mac.current || pile[pile.length - 1];
    $("card").textContent = last ? R25.cardWithEffect(last) : "—";
    $("card").toggleAttribute("data-rule", !!last);
    if (last) $("card").dataset.rule = "card:" + last;
    if (!logGame || logGame !== update.game || update.resync || (update.session || {}).undone) {
      logGame = update.game;
      rebuildLog();
    } else {
      for (const e of update.events || []) write(e);
      moments(update.events);
    }
  }

  /* The alarm and a M.A.C. card take the whole screen for a moment, so the table sees them
     from across the room; a tap (or the next moment) puts the board back. */
  let flashTimer = null;
  function flash(kind, title, detail) {
    const box = $("flash");
    box.className = "flash " + kind;
    box.replaceChildren(el("div", { class: "flash-title", text: title }), detail ? el("div", { class: "flash-detail", text: detail }) : null);
    box.hidden = false;
    clearTimeout(flashTimer);
    flashTimer = setTimeout(() => { box.hidden = true; }, 7000);
  }
  function moments(events) {
    for (const e of events || []) {
      if (e.type === "alarm") flash("alarm", "🚨 " + t("alarm"), R25.tn("turns_left_label", e.turns_left ?? 0));
      if (e.type === "mac_drawn" && e.card) flash("card", R25.cardText(e.card), R25.cardEffect(e.card));
    }
  }

  function write(e) {
    const line = sentence(e);
    if (line) $("log").prepend(el("li", { text: line }));
  }

  /* The whole public record: at (re)connection, after an undo or a resync. */
  async function rebuildLog() {
    const answer = await R25.get("/api/log");
    $("log").replaceChildren();
    for (const e of answer.events || []) write(e);
  }

  document.addEventListener("DOMContentLoaded", () => {
    $("flash").addEventListener("click", () => { $("flash").hidden = true; });
    listen("table", (u) => u && render(u));
  });
})();
