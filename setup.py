"""Builds the optional C speed-ups of the engine (everything else is in
pyproject.toml). If no C compiler is at hand the build goes on without them
and the engine uses its pure-Python core."""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "fourhundred.engine._speedups",
            ["src/fourhundred/engine/_speedups.c"],
            extra_compile_args=["-O2"],
            optional=True,
        )
    ]
)
