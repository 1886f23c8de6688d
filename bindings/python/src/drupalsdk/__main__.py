"""``python -m drupalsdk``: the ``drupal`` command (see drupalsdk._cli)."""
import sys

from ._cli import main

sys.exit(main())
