"""The table: what the moderator does, without Textual (the TUI draws it)."""
