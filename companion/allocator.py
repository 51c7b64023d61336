"""The C allocator set up for a process that reads camera frames several times a second.

Each dice reading makes and drops a few dozen frame-sized arrays (0.3 to 2.7 MB). glibc serves
blocks that large with fresh memory maps and hands freed memory back to the system, so every
reading maps its memory anew and takes a page fault for each 4 KB page it touches: about 420
per 640x480 photo (tests/test_allocator.py; its cost in time is in bench/README.md). Served
from the heap and kept there once freed, the same memory is reused from frame to frame: no
fault on the main thread, about a tenth as many on the app's reader threads (each has its own
arena, which glibc trims by its own rule).

Only glibc has ``mallopt``; elsewhere (musl, macOS) nothing changes and the app runs as before.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import logging

log = logging.getLogger(__name__)

# glibc's mallopt parameters (malloc.h).
M_TRIM_THRESHOLD = -1
M_MMAP_THRESHOLD = -3
# Blocks under this come from the heap: the largest frame the app reads is a 1280x720 still
# (2.7 MB); a phone's 2880x2160 photo read from the command line (18.7 MB) is mapped as before.
MMAP_BELOW = 16 * 1024 * 1024
# Freed memory at the heap's top is handed back to the system only past this: more than ten
# times the 4 to 5 MB a reading's arrays take at their peak (tracemalloc, a 640x480 photo or a
# 1280x720 still, which the reader works on at 640).
TRIM_ABOVE = 64 * 1024 * 1024


def keep_frame_memory() -> bool:
    """Have glibc serve frame-sized blocks from the heap and keep them once freed. True if it
    took both settings, False where there is no glibc (or it refused)."""
    name = ctypes.util.find_library("c")
    try:
        libc = ctypes.CDLL(name or "libc.so.6")
        mallopt = libc.mallopt
    except (OSError, AttributeError):
        log.debug("no glibc mallopt here: the allocator keeps its defaults")
        return False
    mallopt.argtypes = (ctypes.c_int, ctypes.c_int)
    mallopt.restype = ctypes.c_int
    took = [mallopt(M_MMAP_THRESHOLD, MMAP_BELOW), mallopt(M_TRIM_THRESHOLD, TRIM_ABOVE)]
    done = took == [1, 1]
    if not done:
        log.debug("glibc refused the frame memory settings: the allocator keeps its defaults")
    return done
