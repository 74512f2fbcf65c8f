"""Regenerate ``tbnb/_proto/descriptors.binpb`` from the schemas in ``protos/``.

The package ships a serialized ``FileDescriptorSet`` rather than generated
``*_pb2.py`` modules: classes are built from it at import time, so one file works
with every protobuf runtime from 4.21 to 7.x (generated modules are tied to the
protoc version that wrote them).

Usage::

    python scripts/gen_protos.py           # rewrite the descriptor set
    python scripts/gen_protos.py --check   # exit 1 if it differs from protos/

Needs ``grpcio-tools`` (a development dependency, never a runtime one).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PROTOS = ROOT / "protos"
OUTPUT = ROOT / "tbnb" / "_proto" / "descriptors.binpb"


def build_descriptor_set() -> bytes:
    """Compile every ``.proto`` under ``protos/`` into one serialized descriptor set."""
    import grpc_tools
    from google.protobuf import descriptor_pb2
    from grpc_tools import protoc

    sources = sorted(str(p.relative_to(PROTOS)) for p in PROTOS.rglob("*.proto"))
    well_known = Path(grpc_tools.__file__).parent / "_proto"
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "set.binpb"
        args = [
            "protoc",
            f"-I{PROTOS}",
            f"-I{well_known}",
            "--include_imports",
            f"--descriptor_set_out={out}",
            *sources,
        ]
        if protoc.main(args) != 0:
            raise SystemExit("protoc failed on " + ", ".join(sources))
        fds = descriptor_pb2.FileDescriptorSet.FromString(out.read_bytes())
    # protoc lists dependencies before their dependents (the order the pool needs)
    # and writes no source info: the bytes depend only on the schemas.
    return fds.SerializeToString(deterministic=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare instead of writing")
    args = parser.parse_args()
    data = build_descriptor_set()
    if args.check:
        if not OUTPUT.exists() or OUTPUT.read_bytes() != data:
            print(f"{OUTPUT.relative_to(ROOT)} is stale: run python scripts/gen_protos.py")
            return 1
        print("descriptor set up to date")
        return 0
    OUTPUT.write_bytes(data)
    print(f"wrote {OUTPUT.relative_to(ROOT)} ({len(data)} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
