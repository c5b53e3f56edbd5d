#!/usr/bin/env python3
"""moto_server, serving one request at a time.

moto's handlers are not atomic under threads: a conditional PutItem checks its condition and
stores the item in two Python steps, so two concurrent requests on the same item can both pass
the check (seen in the two-writer test: one update of 2,000 lost, once in three runs). DynamoDB
applies every single-item write atomically, so the tests serialize requests to get that
guarantee back. moto is bound to one core by Python's GIL anyway, so little speed is lost.

Usage: atomic_moto_server.py -H HOST -p PORT   (moto's own server, otherwise unchanged but for
the list of its services, taken once rather than on every request)
"""
import argparse
import os
import signal
import sys
import threading

from moto import backends
from moto.moto_server.werkzeug_app import DomainDispatcherApplication, create_backend_app
from werkzeug.serving import run_simple


def stop():
    """Exits at once: moto keeps nothing worth saving, and a normal exit waits for the threads of
    open connections (seconds, after a test whose client was killed)."""
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("-H", "--host", default="127.0.0.1")
    parser.add_argument("-p", "--port", type=int, required=True)
    args = parser.parse_args()
    os.environ.setdefault("MOTO_PORT", str(args.port))
    signal.signal(signal.SIGTERM, lambda *_: stop())

    # moto lists its own package directory (a stat of each of its ~200 entries) twice for every
    # request to find the service; the directory does not change while the server runs, so the
    # list is taken once. That was a third of moto's busy time (15.3 s against 10.5 s for the
    # 4,249 requests of DynamoDBMigrationTests' first test).
    modules = tuple(backends.list_of_moto_modules())
    backends.list_of_moto_modules = lambda: modules

    app = DomainDispatcherApplication(create_backend_app)
    lock = threading.Lock()

    def one_at_a_time(environ, start_response):
        with lock:
            return list(app(environ, start_response))  # the whole response, inside the lock

    run_simple(args.host, args.port, one_at_a_time, threaded=True)


if __name__ == "__main__":
    main()
