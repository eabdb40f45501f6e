"""The web app (:mod:`fivecard.web.app`) under uvicorn: ``fivecard serve``.

The listening socket is made here, before uvicorn starts, so that a taken
port or a bad address is one line on stderr (exit 2), and ``--port 0``
prints the port it got. A data folder the app cannot write is refused here
too. uvicorn runs with :class:`~fivecard.web.server.GuardedHttpTools`: request
headers, their and the body's time, and the connections held are bounded
(:class:`~fivecard.web.server.Bounds`), the process's limit on open files
raised to what the system allows first. The app answers requests that name
an IP literal, ``localhost``, this computer, the address it listens on, or a
name given with ``--allow-host`` (any other is 421: a page elsewhere whose
name was pointed at this computer).

``--lan`` serves the local network: it listens on every address (unless
``--host`` says otherwise), finds the address others on the network reach
this computer at (:func:`lan_address`, or ``--lan-address``), prints it with
a QR code, and the friends' table shares its links at it. A ``--host`` of
this computer only (``127.0.0.1``, ``localhost``) is said to reach no
friend but through a proxy (:func:`unreachable_note`).

Who a request comes from is its connection's address, for every per-address
bound: ``X-Forwarded-For`` and ``X-Forwarded-Proto`` are read only on the
connections of a reverse proxy named with ``--proxy`` (an address or a
network). uvicorn would read them from 127.0.0.1 and ::1, or from every
client if ``FORWARDED_ALLOW_IPS`` says ``*``: a client there could give each
request another address, and every per-address bound would be no bound.
"""

from __future__ import annotations

import contextlib
import gc
import ipaddress
import json
import os
import signal
import socket
import threading
import time
import urllib.request
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any, TextIO

from ..core.errors import FivecardError

if TYPE_CHECKING:
    from .friends_api import Broker

__all__ = ["end_streams", "lan_address", "lan_url", "serve", "ServeError", "unreachable_note"]

#: A private address a UDP socket is "connected" to, to learn which of this
#: computer's addresses the system would send from: a UDP connect() only
#: chooses a route, it sends no packet (and nothing leaves the machine).
_PROBE: tuple[str, int] = ("10.255.255.255", 9)


class ServeError(FivecardError):
    """The app cannot start (or, with ``--check``, does not answer)."""


def _listen(host: str, port: int) -> socket.socket:
    if not 0 <= port <= 65535:
        raise ServeError(f"--port {port}: a port is 0 to 65535")
    try:
        family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
    except (socket.gaierror, UnicodeError) as exc:
        raise ServeError(f"--host {host!r}: not an address this computer can listen on ({exc})") from None
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(address)
        sock.listen(2048)
    except OSError as exc:
        sock.close()
        reason = "the port is taken (is fivecard serve running already?)" if exc.errno == 98 else exc.strerror
        raise ServeError(f"cannot listen on {host} port {port}: {reason}") from None
    sock.set_inheritable(True)
    return sock


def _address(sock: socket.socket, host: str) -> str:
    port = sock.getsockname()[1]
    shown = "127.0.0.1" if host in ("0.0.0.0", "") else ("[::1]" if host == "::" else host)
    if ":" in shown and not shown.startswith("["):
        shown = f"[{shown}]"
    return f"http://{shown}:{port}/"


def lan_address(probe: tuple[str, int] = _PROBE) -> str | None:
    """The address others on the local network reach this computer at, as
    the system chooses it: the source address of a route to a private
    address (``probe``; a UDP socket's connect() sends nothing), else the
    first address of this computer's name that is neither loopback nor
    link-local; None when there is none (no network)."""
    found = []
    with contextlib.suppress(OSError):
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
            sock.connect(probe)
            found.append(sock.getsockname()[0])
    with contextlib.suppress(OSError, UnicodeError):
        found += [info[4][0] for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)]
    for text in found:
        address = ipaddress.ip_address(text)
        if not (address.is_loopback or address.is_unspecified or address.is_link_local):
            return str(address)
    return None


def lan_url(address: str, port: int) -> str:
    """The app's address as others on the network type it (an IPv6
    address in brackets)."""
    shown = f"[{address}]" if ":" in address else address
    return f"http://{shown}:{port}/"


def unreachable_note(sock: socket.socket, host: str) -> str | None:
    """With ``--lan``: a line saying that ``sock`` listens on this computer
    only (a loopback address, as ``--host 127.0.0.1`` or ``localhost``
    gives), where friends reach it only through a proxy or a forwarded
    port; None when it listens on the network."""
    address = ipaddress.ip_address(str(sock.getsockname()[0]).split("%")[0])
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    if not address.is_loopback:
        return None
    return (
        f"note: --host {host} listens on this computer only: friends reach it only through a proxy "
        "or a forwarded port (leave --host out to listen on the network)"
    )


def _lan_address(text: str) -> str:
    """``--lan-address``: an IP address (not loopback: nobody else reaches
    this computer there) or a host name."""
    from .app import BadHostName, host_name

    try:
        address = ipaddress.ip_address(text.strip().strip("[]"))
    except ValueError:
        try:
            return host_name(text)
        except BadHostName as exc:
            raise ServeError(f"--lan-address: {exc}") from None
    if address.is_loopback or address.is_unspecified:
        raise ServeError(
            f"--lan-address {text!r}: others on the network cannot reach this computer there; "
            "give the address your network gave it (e.g. 192.168.1.20)"
        )
    return str(address)


def _print_qr(url: str, out: TextIO) -> None:
    """The address as a QR code drawn in the terminal (segno, imported only
    here), for a phone's camera."""
    import segno

    segno.make(url, error="m").terminal(out=out, compact=True)


def _proxy(text: str) -> str:
    """A proxy's address or network as uvicorn's ``forwarded_allow_ips`` takes it."""
    try:
        network = ipaddress.ip_network(text.strip(), strict=False)
    except ValueError:
        raise ServeError(
            f"--proxy: {text!r} is not an IP address or network (e.g. 127.0.0.1, ::1, 10.0.0.0/24)"
        ) from None
    return str(network.network_address) if network.num_addresses == 1 else str(network)


def serve(
    *,
    host: str,
    port: int,
    data: str | None,
    open_browser: bool,
    check: bool,
    access_log: bool,
    out: TextIO,
    allow_hosts: Sequence[str] = (),
    proxies: Sequence[str] = (),
    lan: bool = False,
    lan_host: str | None = None,
) -> int:
    """Serve the app on ``host`` and ``port`` (0: any free port), keeping
    games under ``data`` (default :func:`~fivecard.web.app.default_data_dir`),
    until a stop signal; say where on ``out``. ``open_browser``: open the
    app in the web browser once it is up; ``check``: ask each page and the
    API once, say what answered and stop; ``access_log``: a line per
    request; ``allow_hosts``: host names answered besides IP literals,
    ``localhost``, this computer's names and ``host``; ``proxies``: the
    addresses or networks of reverse proxies whose ``X-Forwarded-For`` and
    ``X-Forwarded-Proto`` are read (no other's are); ``lan``: serve the
    local network (``host`` is then usually ``0.0.0.0``): say the address
    others type, ``lan_host`` or :func:`lan_address`, with its QR code, and
    share the friends' tables' links at it. Returns the exit code; a
    :class:`ServeError` when the app cannot start."""
    try:
        import uvicorn

        if lan:
            import segno  # noqa: F401  (the QR codes: refused now, not once serving)

        from .app import BadHostName, create_app, default_data_dir, host_name
        from .server import Bounds, GuardedHttpTools, raise_descriptor_limit
        from .store import StorageError
    except ImportError as exc:
        raise ServeError(
            f"fivecard serve needs the web extra (missing: {exc.name}): pip install 'fivecard[web]'"
        ) from None
    folder = os.path.abspath(os.path.expanduser(data)) if data else default_data_dir()
    raise_descriptor_limit()  # as many connections as the system lets this process hold
    bounds = Bounds()

    class Protocol(GuardedHttpTools):  # headers, timeouts and connections bounded
        pass

    Protocol.bounds = bounds
    names = []
    for name in allow_hosts:
        try:
            names.append(host_name(name))
        except BadHostName as exc:
            raise ServeError(f"--allow-host: {exc}") from None
    with contextlib.suppress(BadHostName):  # an address that is no name is refused by _listen, below
        names.append(host_name(host))  # the name it listens on, when it is given one
    trusted = [_proxy(text) for text in proxies]
    announced = None
    if lan:
        announced = _lan_address(lan_host) if lan_host is not None else lan_address()
        if announced is None:
            raise ServeError(
                "--lan: this computer has no address on a network (is it connected?); "
                "give the one friends reach it at with --lan-address"
            )
        with contextlib.suppress(BadHostName):
            names.append(host_name(announced))  # a name given to --lan-address is answered too
    try:
        app = create_app(folder, bounds=bounds, allow_hosts=names)
    except StorageError as exc:  # read-only, not ours to write, full, unreadable
        raise ServeError(f"--data {folder!r}: cannot keep games there: {exc.reason}") from None
    except OSError as exc:
        raise ServeError(f"--data {folder!r}: cannot keep games there: {exc.strerror or exc}") from None
    sock = _listen(host, port)
    url = _address(sock, host)
    shared = None if announced is None else lan_url(announced, sock.getsockname()[1])
    app.state.lan_url = shared  # the friends' tables share their links at it
    config = uvicorn.Config(
        app,
        log_level="warning",
        access_log=access_log,
        lifespan="off",
        server_header=False,
        http=Protocol,
        ws="none",  # no route takes a WebSocket
        timeout_keep_alive=5,
        # X-Forwarded-For and -Proto from the proxies named, else from no one
        # (not uvicorn's default: 127.0.0.1 and ::1, or FORWARDED_ALLOW_IPS)
        proxy_headers=bool(trusted),
        forwarded_allow_ips=trusted or None,
        # Ctrl-C: requests in flight get 2 s to finish, then open event
        # streams (a friends' table keeps one per browser) are closed.
        timeout_graceful_shutdown=2,
    )
    class Server(uvicorn.Server):
        def handle_exit(self, sig: int, frame: Any) -> None:
            end_streams(app.state.broker)  # open event streams end, so the server stops at once
            super().handle_exit(sig, frame)

        @contextlib.contextmanager
        def capture_signals(self) -> Iterator[None]:
            # uvicorn stops gracefully on SIGINT and SIGTERM, then raises the
            # signal again (the command's interrupt); SIGHUP (a closed
            # terminal) the same way, not in the middle of a request.
            with super().capture_signals():
                hang_up = getattr(signal, "SIGHUP", None)
                if hang_up is None or threading.current_thread() is not threading.main_thread():
                    yield
                    return
                previous = signal.signal(hang_up, self.handle_exit)
                try:
                    yield
                finally:
                    signal.signal(hang_up, previous)

    server = Server(config)
    out.write(f"fivecard: Poker vs Dealer at {url} (hand checker: {url}check)\n")
    out.write(f"games are kept in {os.path.join(folder, 'games.sqlite3')}\n")
    if shared is not None:
        out.write(f"on your network, friends type {shared} (a table for friends: {shared}tables), or scan:\n")
        _print_qr(shared, out)
        out.write("(not the address? start with --lan-address and the one friends reach this computer at)\n")
        note = unreachable_note(sock, host)
        if note is not None:
            out.write(note + "\n")
    if not check:
        out.write("press Ctrl-C to stop\n")
    out.flush()
    if check:
        return _check(server, sock, url, out)
    if open_browser:
        threading.Thread(target=_open_when_up, args=(server, url), daemon=True).start()
    # What is loaded by now (the app, FastAPI, pydantic, the library) lives as long
    # as the server: frozen, it is out of the garbage collector's sight, and a full
    # collection scans only what came after (measured under load on 2 cores: one
    # 50 ms pause, for every request in flight, about every 15,000 compares before;
    # none in 100,000 after).
    gc.collect()
    gc.freeze()
    server.run(sockets=[sock])
    return 0


def end_streams(broker: Broker) -> None:
    """Tell the open event streams to end, from a stop signal's handler:
    by a thread of its own. The handler runs in the main thread between
    any two of its steps, perhaps while that thread holds the broker's
    lock (a stream starting or looking for events); waiting for the lock
    there would wait forever, and the server with it."""
    threading.Thread(target=broker.close, name="fivecard-end-streams", daemon=True).start()


def _open_when_up(server: Any, url: str) -> None:
    import webbrowser

    for _ in range(200):
        if server.started:
            webbrowser.open(url)
            return
        time.sleep(0.05)


def _check(server: Any, sock: socket.socket, url: str, out: TextIO) -> int:
    """Serve in a thread, ask for each page and the API once, then stop."""
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        for _ in range(400):
            if server.started:
                break
            time.sleep(0.025)
        else:
            raise ServeError("the app did not start within 10 seconds")
        asks: list[tuple[str, str, bytes | None]] = [
            ("the table page", "", None),
            ("the hand checker", "check?hand=AS+KS+QS+JS+TS&hand=2C+2D+3H+4S+5C", None),
            ("its style sheet", "static/app.css", None),
            ("the compare API", "api/compare", json.dumps({"hands": ["8C TS KC 9H 4S", "7D 2S 5D 3S AC"]}).encode()),
            ("the API's description", "openapi.json", None),
        ]
        for what, path, body in asks:
            request = urllib.request.Request(url + path, data=body, headers={"content-type": "application/json"})
            try:
                with urllib.request.urlopen(request, timeout=10) as response:
                    status = response.status
                    content = response.read()
            except OSError as exc:
                raise ServeError(f"{what} ({url}{path}) did not answer: {exc}") from None
            shown = ""
            if path == "api/compare":
                shown = ": " + json.loads(content)["explanation"]
            out.write(f"{status} {what}{shown}\n")
        out.write("ok: the app works\n")
        return 0
    finally:
        server.should_exit = True
        thread.join(timeout=10)
