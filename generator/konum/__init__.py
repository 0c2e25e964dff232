"""konum: a self-checking course on positional encoding, and the generator that builds it.

Stages (each its own module, see STYLE.md): :mod:`konum.pe` (the numpy PE core),
:mod:`konum.banks` (YAML banks to typed questions), :mod:`konum.computed` (seeded
questions whose answers come from the core), :mod:`konum.variants`,
:mod:`konum.render` and :mod:`konum.mdx` (HTML in pages), :mod:`konum.exports`
(flashcards), :mod:`konum.build` and :mod:`konum.cli`.
"""

__version__ = "0.1.0"


def makeExtension(**kwargs: object) -> object:
    """Python-Markdown's entry point: ``markdown_extensions: [konum]`` in ``mkdocs.yml``.

    Imported on use, so that ``import konum`` stays light.
    """
    from konum.mdx import KonumExtension

    return KonumExtension(**kwargs)
