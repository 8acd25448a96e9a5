"""`room25 serve` under Debian's libfiu (`fiu-run -x`): POSIX calls made to fail while it runs,
switched by `fiu-ctrl` (its control pipes under the test's own folder), the way SQLite's own
I/O-error tests fail writes and syncs. Shared by the SD card tests and `benchmarks/faults.py`."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from serving import Serve

FIU_RUN, FIU_CTRL = shutil.which("fiu-run"), shutil.which("fiu-ctrl")
MISSING = "libfiu's fiu-run and fiu-ctrl (Debian's fiu-utils) are not installed"
# The failure points of a failing SD card: the writes and the syncs of the journal's files.
WRITES = ("posix/io/rw/write", "posix/io/rw/pwrite")
SYNCS = ("posix/io/sync/fsync", "posix/io/sync/fdatasync")


class FaultyServe(Serve):
    """A serve whose writes and syncs can be made to fail; `fail` and `heal` switch them."""

    def __init__(self, data_dir: Path, **kwargs: object) -> None:
        self.control = str(data_dir.parent / "fiu")
        super().__init__(data_dir, wrap=(str(FIU_RUN), "-x", "-f", self.control), **kwargs)

    def _ctrl(self, *commands: str) -> None:
        asked = [arg for command in commands for arg in ("-c", command)]
        subprocess.run(
            [str(FIU_CTRL), "-f", self.control, *asked, str(self.process.pid)],
            check=True,
            capture_output=True,
            timeout=10,
        )

    def fail(self, *names: str, probability: float = 1.0, once: bool = False) -> None:
        """These calls fail from now on, each with this probability (`once`: the next only)."""
        how = ",onetime" if once else ""
        self._ctrl(
            *(
                f"enable name={name}{how}"
                if probability >= 1
                else f"enable_random name={name},probability={probability}{how}"
                for name in names
            )
        )

    def heal(self, *names: str) -> None:
        self._ctrl(*(f"disable name={name}" for name in names))
