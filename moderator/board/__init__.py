"""The phone board: a read-only public view of the table, served on the local network.

`snapshot` builds the public snapshot (Textual-free, JSON-able); `server` serves it
with its page from the app's own asyncio loop; `static/` holds the page itself.
"""
