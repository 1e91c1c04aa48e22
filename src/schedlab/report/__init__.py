"""Outputs: scorecard, HTML report, run comparison, plotting helpers."""
