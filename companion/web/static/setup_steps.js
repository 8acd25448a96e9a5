/* The physical set-up taught step by step (issue 32, point 1), on the host page, the table
   page and the phones: the step the table is at, from the session's public part
   (`session.setup`, public facts only), the tiles to take out listed beside it, and on the
   host page only Back and Next (POST /api/host/setup_back, /api/host/setup_next: a phone reads
   the step, the host or the table's button moves it). Loaded before host.js, table.js and
   player.js, it is handed every update of their own stream (no second stream per page). */
"use strict";
(() => {
  const { t, el, room, firstName, freeSlots, post, patch } = R25;
  const listen = R25.listen;
  R25.listen = (as, onUpdate) => listen(as, (u) => { onUpdate(u); show(u, as); });

  /* A step in words, as teaching/setup.py `step_text` puts it for the OLED and the voice. */
  function stepText(step) {
    const values = { ...step.params };
    if (step.id === "set_aside") values.rooms = step.params.rooms.map(room);
    if (step.id === "countdown") values.last = firstName(step.params.order[step.params.order.length - 1]);
    return t("setup_" + step.key, values);
  }

  /* The tiles of the composition, for the step that takes them out of the box. */
  function tiles(step) {
    if (step.id !== "compose") return [];
    const lines = step.params.rooms.map((line) => el("li", { text: line.count + " × " + room(line.room) }));
    const free = freeSlots(step.params.free);
    if (free) lines.push(el("li", { class: "setup-free", text: free }));
    return [el("ul", { class: "setup-tiles" }, lines)];
  }

  /* The step's card: right above the host's controls, wherever host.js has moved them (a game
     in play puts them before the folded wizard); on the table page at the top of the column
     beside the board, where a TV shows it instead of the cast, card and log (room25.css), none
     of which has anything to say before the first command; on a phone above its task, the
     first thing it reads. */
  function box(as) {
    let found = document.getElementById("setup-walk");
    if (!found) {
      found = el("section", { id: "setup-walk", class: as === "table" ? null : "card", "aria-live": "polite", hidden: true });
      if (as === "table") document.querySelector(".table-layout .side")?.prepend(found);
      if (as === "seat") document.getElementById("task")?.before(found);
    }
    const controls = document.getElementById("controls");
    if (as === "host" && controls && found.nextElementSibling !== controls) controls.before(found);
    return found;
  }

  function show(update, as) {
    const walk = update && update.session && update.session.setup;
    const host = as === "host";
    const shown = box(as);
    shown.hidden = !walk;
    if (!walk) { shown.replaceChildren(); return; }
    const step = walk.steps[walk.at];
    const children = [
      el("h2", { text: t("setup_title") }),
      el("p", { class: "setup-count", text: t("setup_step", { n: walk.at + 1, count: walk.steps.length }) }),
      el("p", { id: "setup-step", class: "setup-step", "data-step": step.id, text: stepText(step) }),
      ...tiles(step),
    ];
    if (host) {
      children.push(el("div", { class: "grid-buttons" },
        el("button", { type: "button", id: "setup-back", disabled: walk.at === 0, on: { click: () => post("/api/host/setup_back") }, text: t("setup_back") }),
        el("button", { type: "button", id: "setup-next", class: "big", on: { click: () => post("/api/host/setup_next") }, text: t("setup_next") })));
    }
    // Patched in: a Next tapped while another update arrives is not lost under the finger.
    patch(shown, children);
  }
})();
