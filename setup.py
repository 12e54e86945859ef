"""Builds the optional C speed-ups (everything else is in pyproject.toml):
the engine's trick-play core and the bots' rollouts. If no C compiler is at
hand the build goes on without them and both use their pure-Python twins."""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "fourhundred.engine._speedups",
            ["src/fourhundred/engine/_speedups.c"],
            extra_compile_args=["-O2"],
            optional=True,
        ),
        Extension(
            "fourhundred.bots._speedups",
            ["src/fourhundred/bots/_speedups.c"],
            # No fused multiply-adds: the deal's weights must round as in Python.
            extra_compile_args=["-O2", "-ffp-contract=off"],
            libraries=["m"],
            optional=True,
        ),
    ]
)
