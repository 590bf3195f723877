"""``python -m roshambo``: see :mod:`roshambo.cli`."""

from .cli import main

raise SystemExit(main())
