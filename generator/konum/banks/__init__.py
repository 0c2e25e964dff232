"""Question banks: safe YAML loading, strict validation and problem reports.

Pure Python (no MkDocs): ``content/banks/*.yml`` in, :mod:`konum.model` objects out, or a
:class:`BankError` listing every problem in every bank. Typical use::

    from konum.banks import BankError, check_banks, format_text, load_banks

    banks = load_banks()                  # every content/banks/*.yml, or raises BankError
    report = check_banks(["content/banks/rope.yml"])
    print(format_text(report.problems, files=len(report.files), questions=report.questions))
"""

from __future__ import annotations

from konum.banks.errors import BankError, BankProblem, printable
from konum.banks.load import (
    CheckReport,
    bank_files,
    check_banks,
    discover,
    load_bank,
    load_banks,
)
from konum.banks.report import format_json, format_text, summary

__all__ = [
    "BankError",
    "BankProblem",
    "CheckReport",
    "bank_files",
    "check_banks",
    "discover",
    "format_json",
    "format_text",
    "load_bank",
    "load_banks",
    "printable",
    "summary",
]
