"""Starts the TUI from the command line."""

from __future__ import annotations

import argparse

from textual.app import App, ComposeResult
from textual.widgets import Footer, Header, Static


class PlaceholderApp(App[None]):
    """Shown until the table screens land."""

    BINDINGS = [("q", "quit", "Quit")]

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static("mindflayer-moderator: the table screens are being built. Press q to quit.")
        yield Footer()


def run_app(args: argparse.Namespace) -> int:
    """Run the app until the table quits."""
    PlaceholderApp().run()
    return 0
