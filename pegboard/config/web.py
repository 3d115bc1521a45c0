"""``[web]``: the pub page, a live read-only scoreboard served by the daemon (``pegboard.web``).

Off unless ``enabled``. ``bind`` is an IP address: "0.0.0.0" (every interface: anyone on the
network can read the page, on a pub's open wifi every customer) or "127.0.0.1" (this machine
only); ``port`` 1..65535 (8121 unless told).

>>> parse_web(Fields({"enabled": True, "port": 8080}, "web"))
WebConfig(enabled=True, bind='0.0.0.0', port=8080)
"""

from __future__ import annotations

import ipaddress

from pegboard.config.fields import Fields
from pegboard.frozen import frozen

__all__ = ["WebConfig", "parse_web"]


@frozen
class WebConfig:
    """``[web]``: the pub page, a read-only scoreboard for any browser on the network."""

    enabled: bool = False
    bind: str = "0.0.0.0"
    """The address to listen on: "0.0.0.0" is every interface (anyone on the network can read
    the page), "127.0.0.1" this machine only."""
    port: int = 8121


def parse_web(f: Fields) -> WebConfig:
    """``[web]`` read and checked.

    Raises:
        ConfigError: a key that is not known, or a bad value (one line naming the key).
    """
    f.known(("enabled", "bind", "port"))
    d = WebConfig()
    bind = f.table.get("bind", d.bind)
    try:
        ipaddress.ip_address(bind if isinstance(bind, str) else "")
    except ValueError:
        raise f.error(
            "bind",
            "an IP address: '0.0.0.0' (every interface) or '127.0.0.1' (this machine only)",
            bind,
        ) from None
    return WebConfig(
        enabled=f.flag("enabled", d.enabled),
        bind=bind,
        port=f.whole("port", d.port, low=1, high=65535),
    )
