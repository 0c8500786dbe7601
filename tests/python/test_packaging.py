"""`pip install client/python` offline: into a fresh virtual environment that sees Debian's
python3-grpcio/python3-protobuf (--system-site-packages), with no package index at all; the
installed package carries its generated gRPC modules."""

import os
import shutil
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def test_pip_install_works_offline(tmp_path):
    # A copy of what the build needs (the package and proto/), so the source tree stays clean.
    src = tmp_path / "src"
    shutil.copytree(os.path.join(REPO, "client", "python"), src / "client" / "python",
                    ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__"))
    shutil.copytree(os.path.join(REPO, "proto"), src / "proto")
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)], check=True)
    py = str(venv / "bin" / "python")
    env = dict(os.environ, PIP_NO_INDEX="1", PIP_DISABLE_PIP_VERSION_CHECK="1")
    env.pop("PYTHONPATH", None)
    r = subprocess.run([py, "-m", "pip", "install", "--no-index",
                        str(src / "client" / "python")],
                       env=env, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    r = subprocess.run([py, "-c",
                        "import eddy.table, eddy.v1.client_pb2_grpc, os; "
                        "print(os.path.dirname(eddy.v1.client_pb2_grpc.__file__))"],
                       env=env, cwd=str(tmp_path), capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip().startswith(str(venv)), r.stdout
