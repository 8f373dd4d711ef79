"""The errors tcosim raises (the CLI's exit 2, as exceptions)."""


class InputError(ValueError):
    """Bad input: a scenario, catalog or trace the CLI would refuse with exit 2.

    ``str(error)`` is the CLI's message without its ``tcosim: error:`` prefix, e.g.
    ``scenarios/x.json: /plans/0/kind: expected one of ...``.

    Attributes:
        file: the file named (``<dict>`` for a scenario given as a dict).
        pointer: the JSON pointer (``/plans/0/kind``), or ``line N, column C`` in a text input;
            ``""`` when the error is about the file as a whole.
        reason: the message without the file and the pointer.
    """

    def __init__(self, message, file="", pointer="", reason=""):
        super().__init__(message)
        self.file = file
        self.pointer = pointer
        self.reason = reason or message


class ModelError(ValueError):
    """A scenario that loads but cannot be modelled as written (the CLI's exit 2)."""
