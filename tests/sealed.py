"""Reading a rendered question's checker data as the page does (tests only): the sealed
part of its later map opened, its hashed options and its sealed numeric interval."""

from __future__ import annotations

import json
import re
from typing import Any

from konum import seal


def question_scripts(block: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """The data and the opened later map of the first question in the HTML ``block``."""
    data = json.loads(_group(r'class="konum-data">(.*?)</script>', block))
    later = json.loads(_group(r'class="konum-later">(.*?)</script>', block))
    if "sealed" in later:
        later.update(json.loads(seal.unseal(data["seal"], later.pop("sealed"))))
    return data, later


def right_options(spec: dict[str, Any], salt: str) -> list[bool]:
    """Which options of a choice spec (a question's or a variant's) are right."""
    return [seal.answer_hash(salt, "o", i) in spec["right"] for i in range(spec["count"])]


def interval(spec: dict[str, Any], salt: str) -> tuple[float, float]:
    """The numbers a numeric spec accepts."""
    low, high = json.loads(seal.unseal(salt, spec["interval"]))
    return float(low), float(high)


def _group(pattern: str, text: str) -> str:
    match = re.search(pattern, text, re.DOTALL)
    assert match, pattern
    return match.group(1)
