"""Fixtures of the Python client's tests: a real Eddy cluster (eddy-coordinator and two
eddy-worker processes from <build>/bin, started through the client's embedded mode) shared by the
session, and a fresh TableEnvironment (session) on it per test.

Run: python3 -m pytest tests/python --eddy-build-dir=build   (CTest passes its build dir)
"""

import os
import subprocess
import sys

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def pytest_addoption(parser):
    parser.addoption("--eddy-build-dir",
                     default=os.environ.get("EDDY_BUILD_DIR", os.path.join(REPO, "build")),
                     help="Eddy's CMake build directory (bin/ and python/ are used)")


def pytest_configure(config):
    missing = []
    for module, package in (("grpc", "python3-grpcio"), ("google.protobuf", "python3-protobuf"),
                            ("pandas", "python3-pandas")):
        try:
            __import__(module)
        except ImportError:
            missing.append(package)
    if missing:
        raise pytest.UsageError("%s lacks %s: run deploy/install-deps.sh --with-test-tools" %
                                (sys.executable, " ".join(missing)))
    build = os.path.abspath(config.getoption("--eddy-build-dir"))
    config.eddy_build_dir = build
    # The package from the source tree, its generated gRPC modules from the build.
    for p in (os.path.join(build, "python"), os.path.join(REPO, "client", "python")):
        if p not in sys.path:
            sys.path.insert(0, p)


@pytest.fixture(scope="session")
def build_dir(pytestconfig):
    return pytestconfig.eddy_build_dir


@pytest.fixture(scope="session")
def bin_dir(build_dir):
    d = os.path.join(build_dir, "bin")
    assert os.path.exists(os.path.join(d, "eddy-coordinator")), "build Eddy first: %s" % d
    return d


@pytest.fixture(scope="session")
def cluster(bin_dir, tmp_path_factory):
    from eddy.embedded import EmbeddedCluster
    out = tmp_path_factory.mktemp("print") / "workers.out"
    c = EmbeddedCluster.start(bin_dir, workers=2, slots=4, print_output=str(out))
    c.print_output = str(out)
    yield c
    c.close()


@pytest.fixture
def env(cluster):
    from eddy.table import TableEnvironment
    e = TableEnvironment.connect(cluster.address)
    yield e
    e.close()


@pytest.fixture
def shell(cluster, bin_dir):
    """Runs SQL through the eddy shell binary against the cluster; returns its stdout."""

    def run(sql):
        r = subprocess.run([os.path.join(bin_dir, "eddy"), "--coordinator", cluster.address, "-e",
                            sql],
                           capture_output=True,
                           text=True,
                           timeout=120)
        assert r.returncode == 0, r.stderr
        return r.stdout

    return run


@pytest.fixture
def printed(cluster):
    """Reads the lines the print connector wrote so far (on every worker)."""

    def lines():
        with open(cluster.print_output) as f:
            return f.read().splitlines()

    return lines
