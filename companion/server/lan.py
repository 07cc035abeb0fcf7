"""The addresses at which a table's phones reach this machine, found when the server starts.

A laptop on a room's Wi-Fi has one address the phones can open (sometimes several: cable and
Wi-Fi, a VPN, a container bridge). 127.0.0.1 is never one of them. The list is read from the
system once; `phone_addresses` orders what was read (tested with faked lists), the most likely
first.
"""

from __future__ import annotations

import ipaddress
import socket
import struct
import subprocess  # noqa: S404 - `ifconfig` where the ioctl below is not Linux's
import sys
from collections.abc import Iterable
from dataclasses import dataclass

# Names of interfaces that are rarely the room's network: containers, VMs, tunnels.
VIRTUAL = ("docker", "br-", "veth", "virbr", "vmnet", "vboxnet", "lxc", "lxd", "cni", "flannel",
           "podman", "tun", "tap", "utun", "wg", "zt", "tailscale", "awdl", "llw", "bridge")

SIOCGIFADDR = 0x8915  # Linux: an interface's IPv4 address


@dataclass(frozen=True)
class Interface:
    """One IPv4 address of this machine, with the name of the interface that holds it."""

    name: str
    address: str


def phone_addresses(found: Iterable[Interface]) -> list[Interface]:
    """The addresses a phone could open, the most likely first: loopback, link-local and
    unspecified ones are left out; private (home/club Wi-Fi) before public, real interfaces
    before virtual ones; each address once."""
    keep: dict[str, Interface] = {}
    for item in found:
        try:
            ip = ipaddress.IPv4Address(item.address)
        except ValueError:
            continue
        if ip.is_loopback or ip.is_link_local or ip.is_unspecified or ip.is_multicast:
            continue
        keep.setdefault(item.address, item)

    def rank(item: Interface) -> tuple:
        virtual = item.name.lower().startswith(VIRTUAL)
        private = ipaddress.IPv4Address(item.address).is_private
        return (virtual, not private, item.name, ipaddress.IPv4Address(item.address))

    return sorted(keep.values(), key=rank)


def interfaces() -> list[Interface]:
    """This machine's IPv4 addresses, as the system lists them (empty when it cannot tell)."""
    if sys.platform.startswith("linux"):
        return _linux()
    return _ifconfig()


def _linux() -> list[Interface]:
    import fcntl

    found = []
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        for _index, name in socket.if_nameindex():
            try:
                packed = fcntl.ioctl(sock.fileno(), SIOCGIFADDR, struct.pack("256s", name.encode()[:15]))
            except OSError:  # no IPv4 address on this interface
                continue
            found.append(Interface(name, socket.inet_ntoa(packed[20:24])))
    return found


def _ifconfig() -> list[Interface]:
    try:
        out = subprocess.run(["ifconfig"], capture_output=True, text=True, timeout=5, check=False).stdout  # noqa: S603, S607
    except (OSError, subprocess.TimeoutExpired):
        return []
    return parse_ifconfig(out)


def parse_ifconfig(text: str) -> list[Interface]:
    """`ifconfig`'s output (macOS, BSD): an unindented line names the interface, `inet A` lines
    under it give its addresses."""
    found, name = [], ""
    for line in text.splitlines():
        if line and not line[0].isspace():
            name = line.split(":", 1)[0]
        words = line.split()
        if len(words) >= 2 and words[0] == "inet":
            found.append(Interface(name, words[1].removeprefix("addr:")))
    return found


def url(address: str, port: int) -> str:
    return f"http://{address}:{port}"
