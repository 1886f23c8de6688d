"""The operation methods of ``Client`` and ``AsyncClient`` as type checkers and IDEs see them.

The methods themselves are made from ``OPERATIONS`` and set on the classes at import time
(``_operations.install``), which a static checker cannot follow. These classes, bases of the
clients, are empty at run time; ``_operation_methods.pyi`` beside this file declares each method
with its signature and return type. That stub is generated from ``OPERATIONS`` by
``scripts/gen-api-docs`` (whose ``--check`` fails when it is out of date): never edit it by hand.
"""

__all__ = ["_ClientOperations", "_AsyncClientOperations"]


class _ClientOperations:
    """The blocking and ``submit_*`` operation methods of :class:`Client` (see the stub)."""
    __slots__ = ()


class _AsyncClientOperations:
    """The awaitable operation methods of :class:`AsyncClient` (see the stub)."""
    __slots__ = ()
