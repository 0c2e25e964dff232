"""Names made into ids and file names keep their letters (one slug: konum.formatting.slugify)."""

from __future__ import annotations

import pytest

from konum.exports import file_names
from konum.fields import Reader
from konum.formatting import SLUG, slugify
from konum.images import flat_name


@pytest.mark.parametrize(
    ("name", "slug"),
    [
        ("İstatistik: Olasılık ve Çıkarım", "istatistik-olasilik-ve-cikarim"),
        ("ışık, çiçek, şeker, ağaç, göz, üzüm", "isik-cicek-seker-agac-goz-uzum"),
        ("IŞIK ÇAĞI ĞÖÜ", "isik-cagi-gou"),
        ("Straße, Ærø, Łódź, œuvre", "strasse-aero-lodz-oeuvre"),
        ("Café  crème -- déjà vu", "cafe-creme-deja-vu"),
        ("物理", ""),
    ],
)
def test_slugs_transliterate(name: str, slug: str) -> None:
    assert slugify(name) == slug
    assert slug == "" or SLUG.fullmatch(slug)


def test_every_file_name_uses_the_one_slug() -> None:
    names = file_names("İstatistik: Olasılık ve Çıkarım")
    assert names["anki"] == "istatistik-olasilik-ve-cikarim.apkg"
    assert names["moodle"] == "istatistik-olasilik-ve-cikarim-moodle.xml"
    assert flat_name("Işık çizgisi", b"x", "PNG").startswith("isik-cizgisi-")
    assert flat_name("ı" * 60, b"x", "PNG").startswith("i" * 40 + "-")


def test_an_id_suggestion_keeps_its_letters() -> None:
    from konum.yamlsource import load

    root, text, _ = load("id: Olasılık Çıkarımı\n".encode(), "bank.yml")
    reader = Reader("bank.yml", text or "")
    reader.identifier(root, "", "question")
    (problem,) = reader.problems
    assert "olasilik-cikarimi" in str(problem)
