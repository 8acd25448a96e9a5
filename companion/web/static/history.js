/* The host page's table history: every game (date, edition, mode, composition, players, names,
   result), and per composition how this table fares beside the simulator, with the chart the
   companion draws. The players' names are typed here, for the host's eyes only. */
"use strict";
const R25History = (() => {
  const { $, t, el, post, get, status } = R25;
  let again = null;  // the next look while the simulator is still playing a composition
  let editing = null;  // the game whose names are being typed (kept across refreshes)

  /* Read when the host opens the history (a composition seen for the first time sets the
     simulator to work: not while the host only runs a game). */
  async function refresh() {
    clearTimeout(again);
    if (!$("history").open) return;
    const answer = await get("/api/host/history");
    if (!answer.games) return;
    games(answer.games);
    groups(answer.groups);
    if (answer.groups.some((g) => g.simulating)) again = setTimeout(refresh, 3000);
  }

  const percent = (rate) => Math.round(rate * 100) + "%";
  const names = (g) => Object.entries(g.names).map(([seat, name]) => R25.colon(t("seat_n", { seat })) + name).join(", ");

  function games(list) {
    const body = $("history-games");
    if (!list.length) { body.replaceChildren(el("tr", {}, el("td", { colspan: "7", text: t("history_none") }))); return; }
    body.replaceChildren(...[...list].reverse().flatMap((g) => {
      const result = g.result ? t("history_result_" + g.result) : t("status_" + g.status);
      // Each cell carries its column's name: on a phone the rows stack, each cell labelled.
      const cell = (label, attrs, ...inside) => el("td", { ...attrs, "data-label": R25.colon(t(label)) }, ...inside);
      const row = el("tr", { "data-game": g.game },
        cell("history_date", { text: g.date }), cell("history_edition", { text: t("edition_" + g.edition) }),
        cell("history_mode", { text: t("mode_" + g.mode) }), cell("history_composition", { text: g.composition_name }),
        cell("history_players", { text: String(g.players || "?") }),
        cell("history_names", { class: "names" }, names(g), " ",
          el("button", { type: "button", class: "small", on: { click: () => { editing = editing === g.game ? null : g.game; games(list); } } }, t("history_name_seats"))),
        cell("history_result", { text: result + (g.rigged ? " (" + t("history_rigged") + ")" : "") }));
      return editing === g.game ? [row, nameForm(g)] : [row];
    }));
  }

  function nameForm(g) {
    const seats = Array.from({ length: g.players || 0 }, (_, i) => String(i + 1));
    const form = el("form", { class: "history-names" },
      el("p", { text: t("history_name_help") }),
      seats.map((seat) => el("label", {}, t("seat_n", { seat }) + " ",
        el("input", { name: seat, value: g.names[seat] || "", maxlength: "24", autocomplete: "off" }))),
      el("button", { type: "submit" }, t("history_save_names")));
    form.addEventListener("submit", async (e) => {
      e.preventDefault();
      // Looked up by name: form.elements["1"] would be the form's second field.
      const typed = Object.fromEntries(seats.map((seat) => [seat, form.querySelector("input[name='" + seat + "']").value]));
      const answer = await post("/api/host/games/" + encodeURIComponent(g.game) + "/names", { names: typed });
      if (answer.ok) { editing = null; status(t("history_names_saved")); refresh(); }
    });
    return el("tr", {}, el("td", { colspan: "7" }, form));
  }

  function groups(list) {
    const box = $("history-groups");
    if (!list.length) { box.replaceChildren(el("p", { text: t("history_no_rates") })); return; }
    box.replaceChildren(...list.map((g) => {
      const sim = g.simulated ? g.simulated.results : {};
      const results = [...new Set([...Object.keys(g.rates), ...Object.keys(sim)])].sort();
      const note = g.simulating ? t("history_simulating") : g.simulated ? null : t("history_no_simulation");
      return el("figure", { class: "history-group" },
        el("figcaption", { text: R25.tn("history_group", g.games, { mode: t("mode_" + g.mode), players: g.players, composition: g.composition_name }) }),
        chart(g.chart),
        note && el("p", { class: "note", text: note }),
        // The chart's figures as text too, for screen readers and a quick read.
        el("ul", { class: "rates" }, results.map((r) => el("li", { "data-result": r },
          R25.colon(t("history_result_" + r)) + percent(g.rates[r] || 0) + " / " + (g.simulated ? percent(sim[r] || 0) : "–")))));
    }));
  }

  /* The companion's SVG, parsed as SVG (no markup of ours goes through innerHTML). */
  function chart(svg) {
    const parsed = new DOMParser().parseFromString(svg, "image/svg+xml").documentElement;
    return document.importNode(parsed, true);
  }

  document.addEventListener("DOMContentLoaded", () => $("history").addEventListener("toggle", refresh));
  return { refresh };
})();
