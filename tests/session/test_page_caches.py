"""The journal's connections keep small SQLite page caches (issue 29, point 7): SQLite's own
default is 2 MB a connection, most of which an evening filled with pages no later read used."""

from __future__ import annotations

from pathlib import Path

from companion.session import Journal
from companion.session.journal import READER_CACHE_KB, WRITER_CACHE_KB

CACHE = "PRAGMA cache_size"


def test_the_writer_and_each_reader_keep_small_page_caches(journal: Path) -> None:
    opened = Journal(journal)
    opened.open()
    try:
        assert opened.db.execute(CACHE).fetchone()[0] == -WRITER_CACHE_KB
        read = opened.read(lambda reader: reader.db.execute(CACHE).fetchone()[0], None)
        assert read == -READER_CACHE_KB
    finally:
        opened.close()
