"""The allocator settings the app's process reads frames with (companion.allocator)."""

from __future__ import annotations

import platform
import subprocess
import sys
import textwrap
from pathlib import Path

from companion.allocator import keep_frame_memory

# A fresh process reads the test photos twice and prints the page faults the second pass took
# per reading (the first pass warms up OpenCV and the heap).
_FAULTS = textwrap.dedent("""
    import resource, sys
    from pathlib import Path
    import cv2
    from companion.allocator import keep_frame_memory
    from vision.dice import read_dice
    cv2.setNumThreads(1)
    if sys.argv[1] == "keep":
        assert keep_frame_memory()
    images = [cv2.imread(str(p)) for p in sorted(Path(sys.argv[2]).glob("*.jpg"))]
    for image in images:
        read_dice(image)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    for image in images:
        read_dice(image)
    print((resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before) / len(images))
""")


PHOTOS = Path(__file__).resolve().parent / "data" / "dice"


def _faults_per_reading(mode: str) -> float:
    out = subprocess.run([sys.executable, "-c", _FAULTS, mode, str(PHOTOS)], capture_output=True,
                         text=True, check=True, timeout=300)
    return float(out.stdout.strip())


def test_glibc_takes_the_settings():
    assert keep_frame_memory() is (platform.libc_ver()[0] == "glibc")


def test_readings_reuse_their_memory_once_it_is_kept():
    # Without the settings each reading maps its frame-sized arrays anew (hundreds of page
    # faults on glibc's defaults); with them the heap's memory is reused.
    assert platform.libc_ver()[0] == "glibc", "the app runs on glibc (Raspberry Pi OS, Debian)"
    kept = _faults_per_reading("keep")
    assert kept < 30, f"{kept:.0f} page faults per reading with the memory kept"
