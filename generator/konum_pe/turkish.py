"""Turkish suffixes after a number, a letter, a formula or a name, by how it is said.

Turkish writes a case ending after a numeral, a symbol or a foreign name behind an apostrophe
and picks its vowels and its first consonant by the *spoken* word: ``3'tür`` (üç), ``64'ü``
(altmış dört), ``256'yı`` (iki yüz elli altı), ``$k$'yı`` (ka), ``Shaw'nun`` (şo). A text is
written with any form of the ending (``{d}'yi``) and :func:`harmonize` gives each the form
its word takes, so every number a generator draws gets the right one.

Conventions:

* a number's last spoken word: the units, else the tens, else ``yüz``, ``bin``, ``milyon``,
  ...; a decimal's is that of its decimals read as a whole number (``0,05`` sıfır virgül
  sıfır beş), its digits grouped with ``.`` or not, its mark ``,`` (``0{,}5``, ``10{.}000`` in TeX);
* one reading per letter (:data:`LETTERS`: ``k`` is ``ka``, ``q`` is ``ku``, ``x`` is
  ``iks``), per Greek letter and function (:data:`COMMANDS`), per name (:data:`NAMES`); a
  name not listed is read as written, all capitals letter by letter (``MAE``: em a e);
* a formula is read up to its last spoken token: closing brackets and braces are silent,
  ``x^2`` ends in ``kare``, ``^\\top`` in ``devrik``, ``\\frac{a}{b}`` and ``a/b`` in ``b``
  (``a bölü b``).
"""

from __future__ import annotations

import re

#: How each Latin letter is said when it stands alone (a symbol, a letter of an acronym).
LETTERS = {
    "a": "a", "b": "be", "c": "ce", "ç": "çe", "d": "de", "e": "e", "f": "fe", "g": "ge",
    "h": "he", "ı": "ı", "i": "i", "j": "je", "k": "ka", "l": "le", "m": "me", "n": "ne",
    "o": "o", "ö": "ö", "p": "pe", "q": "ku", "r": "re", "s": "se", "ş": "şe", "t": "te",
    "u": "u", "ü": "ü", "v": "ve", "w": "dabılyu", "x": "iks", "y": "ye", "z": "ze",
}  # fmt: skip
#: How TeX's Greek letters, functions and symbols are said.
COMMANDS = {
    "alpha": "alfa", "beta": "beta", "gamma": "gama", "delta": "delta", "Delta": "delta",
    "epsilon": "epsilon", "varepsilon": "epsilon", "zeta": "zeta", "eta": "eta",
    "theta": "teta", "Theta": "teta", "lambda": "lamda", "mu": "mü", "pi": "pi", "rho": "ro",
    "sigma": "sigma", "tau": "tau", "phi": "fi", "varphi": "fi", "psi": "psi",
    "omega": "omega", "Omega": "omega", "ell": "le", "top": "devrik", "infty": "sonsuz",
    "sin": "sinüs", "cos": "kosinüs", "tan": "tanjant", "log": "logaritma", "ln": "logaritma",
    "exp": "üstel", "max": "maksimum", "min": "minimum", "sum": "toplam",
}  # fmt: skip
#: Names said otherwise than they are written (lowercase keys; the rest are read as written).
NAMES = {
    "shaw": "şo", "bert": "bert", "softmax": "softmaks", "numpy": "nampay",
    "pytorch": "paytorç", "python": "paytın", "fairseq": "ferseek", "face": "feys",
    "neox": "neoiks", "xpos": "ikspos", "llama": "lama", "openai": "oupınay", "cohere": "kohir",
    "latex": "leytek", "transformer": "transformır", "transformers": "transformırz",
    "explorer": "eksplorır", "base": "beys", "swin": "svin", "timm": "tim", "google": "gugıl",
    "gemma": "gema", "qwen": "kuven", "bloc97": "blok", "roformer": "roformır", "xl": "iksel",
    "distance": "distans", "factor": "faktır", "bucket": "bakıt",
}  # fmt: skip

_UNITS = ["sıfır", "bir", "iki", "üç", "dört", "beş", "altı", "yedi", "sekiz", "dokuz"]
_TENS = ["-", "on", "yirmi", "otuz", "kırk", "elli", "altmış", "yetmiş", "seksen", "doksan"]
_GROUPS = ("bin", "milyon", "milyar", "trilyon", "katrilyon")
_BACK, _VOWELS, _ROUNDED = set("aıou"), set("aeıioöuü"), set("oöuü")
_VOICELESS = set("fstkçşhp")
_NUMBER = re.compile(r"[−-]?\d+(?:[.\s]\d{3})*(?:(?:\{,\}|,)(\d+))?")
#: What is not said at the end of a formula: spaces, closing brackets, \\ldots, quotes, primes.
_SILENT = re.compile(
    r"(?:\s|[\"']|\\[,;:! ]|\\l?dots|\\right\b|\\[bB]igg?r?\b|[)\]}|.,;:]|\\[}|]"
    r"|\\rfloor|\\rceil|\\rangle|\\rVert|\\\|)+$"
)
_LAST = re.compile(
    r"(?:\\(?:text|mathrm|operatorname|mathit|mathbf)\{(?P<text>[^{}]*)$)"
    r"|(?:\^\{?(?P<power>[23])$)|(?:\\(?P<command>[A-Za-z]+)$)"
    r"|(?P<number>\d(?:[\d.]|\{[.,]\}|,)*)$|(?P<name>[A-Za-z][\w-]*)'*$"
)
#: An ending behind an apostrophe (doubled in a single-quoted YAML string) and the word
#: before it: a formula, code, a number or a name.
ENDING = re.compile(
    r"\$\$.*?\$\$|(?P<word>\$[^$\n]+\$|`[^`\n]+`|[−-]?\d[\d.,]*|[^\W\d_][\w-]*)"
    r"(?:(?P<mark>''?|’)(?P<ending>[a-zçğıöşü]+))?",
    re.DOTALL,
)


def number_word(text: str, point: str = ",") -> str:
    """The last word a number is said with: ``"768"`` -> ``"sekiz"``, ``"1000"`` ->
    ``"bin"``, ``"0,5"`` -> ``"beş"``, ``"500.000"`` -> ``"bin"`` (see the module's
    conventions). ``point`` is the decimal mark: ``","`` (Turkish, ``.`` groups) or ``"."``
    (Python's form, ungrouped: a generator's fields before the page writes them)."""
    if not text.isdigit():
        text = text.replace("{,}", ",").replace("{.}", "")
        text = text.replace(".", ",") if point == "." else text
        whole, _, decimals = text.partition(",")
        text = (decimals or whole).lstrip("−-").replace(".", "").replace(" ", "")
    digits = text.lstrip("0")
    if not digits:
        return _UNITS[0]
    trailing = len(digits) - len(digits.rstrip("0"))
    if trailing == 0:
        return _UNITS[int(digits[-1])]
    if trailing == 1:
        return _TENS[int(digits[-2])]
    return "yüz" if trailing == 2 else _GROUPS[trailing // 3 - 1]


def _name_word(name: str) -> str:
    name = re.split(r"[._/ -]", name)[-1] or name
    if name.lower() in NAMES:
        return NAMES[name.lower()]
    if name[-1].isdigit():
        return number_word(re.findall(r"\d+", name)[-1])
    if (len(name) <= 2 or name.isupper()) and name[-1].lower() in LETTERS:
        return LETTERS[name[-1].lower()]
    return name.lower()


def spoken_word(word: str, point: str = ",") -> str:
    """The last word ``word`` is said with: a number (:func:`number_word`, ``point`` its
    decimal mark), a ``$...$`` formula or a ```code``` span (up to its last token), a letter
    or a name (:data:`NAMES`)."""
    if word[0] in "$`":
        tex = _SILENT.sub("", word.strip("$`"))
        last = _LAST.search(tex)
        if last is None:
            return tex.lower() or "e"
        if last["power"]:
            return "kare" if last["power"] == "2" else "küp"
        if last["command"]:
            return COMMANDS.get(last["command"], last["command"].lower())
        if last["number"]:
            return number_word(last["number"].rstrip(".,"), point)
        return _name_word(last["text"] or last["name"])
    if _NUMBER.fullmatch(word):
        return number_word(word, point)
    return _name_word(word)


def _harmonize_ending(spoken: str, ending: str) -> str:
    """``ending`` (in any of its forms) in the form it takes after the word ``spoken``."""
    vowel = next((c for c in reversed(spoken) if c in _VOWELS), "e")
    after_vowel, hard = spoken[-1] in _VOWELS, spoken[-1] in _VOICELESS
    # The buffer consonants: n before the genitive (n)In, y before (y)I, (y)A and (y)lA;
    # the ordinal (I)ncI drops its first vowel after a vowel (2'nci, 3'üncü).
    if re.fullmatch(r"n?[ıiuü]n(?:ki\w*|[ıiuü]n\w*|[ae]\w*)?", ending):
        ending = ("n" if after_vowel else "") + ending.removeprefix("n")
    elif re.match(r"n?[ıiuü]?nc[ıiuü]", ending):
        ending = ("" if after_vowel else "ı") + "n" + ending.lstrip("nıiuü")
    elif re.match(r"y?[ıiuüae]", ending) or re.fullmatch(r"y?l[ae]", ending):
        ending = ("y" if after_vowel else "") + ending.removeprefix("y")
        ending = "l" + ending[1:] if ending.startswith("yl") and not after_vowel else ending
    if ending[0] in "dt":
        ending = ("t" if hard else "d") + ending[1:]
    elif ending[0] in "cç":
        ending = ("ç" if hard else "c") + ending[1:]
    out = []
    for i, c in enumerate(ending):
        if c in "ae":
            c = "a" if vowel in _BACK else "e"
        elif c in "ıiuü" and ending[i - 1 : i + 1] != "ki":
            c = {(True, False): "ı", (False, False): "i", (True, True): "u", (False, True): "ü"}[
                (vowel in _BACK, vowel in _ROUNDED)
            ]
        vowel = c if c in _VOWELS else vowel
        out.append(c)
    return "".join(out)


def suffixed(word: str, ending: str) -> str:
    """``word'ending`` with the ending in the form ``word``'s reading takes:
    ``suffixed("3", "dir")`` -> ``"3'tür"``, ``suffixed("$k$", "yi")`` -> ``"$k$'yı"``."""
    return f"{word}'{_harmonize_ending(spoken_word(word), ending)}"


def harmonize(text: str, point: str = ",") -> str:
    """``text`` with every ending behind an apostrophe (:data:`ENDING`) in the form its word
    takes: ``"$j = 3$'yi"`` -> ``"$j = 3$'ü"``; its numbers have ``point`` as their decimal
    mark (:func:`number_word`)."""

    def one(match: re.Match[str]) -> str:
        word, mark, ending = match["word"], match["mark"], match["ending"]
        if not ending:
            return match[0]
        return f"{word}{mark}{_harmonize_ending(spoken_word(word, point), ending)}"

    return ENDING.sub(one, text)
