"""The history's report: `mindflayer history`'s text, its charts and the files it writes.

Why apart from storage: storage opens and reads the SQLite file and hands back
rows and records; how they read to a person (the table's words and language,
column widths, the leaderboard drawn in block characters, the CSV, JSON and BG
Stats files chosen on the command line) is this package's. `command` runs the
subcommand, `output` picks the read and builds each text once, `text` and
`words` lay out the report, `summary` and `charts` draw the leaderboard (the
History dialog and the series board draw the same lines).
"""
