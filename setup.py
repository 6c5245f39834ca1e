"""Packages are found automatically; lessons/ and kernels/ ship inside the wheel as tritonlab.lessons and
tritonlab.kernels (the top-level folders stay where lesson authors expect them)."""

from setuptools import find_packages, setup

setup(
    packages=find_packages(include=["tritonlab", "tritonlab.*"]) + ["tritonlab.lessons", "tritonlab.kernels"],
    package_dir={"tritonlab.lessons": "lessons", "tritonlab.kernels": "kernels"},
)
