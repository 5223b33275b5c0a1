"""The one thing pyproject.toml cannot say: the optional C extension.

`optional=True`: where there is no C compiler the build still succeeds, and
`mjcalc batch` scores Wuhu with the Python scorer alone (slower, same output).
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension("mahjong_calc._wuhu_accel", ["mahjong_calc/_wuhu_accel.c"], optional=True),
    ]
)
