#!/usr/bin/env python3
"""Writes a large XSpace (xplane.pb) for import benchmarks (issue #17): the real JAX profile of
tests/data/xplane with each plane's lines repeated, each copy later in time (a new timestamp_ns,
the same line id, so they continue the same rows), until the file has the asked size. The
protobuf wire is written by hand (no protobuf module needed).

    bench/gen_xplane.py OUT.xplane.pb --size 1G
"""
import os

from gen_rocprof_json import out_and_size  # OUT [--size 1G]

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.join(HERE, "..", "tests", "data", "xplane", "jax_0.8_conv_minimal_tw003.xplane.pb")


def varint(b, i):
    r = s = 0
    while True:
        c = b[i]
        i += 1
        r |= (c & 0x7F) << s
        s += 7
        if c < 0x80:
            return r, i


def enc(n):
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        out.append(b | (0x80 if n else 0))
        if not n:
            return bytes(out)


def fields(b):
    """(field number, wire type, value, raw bytes of the whole field)."""
    i, out = 0, []
    while i < len(b):
        start = i
        key, i = varint(b, i)
        w = key & 7
        if w == 0:
            v, i = varint(b, i)
        elif w == 2:
            n, i = varint(b, i)
            v, i = b[i:i + n], i + n
        elif w == 1:
            v, i = b[i:i + 8], i + 8
        else:
            v, i = b[i:i + 4], i + 4
        out.append((key >> 3, w, v, b[start:i]))
    return out


def main():
    out_path, target = out_and_size()
    space = fields(open(SOURCE, "rb").read())
    planes = [f for f in space if f[0] == 1]
    event_bytes = sum(len(l[3]) for p in planes for l in fields(p[2]) if l[0] == 3)
    copies = max(1, target // max(1, event_bytes))
    span_ns = 200_000_000  # the profile lasts 165 ms: copies 200 ms apart never overlap
    with open(out_path, "wb") as out:
        for f in space:
            if f[0] != 1:
                out.write(f[3])
                continue
            body = bytearray()
            lines = []
            for pf in fields(f[2]):
                if pf[0] == 3:
                    lines.append(fields(pf[2]))
                else:
                    body += pf[3]
            for k in range(copies):
                for lf in lines:
                    line = bytearray()
                    for field, w, v, raw in lf:
                        line += (b"\x18" + enc(v + k * span_ns)) if field == 3 else raw
                    body += b"\x1a" + enc(len(line)) + line
            out.write(b"\x0a" + enc(len(body)) + body)
    print("%s: %.1f MB, %d copies" % (out_path, os.path.getsize(out_path) / 1e6, copies))


if __name__ == "__main__":
    main()
