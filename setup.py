"""Builds the optional C speed-ups (everything else is in pyproject.toml):
the engine's trick-play core and the bots' rollouts. If no C compiler is at
hand the build goes on without them and both use their pure-Python twins."""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "fourhundred.engine._speedups",
            [
                "src/fourhundred/engine/_speedups.c",
                "src/fourhundred/engine/_core_attrs.c",
                "src/fourhundred/engine/_cards.c",
            ],
            depends=["src/fourhundred/engine/_speedups.h", "src/fourhundred/engine/_capi.h"],
            extra_compile_args=["-O2", "-fvisibility=hidden"],
            optional=True,
        ),
        Extension(
            "fourhundred.bots._speedups",
            [
                "src/fourhundred/bots/_speedups.c",
                "src/fourhundred/bots/_heuristic.c",
                "src/fourhundred/bots/_deal.c",
                "src/fourhundred/bots/_walk.c",
                "src/fourhundred/bots/_solve.c",
            ],
            depends=["src/fourhundred/bots/_speedups.h", "src/fourhundred/engine/_capi.h"],
            # No fused multiply-adds: the deal's weights must round as in
            # Python. The units share their symbols, and show none but
            # the module's init to the process.
            extra_compile_args=["-O2", "-ffp-contract=off", "-fvisibility=hidden"],
            libraries=["m"],
            optional=True,
        ),
    ]
)
