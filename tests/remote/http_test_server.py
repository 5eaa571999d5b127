#!/usr/bin/env python3
"""A small HTTP(S) server for the remote-trace tests: serves the files of a directory with ETag,
HEAD and Range requests, and can misbehave on purpose. Prints its port on the first line of stdout.

  http_test_server.py ROOT [--tls CERT KEY] [--drop-after N] [--pause-at N] [--token-key PUBLIC.pem]

--drop-after N: the first GET of each file (without a Range header) sends N bytes of the body and
then closes the connection, so the client must resume with a range request.
--pause-at N: GETs send N bytes of the body, then wait until GET /_release before the rest, so a
test can see what the client did with a download that is under way.
--token-key PUBLIC.pem: POST /token is an OAuth2 token endpoint for the JWT bearer grant (RFC 7523)
as Google's is: the assertion's RS256 signature is checked with `openssl dgst -verify` against the
public key, and its claims (iss, scope, aud = this endpoint, iat/exp within an hour); a good one
gets {"access_token": "secret-token"}, anything else 400 with an OAuth2 error document. The
assertions received are in GET /_stats under "assertions".
GET /_stats answers JSON {path: [number of HEAD, number of GET]} for the tests to count requests.
Paths under /_auth/ need the header `Authorization: Bearer secret-token` (401 otherwise).
"""
import base64, hashlib, json, os, ssl, subprocess, sys, tempfile, threading, time, urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

ROOT = sys.argv[1]
ARGS = sys.argv[2:]
DROP_AFTER = int(ARGS[ARGS.index("--drop-after") + 1]) if "--drop-after" in ARGS else 0
PAUSE_AT = int(ARGS[ARGS.index("--pause-at") + 1]) if "--pause-at" in ARGS else 0
TOKEN_KEY = ARGS[ARGS.index("--token-key") + 1] if "--token-key" in ARGS else None
STATS, DROPPED, LOCK = {}, set(), threading.Lock()
RELEASED = threading.Event()
ASSERTIONS = []


def b64url_decode(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def check_assertion(assertion, audience):
    """Why the JWT is not acceptable, or None."""
    parts = assertion.split(".")
    if len(parts) != 3:
        return "not a JWT"
    header, claims = json.loads(b64url_decode(parts[0])), json.loads(b64url_decode(parts[1]))
    if header.get("alg") != "RS256" or header.get("typ") != "JWT":
        return "header %r" % header
    with tempfile.TemporaryDirectory() as d:
        with open(os.path.join(d, "data"), "wb") as f:
            f.write((parts[0] + "." + parts[1]).encode())
        with open(os.path.join(d, "sig"), "wb") as f:
            f.write(b64url_decode(parts[2]))
        ok = subprocess.run(["openssl", "dgst", "-sha256", "-verify", TOKEN_KEY, "-signature",
                             os.path.join(d, "sig"), os.path.join(d, "data")], capture_output=True).returncode == 0
    if not ok:
        return "bad signature"
    now = time.time()
    if claims.get("aud") != audience:
        return "aud %r, expected %r" % (claims.get("aud"), audience)
    if claims.get("scope") != "https://www.googleapis.com/auth/devstorage.read_only":
        return "scope %r" % claims.get("scope")
    if "@" not in claims.get("iss", ""):
        return "iss %r" % claims.get("iss")
    if not (abs(claims.get("iat", 0) - now) < 300 and 0 < claims.get("exp", 0) - claims["iat"] <= 3600):
        return "iat/exp %r/%r" % (claims.get("iat"), claims.get("exp"))
    return None


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

    def reply(self, status, body, content_type="application/json"):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0"))).decode()
        if self.path != "/token" or not TOKEN_KEY:
            return self.reply(404, b"{}")
        form = urllib.parse.parse_qs(body)
        assertion = form.get("assertion", [""])[0]
        with LOCK:
            ASSERTIONS.append(assertion)
        why = "grant_type %r" % form.get("grant_type")
        if form.get("grant_type") == ["urn:ietf:params:oauth:grant-type:jwt-bearer"]:
            why = check_assertion(assertion, "http://127.0.0.1:%d/token" % self.server.server_address[1])
        if why:
            return self.reply(400, json.dumps({"error": "invalid_grant", "error_description": why}).encode())
        self.reply(200, json.dumps({"access_token": "secret-token", "expires_in": 3599, "token_type": "Bearer"}).encode())

    def do_GET(self):
        if self.path == "/_release":
            RELEASED.set()
            return self.reply(200, b"{}")
        if self.path == "/_stats":
            with LOCK:
                return self.reply(200, json.dumps(dict(STATS, assertions=ASSERTIONS)).encode())
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
        if PAUSE_AT and len(data) > PAUSE_AT:
            self.wfile.write(data[:PAUSE_AT])
            self.wfile.flush()
            RELEASED.wait()
            data = data[PAUSE_AT:]
        self.wfile.write(data)


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
if "--tls" in ARGS:
    i = ARGS.index("--tls")
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(ARGS[i + 1], ARGS[i + 2])
    server.socket = context.wrap_socket(server.socket, server_side=True)
print(server.server_address[1], flush=True)
server.serve_forever()
