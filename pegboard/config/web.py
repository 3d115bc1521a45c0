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
from pegboard.errors import ConfigError, quote
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


_BIND_EXPECTED = "an IP address: '0.0.0.0' (every interface) or '127.0.0.1' (this machine only)"


def _is_address(value: object) -> bool:
    try:
        ipaddress.ip_address(value if isinstance(value, str) else "")
    except ValueError:
        return False
    return True


def check_bind(bind: str, *, option: str = "--bind") -> str:
    """*bind*, given on the command line as *option*, checked as ``[web] bind`` is.

    >>> check_bind("127.0.0.1")
    '127.0.0.1'

    Raises:
        ConfigError: not an IP address (the message names *option*, not the config).
    """
    if not _is_address(bind):
        raise ConfigError(f"{option} must be {_BIND_EXPECTED}, got {quote(bind)}")
    return bind


def parse_web(f: Fields) -> WebConfig:
    """``[web]`` read and checked.

    Raises:
        ConfigError: a key that is not known, or a bad value (one line naming the key).
    """
    f.known(("enabled", "bind", "port"))
    d = WebConfig()
    bind = f.table.get("bind", d.bind)
    if not _is_address(bind):
        raise f.error("bind", _BIND_EXPECTED, bind)
    return WebConfig(
        enabled=f.flag("enabled", d.enabled),
        bind=bind,
        port=f.whole("port", d.port, low=1, high=65535),
    )
