#!/usr/bin/env python3
"""A fault-injecting HTTP proxy for the DynamoDB tests: forwards requests to a DynamoDB-protocol
server (moto) and, at the given rates, answers a request itself with a throttling error or a
5xx, resets the connection before forwarding, or forwards and then resets the connection
instead of answering ("swallowed": the write reached the server, the client never learns), or
answers with an HTML 500 page, as a load balancer or proxy in front of a service may; S3 GETs
are forwarded, and --cut breaks a GetObject response halfway through its body; S3 PUTs and
DELETEs are forwarded, except that --deny-part N answers AccessDenied to UploadPart number N
(permission lost in the middle of a multipart upload). --refuse-item TEXT cancels every
TransactWriteItems with an item whose JSON holds TEXT, that item's reason ValidationError (as
DynamoDB refuses an item it cannot store), and counts them ("refusedTransactions"; every
TransactWriteItems is counted in "transactions"), and refuses every BatchWriteItem holding TEXT
whole with a ValidationException, as DynamoDB refuses a batch ("refusedBatches").
--change-first TEXT plays another writer: before forwarding the first TransactWriteItems with a
Put whose JSON holds TEXT, it puts that item (with a "changedBy" attribute) straight to the
server, signed with --change-key-id and --change-secret, so that the transaction fails its condition ("changedItems"). With
--latency S every forwarded request waits S seconds first (a distant endpoint, for benchmarks).
With --sink-writes every write is answered as a success without reaching the server (counted
in sunkItems, per table), and BatchGetItem finds nothing (what was written was never stored):
a benchmark then measures the client, not moto.

Write capacity: every write (BatchWriteItem, TransactWriteItems, PutItem, UpdateItem,
DeleteItem) is costed as DynamoDB does (1 WCU per started KB of each item put, 1 per delete or
update, twice that inside TransactWriteItems), and the units forwarded are summed per second
since the first write (stats "wcuBySecond"). With --wcu-limit N a token bucket of N units a
second (holding at most N) admits writes; one that would overdraw it is answered with
ProvisionedThroughputExceededException, not forwarded ("capacityThrottled"). The
ConsumedCapacity the upstream answers is summed per table in "consumedReported".

Faults are drawn only for the operations named by --ops. Counts of what was injected are
served at GET /__stats as JSON. Usage:
  fault_proxy.py --port P --upstream http://127.0.0.1:Q --throttle 0.2 --server-error 0.05 \
      --reset 0.01 --swallow 0.01 --html-error 0.01 --latency 0.02 --ops PutItem,BatchWriteItem --seed 7
"""
import argparse, base64, http.client, http.server, json, random, socket, struct, sys, threading, time
from urllib.parse import urlparse

args = None
stats = {"requests": 0, "throttle": 0, "serverError": 0, "reset": 0, "swallow": 0, "htmlError": 0, "cut": 0, "deniedParts": 0, "rangeStarts": [],
         "writeRequests": 0, "capacityThrottled": 0, "refusedTransactions": 0, "refusedBatches": 0, "changedItems": 0, "transactions": 0, "wcuBySecond": [], "consumedReported": {}, "sunkItems": {}}
WRITE_OPS = {"BatchWriteItem", "TransactWriteItems", "PutItem", "UpdateItem", "DeleteItem"}
capacity = {"tokens": None, "last": None, "firstWrite": None}
lock = threading.Lock()
rng = random.Random()


HTML_500 = """<!DOCTYPE html>
<html><head><title>500 Internal Server Error</title>
<style>body { font-family: sans-serif; }</style></head>
<body><h1>Internal Server Error</h1>
<p>The upstream server is temporarily unable to service your request.</p>
<hr><address>injected by fault_proxy.py</address>
""" + "<!-- padding -->\n" * 200 + """</body></html>
"""


def draw(operation):
    """The fault for one request, or None."""
    if operation not in args.ops:
        return None
    with lock:
        stats["requests"] += 1
        r = rng.random()
        for name, rate in (("throttle", args.throttle), ("serverError", args.server_error),
                           ("reset", args.reset), ("swallow", args.swallow), ("htmlError", args.html_error),
                           ("cut", args.cut)):
            if r < rate:
                stats[name] += 1
                return name
            r -= rate
    return None


def number_size(text):
    """DynamoDB's size of a number: about one byte per two significant digits, plus one."""
    digits = text.lstrip("+-").lower().split("e")[0].replace(".", "").lstrip("0").rstrip("0")
    return (max(len(digits), 1) + 1) // 2 + 1


def value_size(value):
    (tag, v), = value.items()
    if tag == "S":
        return len(v.encode())
    if tag == "N":
        return number_size(v)
    if tag == "B":
        return len(base64.b64decode(v))
    if tag in ("SS",):
        return sum(len(x.encode()) for x in v)
    if tag == "NS":
        return sum(number_size(x) for x in v)
    if tag == "BS":
        return sum(len(base64.b64decode(x)) for x in v)
    if tag == "L":
        return 3 + sum(value_size(x) + 1 for x in v)
    if tag == "M":
        return 3 + sum(len(k.encode()) + value_size(x) + 1 for k, x in v.items())
    return 1  # BOOL, NULL


def write_units(item):
    size = sum(len(name.encode()) + value_size(value) for name, value in item.items())
    return max(1, -(-size // 1024))


def write_cost(operation, request):
    """The write capacity units a write request consumes."""
    if operation == "BatchWriteItem":
        return sum(write_units(w["PutRequest"]["Item"]) if "PutRequest" in w else 1
                   for writes in request.get("RequestItems", {}).values() for w in writes)
    if operation == "TransactWriteItems":
        return sum(2 * (write_units(a["Put"]["Item"]) if "Put" in a else 1) for a in request.get("TransactItems", []))
    if operation == "PutItem":
        return write_units(request.get("Item", {}))
    return 1


def admit_write(operation, request):
    """Costs a write (its parsed body); False when --wcu-limit's bucket cannot pay for it (a throttle)."""
    cost = write_cost(operation, request)
    now = time.monotonic()
    with lock:
        stats["writeRequests"] += 1
        if args.wcu_limit > 0:
            limit = args.wcu_limit
            tokens = limit if capacity["tokens"] is None else min(limit, capacity["tokens"] + (now - capacity["last"]) * limit)
            capacity["last"] = now
            if cost > tokens and tokens < limit:
                capacity["tokens"] = tokens
                stats["capacityThrottled"] += 1
                return False
            capacity["tokens"] = tokens - cost
        if capacity["firstWrite"] is None:
            capacity["firstWrite"] = now
        second = int(now - capacity["firstWrite"])
        windows = stats["wcuBySecond"]
        windows.extend([0] * (second + 1 - len(windows)))
        windows[second] += cost
    return True


def record_consumed(operation, data):
    """Sums the ConsumedCapacity of an upstream answer per table, as write or read units."""
    try:
        consumed = json.loads(data).get("ConsumedCapacity")
    except (ValueError, AttributeError):
        return
    if consumed is None:
        return
    kind = "write" if operation in WRITE_OPS else "read"
    with lock:
        for entry in consumed if isinstance(consumed, list) else [consumed]:
            table = stats["consumedReported"].setdefault(entry.get("TableName", ""), {"write": 0, "read": 0})
            table[kind] += entry.get("CapacityUnits", 0)


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # Headers and body go out in two writes: without TCP_NODELAY the body waits for the
    # client's delayed ACK (~40 ms a response), which made the fault tests mostly waiting.
    disable_nagle_algorithm = True

    def log_message(self, *a):
        pass

    def do_GET(self):
        if self.path != "/__stats":
            return self.forward_get()
        body = json.dumps(stats).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def forward_get(self):
        """An S3 GET (GetObject when it has a Range): forwarded; a "cut" sends the headers and
        half the body, then resets the connection, as a transfer that breaks midway."""
        fault = draw("GetObject" if self.headers.get("Range") else "GET")
        if self.headers.get("Range", "").startswith("bytes="):
            with lock:
                stats["rangeStarts"].append(int(self.headers["Range"][6:].split("-")[0]))
        data = self.relay("GET", None)
        if fault == "cut" and len(data) > 1:
            self.wfile.write(data[: len(data) // 2])
            self.wfile.flush()
            return self.reset()
        self.wfile.write(data)

    def do_PUT(self):
        if args.deny_part and ("partNumber=%d&" % args.deny_part) in (self.path.split("?")[-1] + "&"):
            with lock:
                stats["deniedParts"] += 1
            body = b"<?xml version='1.0' encoding='UTF-8'?><Error><Code>AccessDenied</Code><Message>Access Denied (injected)</Message></Error>"
            self.send_response(403)
            self.send_header("Content-Type", "application/xml")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        self.forward_plain("PUT")

    def do_DELETE(self):
        self.forward_plain("DELETE")

    def forward_plain(self, method):
        """Forwards a request with its body, unchanged."""
        self.wfile.write(self.relay(method, self.rfile.read(int(self.headers.get("Content-Length", "0")))))

    def relay(self, method, body):
        """Sends the request upstream and the answer's status and headers back; its body, to be written."""
        upstream = urlparse(args.upstream)
        connection = http.client.HTTPConnection(upstream.hostname, upstream.port, timeout=60)
        headers = {k: v for k, v in self.headers.items() if k.lower() not in ("connection", "keep-alive")}
        connection.request(method, self.path, body=body, headers=headers)
        response = connection.getresponse()
        data = response.read()
        self.send_head(response, data)
        return data

    def send_head(self, response, data):
        """The status and headers of an upstream answer whose body is `data`."""
        self.send_response(response.status)
        for k, v in response.getheaders():
            if k.lower() not in ("content-length", "connection", "transfer-encoding", "date", "server"):
                self.send_header(k, v)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()

    def change_upstream(self, put):
        """Another writer: puts the item `put` names, one attribute changed, straight to the
        upstream (signed with --change-key-id and --change-secret, in the region the client
        signed for), so that the transaction about to be forwarded fails its condition."""
        from botocore.auth import SigV4Auth
        from botocore.awsrequest import AWSRequest
        from botocore.credentials import Credentials
        item = dict(put["Item"])
        item["changedBy"] = {"S": "another writer"}
        body = json.dumps({"TableName": put["TableName"], "Item": item}).encode()
        region = self.headers.get("Authorization", "").split("Credential=")[-1].split("/")[2]
        request = AWSRequest(method="POST", url=args.upstream, data=body, headers={
            "Content-Type": "application/x-amz-json-1.0", "X-Amz-Target": "DynamoDB_20120810.PutItem"})
        SigV4Auth(Credentials(args.change_key_id, args.change_secret), "dynamodb", region).add_auth(request)
        upstream = urlparse(args.upstream)
        connection = http.client.HTTPConnection(upstream.hostname, upstream.port, timeout=60)
        connection.request("POST", "/", body=body, headers=dict(request.headers.items()))
        answer = connection.getresponse()
        answer.read()
        connection.close()
        if answer.status != 200:
            raise RuntimeError("the other writer's PutItem failed: HTTP %d" % answer.status)

    def reset(self):
        self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        self.connection.close()
        self.close_connection = True

    def answer(self, status, payload, error_type=None):
        body = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/x-amz-json-1.0")
        if error_type:
            self.send_header("x-amzn-ErrorType", error_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def sink(self, operation, request):
        """--sink-writes: a write (its parsed body) answered as DynamoDB answers success, without
        storing it, so a benchmark measures the client rather than moto (which serializes every
        request)."""
        if operation == "BatchWriteItem":
            tables = [name for name, writes in request.get("RequestItems", {}).items() for _ in writes]
        elif operation == "TransactWriteItems":
            tables = [next(iter(action.values())).get("TableName") for action in request.get("TransactItems", [])]
        else:
            tables = [request.get("TableName")]
        with lock:
            for table in tables:
                stats["sunkItems"][table] = stats["sunkItems"].get(table, 0) + 1
        self.answer(200, {"UnprocessedItems": {}} if operation == "BatchWriteItem" else {})

    def html_error(self):
        body = HTML_500.encode()
        self.send_response(500)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        operation = self.headers.get("X-Amz-Target", "").split(".")[-1]
        fault = draw(operation)
        if fault == "throttle":
            return self.answer(400, {"__type": "com.amazonaws.dynamodb.v20120810#ThrottlingException",
                                     "message": "Rate of requests exceeds the allowed throughput (injected)"})
        if fault == "serverError":
            status = rng.choice([500, 503])
            return self.answer(status, {"__type": "com.amazonaws.dynamodb.v20120810#InternalServerError",
                                        "message": "injected %d" % status})
        if fault == "reset":
            return self.reset()
        if fault == "htmlError":
            return self.html_error()
        request = json.loads(body or b"{}") if operation in WRITE_OPS else None
        if operation == "TransactWriteItems":
            with lock:
                stats["transactions"] += 1
        if operation in WRITE_OPS and not admit_write(operation, request):
            return self.answer(400, {"__type": "com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException",
                                     "message": "The level of configured provisioned throughput for the table was exceeded (--wcu-limit)"})
        if args.latency > 0:
            time.sleep(args.latency)
        if args.sink_writes and operation in WRITE_OPS:
            return self.sink(operation, request)
        if args.refuse_item and operation == "TransactWriteItems":
            actions = request.get("TransactItems", [])
            refused = [args.refuse_item in json.dumps(action) for action in actions]
            if any(refused):
                with lock:
                    stats["refusedTransactions"] += 1
                reasons = [{"Code": "ValidationError", "Message": "refused by the proxy (--refuse-item)"} if r
                           else {"Code": "None"} for r in refused]
                return self.answer(400, {"__type": "com.amazonaws.dynamodb.v20120810#TransactionCanceledException",
                                         "Message": "Transaction cancelled, please refer cancellation reasons for specific reasons",
                                         "CancellationReasons": reasons})
        if args.change_first and operation == "TransactWriteItems" and not stats["changedItems"]:
            puts = [a["Put"] for a in request.get("TransactItems", []) if "Put" in a]
            changed = next((p for p in puts if args.change_first in json.dumps(p)), None)
            if changed is not None:
                with lock:
                    stats["changedItems"] += 1
                self.change_upstream(changed)
        if args.refuse_item and operation == "BatchWriteItem":
            writes = [w for ws in request.get("RequestItems", {}).values() for w in ws]
            if any(args.refuse_item in json.dumps(w) for w in writes):
                with lock:
                    stats["refusedBatches"] += 1
                return self.answer(400, {"__type": "com.amazonaws.dynamodb.v20120810#ValidationException",
                                         "message": "One or more parameter values were invalid: refused by the proxy (--refuse-item)"})
        if args.sink_writes and operation == "BatchGetItem":
            # Nothing written reached the server, so nothing is found.
            tables = json.loads(body or b"{}").get("RequestItems", {})
            return self.answer(200, {"Responses": {table: [] for table in tables}, "UnprocessedKeys": {}})
        upstream = urlparse(args.upstream)
        connection = getattr(self, "upstream", None)
        if connection is None:
            connection = self.upstream = http.client.HTTPConnection(upstream.hostname, upstream.port, timeout=60)
        headers = {k: v for k, v in self.headers.items() if k.lower() not in ("connection", "keep-alive")}
        connection.request("POST", self.path, body=body, headers=headers)
        response = connection.getresponse()
        data = response.read()
        if response.status == 200:
            record_consumed(operation, data)
        if fault == "swallow":
            return self.reset()
        self.send_head(response, data)
        self.wfile.write(data)


def main():
    global args
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--upstream", required=True)
    parser.add_argument("--throttle", type=float, default=0)
    parser.add_argument("--server-error", type=float, default=0)
    parser.add_argument("--reset", type=float, default=0)
    parser.add_argument("--swallow", type=float, default=0)
    parser.add_argument("--html-error", type=float, default=0)
    parser.add_argument("--cut", type=float, default=0)
    parser.add_argument("--latency", type=float, default=0)
    parser.add_argument("--deny-part", type=int, default=0)
    parser.add_argument("--sink-writes", action="store_true")
    parser.add_argument("--wcu-limit", type=float, default=0)
    parser.add_argument("--refuse-item", default="")
    parser.add_argument("--change-first", default="")
    parser.add_argument("--change-key-id", default="")
    parser.add_argument("--change-secret", default="")
    parser.add_argument("--ops", default="")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    args.ops = set(filter(None, args.ops.split(",")))
    rng.seed(args.seed)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    server.daemon_threads = True
    print("listening", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
