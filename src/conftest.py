"""Pytest collects the examples in the package's docstrings (``make test``
runs ``pytest`` over ``src`` and ``tests``). Modules that act when they are
imported are left out, each with its reason. This file is outside every
package, so it never ships in the wheel."""

collect_ignore = [
    # Alembic's migration environment: it runs the migrations on import and
    # needs the migration context that only `alembic` (store.upgrade) sets up.
    "fourhundred/store/migrations/env.py",
    # `python -m fourhundred.cli`: importing it runs the command line.
    "fourhundred/cli/__main__.py",
]
