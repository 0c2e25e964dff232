"""Template text from banks and lessons runs in one bounded sandbox: no escape, no hang.

Each escape route is tried through a lesson page (the namespace lessons get) and must be a
clear error at its line with nothing executed; each bound must end a render quickly with
a message that says which bound. One test runs real ``mkdocs build`` and ``konum build``
commands on a small project whose lesson tries to write a file.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import markdown
import numpy as np
import pytest

from konum.computed import PromptTemplateError
from konum.model import Source
from konum.sandbox import FunctionSet, Limits, Sandbox, SandboxError, fmt
from konum.types import ComputedQuestion
from konum.values import ValuesError, page_namespace
from tests.helpers import PE, computed_variants
from tests.miniproject import konum, make_project

#: A file each writing payload aims at; it must never appear.
TARGET = "konum-sandbox-escape"

#: Seconds a refused or bounded render may take: these tests catch a hang, not slowness
#: (the message says which bound stopped the render), so this is far above a loaded machine.
QUICK = 60


def convert(text: str) -> str:
    return markdown.Markdown(
        extensions=["konum.values"], extension_configs={"konum.values": {"plugins": ["pe"]}}
    ).convert(text)


def render(source: str, limits: Limits | None = None, **values: object) -> str:
    return Sandbox(limits).from_string(source).render(values)


#: The escape routes, as expressions a lesson could write; PATH is a file in tmp_path.
ESCAPES = [
    # module objects and Python internals
    "pe.np",
    "pe.np.save('PATH', 1)",
    "pe.__dict__",
    "pe['np']",
    "fmt.__globals__",
    "vec.__module__",
    "figure.__self__",
    "generators.__globals__['os']",
    "pe.sinusoidal.__wrapped__",
    "pe.sinusoidal.__globals__",
    "().__class__.__mro__",
    "''.__class__.__base__.__subclasses__()",
    "().__class__.__mro__[1].__subclasses__()",
    "x.__class__",
    # numpy I/O, ctypes and memory
    "pe.sinusoidal(2, 2).tofile('PATH')",
    "pe.sinusoidal(2, 2).dump('PATH')",
    "pe.sinusoidal(2, 2)['tofile']('PATH')",
    "pe.sinusoidal(2, 2).ctypes",
    "pe.sinusoidal(2, 2).data",
    "pe.sinusoidal(2, 2).base",
    "pe.sinusoidal(2, 2).__array_interface__",
    "pe.sinusoidal(2, 2).dtype",
    "pe.sinusoidal(2, 2).round(1, pe.sinusoidal(2, 2))",
    "rng(0).bit_generator",
    "np.fromfile('/etc/passwd')",
    "np.loadtxt('/etc/passwd')",
    "np.save('PATH', 1)",
    "np.ctypeslib",
    # Jinja's globals and the usual template-injection payloads
    "cycler.__init__.__globals__.os.popen('touch PATH')",
    "joiner",
    "joiner.__init__.__globals__",
    "namespace.__init__.__globals__",
    "namespace(a=1).__class__",
    "namespace(a=1)._Namespace__attrs",
    "lipsum.__globals__['os'].popen('touch PATH')",
    "dict(a=1)",
    "self.__init__.__globals__",
    "self._TemplateReference__context",
    "request.application.__globals__",
    "config.__class__.__init__.__globals__",
    "loop",
    # format strings, filters and attribute look-ups by name
    "'{0.__class__}'.format(1)",
    "'{0.__class__.__mro__}'.format_map([1])",
    "'%s' % pe",
    "1 | attr('__class__')",
    "[1] | map(attribute='__class__') | list",
    "[pe] | map(attribute='np') | list",
    "'x' | format(1)",
]


@pytest.mark.parametrize("escape", ESCAPES)
def test_escape_routes_are_clear_errors_at_their_line(escape: str, tmp_path: Path) -> None:
    target = tmp_path / TARGET
    expression = escape.replace("PATH", str(target))
    page = f"# Page\n\nSome text.\n\n{{% set x = 1 %}}{{{{ {expression} }}}}\n"
    started = time.perf_counter()
    with pytest.raises(ValuesError, match=r"^in a \{\{ \.\.\. \}\} expression, line 5: ") as info:
        convert(page)
    assert time.perf_counter() - started < QUICK
    assert "Traceback" not in str(info.value)
    assert not target.exists()
    assert not any(tmp_path.iterdir())


@pytest.mark.parametrize(
    "expression",
    ["pe.np is defined", "pe.sinusoidal(2, 2).ctypes is defined", "x.__class__ is defined"],
)
def test_refused_attributes_fail_even_under_is_defined(expression: str) -> None:
    with pytest.raises(ValuesError, match="line 1"):
        convert(f"{{% set x = 1 %}}{{{{ {expression} }}}}")


@pytest.mark.parametrize(
    ("tag", "word"),
    [
        ("{% include '/etc/passwd' %}", "include"),
        ("{% import 'os' as os %}", "import"),
        ("{% from 'os' import system %}", "import"),
        ("{% extends 'base.html' %}", "extends"),
        ("{% for x in [1] recursive %}{{ loop([x]) }}{% endfor %}", "recursive"),
        ("{% autoescape false %}x{% endautoescape %}", "autoescape"),
    ],
)
def test_tags_that_reach_other_files_are_refused_when_compiling(tag: str, word: str) -> None:
    with pytest.raises(SandboxError, match=f"line 3: .*{word}"):
        Sandbox().from_string(f"a\nb\n{tag}\n")


def test_the_lesson_namespace_holds_no_module_and_no_numpy() -> None:
    import types

    namespace = page_namespace(PE, lambda *args, **kwargs: "")
    assert "np" not in namespace
    for name, value in namespace.items():
        assert not isinstance(value, types.ModuleType), name
    assert isinstance(namespace["pe"], FunctionSet)
    assert "np" not in namespace["pe"].names and "sinusoidal" in namespace["pe"].names


def test_function_sets_name_what_they_have() -> None:
    with pytest.raises(ValuesError, match=r"pe has no function 'sinusodal'; did you mean"):
        convert("{{ pe.sinusodal(4, 6) }}")


# --- bounds ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("source", "message"),
    [
        ("{{ range(10 ** 9) | length }}", r"range\(\) of 1,000,000,000 items: at most 10,000"),
        ("{{ range(10 ** 100) | length }}", "range"),
        (
            "{% for a in range(9999) %}{% for b in range(9999) %}{% endfor %}{% endfor %}",
            "too much work",
        ),
        (
            "{% for a in 'x' * 9999 %}{% for b in 'x' * 9999 %}{{ b }}{% endfor %}{% endfor %}",
            "too much work",
        ),
        ("{{ 'x' * 10 ** 9 }}", "repeated sequence would hold 1,000,000,000"),
        ("{{ [0] * 10 ** 9 }}", "repeated sequence"),
        ("{{ 10 ** (10 ** 10) }}", "bits: at most 4,096"),
        ("{% macro f(s) %}{{ f(s ~ s) }}{% endmacro %}{{ f('x') }}", "concatenation would hold"),
        ("{% macro f() %}{{ f() }}{% endmacro %}{{ f() }}", "RecursionError"),
        (
            "{% macro f(n) %}{% if n %}{{ f(n - 1) }}{{ f(n - 1) }}{% endif %}{% endmacro %}"
            "{{ f(40) }}",
            "too much work",
        ),
        (
            "{% set s = 'x' * 5000 %}{% for i in range(9000) %}{{ s }}{% endfor %}",
            "too much output",
        ),
        ("{{ [1, 2] | join('x' * 4000000) | length }}", "OK"),
        ("{{ [1, 2, 3] | join('x' * 4000000) }}", "join's result would hold"),
        ("{{ 'abc' | replace('', 'y' * 3000000) }}", "replace's result would hold"),
        ("{{ 'abc' | center(10 ** 9) }}", "No filter named 'center'"),
        ("{{ 'abc' | indent(10 ** 9) }}", "No filter named 'indent'"),
        ("{{ [1] | batch(10 ** 9, 0) | list }}", "No filter named 'batch'"),
        ("{{ lipsum(10 ** 6) }}", "'lipsum' is undefined"),
        ("{{ fmt(1, 10 ** 9) }}", "decimals: expected 0 to 15, found 1000000000"),
        ("{{ '%999999999d' % 1 }}", "'%' does not format strings"),
    ],
)
def test_bounds_end_renders_quickly_with_a_clear_message(source: str, message: str) -> None:
    started = time.perf_counter()
    if message == "OK":
        assert render(source, fmt=fmt)
    else:
        with pytest.raises(SandboxError, match=f"line 1: .*{message}"):
            render(source, fmt=fmt)
    assert time.perf_counter() - started < QUICK


@pytest.mark.parametrize(
    ("expression", "message"),
    [
        ("pe.learned(100000, 100000)", r"pe.learned\(\): its whole-number arguments multiply"),
        ("pe.sinusoidal_shift_matrix(0, 10 ** 7)", "multiply to 10,000,000"),
        ("pe.self_attention([ones((1000, 1000))] * 100)", "a repeated sequence would hold"),
        ("pe.self_attention([x, x, x, x, x, x])", "an argument would hold 6,000,000"),
        ("vec([x, x, x, x, x, x])", "an argument would hold 6,000,000"),
        ("[x, x, x, x, x, x] | length", "a filter's input would hold"),
        ("[x, x, x, x, x, x] == []", "an operand would hold"),
        ("[x, x, x, x, x, x] + []", "an operand would hold"),
        ("arange(5000).reshape(-1, 1) * arange(5000)", "array operation's result would hold"),
        ("arange(5000).reshape(-1, 1) == arange(5000)", "array operation's result would hold"),
        ("ones(10000)[[0] * 10000]", "an indexed array would hold"),
        ("arange(0.0, 1.0, 1e-9)", r"arange\(\) would hold"),
        ("ones((100000, 100000))", r"ones\(\) would hold"),
        ("rng(0).normal(size=(100000, 100000))", r"normal\(\) would hold"),
        ("array([x, x, x, x, x, x])", "an argument would hold"),
        ("concatenate([x] * 6)", "a repeated sequence would hold"),
        ("take(ones((1, 5000000)), [0] * 5000000, axis=0)", r"take\(\) would hold"),
        ("allclose(arange(5000).reshape(-1, 1), arange(5000))", r"allclose\(\) would hold"),
        ("vec(ones(3), 10 ** 9)", "decimals: expected 0 to 15"),
        ("vec(x)", r"vec\(\) of 1,000,000 numbers: at most 100,000"),
        ("table(x.reshape(1000, 1000))", r"table\(\) of 1,000,000 numbers"),
        ("table(ones((2, 2)), decimals=10 ** 9)", "decimals: expected 0 to 15"),
    ],
)
def test_array_work_is_sized_before_numpy_allocates_it(expression: str, message: str) -> None:
    started = time.perf_counter()
    with pytest.raises(ValuesError, match=f"line 2: .*{message}"):
        convert(f"{{% set x = ones(1000000) %}}\n{{{{ {expression} }}}}")
    assert time.perf_counter() - started < QUICK


def test_printing_is_sized_before_str_builds_the_text() -> None:
    # [x] * 40 is 40 references to one list, but its text is forty times x's.
    started = time.perf_counter()
    with pytest.raises(SandboxError, match="may print 1,000,000 characters"):
        render("{% set x = [0] * 100000 %}{% set y = [x] * 40 %}{{ y }}", Limits(output=10**6))
    assert time.perf_counter() - started < QUICK
    assert len(render("{{ ones(2000000) }}", ones=np.ones)) < 100  # numpy summarises


def test_work_on_large_arrays_counts_against_the_steps() -> None:
    # 200 arrays of a million elements each: few iterations, many elements touched.
    with pytest.raises(ValuesError, match="too much work"):
        convert("{% for i in range(200) %}{{ ones((1000, 1000)).sum() }}{% endfor %}")


def test_each_limit_can_be_set() -> None:
    loop = "{% for i in range(50) %}{{ i }}{% endfor %}"
    assert render(loop).startswith("0123")
    with pytest.raises(SandboxError, match="a template may take 10 steps"):
        render(loop, Limits(steps=10))
    with pytest.raises(SandboxError, match="a template may run for 0 s"):
        render(loop, Limits(seconds=0.0))
    with pytest.raises(SandboxError, match="may print 20 characters"):
        render(loop, Limits(output=20))
    with pytest.raises(SandboxError, match="at most 10"):
        render("{{ range(11) | list }}", Limits(range=10))


def test_a_template_renders_only_through_render() -> None:
    template = Sandbox().from_string("{% for x in range(3) %}{{ x }}{% endfor %}")
    assert template.render() == "012"
    with pytest.raises(SandboxError, match="only through its render"):
        "".join(template.generate())


# --- what templates still do -----------------------------------------------------------------


def test_loops_macros_filters_and_comparisons_still_work() -> None:
    source = (
        "{% macro twice(x) %}{{ x }}{{ x }}{% endmacro %}"
        "{% for k, v in {'b': 2, 'a': 1}.items() | sort %}{{ k | upper }}={{ v }}"
        "{{ ',' if not loop.last }}{% endfor %};"
        "{{ twice('ab') }};{{ 1 < 2 < 3 }},{{ 3 > 2 > 5 }},{{ 2 in [1, 2] }},"
        "{{ 'x' not in 'abc' }};{{ {'name': 'n'}.name }};{{ [3, 1, 2] | sort | join('-') }};"
        "{{ 'A.B' | lower | replace('.', '') }};{{ 7 // 2 }} {{ 7 % 3 }} {{ 2 ** 10 }}"
    )
    assert render(source) == ("A=1,B=2;abab;True,False,True,True;n;1-2-3;ab;3 1 1024")


def test_errors_name_the_template_line() -> None:
    with pytest.raises(SandboxError, match=r"^line 3: ZeroDivisionError: division by zero$"):
        render("a\nb\n{{ 1 / 0 }}\n")
    with pytest.raises(SandboxError, match=r"^line 2: ") as info:
        render("{% macro m() %}\n{{ 1 / 0 }}\n{% endmacro %}\n\n{{ m() }}")
    assert info.value.lineno == 2 and info.value.message.startswith("ZeroDivisionError")
    with pytest.raises(SandboxError, match=r"^line 2: ") as info:
        Sandbox().from_string("a\n{{ 1 +  }}")
    assert info.value.lineno == 2


def test_errors_survive_a_trip_between_processes() -> None:
    import pickle

    error = pickle.loads(pickle.dumps(SandboxError("too much work", 7)))
    assert (str(error), error.message, error.lineno) == (
        "line 7: too much work",
        "too much work",
        7,
    )


def test_numeric_helpers_give_numpys_numbers() -> None:
    namespace = page_namespace(PE, lambda *args, **kwargs: "")
    source = (
        "{% set g = rng(7) %}{{ g.normal(size=(2, 3)).sum() }} {{ g.permutation(5) }} "
        "{{ rng(0).normal(size=(4, 6)).sum() }} {{ (arange(3).reshape(-1, 1) - arange(3)).T }} "
        "{{ norm(array([3.0, 4.0])) }} {{ take(arange(10), [1, 3]) }} {{ round(pi, 3) }}"
    )
    text = Sandbox().from_string(source).render(namespace)
    g = np.random.default_rng(7)
    expected = (
        f"{g.normal(size=(2, 3)).sum()} {g.permutation(5)} "
        f"{np.random.default_rng(0).normal(size=(4, 6)).sum()} "
        f"{np.subtract.outer(np.arange(3), np.arange(3)).T} 5.0 [1 3] 3.142"
    )
    assert text == expected


# --- computed prompts ------------------------------------------------------------------------


def prompt_question(prompt: str) -> ComputedQuestion:
    return ComputedQuestion(
        id="loop-prompt",
        bank="test",
        prompt=prompt,
        explanation="",
        source=Source("test.yml", 1, 1),
        generator="sinusoidal_entry",
    )


@pytest.mark.parametrize(
    ("prompt", "message"),
    [
        (
            "{% for a in range(99999) %}{{ pos }}{% endfor %} $PE$?",
            r"range\(\) of 99,999 items",
        ),
        (
            "{% for a in range(9999) %}{% for b in range(9999) %}{{ pos }}{% endfor %}"
            "{% endfor %} $PE$?",
            "too much work",
        ),
        ("{{ pos.__class__.__mro__ }}", "private attribute '__class__' of int"),
        ("{{ '{0.__class__}'.format(pos) }}", "attribute 'format' of str"),
        ("{{ fmt(pos, 10 ** 9) }}", "decimals: expected 0 to 15"),
    ],
)
def test_computed_prompts_run_in_the_same_sandbox(prompt: str, message: str) -> None:
    started = time.perf_counter()
    with pytest.raises(PromptTemplateError, match=f"loop-prompt: .*line 1: .*{message}"):
        computed_variants(prompt_question(prompt), 1)
    assert time.perf_counter() - started < QUICK


def test_check_reports_a_runaway_prompt_at_its_file_and_line(tmp_path: Path) -> None:
    banks = tmp_path / "banks"
    banks.mkdir()
    (banks / "loops.yml").write_text(
        "bank: loops\n"
        "title: Loops\n"
        "questions:\n"
        "  - id: nested-loops\n"
        "    type: computed\n"
        "    generator: sinusoidal_entry\n"
        "    answer: numeric\n"
        '    prompt: "{% for a in range(9999) %}{% for b in range(9999) %}{{ a }}'
        '{% endfor %}{% endfor %}"\n'
    )
    started = time.perf_counter()
    result = konum(tmp_path, "check", "-p", "pe", str(banks), timeout=60)
    assert time.perf_counter() - started < 30
    assert result.returncode == 1
    assert "loops.yml:8:" in result.stdout + result.stderr
    assert "[nested-loops] prompt:" in result.stdout + result.stderr
    assert "too much work" in result.stdout + result.stderr
    assert "Traceback" not in result.stdout + result.stderr


# --- a real build ----------------------------------------------------------------------------


@pytest.mark.slow
def test_a_lesson_escape_fails_mkdocs_and_konum_builds_at_its_line(tmp_path: Path) -> None:
    project = make_project(tmp_path)
    target = tmp_path / TARGET
    (project / "content" / "lessons" / "escape.md").write_text(
        "# Escape\n\nA lesson.\n\n"
        f"{{{{ pe.sinusoidal(2, 2).tofile('{target}') }}}} {{{{ np.save('{target}', 1) }}}}\n"
    )
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    mkdocs = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "-d", str(tmp_path / "site")],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    built = konum(project, "build")
    wrong = "attribute 'tofile' of ndarray is not available"
    for result, needles in (
        (mkdocs, ("Error reading page 'lessons/escape.md'", f"line 5: {wrong}")),
        # One line, the page's path and line first, as konum check writes it.
        (built, (f"content/lessons/escape.md:5: in a {{{{ ... }}}} expression: {wrong}",)),
    ):
        output = result.stdout + result.stderr
        assert result.returncode == 1, output
        assert all(needle in output for needle in needles), output
        assert "Traceback" not in output
    assert not target.exists()
    assert not (target.parent / f"{TARGET}.npy").exists()


def test_a_namespace_carries_values_but_cannot_grow_past_the_bounds() -> None:
    """Lessons carry sums out of loops in a namespace; a loop doubling what it holds is
    stopped by the size bound, quickly, with its line."""
    ok = (
        "{% set ns = namespace(total=0) %}{% for k in range(4) %}"
        "{% set ns.total = ns.total + k %}{% endfor %}{{ ns.total }}"
    )
    assert convert(ok).strip().endswith("6</p>")
    doubling = (
        "{% set ns = namespace(s='ab') %}\n"
        "{% for k in range(64) %}{% set ns.s = ns.s ~ ns.s %}{% endfor %}{{ ns.s|length }}"
    )
    started = time.perf_counter()
    with pytest.raises(ValuesError, match="line 2"):
        convert(doubling)
    assert time.perf_counter() - started < QUICK
