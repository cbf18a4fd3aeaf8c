"""What the explorer's server refuses, asked for real over a socket: writes (any method but
GET and HEAD), files outside the page (path traversal in every spelling), requests for
another host name (DNS rebinding), overlong requests; and what every answer carries (a
Content-Security-Policy of this server's own files only). The database is never written.
"""

from __future__ import annotations

import hashlib
import http.client
import re
import socket
from importlib import resources
from pathlib import Path

import pytest

from tests.serve.conftest import Served, games_once


def _raw(served: Served, method: str, target: str, headers: dict[str, str] | None = None,
         body: bytes | None = None, host: bool = True) -> tuple[int, dict[str, str], bytes]:
    port = served.server.port
    con = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    con.putrequest(method, target, skip_host=True, skip_accept_encoding=True)
    if host:
        con.putheader("Host", f"127.0.0.1:{port}")
    for k, v in (headers or {}).items():
        con.putheader(k, v)
    if body is not None:
        con.putheader("Content-Length", str(len(body)))
    con.endheaders(body)
    r = con.getresponse()
    out = r.status, {k.lower(): v for k, v in r.getheaders()}, r.read()
    con.close()
    return out


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture(scope="module", autouse=True)
def never_written(served: Served):  # type: ignore[no-untyped-def]
    """The database file is byte for byte the same after every test of the module."""
    before = (_digest(served.db), served.db.stat().st_mtime_ns)
    yield
    assert (_digest(served.db), served.db.stat().st_mtime_ns) == before


@pytest.mark.parametrize("method", ["POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE"])
def test_every_method_that_could_write_is_refused(served: Served, method: str) -> None:
    for target in ("/api/tree", "/", "/api/info", "/static/explorer.js"):
        status, headers, body = _raw(served, method, target, body=b'{"sql": "DROP TABLE games"}')
        assert status == 405 and headers["allow"] == "GET, HEAD"
        assert b"only reads" in body


def test_the_database_connection_itself_is_read_only(served: Served) -> None:
    import duckdb

    con = served.server.app.con.cursor()
    with pytest.raises(duckdb.Error, match="read-only"):
        con.execute("DELETE FROM games")
    con.close()


@pytest.mark.parametrize("target", [
    "/static/../pyproject.toml", "/static/%2e%2e/%2e%2e/pyproject.toml",
    "/static/..%2f..%2fpyproject.toml", "/..%2f..%2f..%2fetc/passwd", "//etc/passwd",
    "/static//etc/passwd", "/static/explorer.js/../../../etc/passwd", "/static/%5c..%5cx",
    "/static/explorer.js%00.png", "/static/", "/static/explorer.py", "/static/app.py",
    "/static/__init__.py", "/view/../api/info", "/view/1/../../etc/passwd", "/view/-1",
    "/view/1.5", "/view/99999999999999999999999", "/api/../static/explorer.js",
    "http://127.0.0.1/static/explorer.js", "/etc/passwd", "/pdnkit/serve/handler.py",
])
def test_nothing_outside_the_page_is_served(served: Served, target: str) -> None:
    status, _, body = _raw(served, "GET", target)
    assert status == 404, target
    assert b"root:" not in body and b"[project]" not in body and b"import" not in body


def test_the_page_is_exactly_its_package_files(served: Served) -> None:
    for path, name in (("/", "explorer.html"), ("/static/explorer.js", "explorer.js"),
                       ("/static/explorer.css", "explorer.css"),
                       ("/static/favicon.svg", "favicon.svg")):
        status, headers, body = _raw(served, "GET", path)
        assert status == 200
        assert body == resources.files("pdnkit.serve").joinpath(name).read_bytes()
        assert headers["x-content-type-options"] == "nosniff"
    status, headers, body = _raw(served, "HEAD", "/static/explorer.js")
    assert status == 200 and body == b"" and int(headers["content-length"]) > 1000


def test_the_page_loads_nothing_from_elsewhere(served: Served) -> None:
    page = _raw(served, "GET", "/")[2].decode()
    refs = re.findall(r'(?:src|href)="([^"]*)"', page)
    assert refs and all(r.startswith("/") and not r.startswith("//") for r in refs)
    script = _raw(served, "GET", "/static/explorer.js")[2].decode()
    assert "http://" not in script.replace("http://www.w3.org/2000/svg", "")
    assert "https://" not in script and "innerHTML" not in script and "eval(" not in script


def test_every_answer_allows_only_this_servers_own_scripts(served: Served) -> None:
    for target in ("/", "/api/info", "/api/tree?variant=international", "/nothing",
                   "/api/tree?variant=nothing"):
        _, headers, _ = _raw(served, "GET", target)
        csp = headers["content-security-policy"]
        assert "default-src 'none'" in csp and "script-src 'self'" in csp
        assert "frame-ancestors 'self'" in csp and "unsafe" not in csp and "http" not in csp
        assert headers["x-frame-options"] == "SAMEORIGIN"
        assert headers["referrer-policy"] == "no-referrer"


def test_the_view_pages_inline_script_is_allowed_by_its_hash_only(served: Served) -> None:
    import base64

    status, headers, body = _raw(served, "GET", "/view/110?embed=1")
    assert status == 200
    page = body.decode()
    csp = headers["content-security-policy"]
    scripts = re.findall(r"<script>(.*?)</script>", page, flags=re.S)
    styles = re.findall(r"<style>(.*?)</style>", page, flags=re.S)
    assert len(scripts) == 1 and len(styles) == 2
    for text in scripts + styles:
        digest = base64.b64encode(hashlib.sha256(text.encode()).digest()).decode()
        assert f"'sha256-{digest}'" in csp
    assert "'self'" not in csp.split("script-src")[1].split(";")[0]
    assert "unsafe-inline" not in csp


@pytest.mark.parametrize("host", ["evil.example:80", "attacker.test", "127.0.0.1.nip.io",
                                  "localhost.evil.com:{port}", ""])
def test_a_request_for_another_host_name_is_refused(served: Served, host: str) -> None:
    port = served.server.port
    status, _, body = _raw(served, "GET", "/api/info", host=False,
                           headers={"Host": host.format(port=port)} if host else None)
    assert status == 421 and b"games" not in body
    for name in (f"127.0.0.1:{port}", f"localhost:{port}", f"LOCALHOST:{port}"):
        assert _raw(served, "GET", "/api/info", host=False, headers={"Host": name})[0] == 200


def test_an_overlong_request_is_refused(served: Served) -> None:
    status, _, _ = _raw(served, "GET", "/api/tree?moves=" + "32-28+" * 2000)
    assert status == 414


def test_a_client_that_hangs_up_does_not_stop_the_server(served: Served, demo_db: Path) -> None:
    for _ in range(5):
        s = socket.create_connection(("127.0.0.1", served.server.port))
        s.sendall(b"GET /api/tree?variant=international HTTP/1.1\r\nHost: 127.0.0.1:"
                  + str(served.server.port).encode() + b"\r\n\r\n")
        s.close()
        s = socket.create_connection(("127.0.0.1", served.server.port))
        s.sendall(b"GARBAGE \x00\x01\r\n\r\n")
        s.close()
    assert served.json("/api/info")["games"] == games_once(demo_db)


def _send_raw(port: int, data: bytes) -> bytes:
    s = socket.create_connection(("127.0.0.1", port), timeout=30)
    s.sendall(data)
    answer = b""
    while chunk := s.recv(65536):
        answer += chunk
    s.close()
    return answer


def test_a_garbled_request_gets_plain_text_with_the_same_headers(served: Served) -> None:
    port = served.server.port
    # a request the standard library refuses as HTTP/1.1 (too many headers): our headers
    many = b"".join(b"X-%d: 1\r\n" % i for i in range(120))
    head, _, body = _send_raw(port, b"GET /<script>alert(1)</script> HTTP/1.1\r\n" + many
                              + b"\r\n").partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 431")
    assert b"Content-Type: text/plain" in head and b"Content-Security-Policy:" in head
    assert b"<script>" not in body and body.startswith(b"431 ")
    # one it cannot even read as HTTP/1.x is answered as HTTP/0.9: text only, no markup
    answer = _send_raw(port, b"GET /<script>alert(1)</script> HTTP/9.9\r\n\r\n")
    assert answer == b"505 Invalid HTTP version (9.9)\n"


def test_a_fault_of_the_server_is_one_line_and_the_log_has_the_rest(
        demo_db: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import json

    import pdnkit.serve.endpoints as api
    from pdnkit.serve import Explorer

    def broken(*args: object) -> object:
        raise RuntimeError("a bug")

    monkeypatch.setattr(api, "answer", broken)
    app = Explorer(demo_db)
    reply = app.respond("GET", "/api/tree?variant=english", {})
    app.close()
    assert reply.status == 500
    assert json.loads(reply.body) == {"error": "internal error (the server's log says more)"}
    assert "RuntimeError: a bug" in capsys.readouterr().err
