"""Allows `python -m moderator`, the same as the `mindflayer` command."""

from moderator.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
