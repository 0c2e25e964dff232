"""The question types, one module each (see :mod:`konum.types.base` for what a type gives).

:data:`TYPES` is every type by the name banks write (``type: choice``). Adding a type is one
module here, one template (``templates/quiz/<type>.html.j2``) and one grader in quiz.js
(ARCHITECTURE.md, "Adding a question type").
"""

from __future__ import annotations

from konum.types.base import (
    Bank,
    Card,
    Cards,
    Check,
    Concrete,
    Draw,
    Finding,
    Graded,
    MediaFile,
    Page,
    Print,
    PrintedQuestion,
    Probe,
    Question,
)
from konum.types.choice import ChoiceQuestion, Option
from konum.types.computed import ComputedQuestion
from konum.types.fill import Blank, FillQuestion
from konum.types.matching import MatchingQuestion, Pair
from konum.types.numeric import NumericQuestion
from konum.types.ordering import OrderingQuestion
from konum.types.output import OutputQuestion

#: Every question type, by the name banks write.
TYPES: dict[str, type[Question]] = {
    kind.type: kind
    for kind in (
        ChoiceQuestion,
        FillQuestion,
        MatchingQuestion,
        NumericQuestion,
        ComputedQuestion,
        OutputQuestion,
        OrderingQuestion,
    )
}

__all__ = [
    "TYPES",
    "Bank",
    "Blank",
    "Card",
    "Cards",
    "Check",
    "ChoiceQuestion",
    "ComputedQuestion",
    "Concrete",
    "Draw",
    "FillQuestion",
    "Finding",
    "Graded",
    "MatchingQuestion",
    "MediaFile",
    "NumericQuestion",
    "Option",
    "OrderingQuestion",
    "OutputQuestion",
    "Page",
    "Pair",
    "Print",
    "PrintedQuestion",
    "Probe",
    "Question",
]
