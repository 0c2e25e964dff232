"""Python-Markdown extensions that put konum into pages: math, values from the core, quizzes.

They are Markdown extensions rather than a MkDocs plugin so that the same ``mkdocs.yml``
builds with MkDocs and with Zensical (which runs Markdown extensions but not MkDocs plugins).
"""
