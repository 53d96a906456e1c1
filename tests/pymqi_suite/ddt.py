"""The two names pymqi's test_pcf.py takes from the ``ddt`` package (``@ddt`` on a class,
``@data(v1, v2, ...)`` on a method), written here so the suite needs nothing installed beyond
mqlite's dev dependencies. As ddt does, each value becomes its own test method, named
``<method>_<n>`` (1-based) and, for a value that is a plain scalar, ``_<value>`` after it.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")
_DATA = "__pymqi_suite_ddt_data__"
BASE = "__pymqi_suite_ddt_base__"  # the method's own name, for the runner's table of differences


def data(*values: Any) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    def mark(func: Callable[..., Any]) -> Callable[..., Any]:
        setattr(func, _DATA, values)
        return func

    return mark


def _name(base: str, index: int, value: Any) -> str:
    if isinstance(value, str | int | float | bool) or value is None:
        return re.sub(r"\W", "_", f"{base}_{index}_{value}")
    return f"{base}_{index}"


def ddt(cls: type[T]) -> type[T]:
    for name, func in list(vars(cls).items()):
        values = getattr(func, _DATA, None)
        if values is None:
            continue
        for index, value in enumerate(values, 1):

            def case(self: Any, func: Callable[..., Any] = func, value: Any = value) -> Any:
                return func(self, value)

            functools.update_wrapper(case, func)
            test_name = _name(name, index, value)
            case.__name__ = test_name
            setattr(case, BASE, name)
            setattr(cls, test_name, case)
        delattr(cls, name)
    return cls
