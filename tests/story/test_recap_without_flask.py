"""A recap builds without the web server (issue 31, point 3): the story reads its words from the
catalogue (`companion.words`), never through `companion.web`, so no import runs upward."""

from __future__ import annotations

from imports import loaded_by


def test_building_a_recap_loads_neither_flask_nor_the_web_package() -> None:
    code = (
        "import companion.story.recap as recap; "
        "from companion.words.reasons import reason_text; reason_text(None, 'fr')"
    )
    assert loaded_by(code, "flask", "companion.web.") == []
