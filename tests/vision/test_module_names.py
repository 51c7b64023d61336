"""The readers are long modules of named constants and helpers: a second definition of a name
further down silently changes every use above it (a merged change once defined SQUARE_ON again,
for another meaning, and changed readings far from its own code)."""

from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _top_level_names(path: Path) -> Counter:
    names: Counter = Counter()
    for node in ast.parse(path.read_text(), str(path)).body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names[node.name] += 1
        elif isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    names[target.id] += 1
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names[node.target.id] += 1
    return names


@pytest.mark.parametrize("module", ["vision/dice.py", "vision/tiles.py", "vision/synth.py"])
def test_no_module_level_name_is_defined_twice(module):
    twice = sorted(name for name, n in _top_level_names(ROOT / module).items() if n > 1)
    assert not twice, f"{module} defines {', '.join(twice)} more than once"


def test_a_name_defined_twice_is_found(tmp_path):
    source = tmp_path / "m.py"
    source.write_text("LIMIT = 1\n\ndef f():\n    return LIMIT\n\nLIMIT = 2\n")
    assert _top_level_names(source)["LIMIT"] == 2
