#!/usr/bin/env python3
"""A small HTTP(S) server for the remote-trace tests: serves the files of a directory with ETag,
HEAD and Range requests, and can misbehave on purpose. Prints its port on the first line of stdout.

  http_test_server.py ROOT [--tls CERT KEY] [--drop-after N]

--drop-after N: the first GET of each file (without a Range header) sends N bytes of the body and
then closes the connection, so the client must resume with a range request.
GET /_stats answers JSON {path: [number of HEAD, number of GET]} for the tests to count requests.
Paths under /_auth/ need the header `Authorization: Bearer secret-token` (401 otherwise).
"""
import hashlib, json, os, ssl, sys, threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

ROOT = sys.argv[1]
ARGS = sys.argv[2:]
DROP_AFTER = int(ARGS[ARGS.index("--drop-after") + 1]) if "--drop-after" in ARGS else 0
STATS, DROPPED, LOCK = {}, set(), threading.Lock()


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def count(self, method):
        with LOCK:
            entry = STATS.setdefault(self.path.split("?")[0], [0, 0])
            entry[0 if method == "HEAD" else 1] += 1

    def target(self):
        path = self.path.split("?")[0]
        if path.startswith("/_auth/"):
            if self.headers.get("Authorization") != "Bearer secret-token":
                self.send_error(401)
                return None
            path = path[len("/_auth"):]
        full = os.path.realpath(os.path.join(ROOT, path.lstrip("/")))
        if not full.startswith(os.path.realpath(ROOT)) or not os.path.isfile(full):
            self.send_response(404)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return None
        return full

    def etag(self, full):
        st = os.stat(full)
        return '"%s"' % hashlib.md5(("%s:%d:%d" % (full, st.st_size, st.st_mtime_ns)).encode()).hexdigest()

    def do_HEAD(self):
        self.count("HEAD")
        full = self.target()
        if full:
            self.send_response(200)
            self.send_header("Content-Length", str(os.path.getsize(full)))
            self.send_header("ETag", self.etag(full))
            self.send_header("Accept-Ranges", "bytes")
            self.end_headers()

    def do_GET(self):
        if self.path == "/_stats":
            body = json.dumps(STATS).encode()
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        self.count("GET")
        full = self.target()
        if not full:
            return
        size, tag = os.path.getsize(full), self.etag(full)
        start, rng = 0, self.headers.get("Range")
        if rng and rng.startswith("bytes=") and self.headers.get("If-Range") in (None, tag):
            start = int(rng[6:].split("-")[0])
        with open(full, "rb") as f:
            f.seek(start)
            data = f.read()
        self.send_response(206 if start else 200)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("ETag", tag)
        if start:
            self.send_header("Content-Range", "bytes %d-%d/%d" % (start, size - 1, size))
        self.end_headers()
        drop = DROP_AFTER and not rng and full not in DROPPED
        if drop:
            DROPPED.add(full)
            self.wfile.write(data[:DROP_AFTER])
            self.wfile.flush()
            self.close_connection = True
            self.connection.shutdown(2)
            return
        self.wfile.write(data)


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
if "--tls" in ARGS:
    i = ARGS.index("--tls")
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(ARGS[i + 1], ARGS[i + 2])
    server.socket = context.wrap_socket(server.socket, server_side=True)
print(server.server_address[1], flush=True)
server.serve_forever()
