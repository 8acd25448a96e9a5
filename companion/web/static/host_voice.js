// The host page's voice controls: volume, mute, quiet table, the voice's language, the table
// page speaking, and a test; each change is sent at once to /api/host/voice, and the page shows
// what the server kept (a refusal is said in the status line and changes nothing).
"use strict";
(() => {
  const $ = (id) => document.getElementById(id);

  function show(settings) {
    $("voice-off").hidden = settings.on;
    $("voice-fields").disabled = !settings.on;
    $("voice-table").checked = settings.table_speaks;
    if (!settings.on) return;
    $("voice-volume").value = String(Math.round(settings.volume * 100));
    $("voice-mute").checked = settings.mute;
    $("voice-quiet").checked = settings.quiet;
    $("voice-lang").value = settings.lang;
  }

  async function load() {
    const settings = await R25.get("/api/host/voice");
    if (settings.ok) show(settings);
  }

  async function change(fields, done) {
    const settings = await R25.post("/api/host/voice", fields);
    if (settings.ok) {
      show(settings);
      R25.status(done);
    } else {
      load();  // the page shows again what the voice kept
    }
  }

  function start() {
    const box = $("voice-controls");
    if (!box) return;
    box.addEventListener("toggle", () => { if (box.open) load(); });
    const saved = R25.t("voice_page_saved");
    $("voice-volume").addEventListener("change", (e) => change({ volume: Number(e.target.value) / 100 }, saved));
    $("voice-mute").addEventListener("change", (e) => change({ mute: e.target.checked }, saved));
    $("voice-quiet").addEventListener("change", (e) => change({ quiet: e.target.checked }, saved));
    $("voice-lang").addEventListener("change", (e) => change({ lang: e.target.value }, saved));
    $("voice-table").addEventListener("change", (e) => change({ table_speaks: e.target.checked }, saved));
    $("voice-test").addEventListener("click", () => change({ test: true }, R25.t("voice_page_tested")));
  }

  document.addEventListener("DOMContentLoaded", start);
})();
