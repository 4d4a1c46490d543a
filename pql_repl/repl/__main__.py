"""``python -m pql_repl.repl``: the line REPL without the ``pql`` command around it."""

import sys

from pql_repl.repl import main

sys.exit(main())
