"""`import analyzer` stays cheap: other projects import it as an oracle in their test suites."""

import subprocess
import sys


def test_import_analyzer_loads_no_front_end_or_symbolic_library():
    code = (
        "import sys, analyzer\n"
        "heavy = ('click', 'tabulate', 'sympy', 'numpy', 'scipy', 'matplotlib')\n"
        "heavy = [m for m in heavy if m in sys.modules]\n"
        "print(','.join(heavy))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == ""
