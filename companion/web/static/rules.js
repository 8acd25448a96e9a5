/* Rules at a tap: any element with a data-rule attribute ("room:flooded", "card:<card id or
   kind>", "talent:jennifer", "action:look", "mode:solo") opens its rule in a dialog, in the
   page's language and as the running game's edition and settings decide it (GET /api/rules;
   data-rule-edition asks for an edition's own rules, as the host's wizard does). A tap on a
   button inside stays the button's: a cell to pick picks. On /rules, the search box filters. */
"use strict";
const Rules = (() => {
  const { t, el, colon } = R25;
  let dialog = null;

  function opened() {
    if (dialog) return dialog;
    dialog = el("dialog", { id: "rule-dialog", class: "rule-dialog", "aria-labelledby": "rule-name" });
    dialog.addEventListener("click", (e) => { if (e.target === dialog) dialog.close(); });
    document.body.append(dialog);
    return dialog;
  }

  /* A rule of the answer by its id; a card by its own id too (the answer maps cards to kinds). */
  function find(answer, id) {
    const rules = answer.rules || [];
    const wanted = id.startsWith("card:") && answer.cards && answer.cards[id.slice(5)] ? answer.cards[id.slice(5)] : id;
    return rules.find((r) => r.id === wanted) || null;
  }

  function reading(label, r) {
    return el("p", { class: "reading" }, el("strong", { text: colon(label) }), R25.typography(r.text) + " ", el("small", { class: "source", text: "(" + r.source + ")" }));
  }

  function body(rule) {
    const parts = [
      el("h2", { id: "rule-name", text: rule.name }),
      el("p", { class: "rule-text", text: R25.typography(rule.text) }),
      el("p", { class: "source", text: colon(t("rules_source")) + rule.source }),
    ];
    if (rule.points.length) parts.push(el("h3", { text: t("rules_disagree") }));
    for (const point of rule.points) {
      parts.push(el("section", { class: "rule-point" },
        el("h4", { text: point.about }),
        reading(t("rules_decision"), point.chosen),
        point.others.map((other) => reading(t("rules_other_reading"), other))));
    }
    return parts;
  }

  async function open(id, edition) {
    const answer = await R25.get("/api/rules" + (edition ? "?edition=" + encodeURIComponent(edition) : ""));
    if (answer.ok === false) return;
    const rule = find(answer, id);
    const box = opened();
    const close = el("button", { type: "button", class: "close", on: { click: () => box.close() } }, t("rules_close"));
    box.replaceChildren(...(rule ? body(rule) : [el("p", { text: t("rules_none") })]), close);
    if (!box.open) box.showModal();
    close.focus();
  }

  /* A tappable rule is reached with the keyboard too (Enter opens it). It keeps its own role:
     a heading stays a heading, so the buttons of a group are still only its moves. */
  function mark(root) {
    for (const node of root.querySelectorAll("[data-rule]:not([tabindex])")) {
      if (!node.closest("button, a, select, input, label")) node.tabIndex = 0;
    }
  }

  function target(e) {
    const node = e.target.closest && e.target.closest("[data-rule]");
    if (!node) return null;
    return e.target.closest("button, a, select, input, label, summary") ? null : node;
  }

  /* /rules: the search box hides the rules whose name and text do not hold every word typed
     (accents and case aside). */
  const plain = (s) => s.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase();
  function search(box) {
    const words = plain(box.value).split(/\s+/).filter(Boolean);
    let shown = 0;
    for (const item of document.querySelectorAll(".rule-item")) {
      const hit = words.every((w) => plain(item.textContent).includes(w));
      item.hidden = !hit;
      shown += hit;
    }
    for (const group of document.querySelectorAll(".rules-group")) {
      group.hidden = !group.querySelector(".rule-item:not([hidden])");
    }
    const count = document.getElementById("rules-count");
    if (count) count.textContent = R25.tn("rules_shown", shown);
  }

  document.addEventListener("click", (e) => {
    const node = target(e);
    if (node) open(node.dataset.rule, node.dataset.ruleEdition);
  });
  document.addEventListener("keydown", (e) => {
    if ((e.key === "Enter" || e.key === " ") && e.target.matches && e.target.matches("[data-rule][tabindex]")) {
      e.preventDefault();
      open(e.target.dataset.rule, e.target.dataset.ruleEdition);
    }
  });
  document.addEventListener("DOMContentLoaded", () => {
    mark(document);
    // A patched drawing keeps its nodes but drops the tabindex it did not draw: marked again.
    new MutationObserver(() => mark(document)).observe(document.body,
      { childList: true, subtree: true, attributes: true, attributeFilter: ["tabindex", "data-rule"] });
    const edition = document.getElementById("rules-edition");
    if (edition) edition.addEventListener("change", () => edition.form.submit());
    const box = document.getElementById("rules-search");
    if (box) {
      box.addEventListener("input", () => search(box));
      search(box);
    }
  });
  return { open };
})();
