"""Throwaway TLS certificates for the league's tests, made with Debian's ``openssl`` command.

``make_ca(folder, name)`` makes a certificate authority; ``make_server(ca, folder, name)`` a
server certificate it signs, for ``127.0.0.1`` and ``localhost`` (the names the tests connect
to, so hostname checks pass). Everything lives in pytest's tmp folders: nothing is committed.
EC P-256 keys: about 10 ms each, where RSA takes a second.
"""

from __future__ import annotations

import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

KEY = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]


@dataclass(frozen=True)
class CA:
    cert: Path
    key: Path


@dataclass(frozen=True)
class ServerCert:
    cert: Path
    key: Path
    ca: CA


def openssl(*args: str) -> None:
    """Run ``openssl ARGS``; its stderr in the failure when it fails."""
    binary = shutil.which("openssl")
    if binary is None:
        pytest.fail("the TLS tests need Debian's openssl command: apt-get install openssl")
    done = subprocess.run([binary, *args], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise AssertionError(f"openssl {' '.join(args[:2])} failed:\n{done.stderr}")


def make_ca(folder: Path, name: str = "ca") -> CA:
    """A self-signed CA, ``<folder>/<name>.crt`` and ``.key``, valid for two days."""
    folder.mkdir(parents=True, exist_ok=True)
    ca = CA(folder / f"{name}.crt", folder / f"{name}.key")
    openssl(
        "req", "-x509", *KEY, "-keyout", str(ca.key), "-out", str(ca.cert), "-days", "2",
        "-subj", f"/CN=pegboard test {name}",
        "-addext", "basicConstraints=critical,CA:TRUE",
        "-addext", "keyUsage=critical,keyCertSign,cRLSign",
    )  # fmt: skip
    return ca


def make_server(ca: CA, folder: Path, name: str = "server") -> ServerCert:
    """A server certificate for 127.0.0.1 and localhost, signed by *ca*."""
    folder.mkdir(parents=True, exist_ok=True)
    cert, key, csr = folder / f"{name}.crt", folder / f"{name}.key", folder / f"{name}.csr"
    extensions = folder / f"{name}.ext"
    extensions.write_text(
        "subjectAltName=IP:127.0.0.1,DNS:localhost\n"
        "basicConstraints=CA:FALSE\n"
        "keyUsage=critical,digitalSignature\n"
        "extendedKeyUsage=serverAuth\n"
    )
    openssl("req", *KEY, "-keyout", str(key), "-out", str(csr), "-subj", "/CN=127.0.0.1")
    openssl(
        "x509", "-req", "-in", str(csr), "-CA", str(ca.cert), "-CAkey", str(ca.key),
        "-CAcreateserial", "-out", str(cert), "-days", "2", "-extfile", str(extensions),
    )  # fmt: skip
    return ServerCert(cert, key, ca)
