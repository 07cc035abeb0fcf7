"""Long CPU work off the server's event loop, when it runs one.

gunicorn.conf.py serves with gevent (companion.server.workers.LoopWorker): every connection of a
worker is a greenlet of its one thread, so a second of work that never yields (a PDF sheet laid out
by WeasyPrint, a photo resized by Pillow) would stop every save of that worker meanwhile. `in_thread`
runs such work in a thread of gevent's pool and lets the loop go on (the two share the interpreter as
threads do: `sys.setswitchinterval`); elsewhere (the development server, the CLI, the tests' client)
it simply calls the function. The caller's context variables (the language) go with it.
"""

from __future__ import annotations

import contextvars
import sys
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def event_loop() -> bool:
    """Whether this process serves from gevent's loop (threading patched by its worker)."""
    monkey = sys.modules.get("gevent.monkey")
    return monkey is not None and monkey.is_module_patched("threading")


def in_thread(work: Callable[..., T], /, *args, **kwargs) -> T:
    """`work(*args, **kwargs)`, in a thread of its own when the caller is a greenlet of the loop;
    its result, or its exception raised here."""
    if not event_loop():
        return work(*args, **kwargs)
    from gevent import get_hub

    context = contextvars.copy_context()
    return get_hub().threadpool.apply(context.run, (work, *args), kwargs)
