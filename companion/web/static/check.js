// The wiring check on the host page and the virtual panel: start or stop it at /panel/check,
// then follow it (the step asked for, one line a part, the summary) while it runs. The walk
// itself runs on the companion: the OLED, the buttons and their lights follow it there.
"use strict";
(() => {
  const $ = (id) => document.getElementById(id);
  const POLL_MS = 500;
  let timer = null;

  function show(state) {
    $("check-start").hidden = state.running;
    $("check-stop").hidden = !state.running;
    $("check-prompt").textContent = state.running ? state.prompt : "";
    $("check-lines").replaceChildren(...state.lines.map((line) => {
      const item = document.createElement("li");
      item.textContent = line.text;
      item.className = `check-${line.status}`;
      return item;
    }));
    $("check-summary").textContent = state.summary.join(" ");
    clearTimeout(timer);
    if (state.running) timer = setTimeout(() => call("GET"), POLL_MS);
  }

  async function call(method, body) {
    let answer;
    try {
      const reply = await fetch("/panel/check", {
        method,
        headers: { "Content-Type": "application/json", "X-Room25": "1" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      answer = reply.status === 503 ? null : await reply.json();
    } catch (error) {
      answer = null;
    }
    if (answer === null) {
      $("check-prompt").textContent = $("check-table").dataset.none;
    } else if (answer.ok === false) {
      $("check-prompt").textContent = answer.refusal.text;
    } else {
      show(answer);
    }
  }

  document.addEventListener("DOMContentLoaded", () => {
    if (!$("check-start")) return;
    $("check-start").addEventListener("click", () => call("POST", {}));
    $("check-stop").addEventListener("click", () => call("POST", { stop: true }));
    const box = $("check-table");
    if (box.tagName === "DETAILS") box.addEventListener("toggle", () => { if (box.open) call("GET"); });
    else call("GET");
  });
})();
