"""The one error type the domain raises for a move the rules do not allow."""


class IllegalAction(ValueError):
    """A table action the rules (or the roster rules) do not allow.

    The message is a sentence a player can read aloud; the state the action was
    tried on is never changed, because every domain step builds a new state.
    """
