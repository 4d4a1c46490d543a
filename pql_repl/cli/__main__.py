"""``python -m pql_repl.cli``: the ``pql`` command."""

import sys

from pql_repl.cli.main import main

sys.exit(main())
