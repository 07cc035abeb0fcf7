"""companion.server.lan: which of this machine's addresses a phone at the table should open."""

from __future__ import annotations

from companion.server.lan import Interface, parse_ifconfig, phone_addresses


def test_one_wifi_address_is_the_one_to_open():
    found = [Interface("lo", "127.0.0.1"), Interface("wlan0", "192.168.1.20")]
    assert phone_addresses(found) == [Interface("wlan0", "192.168.1.20")]


def test_no_network_gives_no_address():
    assert phone_addresses([]) == []
    assert phone_addresses([Interface("lo", "127.0.0.1"), Interface("eth0", "169.254.3.4")]) == []


def test_several_addresses_real_interfaces_and_private_networks_first():
    found = [Interface("docker0", "172.17.0.1"), Interface("eth0", "81.2.69.142"),
             Interface("wlan0", "192.168.1.20"), Interface("enp3s0", "10.0.0.5"),
             Interface("tailscale0", "100.101.102.103")]
    ordered = phone_addresses(found)
    assert [i.name for i in ordered] == ["enp3s0", "wlan0", "eth0", "docker0", "tailscale0"]
    assert ordered[0].address == "10.0.0.5"


def test_an_address_held_twice_or_unreadable_is_listed_once_or_not_at_all():
    found = [Interface("wlan0", "192.168.1.20"), Interface("wlan0:1", "192.168.1.20"),
             Interface("weird", "not-an-ip"), Interface("any", "0.0.0.0")]
    assert phone_addresses(found) == [Interface("wlan0", "192.168.1.20")]


def test_ifconfig_output_of_a_mac():
    text = """lo0: flags=8049<UP,LOOPBACK,RUNNING,MULTICAST> mtu 16384
\tinet 127.0.0.1 netmask 0xff000000
en0: flags=8863<UP,BROADCAST,SMART,RUNNING,SIMPLEX,MULTICAST> mtu 1500
\tether 3c:22:fb:00:00:00
\tinet6 fe80::1%en0 prefixlen 64 secured scopeid 0x6
\tinet 192.168.1.31 netmask 0xffffff00 broadcast 192.168.1.255
utun3: flags=8051<UP,POINTOPOINT,RUNNING,MULTICAST> mtu 1380
\tinet 10.8.0.2 --> 10.8.0.1 netmask 0xffffff00
"""
    found = parse_ifconfig(text)
    assert Interface("en0", "192.168.1.31") in found
    assert phone_addresses(found) == [Interface("en0", "192.168.1.31"), Interface("utun3", "10.8.0.2")]
