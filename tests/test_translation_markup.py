"""Turkish writes ordinals as a number and a full stop ("0. konum", "3. satır"). At the start
of a text that is a Markdown ordered list: every translated text begins as the author meant."""

from __future__ import annotations

from pathlib import Path

from konum.build import read_site_config
from konum.course import course_for
from tests.helpers import render_quiz

REPO = Path(__file__).resolve().parent.parent


def test_no_turkish_quiz_shows_a_list_its_translation_did_not_write() -> None:
    english = course_for(read_site_config(REPO / "mkdocs.yml").options)
    turkish = course_for(read_site_config(REPO / "mkdocs.tr.yml").options)
    for en_bank, tr_bank in zip(english.banks, turkish.banks, strict=True):
        en = render_quiz(english.concretes((en_bank,)), en_bank.id, language="en")
        tr = render_quiz(turkish.concretes((tr_bank,)), tr_bank.id, language="tr")
        assert tr.count("<ol") == en.count("<ol"), tr_bank.id
        assert "0\\." not in tr, tr_bank.id  # an escape the renderer left visible
