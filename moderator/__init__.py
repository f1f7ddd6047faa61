"""mindflayer-moderator: a table-side moderator for *Attack of the Mind Flayer*."""

__version__ = "0.1.0"
