"""What the course's generator families share: the frequency base, spelt once."""

from __future__ import annotations

from konum.computed import ParamSpec, param
from konum.model import Range

#: The frequency bases a question may draw (the 10000 of the paper, RoPE's rope_theta).
BASE_ALLOWED = Range(1.5, 1e9)


def base_param(doc: str = "The frequency base (the 10000 of the paper).") -> ParamSpec:
    """The ``base`` parameter, every family's the same way."""
    return param("base", "float", 10000.0, BASE_ALLOWED, doc)
