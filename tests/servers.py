"""Real servers started on 127.0.0.1 for a while: the Oxigraph server (pip package
``oxigraph``), Virtuoso (Debian's ``virtuoso-opensource``) and a WSGI application behind
waitress. Shared by the serve and publish tests and ``scripts/bench_scale.py``; the SPARQL
servers raise :class:`ServerMissing`, with what to install, where the server is absent."""

from __future__ import annotations

import shutil
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


class ServerMissing(Exception):
    """The server is not installed here; the message says how to install it."""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_for(url: str, process: subprocess.Popen, seconds: float = 60.0) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the server stopped at start (exit {process.returncode})")
        try:
            urllib.request.urlopen(url, timeout=2).close()
            return
        except urllib.error.HTTPError:
            return
        except OSError:
            time.sleep(0.3)
    raise RuntimeError(f"no answer from {url} after {seconds:.0f} s")


@contextmanager
def wsgi_server(app, *, threads: int = 4) -> Iterator[str]:
    """``app`` served by waitress in a thread of this process; yields its base URL. On the way
    out, the worker threads stop first (a request still finishing wakes the loop), then the
    sockets: the other way round, that request writes to a closed pipe."""
    import waitress

    server = waitress.create_server(app, host="127.0.0.1", port=0, threads=threads)
    stopping = threading.Event()

    def serve() -> None:
        # Closing the sockets under the select() loop ends it with EBADF: expected once stopping.
        try:
            server.run()
        except (OSError, ValueError):
            if not stopping.is_set():
                raise

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.effective_port}"
    finally:
        stopping.set()
        server.task_dispatcher.shutdown()
        server.close()
        thread.join(timeout=5)


@contextmanager
def oxigraph_server(folder: Path) -> Iterator[dict]:
    binary = shutil.which("oxigraph") or str(Path(sys.executable).with_name("oxigraph"))
    if not Path(binary).exists():
        raise ServerMissing("the Oxigraph server is not installed (pip install oxigraph)")
    port = free_port()
    process = subprocess.Popen([binary, "serve", "--location", str(folder), "--bind", f"127.0.0.1:{port}"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_for(f"http://127.0.0.1:{port}/", process)
        yield {"name": "oxigraph", "store": f"http://127.0.0.1:{port}/store", "query": f"http://127.0.0.1:{port}/query", "user": None}
    finally:
        process.terminate()
        process.wait(timeout=30)


VIRTUOSO_INI = """[Database]
DatabaseFile = {dir}/virtuoso.db
ErrorLogFile = {dir}/virtuoso.log
TransactionFile = {dir}/virtuoso.trx
xa_persistent_file = {dir}/virtuoso.pxa
[TempDatabase]
DatabaseFile = {dir}/virtuoso-temp.db
TransactionFile = {dir}/virtuoso-temp.trx
[Parameters]
ServerPort = 127.0.0.1:{sql_port}
DirsAllowed = ., {dir}, /usr/share/virtuoso-opensource-7/vad
NumberOfBuffers = 100000
MaxDirtyBuffers = 60000
TransactionAfterImageLimit = 1500000000
DefaultIsolation = 2
[HTTPServer]
ServerPort = 127.0.0.1:{http_port}
ServerRoot = /var/lib/virtuoso-opensource-7/vsp
[SPARQL]
ResultSetMaxRows = 100000
MaxQueryExecutionTime = 60
DefaultGraph =
"""


@contextmanager
def virtuoso_server(folder: Path) -> Iterator[dict]:
    binary = shutil.which("virtuoso-t")
    if binary is None:
        raise ServerMissing("Virtuoso is not installed (apt-get install virtuoso-opensource)")
    http_port, sql_port = free_port(), free_port()
    (folder / "virtuoso.ini").write_text(VIRTUOSO_INI.format(dir=folder, sql_port=sql_port, http_port=http_port))
    process = subprocess.Popen([binary, "+foreground", "+configfile", str(folder / "virtuoso.ini")], cwd=folder,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_for(f"http://127.0.0.1:{http_port}/sparql?query=ASK%7B%7D", process, seconds=120)
        base = f"http://127.0.0.1:{http_port}"
        yield {"name": "virtuoso", "store": f"{base}/sparql-graph-crud-auth", "query": f"{base}/sparql", "user": "dba", "password": "dba"}
    finally:
        process.terminate()
        process.wait(timeout=60)
