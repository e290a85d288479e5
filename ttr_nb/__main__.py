"""``python -m ttr_nb ...`` is the ``ttr-nb`` command (e.g. ``python -m ttr_nb maps rebuild --check``)."""
import sys

from .cli import main

sys.exit(main())
