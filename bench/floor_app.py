"""The app as gunicorn serves it, plus one trivial route (`/_floor`): the floor of bench/load.py,
served by the same workers, hooks and server in the same run. Only the load benchmark uses it."""

from __future__ import annotations


def app():
    from companion import create_app

    application = create_app()
    application.add_url_rule("/_floor", "floor", lambda: "ok")
    return application
