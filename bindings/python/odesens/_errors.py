"""The exception and the warning category of odesens."""


class Error(RuntimeError):
    """A failure reported by odesens.

    Attributes
    ----------
    status : str
        The status's name, as in the C++ ``odesens::Status`` and the C ABI:
        ``"invalid_argument"``, ``"unknown_method"``, ``"unknown_option"``,
        ``"option_type"``, ``"callback_failed"``, ``"too_much_work"``,
        ``"solver_failed"``, ``"not_finite"``, ``"unknown_model"``,
        ``"parse_error"``, ``"unsupported"``, ``"io_error"``,
        ``"out_of_memory"``, ``"unbounded"``, ``"stiff"``, ``"interrupted"`` or
        ``"internal_error"``.
    message : str
        The library's message: what is wrong, in the caller's terms.
    code : int
        The status code (negative; ``ODESENS_ERR_*`` in ``odesens.h``).
    """

    def __init__(self, status, message, code=None):
        super().__init__(f"{status}: {message}")
        self.status = status
        self.message = message
        self.code = code

    def __reduce__(self):
        # Errors cross process boundaries (multiprocessing, futures) intact.
        return (type(self), (self.status, self.message, self.code))


class OdesensWarning(UserWarning):
    """What a method has reason to distrust in a result it returned (for
    example an S whose error it could not keep near the tolerances).
    Issued through :mod:`warnings`; the same sentences are in
    ``Result.warnings``."""


def invalid_argument(message):
    """The Error for bad input noticed in Python before the library."""
    return Error("invalid_argument", message, -1)
