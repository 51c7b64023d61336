"""Runs every benchmark module under bench/ (or those named on the command line).

Each module has a ``main()`` that prints its own table of medians.
"""

from __future__ import annotations

import importlib
import pkgutil
import sys
import time
from pathlib import Path


def main(names: list[str]) -> int:
    here = Path(__file__).parent
    modules = names or sorted(m.name for m in pkgutil.iter_modules([str(here)]) if not m.name.startswith("_"))
    for name in modules:
        print(f"\n== bench/{name}.py ==", flush=True)
        started = time.perf_counter()
        importlib.import_module(f"bench.{name}").main()
        print(f"({time.perf_counter() - started:.1f} s)", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
