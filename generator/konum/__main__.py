"""``python -m konum`` runs the ``konum`` command line."""

from konum.cli import main

main()
