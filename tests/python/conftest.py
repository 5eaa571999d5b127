"""pytest options for the package tests: where warpscope-cli and the test data are (ctest passes them)."""
import os

import pytest


def pytest_addoption(parser):
    parser.addoption("--cli", default=os.environ.get("WARPSCOPE_CLI", "warpscope-cli"))
    parser.addoption("--data", default=os.environ.get("WARPSCOPE_TEST_DATA", "tests/data"))


@pytest.fixture(scope="session")
def cli(request):
    return request.config.getoption("--cli")


@pytest.fixture(scope="session")
def data(request):
    return request.config.getoption("--data")
