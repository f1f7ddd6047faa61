"""mindflayer-moderator: a table-side moderator for *Attack of the Mind Flayer*."""

# The one place the version is written: the wheel's metadata reads it from here
# (pyproject.toml, [tool.hatch.version]) and `mindflayer --version` prints it.
__version__ = "0.1.0"
