// The virtual panel: follows the OLED picture and the LEDs by long polling /panel/state, plays
// the buzzer's patterns with Web Audio, and sends the seat and control buttons' presses.
"use strict";

const LONG_PRESS_MS = 1000;
let patterns = {};
let audio = null;
let frame = -1;
let sound = -1;

function post(path, body) {
  return fetch(path, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-Room25": "1" },
    body: JSON.stringify(body || {}),
  }).then((r) => r.json()).then((reply) => {
    document.getElementById("said").textContent = reply.ok ? "" : reply.text || "";
  });
}

function frequency(note) {
  const names = { C: -9, D: -7, E: -5, F: -4, G: -2, A: 0, B: 2 };
  const match = /^([A-G])(#?)(\d)$/.exec(note);
  if (!match) return 440;
  const semitones = names[match[1]] + (match[2] ? 1 : 0) + (Number(match[3]) - 4) * 12;
  return 440 * Math.pow(2, semitones / 12);
}

function play(name, volume) {
  const notes = patterns[name];
  if (!audio || !notes) return;
  let at = audio.currentTime + 0.02;
  for (const [note, seconds] of notes) {
    if (note) {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.type = "square";
      osc.frequency.value = frequency(note);
      gain.gain.value = 0.15 * volume;
      osc.connect(gain).connect(audio.destination);
      osc.start(at);
      osc.stop(at + seconds);
    }
    at += seconds;
  }
}

function show(state) {
  if (state.frame !== frame) {
    frame = state.frame;
    document.getElementById("oled").src = "/panel/oled.png?frame=" + frame;
  }
  document.getElementById("oled-box").className = "oled " + state.lit;
  document.querySelectorAll(".led").forEach((led) => {
    led.className = "led " + (state.lights[led.id.slice(4)] || "");
  });
  for (const name of state.sounds) play(name, state.volume);
  // Only the seats of the game on the table (none before a game).
  document.querySelectorAll(".seat").forEach((button) => {
    button.hidden = !state.seats.includes(button.dataset.seat);
  });
  document.getElementById("no-seats").hidden = state.seats.length > 0;
  sound = state.sound;
}

function poll() {
  fetch(`/panel/state?frame=${frame}&sound=${sound}`, { cache: "no-store" })
    .then((r) => (r.ok ? r.json() : Promise.reject(r.status)))
    .then((state) => { show(state); poll(); })
    .catch(() => setTimeout(poll, 2000));
}

function start() {
  const panel = document.getElementById("panel");
  if (panel.dataset.ready !== "yes") return;
  fetch("/panel/patterns.json").then((r) => r.json()).then((p) => { patterns = p; });
  const holdMs = Number(panel.dataset.hold) * 1000;
  document.querySelectorAll(".seat").forEach((button) => {
    // As the hardware's button: released before the hold time it is a press; held that long,
    // a hold (the phone asking for this seat gets it), sent while the button is still down.
    const path = `/panel/seats/${button.dataset.seat}/press`;
    let timer = null;
    const release = (pressed) => {
      if (timer === null) return;
      clearTimeout(timer);
      timer = null;
      button.classList.remove("holding");
      if (pressed) post(path, { long: false });
    };
    button.addEventListener("pointerdown", (event) => {
      button.setPointerCapture(event.pointerId);
      button.classList.add("holding");
      timer = setTimeout(() => {
        timer = null;
        button.classList.remove("holding");
        post(path, { long: true });
      }, holdMs);
    });
    button.addEventListener("pointerup", () => release(true));
    button.addEventListener("pointercancel", () => release(false));
    button.addEventListener("click", (event) => {
      // A keyboard's Enter or Space (no pointer): a press; Shift for a hold.
      if (event.detail === 0) post(path, { long: event.shiftKey });
    });
  });
  document.querySelectorAll(".control").forEach((button) => {
    let down = 0;
    button.addEventListener("pointerdown", () => { down = Date.now(); });
    button.addEventListener("pointerup", () => {
      const long = down > 0 && Date.now() - down >= LONG_PRESS_MS;
      down = 0;
      post(`/panel/controls/${button.dataset.control}`, { long });
    });
    button.addEventListener("click", (event) => {
      // A keyboard's Enter or Space (no pointer): a short press; Shift for a long one.
      if (event.detail === 0) post(`/panel/controls/${button.dataset.control}`, { long: event.shiftKey });
    });
  });
  document.getElementById("sound").addEventListener("change", (event) => {
    if (event.target.checked && !audio) audio = new AudioContext();
    if (!event.target.checked && audio) { audio.close(); audio = null; }
  });
  poll();
}

document.addEventListener("DOMContentLoaded", start);
