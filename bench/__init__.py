"""Benchmarks (`make bench`): speed, memory and accuracy figures. Never run by CI."""
