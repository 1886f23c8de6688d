"""The shapes of the operation table: ``Operation`` (one entry), ``Call`` (arguments whose answer's
kind depends on them) and the type aliases the operations' signatures use."""
from __future__ import annotations

from typing import Any, Callable, Dict, List, NamedTuple, Tuple, Union

from ._jsonapi_document import Resource

Entity = Dict[str, Any]
EntityBody = Union[Dict[str, Any], bytes, str]
ResourceType = Union[str, Tuple[str, str]]
#: What a relationship can point to: a Resource, a (type, id) pair, an identifier dict (its "meta",
#: an image's alt and title, is sent with it), a list of these (to-many), or None (an empty to-one).
Target = Union[Resource, Tuple[str, str], Dict[str, Any], List[Any], None]


class Call(tuple):
    """What an ``arguments`` function gives when the answer's kind depends on the arguments:
    ``Call((args, kind))``, the C inputs and the kind of answer. A bare tuple subclass, built by
    tuple's own constructor: a NamedTuple's ``__new__`` is a Python function, a frame per call."""
    __slots__ = ()


class Operation(NamedTuple):
    name: str
    start: Any      # async C function: (call **, handle, inputs..., callback, userdata)
    wait: Any       # blocking C function: (response **, handle, inputs...)
    kind: int       # what a success becomes (_response.KIND_*)
    arguments: Callable[..., Any]  # Python arguments -> the C inputs (a tuple, or a Call)
    returns: Any    # the blocking/async result's annotation
