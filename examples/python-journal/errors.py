"""The journal's stable error: an error response with a protocol JournalErrorCode."""


class JournalError(Exception):
    """Answers an operation with a stable error code instead of a result; `cause` keeps the original error."""

    def __init__(self, code, message, cause=None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.cause = cause
