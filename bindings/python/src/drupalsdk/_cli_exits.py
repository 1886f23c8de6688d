"""The exit codes of the ``drupal`` command (one per error class, ``EXIT_CODES``) and UsageError,
the command-line mistakes argparse cannot see."""
from __future__ import annotations

from typing import Tuple

import drupalsdk


# ---- Exit codes ---------------------------------------------------------------------------------

EXIT_OK = 0
EXIT_ERROR = 1          # any other failure (decode, too large, a local file, internal, a bad netrc file...)
EXIT_USAGE = 2          # bad arguments, or a request refused before sending (InvalidArgumentError)
EXIT_NETWORK = 3        # connect failure, reset, DNS, TLS
EXIT_TIMEOUT = 4
EXIT_AUTH = 5           # 401, or a failed login (wrong name or password)
EXIT_FORBIDDEN = 6      # 403 (note: wrong Basic credentials are answered as anonymous: 403, not 401)
EXIT_NOT_FOUND = 7      # 404
EXIT_INVALID = 8        # 422 (the violations are printed)
EXIT_HTTP = 9           # any other status >= 400
EXIT_INTERRUPTED = 130  # Ctrl-C

#: Exception class -> exit code, most specific first.
EXIT_CODES: Tuple[Tuple[type, int], ...] = (
    (drupalsdk.ValidationError, EXIT_INVALID),
    (drupalsdk.NotFoundError, EXIT_NOT_FOUND),
    (drupalsdk.AuthorizationError, EXIT_FORBIDDEN),
    (drupalsdk.AuthenticationError, EXIT_AUTH),
    (drupalsdk.HTTPError, EXIT_HTTP),
    (drupalsdk.DrupalTimeoutError, EXIT_TIMEOUT),
    (drupalsdk.NetworkError, EXIT_NETWORK),
    (drupalsdk.InvalidArgumentError, EXIT_USAGE),
)


class UsageError(Exception):
    """A mistake in the command line that argparse cannot see (exit 2)."""


def exit_code(error: BaseException) -> int:
    for cls, code in EXIT_CODES:
        if isinstance(error, cls):
            return code
    return EXIT_ERROR
