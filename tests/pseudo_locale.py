"""The pseudo-locale of the tests (issue 30, point 4): the fallback language's texts accented,
about 35 % longer and bracketed, written as a language folder for `$ROOM25_WORDS`. A text that
does not come from the catalogue shows (it has no brackets), and so does one whose box does not
let it grow (it is cut, or runs out).

Shared by the language-folder, page, OLED, voice and recap tests: `from pseudo_locale import
pseudo` (the tests folder is on `sys.path`, as for `serving`)."""

from __future__ import annotations

import json
import re
from importlib import resources
from pathlib import Path

from companion import words

CODE = "qps"  # the pseudo-locale's code ("qps-ploc" is the usual one)
ACCENTS = str.maketrans("aeiouyAEIOUYcnsz", "áéîöûýÁÉÎÖÛÝçñšž")
PLACEHOLDER = re.compile(r"(\{[^{}]*\})")
# One pseudo text with nothing bracketed inside it: removed from the inside out, a text built of
# pseudo texts (a value filled in, two texts joined) leaves only what was added around them.
BRACKETED = re.compile(r"\[[^\[\]]*\]")


def pseudo(text: str) -> str:
    """A text accented, ~35 % longer and bracketed, its placeholders untouched."""
    parts = PLACEHOLDER.split(text)
    said = "".join(p if PLACEHOLDER.fullmatch(p) else p.translate(ACCENTS) for p in parts)
    return f"[{said}{'~' * (len(text) * 35 // 100)}]"


def write_pseudo_locale(root: Path) -> Path:
    """The pseudo-locale's folder, made from the fallback language's files; the folder of
    language folders to name in `$ROOM25_WORDS`."""
    source = Path(words.__file__).parent / words.fallback()
    folder = root / CODE
    folder.mkdir(parents=True)
    for path in source.glob("*.json"):
        found = json.loads(path.read_text("utf-8"))
        if path.name == "language.json":
            found["name"] = pseudo("Pseudo")
            found["lists"] = {k: f" {pseudo(v.strip())} " for k, v in found["lists"].items() if k}
            found["lists"][""] = ", "
        else:
            found = {k: v if k.startswith("_") else pseudo(v) for k, v in found.items()}
        (folder / path.name).write_text(json.dumps(found, ensure_ascii=False), "utf-8")
    return root


def allowed(*more: str) -> re.Pattern[str]:
    """What a surface shows or says that is no language's: numbers (seats, turns, times), signs
    and arrows, the characters' names as printed (Emmett), whole or in the board's three
    letters, and the patterns `more` (a PIN, an address)."""
    cast = resources.files("companion.engine") / "data" / "characters.json"
    names = [c["name"] for c in json.loads(cast.read_text("utf-8"))["characters"]]
    named = "|".join(sorted({*names, *(n[:3] for n in names)}, key=len, reverse=True))
    signs = r"[\d:.,;/·•×+\-–—→←↑↓↔?!#%()\sℹ…◀▶⏸▸▾★]"
    return re.compile(rf"(?:{signs}|{'|'.join((*more, named))})*")


def outside_catalogue(text: str, allowed: re.Pattern[str]) -> str:
    """What is left of a shown text once every pseudo text is taken out of it, unless all of it
    is `allowed` (numbers, signs, names typed by the players): the words that came from
    elsewhere, or "" if none did."""
    left, before = text, None
    while left != before:
        before, left = left, BRACKETED.sub(" ", left)
    return "" if allowed.fullmatch(left.strip()) else left.strip()


# Every visible text of a page at its present size, as [text, where] pairs: each text node shown
# (not in a script, a style, a hidden element or a closed <details>), and the placeholders of
# the fields shown; only those inside the element a selector names, if given one.
SHOWN_TEXTS = """(root) => {
  const top = root ? document.querySelector(root) : document.body;
  const shown = (el) => el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })
    && el.getClientRects().length > 0;
  const where = (el) => el.id ? `#${el.id}` : `${el.tagName.toLowerCase()}.${el.className}`;
  const found = [];
  const walk = document.createTreeWalker(top, NodeFilter.SHOW_TEXT);
  for (let node = walk.nextNode(); node; node = walk.nextNode()) {
    const el = node.parentElement;
    if (!node.data.trim() || ["SCRIPT", "STYLE", "TEMPLATE"].includes(el.tagName)) continue;
    if (shown(el)) found.push([node.data.trim(), where(el)]);
  }
  for (const field of top.querySelectorAll("[placeholder]")) {
    if (shown(field) && field.placeholder.trim()) found.push([field.placeholder, where(field)]);
  }
  return found;
}"""

# Every element of a page `width` px wide whose text does not fit its box, as [text, why] pairs:
# a box (not a scrolling one) whose content is larger than it, cut or spilling, a text that
# spills out of its box, or one that runs past the page's sides (where a phone's browser would
# zoom the page out to show it). A box of a pixel is a text for screen readers alone. Given
# [width, selector], only the element the selector names and those inside it.
PAST_THEIR_BOX = """(asked) => {
  const [width, root] = Array.isArray(asked) ? asked : [asked, null];
  const top = root ? document.querySelector(root) : document.body;
  const found = [];
  for (const el of root ? [top, ...top.querySelectorAll("*")] : top.querySelectorAll("*")) {
    if (!el.checkVisibility({ checkVisibilityCSS: true }) || !el.getClientRects().length) continue;
    const style = getComputedStyle(el);
    const box = style.display !== "inline";  // an inline element has no box of its own to fill
    if (box && (el.clientWidth <= 1 || el.clientHeight <= 1)) continue;
    const own = [...el.childNodes].filter((n) => n.nodeType === 3 && n.data.trim());
    const text = (el.innerText || "").trim().slice(0, 80);
    if (!text) continue;
    // A line set tighter than its font (line-height: 1) has glyph boxes a little taller than it.
    const sizes = [el, ...el.children].map((e) => parseFloat(getComputedStyle(e).fontSize));
    const slack = 1 + Math.max(...sizes) * 0.2;
    // A box that scrolls shows the rest when scrolled; any other holds all it has, or spills.
    const scrolls = (axis) => ["auto", "scroll"].includes(axis);
    if (box && !scrolls(style.overflowX) && el.scrollWidth > el.clientWidth + 1) {
      found.push([text, `cut or spilling: ${el.scrollWidth} px in ${el.clientWidth} px`]);
    }
    if (box && !scrolls(style.overflowY) && el.scrollHeight > el.clientHeight + slack) {
      found.push([text, `cut or spilling: ${el.scrollHeight} px high in ${el.clientHeight} px`]);
    }
    const edge = el.getBoundingClientRect();
    for (const node of own) {
      const range = document.createRange();
      range.selectNodeContents(node);
      const run = range.getBoundingClientRect();
      const said = node.data.trim().slice(0, 80);
      if (run.width && (run.left < -0.5 || run.right > width + 0.5)) {
        found.push([said, `past the viewport: ${run.left}-${run.right}`]);
      } else if (box && run.width
                 && (run.right > edge.right + 1 || run.bottom > edge.bottom + slack)) {
        const at = `${run.right}, ${run.bottom} in ${edge.right}, ${edge.bottom}`;
        found.push([said, `out of its box: ${at}`]);
      }
    }
  }
  return found;
}"""
