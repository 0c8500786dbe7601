"""The exceptions Eddy's Python client raises, named as PyFlink's (pyflink.util.exceptions).

A failed statement raises the coordinator's own message, stage and SQL position included
(`SQL parse error at line 1, column 8: ...`); `code` is the gRPC status code's name.
"""


class EddyException(Exception):
    """Base of every exception of the client."""

    def __init__(self, message, code=None):
        super().__init__(message)
        self.message = message
        self.code = code


class TableException(EddyException):
    """A statement or call the coordinator refused or could not run."""


class SqlParseException(TableException):
    """The SQL text does not parse; the message names line and column."""


class ValidationException(TableException):
    """The SQL parses but does not validate (unknown table or column, type mismatch, ...)."""


class CoordinatorUnavailableException(TableException):
    """No coordinator answers at the address (down, wrong host or port)."""


class JobExecutionException(TableException):
    """A job failed or was cancelled while the client waited for it or read its rows."""


class JobTimeoutException(TableException, TimeoutError):
    """A wait for a job ran out of time while the job still runs."""


class EmbeddedClusterException(EddyException):
    """The embedded cluster's processes could not be found or started."""
