"""The optional compiled evaluation kernel (analyzer/engine/_native.c); the rest of the build is
in pyproject.toml.

``pip install .`` compiles the kernel with the system's C compiler.  Without one (or when the
compile fails) the install says so in one line and goes on: the package then evaluates with
its pure Python and numpy path, which gives the same numbers (docs/speed.md).
"""

from __future__ import annotations

import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

KERNEL = Extension(
    "analyzer.engine._native",
    sources=["analyzer/engine/_native.c"],
    depends=["analyzer/engine/_native_eval.h"],
    optional=True,
)


class OptionalBuildExt(build_ext):
    """``build_ext`` that never fails the install: a kernel that does not build is left out."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:  # no compiler at all (DistutilsPlatformError), or any other failure
            _not_built(exc)

    def build_extension(self, ext: Extension) -> None:
        try:
            super().build_extension(ext)
        except Exception as exc:  # the compiler failed (CompileError, LinkError, DistutilsExecError)
            _not_built(exc)


def _not_built(exc: BaseException) -> None:
    """Say so in one line: in the build's log (``pip install -v`` shows it), and on the
    terminal when there is one (pip shows a build's own output only when the build fails)."""
    line = (
        f"punto-banco-analyzer: no C compiler could build the compiled kernel ({type(exc).__name__}: "
        "pip install -v shows the compiler's output); installed without it, the pure Python path "
        "runs, with the same results\n"
    )
    sys.stderr.write(line)
    sys.stderr.flush()
    try:
        with open("/dev/tty", "w") as terminal:
            terminal.write("\n" + line)  # after pip's progress line
    except OSError:  # no terminal (CI, a pipe, Windows): the log line above is the message
        pass


setup(ext_modules=[KERNEL], cmdclass={"build_ext": OptionalBuildExt})
