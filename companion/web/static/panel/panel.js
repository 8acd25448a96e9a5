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
  document.querySelectorAll(".seat").forEach((button) => {
    button.addEventListener("click", () => post(`/panel/seats/${button.dataset.seat}/press`));
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
