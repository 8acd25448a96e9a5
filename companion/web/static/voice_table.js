// The table page's voice: when the host ticks "the table page speaks", each new announcement is
// said with the browser's own speech (a TV or a tablet with speakers, no Pi speaker needed), in
// the voice's language and at its volume, unless the host muted it; a newer one cuts the one
// being said. The words are the voice's public announcement, as every screen may hear it.
"use strict";
(() => {
  let after = 0;

  /* A browser speaks only after a first tap on the page: the button asks for it once. */
  function offer(said) {
    const button = R25.$("voice-let-speak");
    const active = !navigator.userActivation || navigator.userActivation.hasBeenActive;
    button.hidden = !said.table_speaks || said.muted || active;
  }

  /* The language's voice tag (language.json) as a browser writes it, its region in capitals;
     none if it is no tag. */
  function tag(speech) {
    try { return Intl.getCanonicalLocales(speech || [])[0]; } catch (e) { return undefined; }
  }

  function say(said) {
    if (!said.table_speaks || said.muted || !said.text || !window.speechSynthesis) return;
    const utterance = new SpeechSynthesisUtterance(said.text);
    utterance.lang = tag(said.speech) || said.lang || "";
    utterance.volume = said.volume;
    speechSynthesis.cancel();
    speechSynthesis.speak(utterance);
  }

  /* The first answer only says where the voice is: a page that just opened says nothing old. */
  function poll(first) {
    fetch("/api/voice/latest" + (first ? "" : "?after=" + after), { cache: "no-store" })
      .then((r) => (r.ok ? r.json() : Promise.reject(r.status)))
      .then((said) => {
        if (!said.on) return;  // no voice on this companion
        offer(said);
        if (said.muted && window.speechSynthesis) speechSynthesis.cancel();
        if (!first && said.id > after) say(said);
        after = said.id;
        R25.$("voice-let-speak").dataset.seen = String(after);
        poll(false);
      })
      .catch(() => setTimeout(() => poll(first), 2000));
  }

  function start() {
    const button = R25.$("voice-let-speak");
    button.addEventListener("click", () => { button.hidden = true; });
    poll(true);
  }

  document.addEventListener("DOMContentLoaded", start);
})();
