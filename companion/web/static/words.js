/* Room 25 Companion: a text of the catalogue with its values filled in, the way
   companion/words/fill.py does it, from the language's own settings (`texts.language`, its
   language.json): elision where a value meets the word before it ("de Emmett" -> "d'Emmett"),
   lists joined with the language's words, and the no-break space some languages set before
   : ; ? !, and the soft hyphens that let a board cell's room name break. Shared by every page
   and by the recap file, which carries it inline. */
"use strict";
const R25Words = (() => {
  const PLACEHOLDER = /\{([a-z_][a-z0-9_]*)(?::[a-z_]+)?(?:\|(or|and))?(!r)?\}/g;
  function elide(language, before, value) {
    const rule = language && language.elision;
    const first = String(value).charAt(0).toLowerCase();
    if (!rule || !first || !rule.before.includes(first)) return before;
    if (/^.\d/.test(String(value))) return before;  // a cell ("de A3"): no elision
    const pattern = new RegExp("\\b(" + rule.words.join("|") + ") $", "i");
    return before.replace(pattern, (_, word) => word.slice(0, -1) + "'");
  }
  function said(language, value, join) {
    if (!Array.isArray(value)) return String(value);
    const lists = (language && language.lists) || { "": ", " };
    if (!join || value.length < 2) return value.join(lists[""]);
    return value.slice(0, -1).join(lists[""]) + lists[join] + value[value.length - 1];
  }
  function typography(language, s) {
    const signs = (language && language.space_before) || "";
    if (!signs) return s;
    const escaped = signs.replace(/[\\\]^-]/g, "\\$&");
    return s.replace(new RegExp("[ \\u00a0\\u202f]?([" + escaped + "])(?=[\\s)\\]»]|$)", "g"), "\u00a0$1");
  }
  function fill(language, template, params) {
    let out = "";
    let last = 0;
    for (const m of template.matchAll(PLACEHOLDER)) {
      out += template.slice(last, m.index);
      last = m.index + m[0].length;
      if (!params || !(m[1] in params)) { out += m[0]; continue; }
      const quotes = (language && language.quotes) || ["'", "'"];
      const value = m[3] ? quotes[0] + params[m[1]] + quotes[1] : said(language, params[m[1]], m[2]);
      out = elide(language, out, value) + value;
    }
    return typography(language, out + template.slice(last));
  }
  /* "Label: value" with the language's space before the colon. */
  const colon = (language, label) => typography(language, label + ": ");
  /* Soft hyphens between syllables (before a consonant and its vowel, or between two
     consonants), at least two letters from either end: a word too long for its cell breaks
     there, with a hyphen, instead of spilling out. */
  const V = "aeiouyàáâäéèêëìíîïòóôöùúûü";
  const SYLLABLE = new RegExp("(?<=[" + V + "])(?=[^" + V + "\\s'-][" + V + "])|(?<=[" + V + "][^" + V + "\\s'-])(?=[^" + V + "\\s'-][" + V + "])", "gi");
  function hyphenable(text) {
    return text.split(" ").map((word) => word.length < 7 ? word :
      word.replace(SYLLABLE, (at, offset) => offset >= 2 && offset <= word.length - 2 ? "\u00ad" : "")).join(" ");
  }
  return { fill, typography, colon, hyphenable };
})();
