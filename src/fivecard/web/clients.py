"""Who a request comes from, to every per-address bound of the web app and
its server: the client's network (:func:`client_network`).

A client given one IPv4 address is that address. A client given IPv6 is
given a whole network, and so is the end site it is part of (a household, an
office, a customer of a provider): a /64 for each of its links, and the site
a /48 to a /56 of them (256 to 65,536 /64s: providers follow RFC 6177 and
RIPE-690, and a /56 is the usual household's). Each /64 counted apart would
make one household as many clients as it has /64s (four /64s of one /56
took every place of a small server), so the client is the site's largest
usual network, its /48 (:data:`IPV6_PREFIX`). Grouping coarser is the safe
side for a per-network share: what one network takes is bounded, and no one
site holds more than one share of anything. What it costs: the clients of
one big site (every /64 of a university's or a provider's /48 that gives a
/56 or less to each customer) share one share, as the clients behind one
IPv4 address (a NAT, an office) always have.

An IPv4 address carried in IPv6 is that IPv4 address: written as IPv6
(``::ffff:10.0.0.1``, as a server listening on ``::`` sees IPv4 clients),
through a NAT64 or SIIT translator (the well-known prefix ``64:ff9b::/96``:
every IPv4 client of the internet behind a translator; a translator's
network-specific prefix is not known here, and is grouped as any IPv6), by
6to4 (``2002:V4::/48``: the network of one IPv4 address) and by Teredo (the
client's public IPv4 address, which it carries). Anything that is no IP
address (a test client's name, a Unix socket's path) is itself.

Every per-address key uses it: the rate limits of
:class:`~fivecard.web.friends_api.RateLimit`, the advisor's turns
(:class:`~fivecard.web.app.AdvisorGate`), the exports at once, the games and
tables one address may keep (:class:`~fivecard.web.store.Capacity`) and the
connections one address may hold (:class:`~fivecard.web.server.GuardedHttpTools`).
"""

from __future__ import annotations

import ipaddress
from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from starlette.requests import HTTPConnection

__all__ = ["IPV6_PREFIX", "client_network", "request_network"]

#: The IPv6 network that counts as one client: an end site's, a /48.
IPV6_PREFIX = 48
#: IPv4 addresses translated to IPv6 by NAT64 and SIIT (RFC 6052's well-known prefix).
NAT64 = ipaddress.IPv6Network("64:ff9b::/96")


@lru_cache(maxsize=4096)
def client_network(address: str) -> str:
    """The network an address stands for, as text: an IPv4 address itself,
    an IPv6 address's /48, an IPv4 address carried in IPv6 (IPv4-mapped,
    NAT64's well-known prefix, 6to4, Teredo) the IPv4 address; anything else
    as it is.

    >>> client_network("10.0.0.7"), client_network("::ffff:10.0.0.7"), client_network("64:ff9b::10.0.0.7")
    ('10.0.0.7', '10.0.0.7', '10.0.0.7')
    >>> client_network("2001:db8:0:1::66"), client_network("2001:DB8:0:ff00:1:2:3:4")
    ('2001:db8::/48', '2001:db8::/48')
    >>> client_network("2002:a00:7:1::1"), client_network("testclient")
    ('10.0.0.7', 'testclient')
    """
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])  # (a scope, "fe80::1%eth0", is no part of it)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        carried = ip.ipv4_mapped or ip.sixtofour or (ip.teredo[1] if ip.teredo else None)
        if carried is None and ip in NAT64:
            carried = ipaddress.IPv4Address(int(ip) & 0xFFFF_FFFF)
        if carried is not None:
            return str(carried)
        return str(ipaddress.IPv6Network((ip, IPV6_PREFIX), strict=False))
    return str(ip)


def request_network(request: HTTPConnection) -> str:
    """The network of the client that sent ``request`` (:func:`client_network`)."""
    return client_network(request.client.host if request.client else "")
