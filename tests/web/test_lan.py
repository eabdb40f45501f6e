"""The app serving the local network (``fivecard serve --lan``): the
address found for it (no packet sent), the address and QR code it prints,
the friends' table's share link and QR code at that address (never a
loopback one), and what changes when strangers on the network can reach
it: every host action refused to every other role, the owner cookie's
attributes, limits per client address, and the Host and Origin checks
that let in the announced address and nothing a page elsewhere could use."""

from __future__ import annotations

import ipaddress
import os
import re
import socket
import subprocess
import sys
import urllib.error
import urllib.request
import warnings
from pathlib import Path
from typing import Any, cast
from urllib.parse import urlsplit

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi import FastAPI
    from fastapi.testclient import TestClient

from fivecard.web.app import create_app
from fivecard.web.friends_api import RateLimit, share_qr
from fivecard.web.serve import lan_address, lan_url, unreachable_note
from fivecard.web.store import Capacity

#: The address the app announces in these tests, the host's own browser's, and a stranger's on the network.
LAN = "192.168.1.20"
LAN_URL = f"http://{LAN}:8765/"
HOST_AT, FRIEND_AT, STRANGER_AT = "127.0.0.1", "192.168.1.30", "192.168.1.66"
JSON = {"content-type": "application/json"}


def unlimited() -> RateLimit:
    return RateLimit(rate=1e6, burst=1e6, create_rate=1e6, create_burst=1e6)


@pytest.fixture
def app(tmp_path: Path) -> FastAPI:
    return create_app(tmp_path / "data", lan_url=LAN_URL, limit=unlimited())


def at(app: FastAPI, address: str, base: str = LAN_URL) -> TestClient:
    """A browser at a client ``address`` that opened the app at ``base``;
    its changes come from the app's own page (its ``Origin``), as a browser's do."""
    origin = base.rstrip("/")
    return TestClient(app, base_url=origin, client=(address, 50000), headers={"origin": origin})


def open_table(host: TestClient, **settings: Any) -> str:
    answer = host.post("/api/tables", json={"seed": 3, **settings})
    assert answer.status_code == 201, answer.text
    table_id: str = answer.json()["id"]
    return table_id


# --- the address -----------------------------------------------------------------------------


def test_the_lan_address_found_is_one_of_this_computers_and_not_loopback() -> None:
    found = lan_address()
    assert found is not None, "this computer has a network address (hostname -I)"
    address = ipaddress.ip_address(found)
    assert not (address.is_loopback or address.is_unspecified or address.is_link_local)
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((found, 0))  # only an address of this computer can be bound


def test_finding_the_lan_address_sends_no_packet() -> None:
    """A UDP connect() chooses a route and sends nothing: a listener at the
    probe's address receives nothing (a probe on loopback is then no LAN
    address, and the host name's addresses are read instead)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as listener:
        listener.bind(("127.0.0.1", 0))
        listener.settimeout(0.5)
        found = lan_address(probe=listener.getsockname())
        with pytest.raises(TimeoutError):
            listener.recvfrom(1024)
    assert found is None or not ipaddress.ip_address(found).is_loopback


class _NoRoute:
    """A UDP socket with no route anywhere (no network)."""

    def __init__(self, *args: Any) -> None:
        pass

    def __enter__(self) -> _NoRoute:
        return self

    def __exit__(self, *args: Any) -> None:
        pass

    def connect(self, address: Any) -> None:
        raise OSError(101, "Network is unreachable")


@pytest.mark.parametrize(
    ("names", "expected"),
    [
        (["127.0.1.1", "169.254.3.4", "10.0.0.5"], "10.0.0.5"),  # Debian's 127.0.1.1 and link-local passed over
        (["127.0.1.1"], None),
        ([], None),
    ],
)
def test_without_a_route_the_host_names_addresses_are_read(
    monkeypatch: pytest.MonkeyPatch, names: list[str], expected: str | None
) -> None:
    monkeypatch.setattr(socket, "socket", _NoRoute)  # (the module fivecard.web.serve reads them from)
    monkeypatch.setattr(socket, "getaddrinfo", lambda *args: [(socket.AF_INET, 0, 0, "", (n, 0)) for n in names])
    assert lan_address() == expected


def test_the_lan_url_is_what_friends_type() -> None:
    assert lan_url("192.168.1.20", 8000) == "http://192.168.1.20:8000/"
    assert lan_url("fd00::2", 8000) == "http://[fd00::2]:8000/"


def _serve(*args: str, data: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "fivecard", "serve", "--port", "0", "--data", str(data), *args],
        capture_output=True, text=True, timeout=120, env=os.environ,
    )  # fmt: skip


def test_serve_lan_prints_the_address_friends_type_and_its_qr_code(tmp_path: Path) -> None:
    done = _serve("--lan", "--lan-address", LAN, "--host", "127.0.0.1", "--check", data=tmp_path / "data")
    assert done.returncode == 0, done.stderr
    found = re.search(r"friends type (http://\S+/) \(a table for friends: (\S+)\)", done.stdout)
    assert found is not None, done.stdout
    assert urlsplit(found[1]).hostname == LAN and found[2] == found[1] + "tables"
    lines = done.stdout.splitlines()
    code = [line for line in lines if set(line) <= set("█▀▄ ") and len(line) > 20]
    assert len(code) >= 15 and len({len(line) for line in code}) == 1  # a square of half blocks
    assert "ok: the app works" in done.stdout


class _Bound:
    """A listening socket as far as the note reads it: the address it is bound to."""

    def __init__(self, address: str) -> None:
        self.address = address

    def getsockname(self) -> tuple[str, int]:
        return (self.address, 8765)


@pytest.mark.parametrize(
    ("bound", "host", "noted"),
    [
        ("127.0.0.1", "127.0.0.1", True),
        ("127.0.0.2", "127.0.0.2", True),
        ("127.0.0.1", "localhost", True),
        ("::1", "::1", True),
        ("::ffff:127.0.0.1", "::ffff:127.0.0.1", True),
        ("0.0.0.0", "0.0.0.0", False),
        ("::", "::", False),
        (LAN, LAN, False),
        ("fd00::2", "fd00::2", False),
    ],
)
def test_serve_lan_says_when_it_listens_where_friends_cannot_reach(bound: str, host: str, noted: bool) -> None:
    """--lan with a --host of this computer only (a loopback address, or a
    name of one) listens where no friend reaches it: said, with the way
    out, rather than a QR code that leads nowhere."""
    note = unreachable_note(cast(socket.socket, _Bound(bound)), host)
    if noted:
        assert note is not None and f"--host {host}" in note and "leave --host out" in note, note
    else:
        assert note is None


def test_serve_lan_on_this_computer_only_prints_the_note(tmp_path: Path) -> None:
    done = _serve("--lan", "--lan-address", LAN, "--host", "127.0.0.1", "--check", data=tmp_path / "data")
    assert done.returncode == 0, done.stderr
    assert unreachable_note(cast(socket.socket, _Bound("127.0.0.1")), "127.0.0.1") in done.stdout.splitlines()


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--lan-address", LAN], "--lan-address is the address --lan prints for friends: give --lan too"),
        (["--lan", "--lan-address", "127.0.0.1"], "others on the network cannot reach this computer there"),
        (["--lan", "--lan-address", "not a host!"], "--lan-address: 'not a host!' is not a host name"),
    ],
)
def test_serve_refuses_an_address_friends_cannot_reach(tmp_path: Path, args: list[str], said: str) -> None:
    done = _serve(*args, "--check", data=tmp_path / "data")
    assert done.returncode == 2 and said in done.stderr and len(done.stderr.splitlines()) == 1, done.stderr


def test_serve_lan_answers_the_name_it_announces_and_no_other(tmp_path: Path) -> None:
    """A name given to --lan-address is answered (friends type it); a name
    a page elsewhere could point at this computer is still 421."""
    server = subprocess.Popen(
        [sys.executable, "-m", "fivecard", "serve", "--lan", "--lan-address", "mybox.lan", "--host", "127.0.0.1",
         "--port", "0", "--data", str(tmp_path / "data")],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=os.environ,
    )  # fmt: skip
    try:
        assert server.stdout is not None
        base = server.stdout.readline().split(" at ")[1].split(" ")[0]
        port = urlsplit(base).port
        assert f"friends type http://mybox.lan:{port}/" in "".join(server.stdout.readline() for _ in range(2))

        def status(host: str) -> int:
            request = urllib.request.Request(base + "tables", headers={"host": host})
            try:
                with urllib.request.urlopen(request, timeout=10) as answer:
                    return int(answer.status)
            except urllib.error.HTTPError as exc:
                return exc.code

        assert status(f"mybox.lan:{port}") == 200
        assert status(f"{LAN}:{port}") == 200  # an IP address is answered anyway
        assert status(f"rebind.attacker.example:{port}") == 421
        assert status(f"mybox.lan.attacker.example:{port}") == 421
    finally:
        server.terminate()
        server.wait(timeout=30)


# --- the share link and its QR code --------------------------------------------------------------


def test_the_share_link_and_qr_code_are_at_the_lan_address_whatever_the_host_opened(app: FastAPI) -> None:
    host = at(app, HOST_AT, "http://127.0.0.1:8765/")
    table_id = open_table(host)
    page = host.get(f"/tables/{table_id}").text
    share = re.search(r'data-share="([^"]+)"', page)
    assert share is not None and share[1] == LAN_URL
    link = f"{share[1]}tables/{table_id}"
    assert not ipaddress.ip_address(urlsplit(link).hostname or "").is_loopback
    assert 'id="share-qr"' in page and "fivecard serve --lan" not in page
    qr = host.get(f"/api/tables/{table_id}/qr.svg")
    assert qr.status_code == 200 and qr.headers["content-type"] == "image/svg+xml"
    assert qr.content == share_qr(link) and qr.content.startswith(b"<?xml") and b"<script" not in qr.content
    assert share_qr(link) != share_qr(f"http://127.0.0.1:8765/tables/{table_id}")
    assert host.get("/api/tables/no-such-table/qr.svg").status_code == 404


def test_without_lan_the_page_says_friends_elsewhere_need_serve_lan(tmp_path: Path) -> None:
    app = create_app(tmp_path / "data", limit=unlimited())
    host = at(app, HOST_AT, "http://127.0.0.1:8765/")
    table_id = open_table(host)
    page = host.get(f"/tables/{table_id}").text
    assert "data-share" not in page and 'id="share-qr"' not in page
    assert 'id="lan-hint"' in page and "<code>fivecard serve --lan</code>" in page
    qr = host.get(f"/api/tables/{table_id}/qr.svg")  # no code of a link the request's Host would choose
    assert qr.status_code == 404 and "fivecard serve --lan" in qr.json()["detail"]


# --- strangers on the network ----------------------------------------------------------------------


def test_every_host_action_is_refused_to_a_seat_a_spectator_and_a_stranger(app: FastAPI) -> None:
    host = at(app, HOST_AT, "http://127.0.0.1:8765/")
    table_id = open_table(host)
    url = f"/api/tables/{table_id}"
    seat = at(app, FRIEND_AT)
    assert seat.post(f"{url}/seats", json={"name": "Ann"}).status_code == 201
    assert at(app, FRIEND_AT).post(f"{url}/seats", json={"name": "Bob"}).status_code == 201
    spectator = at(app, STRANGER_AT)
    open_table(spectator)  # a browser with a cookie: it hosts another table, and watches this one
    stranger = at(app, STRANGER_AT)  # no cookie at all
    others = {"a seat": seat, "a spectator": spectator, "a stranger": stranger}
    actions = [  # in an order the host may take them
        ("start a round", "POST", "/rounds"),
        ("close the round", "POST", "/close"),
        ("remove a seat", "DELETE", "/seats/2"),
        ("end the table", "POST", "/end"),
    ]
    for what, method, path in actions:
        before = host.get(url).json()
        for role, browser in others.items():
            answer = browser.request(method, url + path, json={}, headers=JSON)
            assert answer.status_code == 403, (what, role, answer.text)
            assert "only the table's host" in answer.json()["detail"]
        assert host.get(url).json() == before, what  # nothing changed
        answer = host.request(method, url + path, json={}, headers=JSON)
        assert answer.status_code == 200, (what, answer.text)


def test_the_owner_cookie_is_httponly_samesite_and_not_secure_on_plain_http(app: FastAPI) -> None:
    """HttpOnly: no script reads it; SameSite=Strict: no request from
    another site carries it; no Secure flag: the app is plain http on a home
    network, and a Secure cookie would never be sent back there."""
    table_id = open_table(at(app, HOST_AT, "http://127.0.0.1:8765/"))
    answer = at(app, FRIEND_AT).post(f"/api/tables/{table_id}/seats", json={"name": "Ann"})
    cookies = answer.headers.get_list("set-cookie")
    assert len(cookies) == 1
    parts = [p.strip().lower() for p in cookies[0].split(";")]
    assert "httponly" in parts and "samesite=strict" in parts and "path=/" in parts
    assert "secure" not in parts and not any(p.startswith("domain=") for p in parts)


def test_a_stranger_cannot_exhaust_what_others_may_make(tmp_path: Path) -> None:
    app = create_app(tmp_path / "data", lan_url=LAN_URL, limit=RateLimit(create_rate=0.001, create_burst=3))
    host = at(app, HOST_AT, "http://127.0.0.1:8765/")
    table_id = open_table(host)
    made = [at(app, STRANGER_AT).post("/api/tables", json={}).status_code for _ in range(6)]
    assert made[:3] == [201] * 3 and set(made[3:]) == {429}  # a new cookie each time: still one address
    assert at(app, STRANGER_AT).post(f"/api/tables/{table_id}/seats", json={"name": "Eve"}).status_code == 429
    assert at(app, FRIEND_AT).post(f"/api/tables/{table_id}/seats", json={"name": "Ann"}).status_code == 201
    assert host.post("/api/tables", json={}).status_code == 201


def test_a_strangers_refused_actions_are_limited_by_its_address_not_the_tables(tmp_path: Path) -> None:
    limit = RateLimit(rate=0.001, burst=5, create_rate=1e6, create_burst=1e6)
    app = create_app(tmp_path / "data", lan_url=LAN_URL, limit=limit)
    host = at(app, HOST_AT, "http://127.0.0.1:8765/")
    table_id = open_table(host)
    url = f"/api/tables/{table_id}"
    seat = at(app, FRIEND_AT)
    seat.post(f"{url}/seats", json={"name": "Ann"})
    tried = [at(app, STRANGER_AT).post(f"{url}/rounds", json={}).status_code for _ in range(8)]
    assert tried[:5] == [403] * 5 and set(tried[5:]) == {429}
    assert host.post(f"{url}/rounds", json={}).status_code == 200
    assert seat.post(f"{url}/deal", json={}).status_code == 200


def test_a_stranger_keeps_at_most_its_share_of_the_tables(tmp_path: Path) -> None:
    capacity = Capacity(tables=40, address_part=20, address_floor=2)  # two tables an address
    app = create_app(tmp_path / "data", lan_url=LAN_URL, limit=unlimited(), capacity=capacity)
    made = [at(app, STRANGER_AT).post("/api/tables", json={}).status_code for _ in range(4)]
    assert made == [201, 201, 503, 503]
    assert at(app, HOST_AT, "http://127.0.0.1:8765/").post("/api/tables", json={}).status_code == 201


# --- where a request comes from ---------------------------------------------------------------------


def test_the_announced_address_is_the_apps_own_origin_and_no_other_is(app: FastAPI) -> None:
    friend = at(app, FRIEND_AT)
    assert friend.post("/api/tables", json={}).status_code == 201  # Host and Origin: the LAN address
    refused = {
        "another site": {"origin": "http://evil.example"},
        "another port of the LAN address": {"origin": f"http://{LAN}:9999"},
        "another address": {"origin": "http://192.168.1.21:8765"},
        "https of the LAN address": {"origin": f"https://{LAN}:8765"},
        "a cross-site fetch": {"sec-fetch-site": "cross-site"},
        "a same-site page": {"sec-fetch-site": "same-site"},
    }
    for what, headers in refused.items():
        answer = friend.post("/api/tables", json={}, headers=headers)
        assert answer.status_code == 403, what
    rebinding = TestClient(app, base_url="http://rebind.attacker.example:8765", client=(STRANGER_AT, 1))
    for method in ("GET", "POST"):
        answer = rebinding.request(method, "/api/tables", json={}, headers={"origin": "http://rebind.attacker.example:8765"})
        assert answer.status_code == 421, method
    assert rebinding.get("/tables").status_code == 421
