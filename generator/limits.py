"""Limits shared by the configuration, the command line, the validator and the generators.

Each is an inclusive ``(low, high)`` range.
"""

#: The site seed: any non-negative 64-bit signed integer.
SEED = (0, 2**63 - 1)
#: Variants shipped per computed question.
VARIANTS = (1, 50)
