"""The OLED's fonts come converted with the package: what is shipped is what converting the
Terminus PCF files makes, and drawing text reads them without writing anything anywhere."""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageChops

from companion.hardware import font_files, screens


def test_the_shipped_fonts_are_the_terminus_pcf_files_converted(tmp_path: Path) -> None:
    made = font_files.make(tmp_path)
    assert len(made) == len(font_files.sources()) == len(screens.SIZES)
    for fresh in made:
        shipped = font_files.fonts_folder() / fresh.name
        assert shipped.read_bytes() == fresh.read_bytes(), fresh.name
        with (
            Image.open(shipped.with_suffix(".pbm")) as ours,
            Image.open(fresh.with_suffix(".pbm")) as theirs,
        ):
            assert ours.size == theirs.size
            assert ImageChops.difference(ours.convert("1"), theirs.convert("1")).getbbox() is None


def test_every_size_is_read_from_the_package_without_a_temporary_folder(mocker) -> None:
    """No temporary folder and nothing converted at start: a full /tmp cannot stop the OLED."""
    mocker.patch("tempfile.mkdtemp", side_effect=FileNotFoundError("no usable temporary folder"))
    converted = mocker.spy(font_files.PcfFontFile.PcfFontFile, "save")
    screens.font.cache_clear()
    try:
        for size in screens.SIZES:
            assert screens.font(size).getbbox("Room 25")[3] > size // 2
    finally:
        screens.font.cache_clear()
    assert converted.call_count == 0
