/* The 5×5 complex drawn from a view: revealed rooms by name, rooms this seat has seen (its
   notebook, which follows the tiles when lines slide), characters, reminders, robots, locks.
   Each cell reads as a sentence for screen readers; colours are doubled by words and stripes. */
"use strict";
const Board = (() => {
  const { t, room, firstName, el } = R25;

  function cellLabel(cell, seen) {
    const parts = [cell.cell];
    if (cell.room) parts.push(room(cell.room));
    else if (seen) parts.push(t("seen") + " " + room(seen));
    else parts.push(t("hidden_room"));
    if (cell.occupants.length) parts.push(cell.occupants.map(firstName).join(", "));
    if (cell.reminders.length) parts.push(t("reminder_of", { seats: cell.reminders.join(", ") }));
    if (cell.robots) parts.push(R25.tn("robots_n", cell.robots));
    if (cell.locked) parts.push(t("locked"));
    if (cell.sealed) parts.push(t("sealed"));
    return parts.join(", ");
  }

  /* On a phone a cell is about 60 px wide: a room by the word that sets it apart, as the
     catalogue writes it (room_short_<kind>: "Salle inondable" as "Inondable", "Flooded
     chamber" as "Flooded"); the cell's label keeps the whole name for screen readers. */
  const shortRoom = (kind) => R25Words.hyphenable(R25.texts.names.rooms_short[kind] || room(kind));
  /* A revealed room's colour doubled by a symbol the project draws (no image to fetch): a
     tick for the green rooms (safe), an eye for the yellow (something happens), a warning
     triangle for the red (deadly), a star for the blue (the Central room, Room 25). */
  const SHAPES = {
    green: "M4 12l5 5 11-11",
    yellow: "M2 12c4-7 16-7 20 0c-4 7-16 7-20 0zM12 9a3 3 0 1 0 0 6a3 3 0 1 0 0-6z",
    red: "M12 2l10 19H2zM12 9v5M12 17v1",
    blue: "M12 2l3 7h7l-5.5 4.5 2 7.5-6.5-4.5-6.5 4.5 2-7.5L2 9h7z",
  };
  /* What a cell holds besides its characters, drawn the same way: an emoji needs a font that
     the table's TV may lack (Debian's Chromium showed empty boxes for the lock). */
  const MARKS = {
    robot: "M6 9h12v9H6zM12 9V5M10 13v1M14 13v1",
    locked: "M7 11V8a5 5 0 0 1 10 0v3M5 11h14v10H5z",
    sealed: "M12 3a9 9 0 1 0 0 18a9 9 0 1 0 0-18zM7 12h10",
  };
  const drawn = {};  // one parsed symbol per kind (the HTML parser puts it in SVG's namespace)
  function drawing(kind, path) {
    if (!drawn[kind]) {
      const holder = document.createElement("template");
      holder.innerHTML = '<svg viewBox="0 0 24 24" aria-hidden="true" class="' + kind + '"><path d="' + path + '"/></svg>';
      drawn[kind] = holder.content.firstChild;
    }
    return drawn[kind].cloneNode(true);
  }
  const symbol = (colour) => drawing("symbol s-" + colour, SHAPES[colour]);
  const mark = (kind) => drawing("mark m-" + kind, MARKS[kind]);

  function marks(cell) {
    return el("span", { class: "marks" },
      cell.reminders.length ? "◆" + cell.reminders.join("") + " " : null,
      cell.robots ? [mark("robot"), String(cell.robots)] : null,
      cell.locked ? mark("locked") : null,
      cell.sealed ? mark("sealed") : null);
  }

  /* Patched in, not drawn anew: a cell under a finger (a destination being picked, a room
     tapped for its rule) stays the same node when an update arrives between down and up. */
  function draw(container, view, options) {
    options = options || {};
    const notebook = options.notebook || {};
    const pick = new Set(options.pick || []);
    const rows = view && view.complex;
    if (!rows) {
      R25.patch(container, [el("p", { text: t("no_complex") })]);
      return;
    }
    const named = (kind) => (options.short ? shortRoom(kind) : room(kind));
    container.classList.toggle("coords", !!options.coords);
    const COLUMNS = "ABCDE";
    const nodes = [];
    if (options.coords) {
      nodes.push(el("span", { class: "coord", "aria-hidden": "true" }),
        ...[...COLUMNS].map((c) => el("span", { class: "coord", "aria-hidden": "true", title: t("column_label", { n: c }), text: c })));
    }
    for (const [r, row] of rows.entries()) {
      if (options.coords) nodes.push(el("span", { class: "coord", "aria-hidden": "true", title: t("row_label", { n: r + 1 }), text: String(r + 1) }));
      for (const cell of row) {
        const seen = notebook[cell.cell];
        const kind = cell.room || seen;
        const colour = kind ? (R25.texts.names.colours[kind] || "") : "";
        const classes = ["cell", cell.room ? "revealed" : "hidden", seen && !cell.room ? "seen" : "", colour ? "c-" + colour : "", pick.has(cell.cell) ? "pick" : ""];
        const attrs = { class: classes.join(" ").trim(), role: "gridcell", "aria-label": cellLabel(cell, seen), "data-cell": cell.cell };
        const inner = [
          cell.room && SHAPES[colour] ? symbol(colour) : null,
          el("span", { class: "room", "data-rule": kind ? "room:" + kind : null, text: cell.room ? named(cell.room) : seen ? t("seen") + " " + named(seen) : "?" }),
          el("span", { class: "who", text: cell.occupants.map((c) => firstName(c).slice(0, 3)).join(" ") }),
          marks(cell),
        ];
        if (pick.has(cell.cell) && options.onPick) {
          nodes.push(el("button", { ...attrs, type: "button", on: { click: () => options.onPick(cell.cell) } }, inner));
        } else {
          nodes.push(el("div", attrs, inner));
        }
      }
    }
    R25.patch(container, nodes);
  }
  return { draw };
})();
