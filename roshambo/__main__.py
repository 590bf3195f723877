"""``python -m roshambo``: see :mod:`roshambo.apps.cli`."""

from .apps.cli import main

raise SystemExit(main())
