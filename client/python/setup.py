"""Builds the `eddy` Python package: Eddy's Table API client (docs/python-api.md).

The gRPC modules (eddy.v1.*_pb2, *_pb2_grpc) are generated here, at build time, from the
repository's proto/eddy/v1/*.proto with protoc's Python output and the gRPC Python plugin (Debian:
protobuf-compiler and protobuf-compiler-grpc); nothing generated is kept in the source tree.
There is deliberately no pyproject.toml: without one, pip builds with the setuptools it already has
instead of fetching build dependencies into an isolated environment, so `pip install client/python`
works offline.
"""

import glob
import os
import shutil
import subprocess

from setuptools import find_packages, setup
from setuptools.command.build_py import build_py

HERE = os.path.dirname(os.path.abspath(__file__))
PROTO_ROOT = os.path.normpath(os.path.join(HERE, "..", "..", "proto"))


def generate_proto_modules(out_dir):
    """Writes eddy/v1/*_pb2.py and *_pb2_grpc.py under `out_dir`."""
    protoc = shutil.which("protoc")
    plugin = shutil.which("grpc_python_plugin")
    if protoc is None or plugin is None:
        raise SystemExit("building the eddy package needs protoc and grpc_python_plugin "
                         "(Debian: apt-get install protobuf-compiler protobuf-compiler-grpc)")
    protos = sorted(glob.glob(os.path.join(PROTO_ROOT, "eddy", "v1", "*.proto")))
    if not protos:
        raise SystemExit("no .proto files under %s: build from Eddy's source tree" % PROTO_ROOT)
    os.makedirs(os.path.join(out_dir, "eddy", "v1"), exist_ok=True)
    subprocess.check_call([
        protoc, "--proto_path=" + PROTO_ROOT, "--python_out=" + out_dir,
        "--grpc_python_out=" + out_dir, "--plugin=protoc-gen-grpc_python=" + plugin
    ] + protos)
    with open(os.path.join(out_dir, "eddy", "v1", "__init__.py"), "w") as f:
        f.write('"""Eddy\'s gRPC messages and stubs, generated from proto/eddy/v1."""\n')


class BuildWithProtos(build_py):

    def run(self):
        super().run()
        generate_proto_modules(self.build_lib)


setup(
    name="eddy-client",
    version="0.1.0",
    description="Eddy's Python Table API client, in the shape of PyFlink",
    packages=find_packages(include=["eddy", "eddy.*"]),
    python_requires=">=3.9",
    install_requires=["grpcio", "protobuf"],
    extras_require={"pandas": ["pandas"]},
    cmdclass={"build_py": BuildWithProtos},
)
