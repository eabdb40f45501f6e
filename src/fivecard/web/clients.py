"""Who a request comes from, to every per-address bound of the web app and
its server: the client's network (:func:`client_network`).

A client given one IPv4 address is that address. A client given IPv6 is
given a whole network, a /64 (2^64 addresses, one a second for ever and
more): each of its addresses counted apart would make it as many clients as
it likes, so the /64 is the client. An IPv4 address written as IPv6
(``::ffff:10.0.0.1``, as a server listening on ``::`` sees IPv4 clients) is
the IPv4 address. Anything that is no IP address (a test client's name, a
Unix socket's path) is itself.

Every per-address key uses it: the rate limits of
:class:`~fivecard.web.friends_api.RateLimit`, the advisor's turns
(:class:`~fivecard.web.app.AdvisorGate`), the games and tables one address
may keep (:class:`~fivecard.web.store.Capacity`) and the connections one
address may hold (:class:`~fivecard.web.server.GuardedHttpTools`).
"""

from __future__ import annotations

import ipaddress
from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from starlette.requests import HTTPConnection

__all__ = ["IPV6_PREFIX", "client_network", "request_network"]

#: The IPv6 network one client is given, and so counts as one: a /64.
IPV6_PREFIX = 64


@lru_cache(maxsize=4096)
def client_network(address: str) -> str:
    """The network an address stands for, as text: an IPv4 address itself,
    an IPv6 address's /64, an IPv4-mapped IPv6 address's IPv4 address;
    anything else as it is.

    >>> client_network("10.0.0.7"), client_network("::ffff:10.0.0.7")
    ('10.0.0.7', '10.0.0.7')
    >>> client_network("2001:db8:0:1::66"), client_network("2001:DB8:0:1:ffff:1:2:3")
    ('2001:db8:0:1::/64', '2001:db8:0:1::/64')
    >>> client_network("testclient")
    'testclient'
    """
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])  # (a scope, "fe80::1%eth0", is no part of it)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, IPV6_PREFIX), strict=False))
    return str(ip)


def request_network(request: HTTPConnection) -> str:
    """The network of the client that sent ``request`` (:func:`client_network`)."""
    return client_network(request.client.host if request.client else "")
