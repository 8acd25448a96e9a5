"""Reading a Server-Sent Events body in tests, chunk by chunk, with a deadline (a quiet stream
blocks its reader)."""

from __future__ import annotations

import json
import queue
import threading
from collections.abc import Iterable
from typing import Any


class EventReader:
    """Parses `event:`/`data:` blocks from an iterable of byte chunks read on a thread."""

    def __init__(self, chunks: Iterable[bytes]) -> None:
        self._chunks: queue.Queue[bytes | None] = queue.Queue()
        self._buffer = ""
        self.comments: list[str] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._pump, args=(chunks,), daemon=True)
        self._thread.start()

    def _pump(self, chunks: Iterable[bytes]) -> None:
        try:
            for chunk in chunks:
                if self._stop.is_set():
                    break
                self._chunks.put(chunk)
        finally:
            close = getattr(chunks, "close", None)
            if close is not None:
                close()  # on this thread: the generator is not running now
            self._chunks.put(None)

    def close(self) -> None:
        """Stop reading: the stream is closed at its next message or keep-alive."""
        self._stop.set()

    def next(self, timeout: float = 10.0) -> tuple[str, Any]:
        """The next event (name, parsed data); comments are kept in `comments`."""
        while True:
            if "\n\n" in self._buffer:
                block, self._buffer = self._buffer.split("\n\n", 1)
                name, data = "message", None
                for line in block.splitlines():
                    if line.startswith(":"):
                        self.comments.append(line[1:].strip())
                    elif line.startswith("event:"):
                        name = line[6:].strip()
                    elif line.startswith("data:"):
                        data = json.loads(line[5:].strip())
                if data is not None:
                    return name, data
                continue
            chunk = self._chunks.get(timeout=timeout)
            if chunk is None:
                raise EOFError("the stream ended")
            self._buffer += chunk.decode() if isinstance(chunk, bytes) else chunk

    def until(self, wanted, timeout: float = 10.0) -> Any:
        """Events until one whose data satisfies `wanted`."""
        while True:
            name, data = self.next(timeout)
            if name == "update" and wanted(data):
                return data
