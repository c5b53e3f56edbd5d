#!/usr/bin/env python3
"""A server that answers every request with an error whose text echoes the request: its method,
path and query, and every header (Authorization and X-Amz-Security-Token among them), as a
misconfigured endpoint or proxy may. --style picks the body:
  json  400 {"__type": "...#AccessDeniedException", "message": "<request>"}  (DynamoDB's errors)
  xml   403 <Error><Code>AccessDenied</Code><Message><request></Message></Error>  (S3's errors)
  html  500 an HTML page with the request in a <pre>  (a load balancer's error page)
GET /__ping answers 200, for the test to know the server is up. Usage:
  echo_server.py --port P --style json
"""
import argparse, http.server, json
from xml.sax.saxutils import escape

args = None


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *_):
        pass

    def echo(self):
        lines = ["%s %s" % (self.command, self.path)]
        lines += ["%s: %s" % (name, value) for name, value in self.headers.items()]
        return "\n".join(lines)

    def answer(self):
        length = int(self.headers.get("Content-Length", "0") or "0")
        if length:
            self.rfile.read(length)
        if self.path == "/__ping":
            return self.send(200, "text/plain", "ok")
        text = self.echo()
        if args.style == "json":
            body = json.dumps({"__type": "com.amazonaws.dynamodb.v20120810#AccessDeniedException",
                               "message": "request refused: " + text})
            return self.send(400, "application/x-amz-json-1.0", body)
        if args.style == "xml":
            body = ("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Error><Code>AccessDenied</Code>"
                    "<Message>request refused: %s</Message><RequestId>echo</RequestId></Error>" % escape(text))
            return self.send(403, "application/xml", body)
        body = ("<!DOCTYPE html>\n<html><head><title>500 Internal Server Error</title></head>\n"
                "<body><h1>Internal Server Error</h1>\n<pre>%s</pre>\n</body></html>\n" % escape(text))
        return self.send(500, "text/html", body)

    def send(self, status, content_type, body):
        data = body.encode()
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    do_GET = do_POST = do_PUT = do_DELETE = answer


def main():
    global args
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--style", choices=["json", "xml", "html"], required=True)
    args = parser.parse_args()
    server = http.server.ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    server.daemon_threads = True
    server.serve_forever()


if __name__ == "__main__":
    main()
