"""Simulated play for the demo, the simulate_tournament command and the benchmarks."""
