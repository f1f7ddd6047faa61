"""Voice scripts as data: finding and loading them, checking them, their placeholders and values.

`library` finds the user's and the shipped scripts and turns one into actions;
`validation` checks a file (with file and line in every message) into the data of
`steps`, and `whole_script` checks those steps together (the reveal's one
eyes-open window, the length of the pauses, the bed's order); `templates`
fills placeholders without ever evaluating anything; `context` derives the
values a script may speak from what the caller knows.
"""
