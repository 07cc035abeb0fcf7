"""Links for another phone (companion.web.links): a page opened on the serving laptop itself still gives
links and QR codes that a phone can open; PUBLIC_URL wins; behind a proxy, its headers count."""

from __future__ import annotations

import re

import pytest
from werkzeug.middleware.proxy_fix import ProxyFix

from app_helpers import create_game

LAN = "192.168.1.20"


def links_in(html: str) -> dict[str, str]:
    """Each phone link's value, by its input's id."""
    return dict(re.findall(r'<input id="([\w-]+)" type="text" readonly value="([^"]*)"', html))


def scored_revive(client) -> str:
    token = create_game(client, "revive", "base", ["Ana", "Bea"])
    page = client.post(f"/g/{token}/", data={"action": "finish", "version": "1", "card_mode": "each",
                                             "players-0-track": "12", "players-1-track": "9"})
    assert page.status_code == 302 and page.headers["Location"].endswith("/resultats")
    return token


def test_a_page_opened_at_127_0_0_1_links_to_the_network_address(app, client):
    app.config["LAN_ADDRESS"] = LAN
    token = create_game(client, "revive", "base", ["Ana", "Bea"])
    home = client.get("/", base_url="http://127.0.0.1:5000").get_data(as_text=True)
    assert links_in(home)["app-url"] == f"http://{LAN}:5000/"
    edit = client.get(f"/g/{token}/", base_url="http://localhost:5001").get_data(as_text=True)
    assert links_in(edit)["edit-url"] == f"http://{LAN}:5001/g/{token}/"


def test_the_results_share_link_too(app, client):
    app.config["LAN_ADDRESS"] = LAN
    token = scored_revive(client)
    html = client.get(f"/g/{token}/resultats", base_url="http://127.0.0.1:5000").get_data(as_text=True)
    share = links_in(html)["share-url"]
    assert re.fullmatch(rf"http://{LAN}:5000/r/[\w-]+/", share)
    assert client.get(share.removeprefix(f"http://{LAN}:5000")).status_code == 200


def test_a_phone_that_came_by_the_network_address_keeps_it(app, client):
    app.config["LAN_ADDRESS"] = LAN
    html = client.get("/", base_url="http://192.168.1.99:5000").get_data(as_text=True)
    assert links_in(html)["app-url"] == "http://192.168.1.99:5000/"


def test_without_a_network_address_found_links_say_what_the_browser_used(app, client):
    app.config["LAN_ADDRESS"] = ""
    html = client.get("/", base_url="http://127.0.0.1:5000").get_data(as_text=True)
    assert links_in(html)["app-url"] == "http://127.0.0.1:5000/"


@pytest.mark.parametrize("host", ["127.0.0.1:5000", "localhost:5000", "192.168.1.99:5000"])
def test_public_url_wins_over_both(app, client, host):
    app.config.update(LAN_ADDRESS=LAN, PUBLIC_URL="https://scores.club.example")
    token = create_game(client, "revive", "base", ["Ana", "Bea"])
    html = client.get(f"/g/{token}/", base_url=f"http://{host}").get_data(as_text=True)
    assert links_in(html)["edit-url"] == f"https://scores.club.example/g/{token}/"


def test_public_url_is_read_from_the_environment(monkeypatch, tmp_path):
    from app_helpers import make_app

    monkeypatch.setenv("PUBLIC_URL", "https://scores.club.example/")
    monkeypatch.setenv("COMPANION_LAN_ADDRESS", LAN)
    app = make_app(tmp_path)
    assert app.config["PUBLIC_URL"] == "https://scores.club.example/"
    html = app.test_client().get("/", base_url="http://127.0.0.1").get_data(as_text=True)
    assert links_in(html)["app-url"] == "https://scores.club.example/"


def test_trusted_proxy_headers_still_make_https_links(app, client):
    app.config["LAN_ADDRESS"] = LAN
    app.wsgi_app = ProxyFix(app.wsgi_app, x_for=1, x_proto=1, x_host=1)
    html = client.get("/", base_url="http://127.0.0.1:8000",
                      headers={"X-Forwarded-Proto": "https", "X-Forwarded-Host": "scores.club.example"})
    assert links_in(html.get_data(as_text=True))["app-url"] == "https://scores.club.example/"


def test_every_phone_link_has_its_qr_code_inline(client):
    token = scored_revive(client)
    for url in ("/", f"/g/{token}/", f"/g/{token}/resultats"):
        html = client.get(url).get_data(as_text=True)
        box = html.split('<figure class="qr-box">', 1)[1].split("</figure>", 1)[0]
        assert '<svg viewBox="0 0 ' in box and 'class="qr"' in box, url
        assert "http" not in box.split("<title>", 1)[0], "the SVG refers to nothing outside the page"
