"""Sphinx configuration of the manual: Markdown pages (MyST), the API reference from the
docstrings (autodoc, Google-style sections through napoleon) and the command reference from
the click commands (sphinx-click).

Build it with ``sphinx-build -W --keep-going -b html docs/ build/manual`` (the tests do, and
fail on any warning).
"""

from __future__ import annotations

import ast
import functools
import importlib
import inspect
import re
import sys
from pathlib import Path
from typing import Any

from docutils import nodes
from pygments.lexers.shell import BashSessionLexer
from sphinx.application import Sphinx
from sphinx.pycode import ModuleAnalyzer
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import analyzer  # noqa: E402

LOGGER = logging.getLogger(__name__)

project = "punto-banco-analyzer"
author = "the punto-banco-analyzer authors"
copyright = "the punto-banco-analyzer authors"
release = version = analyzer.__version__

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "sphinx_click",
]
source_suffix = {".md": "markdown", ".rst": "restructuredtext"}
exclude_patterns = ["_build", "rule-sheets/*.txt"]
root_doc = "index"

# Markdown: anchors for every heading down to ###, so pages link to each other's sections.
myst_heading_anchors = 3

# The API reference: members in source order, each documented where it is defined (a name a
# module re-exports is documented once, at its home), attributes of a class as fields.
autodoc_default_options = {"members": True, "member-order": "bysource", "ignore-module-all": True}
autodoc_typehints = "signature"
# Sphinx 9's new autodoc rewrites the annotations of pydantic models it meets while importing
# (FastAPI's own, for analyzer.web): sphinx-doc/sphinx issue 14337; the legacy one does not.
autodoc_use_legacy_class_based = True
napoleon_google_docstring = True
napoleon_numpy_docstring = False
napoleon_use_ivar = True

html_theme = "furo"
python_use_unqualified_type_names = True
html_title = f"punto-banco-analyzer {release}"
html_static_path: list[str] = []


# -- docstrings: the project's plain-text notation ---------------------------------------------

#: ``|x|`` in a docstring is an absolute value, never a reStructuredText substitution.
_LITERAL = re.compile(r"``.+?``")


def _escape_bars(line: str) -> str:
    """``line`` with every ``|`` outside a ``literal`` escaped."""
    out, last = [], 0
    for match in _LITERAL.finditer(line):
        out.append(line[last : match.start()].replace("|", r"\|"))
        out.append(match.group())
        last = match.end()
    out.append(line[last:].replace("|", r"\|"))
    return "".join(out)


def plain_bars(app: Sphinx, what: str, name: str, obj: Any, options: Any, lines: list[str]) -> None:
    """Escape the bars of absolute values (``max |pay|``) in a docstring's prose; leave code
    (doctest blocks, ``::`` blocks), tables and line blocks alone."""
    doctest, code, code_indent = False, False, 0
    for i, line in enumerate(lines):
        stripped = line.lstrip()
        indent = len(line) - len(stripped)
        if not stripped:
            doctest = False
            continue
        if code and indent <= code_indent:
            code = False
        doctest = doctest or stripped.startswith(">>>")
        if doctest or code or stripped.startswith(("+-", "+=", "| ")):
            continue
        lines[i] = _escape_bars(line)
        if stripped.endswith("::"):
            code, code_indent = True, indent


# -- signatures: names imported for type checking only -------------------------------------


@functools.cache
def _type_only_imports(module_name: str) -> dict[str, str]:
    """Name -> full name of what a module imports under ``if TYPE_CHECKING:`` (absent at run
    time, so a signature shows them bare and a bare name such as ``Table`` is ambiguous)."""
    module = sys.modules.get(module_name)
    source = getattr(module, "__file__", None)
    if not source or not source.endswith(".py"):
        return {}
    found: dict[str, str] = {}
    for node in ast.walk(ast.parse(Path(source).read_text(encoding="utf-8"))):
        if isinstance(node, ast.If) and ast.unparse(node.test).endswith("TYPE_CHECKING"):
            for child in node.body:
                if isinstance(child, ast.ImportFrom) and child.module:
                    for alias in child.names:
                        found[alias.asname or alias.name] = f"{child.module}.{alias.name}"
    return {name: full for name, full in found.items() if not hasattr(module, name)}


def qualify_type_only_names(
    app: Sphinx, what: str, name: str, obj: Any, options: Any, signature: str | None, annotation: str | None
) -> tuple[str | None, str | None]:
    """Write the names of type-only imports in full in a signature, so each links to one object."""
    names = _type_only_imports(getattr(obj, "__module__", "") or "")
    if not names:
        return signature, annotation
    pattern = re.compile(r"(?<![\w.])(" + "|".join(map(re.escape, names)) + r")(?![\w])")

    def full(text: str | None) -> str | None:
        return pattern.sub(lambda m: names[m.group(1)], text) if text else text

    return full(signature), full(annotation)


# -- console blocks: only "$ " is a prompt ---------------------------------------------------


class DollarSessionLexer(BashSessionLexer):
    """A console session whose one prompt is ``$ ``: the commands' output starts with ``# ...``
    provenance lines, which the stock lexer would take for a root prompt and parse as shell."""

    _ps1rgx = re.compile(r"^(\$ )(.*\n?)")
    _ps2 = "\0"  # no continuation lines


# -- the manual's own references must resolve -----------------------------------------------


def strict_manual_references(app: Sphinx, env: Any, node: Any, contnode: Any) -> None:
    """A Python reference written on a manual page (not in a docstring) that finds no target is
    a warning, so a renamed or moved module breaks the build instead of a link."""
    if node.get("refdomain") == "py" and not str(node.get("refdoc", "")).startswith("api/"):
        LOGGER.warning("manual page: no Python object %r to link to", node.get("reftarget"), location=node)


# -- the public names, from the package's own table --------------------------------------------


class PublicNames(SphinxDirective):
    """A table of every name ``import analyzer`` offers, each linked to where it is documented
    with the first sentence of its documentation (read from ``analyzer._EXPORTS``, so the list
    cannot drift)."""

    def run(self) -> list[nodes.Node]:
        exports: dict[str, str] = analyzer._EXPORTS
        lines = [".. list-table::", "   :widths: 1 3", ""]
        for name, module in sorted(exports.items(), key=lambda kv: kv[0].lower()):
            summary = _summary(module, name)
            link = f":py:obj:`{name} <{module}.{name}>`" if summary else f"``{name}`` (:py:mod:`{module}`)"
            lines += [f"   * - {link}", f"     - {summary or 'a constant; see its module'}"]
        return self.parse_text_to_nodes("\n".join(lines))


def _summary(module: str, name: str) -> str:
    """The first paragraph of a public name's docstring, or of its ``#:`` comment (a constant);
    empty for a constant without one (autodoc does not document it, so it gets no link)."""
    obj = getattr(importlib.import_module(module), name)
    if inspect.isclass(obj) or inspect.isroutine(obj):
        text = inspect.getdoc(obj) or ""
    else:
        comments = ModuleAnalyzer.for_module(module).find_attr_docs()
        text = "\n".join(comments.get(("", name), []))
    return " ".join(text.strip().split("\n\n", 1)[0].split())


def setup(app: Sphinx) -> dict[str, Any]:
    app.connect("autodoc-process-docstring", plain_bars)
    app.connect("autodoc-process-signature", qualify_type_only_names)
    app.add_directive("public-names", PublicNames)
    app.add_lexer("console", DollarSessionLexer)
    app.connect("missing-reference", strict_manual_references)
    return {"parallel_read_safe": True}
