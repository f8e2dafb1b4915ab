#!/usr/bin/python3
"""Builds the scflux wheel, with the jar inside, from the standard library only (no pip, setuptools or network).

usage: build_wheel.py JAR OUT_DIR

Writes ``OUT_DIR/scflux-VERSION-py3-none-any.whl`` holding ``scflux/*.py``, ``scflux/jars/scflux.jar`` (which
``scflux._cli.find_jar`` finds inside the installed package, so ``import scflux`` needs no ``SCFLUX_JAR``) and the
``.dist-info`` a wheel has (METADATA from pyproject.toml, WHEEL, RECORD with each file's sha256). The bytes depend on
the inputs only: entries sorted, dated 1980-01-01, mode 0644, so the distribution that ships it stays reproducible.
"""

from __future__ import annotations

import base64
import hashlib
import re
import sys
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
DATE = (1980, 1, 1, 0, 0, 0)


def _project() -> dict:
    """name, version, summary, requires-python and dependencies of pyproject.toml's [project] (tomllib is 3.11+)."""
    text = (HERE / "pyproject.toml").read_text(encoding="utf-8")
    section = text.split("[project]", 1)[1].split("\n[", 1)[0]

    def value(key):
        m = re.search(rf'^{key}\s*=\s*"([^"]*)"', section, re.M)
        return m.group(1) if m else None

    deps = re.search(r"^dependencies\s*=\s*\[([^\]]*)\]", section, re.M)
    return {"name": value("name"), "version": value("version"), "summary": value("description"),
            "requires_python": value("requires-python"),
            "dependencies": re.findall(r'"([^"]+)"', deps.group(1)) if deps else []}


def _record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def build(jar: Path, out_dir: Path) -> Path:
    p = _project()
    files: dict[str, bytes] = {}
    for source in sorted((HERE / "scflux").glob("*.py")):
        files[f"scflux/{source.name}"] = source.read_bytes()
    files["scflux/jars/scflux.jar"] = jar.read_bytes()
    info = f"{p['name']}-{p['version']}.dist-info"
    metadata = [f"Metadata-Version: 2.1", f"Name: {p['name']}", f"Version: {p['version']}",
                f"Summary: {p['summary']}", f"Requires-Python: {p['requires_python']}",
                *(f"Requires-Dist: {d}" for d in p["dependencies"]),
                "Description-Content-Type: text/markdown", "", (HERE / "README.md").read_text(encoding="utf-8")]
    files[f"{info}/METADATA"] = "\n".join(metadata).encode()
    files[f"{info}/WHEEL"] = b"Wheel-Version: 1.0\nGenerator: scflux build_wheel.py\nRoot-Is-Purelib: true\n" \
                             b"Tag: py3-none-any\n"
    files[f"{info}/top_level.txt"] = b"scflux\n"
    record = [_record_line(name, data) for name, data in files.items()] + [f"{info}/RECORD,,"]
    files[f"{info}/RECORD"] = ("\n".join(record) + "\n").encode()
    out_dir.mkdir(parents=True, exist_ok=True)
    wheel = out_dir / f"{p['name']}-{p['version']}-py3-none-any.whl"
    partial = wheel.with_name("." + wheel.name + ".tmp")  # renamed when complete, as every scflux output
    with zipfile.ZipFile(partial, "w") as z:
        for name, data in files.items():  # dist-info last, as wheels put it
            entry = zipfile.ZipInfo(name, DATE)
            entry.external_attr = 0o644 << 16
            entry.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(entry, data)
    partial.replace(wheel)
    return wheel


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__.split("\n\n")[1])
    print(build(Path(sys.argv[1]), Path(sys.argv[2])))
