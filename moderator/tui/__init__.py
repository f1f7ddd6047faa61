"""The Textual table app."""
