"""Experiment drivers, one module per reproduced paper."""
