"""``python -m generator`` runs the ``konum`` command line."""

from generator.cli import main

main()
