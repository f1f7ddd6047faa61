"""Reusable widgets of the table app."""
