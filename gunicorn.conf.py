"""gunicorn settings for a club or convention server: `gunicorn -c gunicorn.conf.py 'companion:create_app()'`.

Event-loop workers (gevent, companion.server.workers.LoopWorker): each connection is a greenlet of a
worker's one thread, so a save never waits for an interpreter lock other threads hold (issue 33: at
300 tables of four phones, the saves' p95 had a median of 448 ms over six rounds with gthread's 32
threads a worker, 112 ms with the loop, docs/benchmarks.md), and a phone on a bad connection
trickling its request holds a greenlet, nothing more. Request headers must arrive within `keepalive` seconds and a body must keep
arriving (BODY_TIMEOUT seconds at most between two reads); a PDF's layout and a photo's resizing run
in a thread beside the loop (companion.base.offload). Workers are recycled after a jittered number
of requests or past a resident size, tokens are masked in the logs (companion.web.logmask), and each
worker warms WeasyPrint before taking requests, so the first PDF is not a second-long stall. Workers
whose master was killed close the listening port at once (companion.server.workers), so a plain
restart works. Every setting here can be overridden on the command line (`--bind`, `--workers`...).
"""

import os

bind = os.environ.get("GUNICORN_BIND", "127.0.0.1:8000")
# gevent's loop, whose workers let go of the port the moment their master dies (a `kill -9`): a plain
# restart then binds at once instead of finding the port held for the grace period (companion.server.workers).
worker_class = "companion.server.workers.LoopWorker"
# Scoring is CPU work under one interpreter per process: one worker per core.
workers = int(os.environ.get("WEB_CONCURRENCY", "0")) or max(2, os.cpu_count() or 1)
# Connections a worker holds at once (a greenlet each, a few tens of KB): 300 tables' 1,200 phones keep
# about 600 per worker alive between their saves.
worker_connections = int(os.environ.get("GUNICORN_CONNECTIONS", "2000"))
timeout = 30            # a worker silent this long is restarted
graceful_timeout = 20   # on reload or stop, requests under way get this long to finish
keepalive = 5           # an idle kept-alive connection is closed after this long
# Recycle workers seldom and seldom together: a new worker warms up (WeasyPrint, its fonts, the forms)
# for a second or two before it takes requests, and the other workers carry the load meanwhile. At
# 2,000 requests (with 200 of jitter) 200 tables recycled both workers every 15 s, nearly at once: the
# saves' p95 went from 13 ms to 1.7 s; at 20,000 (10,000 of jitter) 300 tables still recycled both in
# one 20 s step after a few minutes: 790 ms (bench/bench_tables.py). Memory is bounded by the resident
# size (below); this count is only a safety net: at 300 tables a worker reaches it every 20-30 minutes,
# each at its own moment over 8 minutes.
max_requests = 250000
max_requests_jitter = 100000
# And before one grows past WORKER_MAX_RSS_MB of resident memory (default 320; 0: never): checked at
# the end of a request, at most every 0.25 s, by the worker class (companion.server.workers), each
# worker's limit up to 10 % lower.
limit_request_line = 4094
limit_request_fields = 50
limit_request_field_size = 8190

# Seconds without a byte of the request body before the request is dropped.
BODY_TIMEOUT = float(os.environ.get("GUNICORN_BODY_TIMEOUT", "10"))

accesslog = os.environ.get("GUNICORN_ACCESS_LOG", "-")
errorlog = os.environ.get("GUNICORN_ERROR_LOG", "-")
# Request line, status, size, time (ms), referrer and agent; game tokens are masked by the logger.
access_log_format = '%(h)s %(t)s "%(r)s" %(s)s %(b)s %(M)sms "%(f)s" "%(a)s"'
logger_class = "companion.web.logmask.GunicornLogger"


def pre_request(worker, req):
    """Reading the body blocks a thread: give each read a deadline."""
    sock = getattr(getattr(req, "unreader", None), "sock", None)
    if sock is not None:
        sock.settimeout(BODY_TIMEOUT)


# Seconds a thread may keep the interpreter while another waits for it (Python's default: 5 ms): the
# loop beside a PDF being laid out in its thread (companion.base.offload) gets it back within 1 ms.
SWITCH_INTERVAL = float(os.environ.get("GUNICORN_SWITCH_INTERVAL", "0.001"))


# Seconds between a worker's full garbage collections (companion.base.gcpause.full_collections_every).
FULL_COLLECTION_SECONDS = float(os.environ.get("GUNICORN_FULL_COLLECTION_SECONDS", "60"))


def post_worker_init(worker):
    """Load WeasyPrint, its fonts and the sheet templates now, not during someone's first PDF."""
    import sys

    from companion.pdf import warm

    sys.setswitchinterval(SWITCH_INTERVAL)

    try:
        warm()
    except Exception:  # noqa: BLE001 - a broken PDF stack must not keep the pages from being served
        worker.log.exception("WeasyPrint could not be warmed; PDF sheets will fail or be slow")
    # What is loaded by now lives as long as the worker: out of the collector's sight, a full
    # collection no longer walks ~170,000 objects in the middle of a save (issue 21: its p99).
    import gc

    from companion.base import gcpause

    gc.collect()
    gc.freeze()
    # And what it keeps from then on (each game's texts, its players' parts...) is walked by a full
    # collection once a minute, not every few seconds with the saves queued behind it (issue 33).
    gcpause.full_collections_every(FULL_COLLECTION_SECONDS)
