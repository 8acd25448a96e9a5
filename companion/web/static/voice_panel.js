// The virtual panel's voice: long polls /panel/voice/latest and plays each new announcement's
// WAV at the host's volume, so a laptop table hears the show. Nothing is played while the host
// has muted the voice or the panel's Sound is off; a newer announcement cuts the one playing.
"use strict";
(() => {
  const player = document.getElementById("voice");
  let after = 0;

  const soundOn = () => {
    const box = document.getElementById("sound");
    return box !== null && box.checked;
  };

  function play(said) {
    if (said.muted || !said.wav || !soundOn()) return;
    player.volume = Math.min(1, Math.max(0, said.volume));
    player.src = said.wav;
    player.dataset.played = String(said.id);
    player.play().catch(() => {});
  }

  /* The first answer only says where the voice is: a page that just opened says nothing old. */
  function poll(first) {
    fetch("/panel/voice/latest" + (first ? "" : "?after=" + after), { cache: "no-store" })
      .then((r) => (r.ok ? r.json() : Promise.reject(r.status)))
      .then((said) => {
        if (!said.on) return;  // no voice on this companion
        player.dataset.muted = said.muted ? "yes" : "no";
        if (said.muted) player.pause();
        if (!first && said.id > after) play(said);
        after = said.id;
        player.dataset.seen = String(after);
        poll(false);
      })
      .catch(() => setTimeout(() => poll(first), 2000));
  }

  function start() {
    if (!player) return;
    player.addEventListener("playing", () => { player.dataset.heard = player.dataset.played; });
    const box = document.getElementById("sound");
    if (box) box.addEventListener("change", () => { if (!box.checked) player.pause(); });
    poll(true);
  }

  document.addEventListener("DOMContentLoaded", start);
})();
