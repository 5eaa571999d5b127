#!/usr/bin/env python3
"""Creates a container and uploads blobs to an Azure Blob endpoint (Azurite in the tests), signing
with Shared Key: a second, independent implementation of the signature Warpscope computes.

  azure_put.py ENDPOINT ACCOUNT KEY CONTAINER [BLOB=FILE ...]
"""
import base64, datetime, hashlib, hmac, sys, urllib.parse, urllib.request

endpoint, account, key, container = sys.argv[1:5]


def request(method, path, query, body=b"", extra=None):
    date = datetime.datetime.now(datetime.timezone.utc).strftime("%a, %d %b %Y %H:%M:%S GMT")
    headers = {"x-ms-date": date, "x-ms-version": "2021-08-06"}
    headers.update(extra or {})
    ms = "".join("%s:%s\n" % (k, headers[k]) for k in sorted(headers) if k.startswith("x-ms-"))
    resource = "/" + account + urllib.parse.urlparse(endpoint).path + path
    for name in sorted(query):
        resource += "\n%s:%s" % (name.lower(), query[name])
    length = str(len(body)) if body else ""
    ctype = "application/octet-stream" if body else ""
    to_sign = "\n".join([method, "", "", length, "", ctype, "", "", "", "", "", ""]) + "\n" + ms + resource
    sig = base64.b64encode(hmac.new(base64.b64decode(key), to_sign.encode(), hashlib.sha256).digest()).decode()
    headers["Authorization"] = "SharedKey %s:%s" % (account, sig)
    url = endpoint + path + ("?" + urllib.parse.urlencode(query) if query else "")
    req = urllib.request.Request(url, data=body or None, method=method, headers=headers)
    if body:
        req.add_header("Content-Length", length)
        req.add_header("Content-Type", ctype)
    with urllib.request.urlopen(req) as r:
        return r.status


request("PUT", "/" + container, {"restype": "container"})
for spec in sys.argv[5:]:
    blob, path = spec.split("=", 1)
    with open(path, "rb") as f:
        data = f.read()
    request("PUT", "/" + container + "/" + urllib.parse.quote(blob), {}, data, {"x-ms-blob-type": "BlockBlob"})
