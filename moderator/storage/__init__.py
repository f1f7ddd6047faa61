"""Crash-proof game log and series history in SQLite."""
