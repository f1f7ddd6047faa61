"""Voice scripts and speech."""
