#!/usr/bin/env python3
"""moto_server, serving one request at a time.

moto's handlers are not atomic under threads: a conditional PutItem checks its condition and
stores the item in two Python steps, so two concurrent requests on the same item can both pass
the check (seen in the two-writer test: one update of 2,000 lost, once in three runs). DynamoDB
applies every single-item write atomically, so the tests serialize requests to get that
guarantee back. moto is bound to one core by Python's GIL anyway, so little speed is lost.

Usage: atomic_moto_server.py -H HOST -p PORT   (moto's own server, otherwise unchanged but for
four of its costs, paid once rather than on every request: see `take_moto_costs_once`)
"""
import argparse
import copy
import functools
import os
import signal
import sys
import threading
from collections import defaultdict

import moto.core.responses
import moto.dynamodb.models
from moto import backends
from moto.dynamodb.models import DynamoDBBackend
from moto.dynamodb.models.dynamo_type import DynamoType
from moto.dynamodb.models.table import Table
from moto.moto_server.werkzeug_app import DomainDispatcherApplication, create_backend_app
from werkzeug.serving import run_simple


def stop():
    """Exits at once: moto keeps nothing worth saving, and a normal exit waits for the threads of
    open connections (seconds, after a test whose client was killed)."""
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)


def take_moto_costs_once():
    """Four of moto's costs that do not change its answers, paid once rather than on every
    request. In the five heaviest DynamoDB test classes (cProfile), the last three were a third
    of moto's busy time once the first was gone.
    """
    # moto lists its own package directory (a stat of each of its ~200 entries) twice for every
    # request to find the service; the directory does not change while the server runs, so the
    # list is taken once. That was a third of moto's busy time (15.3 s against 10.5 s for the
    # 4,249 requests of DynamoDBMigrationTests' first test).
    modules = tuple(backends.list_of_moto_modules())
    backends.list_of_moto_modules = lambda: modules

    # Every request lists the methods of its service's response class (`inspect.getmembers`, 4 %
    # of moto's time); the classes do not change either.
    names = moto.core.responses.method_names_from_class
    moto.core.responses.method_names_from_class = functools.lru_cache(maxsize=None)(
        lambda clazz: tuple(names(clazz))
    )

    # TransactWriteItems keeps a copy of each table it writes to, to put back if the transaction
    # fails: a deep copy of the whole table, taken again for each of the transaction's items (25
    # copies of a 4,500-item table for one request; a quarter of moto's time). The copy here is
    # taken once per table and transaction, and deep only for the items the transaction names
    # (an Update changes its item in place); the others are shared, as the transaction does not
    # touch them.
    transact_write_items = DynamoDBBackend.transact_write_items
    deepcopy = copy.deepcopy

    def transact_write_items_copying_less(backend, transact_items):
        keys = defaultdict(list)  # the items each table's operations name, as moto finds them
        for item in transact_items:
            for op in item.values():
                table = backend.tables.get(op.get("TableName"))
                key = op.get("Item") if "Item" in op else op.get("Key")
                if table is None or not isinstance(key, dict):
                    continue
                try:
                    hash_value = DynamoType(key[table.hash_key_attr])
                    range_value = DynamoType(key[table.range_key_attr]) if table.range_key_attr else None
                except (KeyError, TypeError, AttributeError):
                    continue  # moto refuses the operation itself
                keys[op["TableName"]].append((hash_value, range_value))
        copies = {}

        def table_copy(table):
            copied = copy.copy(table)
            copied.items_in_order = None  # of the table's own items
            if table.range_key_attr:
                copied.items = defaultdict(dict, {h: dict(r) for h, r in table.items.items()})
            else:
                copied.items = defaultdict(dict, table.items)
            for hash_value, range_value in keys[table.name]:
                item = table.get_item(hash_value, range_value)
                if item is None:
                    continue
                if range_value is None:
                    copied.items[hash_value] = deepcopy(item)
                else:
                    copied.items[hash_value][range_value] = deepcopy(item)
            return copied

        class CopyOncePerTable:  # the `copy` module, as moto's DynamoDB backend sees it
            @staticmethod
            def deepcopy(value, memo=None):
                if not any(value is table for table in backend.tables.values()):
                    return deepcopy(value, memo)
                if value.name not in copies:
                    copies[value.name] = table_copy(value)
                return copies[value.name]

        moto.dynamodb.models.copy = CopyOncePerTable
        try:
            return transact_write_items(backend, transact_items)
        finally:
            moto.dynamodb.models.copy = copy

    DynamoDBBackend.transact_write_items = transact_write_items_copying_less

    # Every page of a Scan sorts the whole table (`Table.all_items`; 7 % of moto's time in
    # DynamoDBMigrationTests). The order is kept until an item is put or deleted: an update
    # changes an item in place, never its key.
    all_items = Table.all_items

    def all_items_sorted_once(table):
        if getattr(table, "items_in_order", None) is None:
            table.items_in_order = all_items(table)
        return table.items_in_order

    def forgetting_the_order(change):
        def changed(table, *args, **kwargs):
            table.items_in_order = None
            return change(table, *args, **kwargs)

        return changed

    Table.all_items = all_items_sorted_once
    Table.put_item = forgetting_the_order(Table.put_item)
    Table.delete_item = forgetting_the_order(Table.delete_item)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("-H", "--host", default="127.0.0.1")
    parser.add_argument("-p", "--port", type=int, required=True)
    args = parser.parse_args()
    os.environ.setdefault("MOTO_PORT", str(args.port))
    signal.signal(signal.SIGTERM, lambda *_: stop())

    take_moto_costs_once()

    app = DomainDispatcherApplication(create_backend_app)
    lock = threading.Lock()

    def one_at_a_time(environ, start_response):
        with lock:
            return list(app(environ, start_response))  # the whole response, inside the lock

    run_simple(args.host, args.port, one_at_a_time, threaded=True)


if __name__ == "__main__":
    main()
