"""What the ``konum`` commands share: the options most take (``-f``, ``--seed``) and their
ranges, the site's course or its problems, the warning about published bank files, counts
in words, and the check of ``serve``'s address. :mod:`konum.cli` holds the commands.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from konum import limits

if TYPE_CHECKING:
    from konum.course import Course
    from konum.siteconfig import SiteConfig

SEED = click.IntRange(*limits.SEED)
VARIANTS = click.IntRange(*limits.VARIANTS)
F = TypeVar("F", bound=Callable[..., Any])


def config_file_option(
    help: str = "The site's MkDocs configuration.", *aliases: str
) -> Callable[[F], F]:
    """The ``-f``/``--config-file`` option (``mkdocs.yml`` by default), with ``help`` and any
    other spellings a command also accepts (``aliases``)."""
    return click.option(
        "-f",
        "--config-file",
        *aliases,
        type=click.Path(dir_okay=False),
        default="mkdocs.yml",
        show_default=True,
        help=help,
    )


def flag_option(name: str, help: str) -> Callable[[F], F]:
    """An on/off option (``--name``, off unless given)."""
    return click.option(name, is_flag=True, help=help)


config_option = config_file_option()
seed_option = click.option(
    "--seed", type=SEED, default=None, help="Site seed (default: the konum extension's)."
)


def plural(count: int, word: str) -> str:
    """``1 bank``, ``2 banks``: the commands' counts (English, as their messages are)."""
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def course_or_exit(settings: SiteConfig, seed: int | None, variants: int | None) -> Course:
    """The site's course with the command's seed, or every bank problem and exit 1."""
    from konum.config import override
    from konum.course import course_for
    from konum.problems import BankError, format_text

    try:
        return course_for(override(settings.options, seed=seed, variants=variants))
    except BankError as exc:
        click.echo(format_text(exc.problems, files=len(exc.files)), err=True)
        raise click.exceptions.Exit(1) from None


def warn_published(found: Sequence[tuple[Path, str]]) -> None:
    """Warn about each folder of bank files that the site publishes (see
    :func:`konum.siteconfig.published_banks`), with the ``exclude_docs`` line that keeps it out."""
    from konum.paths import shown

    for folder, line in found:
        click.echo(
            f"konum: warning: the bank files in {shown(folder, Path.cwd())}/ are published with"
            " the site, answers and all; to keep them out, add to mkdocs.yml:"
            f"\n  exclude_docs: |\n    {line}",
            err=True,
        )


def address(value: str) -> str:
    """``value`` if it is ``HOST:PORT`` with a port from 1 to 65535.

    Raises:
        click.BadParameter: it is not, saying what was expected.
    """
    host, colon, port = value.rpartition(":")
    if not (host and colon and port.isdigit() and len(port) < 6 and 0 < int(port) < 65536):
        raise click.BadParameter(f"expected IP:PORT with a port from 1 to 65535, found {value!r}")
    return value
