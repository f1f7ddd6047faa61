"""`mindflayer narrate` and `mindflayer voices`."""

from __future__ import annotations

import argparse
import sys


def run_narrate(args: argparse.Namespace) -> int:
    """Speak or render a script (arrives with the narration layer)."""
    print("Narration arrives with the speech layer.", file=sys.stderr)
    return 2


def run_voices(args: argparse.Namespace) -> int:
    """List voices (arrives with the narration layer)."""
    print("Narration arrives with the speech layer.", file=sys.stderr)
    return 2
