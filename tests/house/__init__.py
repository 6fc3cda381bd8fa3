"""The house: its layering, docs, diagrams, install, CI's command and the benchmarks' code."""
