"""The test oracle for other baccarat implementations' test suites (public name).

The implementation lives in :mod:`analyzer.checks.oracle`; this module is the stable import
path documented in the manual, docs/checks.md (``from analyzer.testing import assert_coup, ...``).
"""

from analyzer.checks.oracle import *  # noqa: F403
from analyzer.checks.oracle import __all__  # noqa: F401
