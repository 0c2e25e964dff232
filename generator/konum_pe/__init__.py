"""konum_pe: the course on positional encoding, as a plugin of konum.

Everything the course needs beyond konum's engine, given the way any subject's plugin gives
it (:mod:`konum.plugins`), and enabled by the course's ``mkdocs.base.yml`` as any site would
(``plugins: [pe]``, the entry point this package registers):

* :mod:`konum_pe.pe`: the positional-encoding core (numpy), tested against worked values;
* :mod:`konum_pe.generators`: the computed questions' generators, one module per family;
* :mod:`konum_pe.figures`: the lessons' figures; :mod:`konum_pe.explorers`: the explorers;
* :mod:`konum_pe.values`: what the lessons' ``{{ }}`` expressions compute with;
* ``messages/``: the course's own words (the generators', the figures', the explorers').

konum imports nothing from this package.
"""

from __future__ import annotations

from konum_pe.explorers import EXPLORERS
from konum_pe.figures import FIGURES
from konum_pe.generators import GENERATORS
from konum_pe.text import MESSAGES
from konum_pe.values import VALUES

__all__ = ["EXPLORERS", "FIGURES", "GENERATORS", "MESSAGES", "VALUES"]
