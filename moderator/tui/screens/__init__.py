"""One module per screen of the table app."""
