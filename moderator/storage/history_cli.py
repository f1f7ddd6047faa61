"""`mindflayer history`."""

from __future__ import annotations

import argparse
import sys


def run_history(args: argparse.Namespace) -> int:
    """Print the history (arrives with the storage layer)."""
    print("The score history arrives with the storage layer.", file=sys.stderr)
    return 2
