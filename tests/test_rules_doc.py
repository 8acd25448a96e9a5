"""docs/rules.md stays a usable reference (issue 8): every test it cites exists, every scenario
file is cited, its links lead to a heading, no line is a wall of text, and it names the rule
sources by seed file, never by a path outside the repository."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).parent.parent
DOC = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
SCENARIOS = ROOT / "tests" / "scenarios"
LONGEST_LINE = 300
SEED_FILES = {
    "000_f9f1d5a43eaf8620.txt",
    "001_30b8f356e0d93ba4.txt",
    "002_e232164e7c8dd598.txt",
    "003_f72be89fec97774d.txt",
    "004_621d42e365badfa5.txt",
}


def _anchors(doc: str) -> set[str]:
    """The anchors a Markdown renderer gives the headings (GitHub's way: lower case, punctuation
    dropped, spaces to hyphens, "-1", "-2"... after a repeated one)."""
    anchors: set[str] = set()
    repeats: dict[str, int] = {}
    fenced = False
    for line in doc.splitlines():
        if line.startswith("```"):
            fenced = not fenced
        heading = None if fenced else re.match(r"#{1,6} (.+)$", line)
        if heading:
            base = re.sub(r"[^\w\- ]", "", heading.group(1).strip().lower()).replace(" ", "-")
            n = repeats.get(base, 0)
            repeats[base] = n + 1
            anchors.add(base if n == 0 else f"{base}-{n}")
    return anchors


def _defines(path: Path, name: str) -> bool:
    return re.search(rf"^(def|class) {name}\b|^{name} = ", path.read_text(), re.M) is not None


def test_every_cited_file_exists() -> None:
    cited = set(re.findall(r"`(tests/(?:[\w\-]+/)*[\w\-]+\.(?:yaml|py))", DOC))
    assert cited
    assert sorted(c for c in cited if not (ROOT / c).is_file()) == []


def test_every_cited_test_is_defined_in_its_file() -> None:
    named = re.findall(r"`(tests/[\w/]+\.py)::(\w+)`", DOC)
    for path, names in re.findall(r"`(tests/[\w/]+\.py)` \(((?:`\w+`(?:, )?)+)", DOC):
        named += [(path, name) for name in re.findall(r"`(\w+)`", names)]
    assert len(named) > 50
    missing = [f"{p}::{n}" for p, n in named if not _defines(ROOT / p, n)]
    assert missing == []


def test_every_scenario_file_is_cited() -> None:
    files = {p.relative_to(ROOT).as_posix() for p in SCENARIOS.rglob("*.yaml")}
    assert files
    assert sorted(f for f in files if f not in DOC) == []


def test_every_link_inside_the_document_leads_to_a_heading() -> None:
    anchors = _anchors(DOC)
    links = set(re.findall(r"\]\(#([^)\s]+)\)", DOC))
    assert len(links) > 100  # the contents, the index and the checklist link the sections
    assert sorted(links - anchors) == []


def test_no_line_is_a_wall_of_text() -> None:
    long = [n for n, line in enumerate(DOC.splitlines(), 1) if len(line) > LONGEST_LINE]
    assert long == []


def test_sources_are_named_by_seed_file_never_by_a_path_outside_the_repository() -> None:
    assert set(re.findall(r"\b\d{3}_[0-9a-f]{16}\.txt\b", DOC)) == SEED_FILES
    outside = re.findall(r"/work/\S*|\.\./\S*|/tmp/\S*|\bshared/\S*", DOC)
    assert outside == []
