"""``python -m fourhundred.cli``: the ``fourhundred`` command without the script."""

from fourhundred.cli import main

main()
