"""`mypyc_attr` for the modules compiled with mypyc on CPython, without `mypy_extensions` at run time.

mypyc reads the decorator from the source (it names `mypy_extensions.mypyc_attr` to the type checker); run
interpreted (Pyodide, the pure build), it returns the class unchanged, so the SDK needs only the standard
library.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mypy_extensions import mypyc_attr as mypyc_attr
else:

    def mypyc_attr(*_: Any, **__: Any) -> Any:
        return lambda cls: cls
