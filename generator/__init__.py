"""konum: a self-checking course on positional encoding, and the generator that builds it.

Stages (each its own module, see STYLE.md): :mod:`generator.pe` (the numpy PE core),
:mod:`generator.banks` (YAML banks to typed questions), :mod:`generator.computed` (seeded
questions whose answers come from the core), :mod:`generator.variants`,
:mod:`generator.render` and :mod:`generator.mdx` (HTML in pages), :mod:`generator.exports`
(flashcards), :mod:`generator.build` and :mod:`generator.cli`.
"""

__version__ = "0.1.0"
