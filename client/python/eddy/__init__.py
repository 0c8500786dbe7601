"""Eddy's Python client: the Table API in the shape of PyFlink (eddy.table), over Eddy's gRPC API.

The gRPC modules live in eddy.v1, generated from proto/eddy/v1 when the package is built (or by the
CMake build into <build>/python/eddy/v1); extend_path lets eddy.v1 come from that other directory
when the package runs from the source tree.
"""

import pkgutil

__path__ = pkgutil.extend_path(__path__, __name__)
