"""The Turkish ending after a number, a letter, a formula or a name (konum_pe.turkish).

Every whole number from 0 to 10^6, in both of the ways Turkish prose writes it (``1000`` and
``1.000``), and decimals with one to three decimals, are checked against an independent
reading: the number spelled out in Turkish words, and each ending's form chosen from that
spelling's last word by tables written out here (its last vowel for the harmony, its last
sound for the buffer consonant and for d/t). The generators' texts are checked through
``say``: the issue's draws give ``0'dır, 3'tür, 4'tür, 5'tir`` and ``64'ü, 128'i, 256'yı``.
"""

from __future__ import annotations

import pytest

from konum_pe.text import say
from konum_pe.turkish import harmonize, number_word, spoken_word, suffixed

ONES = ["", "bir", "iki", "üç", "dört", "beş", "altı", "yedi", "sekiz", "dokuz"]
TENS = ["", "on", "yirmi", "otuz", "kırk", "elli", "altmış", "yetmiş", "seksen", "doksan"]


def _below_thousand(n: int) -> list[str]:
    hundreds, rest = divmod(n, 100)
    words = [] if hundreds == 0 else ["yüz"] if hundreds == 1 else [ONES[hundreds], "yüz"]
    return [*words, *(w for w in (TENS[rest // 10], ONES[rest % 10]) if w)]


BELOW_THOUSAND = [" ".join(_below_thousand(n)) for n in range(1000)]


def spelled(n: int) -> str:
    """``n`` (0 to 10^9 - 1) in Turkish words: ``1234`` is ``bin iki yüz otuz dört``."""
    if n == 0:
        return "sıfır"
    millions, rest = divmod(n, 1_000_000)
    thousands, units = divmod(rest, 1000)
    words = [BELOW_THOUSAND[millions], "milyon"] if millions else []
    if thousands:
        words += ["bin"] if thousands == 1 else [BELOW_THOUSAND[thousands], "bin"]
    return " ".join([*words, BELOW_THOUSAND[units]]).strip()


def spelled_decimal(whole: int, decimals: str) -> str:
    """``whole,decimals`` read as Turkish reads it: ``0,05`` is ``sıfır virgül sıfır beş``."""
    zeros = len(decimals) - len(decimals.lstrip("0"))
    rest = decimals.lstrip("0")
    return " ".join(
        [spelled(whole), "virgül", *["sıfır"] * zeros, *([spelled(int(rest))] if rest else [])]
    )


BACK = "aıou"
#: Each ending's forms by the last vowel (a/ı, e/i, o/u, ö/ü), after a vowel or a consonant.
FORMS = {
    "dir": {"a": "dır", "e": "dir", "o": "dur", "ö": "dür"},
    "i": {"a": "ı", "e": "i", "o": "u", "ö": "ü"},
    "nin": {"a": "ın", "e": "in", "o": "un", "ö": "ün"},
    "e": {"a": "a", "e": "e", "o": "a", "ö": "e"},
    "de": {"a": "da", "e": "de", "o": "da", "ö": "de"},
    "den": {"a": "dan", "e": "den", "o": "dan", "ö": "den"},
    "le": {"a": "la", "e": "le", "o": "la", "ö": "le"},
}
ROW = {"a": "a", "ı": "a", "e": "e", "i": "e", "o": "o", "u": "o", "ö": "ö", "ü": "ö"}
BUFFER = {"i": "y", "e": "y", "le": "y", "nin": "n"}


def expected(word: str, ending: str) -> str:
    """The form of ``ending`` after the spoken ``word``, from :data:`FORMS`."""
    vowel = [c for c in word if c in ROW][-1]
    form = FORMS[ending][ROW[vowel]]
    if word[-1] in ROW:
        form = BUFFER.get(ending, "") + form
    elif word[-1] in "fstkçşhp" and form[0] == "d":
        form = "t" + form[1:]
    return form


ENDINGS = tuple(FORMS)


def test_every_whole_number_up_to_a_million() -> None:
    numbers = range(1_000_001)
    # The spellings below a million share their thousands: built a thousand at a time.
    thousands = [spelled(t * 1000) if t else "" for t in range(1000)]
    words = [f"{t} {u}".strip() for t in thousands for u in BELOW_THOUSAND] + [spelled(10**6)]
    words[0] = spelled(0)
    last = [text.rsplit(" ", 1)[-1] for text in words]
    assert [number_word(str(n)) for n in numbers] == last
    grouped = [f"{n:,}".replace(",", ".") for n in range(1000, 1_000_001, 7)]
    assert [number_word(text) for text in grouped] == last[1000::7]


def test_every_ending_after_every_last_word() -> None:
    # One number for each last word a number can end in, each with every ending.
    for n in [*range(10), *range(10, 100, 10), 100, 1000, 10**6]:
        word = spelled(n).rsplit(" ", 1)[-1]
        for ending in ENDINGS:
            assert suffixed(str(n), ending) == f"{n}'{expected(word, ending)}", (n, ending)


def test_numbers_take_their_ending_through_the_whole_range() -> None:
    for n in range(0, 1_000_001, 37):
        ending = ENDINGS[n % len(ENDINGS)]
        word = spelled(n).rsplit(" ", 1)[-1]
        assert suffixed(str(n), ending) == f"{n}'{expected(word, ending)}", n


@pytest.mark.parametrize("places", [1, 2, 3])
def test_decimals(places: int) -> None:
    for whole in (0, 1, 3, 12):
        for fraction in range(10**places):
            decimals = f"{fraction:0{places}d}"
            text = f"{whole},{decimals}"
            word = spelled_decimal(whole, decimals).rsplit(" ", 1)[-1]
            ending = ENDINGS[fraction % len(ENDINGS)]
            assert suffixed(text, ending) == f"{text}'{expected(word, ending)}", text
            assert spoken_word(f"${whole}{{,}}{decimals}$") == word, text


@pytest.mark.parametrize(
    ("word", "ending", "written"),
    [
        ("$k$", "yi", "$k$'yı"),
        ("$k$", "nin", "$k$'nın"),
        ("$W_k$", "den", "$W_k$'dan"),
        ("$2k$", "e", "$2k$'ya"),
        ("$\\theta_k$", "dir", "$\\theta_k$'dır"),
        ("$X$", "in", "$X$'in"),
        ("$d/2$", "dir", "$d/2$'dir"),
        ("$2\\pi$", "nin", "$2\\pi$'nin"),
        ("$d^2$", "dir", "$d^2$'dir"),
        ("$10000^{2k/d}$", "e", "$10000^{2k/d}$'ye"),
        ("$\\lfloor j/2 \\rfloor$", "dir", "$\\lfloor j/2 \\rfloor$'dir"),
        ("$\\sin$", "dir", "$\\sin$'tür"),
        ("$0{,}5$", "dir", "$0{,}5$'tir"),
        ("`np.sin`", "i", "`np.sin`'i"),
        ("softmax", "ten", "softmax'tan"),
        ("ViT", "nin", "ViT'in"),
        ("Shaw", "un", "Shaw'nun"),
        ("MAE", "in", "MAE'nin"),
        ("NTK", "ye", "NTK'ya"),
        ("T5", "nin", "T5'in"),
        ("GPT-2", "nin", "GPT-2'nin"),
        ("RoPE", "i", "RoPE'yi"),
        ("Llama", "sı", "Llama'sı"),
        ("ViT", "ninki", "ViT'inki"),
        ("2", "inci", "2'nci"),
        ("3", "nci", "3'üncü"),
    ],
)
def test_letters_formulas_and_names(word: str, ending: str, written: str) -> None:
    assert suffixed(word, ending) == written


def test_numbers_in_pythons_form() -> None:
    # A generator's fields, before the page writes them in Turkish: the point is decimal.
    assert harmonize("$x = 12.0$'dir, 1.000'dir, 2.5'dir", point=".") == (
        "$x = 12.0$'dır, 1.000'dır, 2.5'tir"
    )
    assert harmonize("1.000'dir") == "1.000'dir"


def test_a_text_gets_each_ending_right() -> None:
    text = "$j = 3$'yi, 64'yi ve $a$ ile $b$'yi; Shaw'un 0,5'dir. $$x'$$ ``x'`` 'tırnak'"
    assert harmonize(text) == (
        "$j = 3$'ü, 64'ü ve $a$ ile $b$'yi; Shaw'nun 0,5'tir. $$x'$$ ``x'`` 'tırnak'"
    )


@pytest.mark.parametrize(
    ("fields", "shown"),
    [
        ({"j": 0}, "$k = \\lfloor 0/2 \\rfloor = 0$'dır"),
        ({"j": 6}, "$k = \\lfloor 6/2 \\rfloor = 3$'tür"),
        ({"j": 8}, "$k = \\lfloor 8/2 \\rfloor = 4$'tür"),
        ({"j": 10}, "$k = \\lfloor 10/2 \\rfloor = 5$'tir"),
    ],
)
def test_the_generators_texts_take_the_drawn_numbers_ending(
    fields: dict[str, int], shown: str
) -> None:
    j = fields["j"]
    text = say("tr", "sinusoidal_entry.solution", j=j, k=j // 2, parity="çift", b=10000,
               d=64, omega=1, pos=1, angle=1, fn="sin", ans=0)  # fmt: skip
    assert shown in text
    for d, form in ((64, "64'ü"), (128, "128'i"), (256, "256'yı"), (768, "768'i")):
        assert form in say("tr", "learned_params.sum_not_product", n=512, d=d)
