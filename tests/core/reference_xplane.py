#!/usr/bin/env python3
"""Independent reference for the XSpace (xplane.pb) importer (issue #17).

Decodes the protobuf wire format by hand (no protobuf library, no Warpscope code) with the field
numbers of XLA's xplane.proto, and prints as JSON what the kernel table grouped by name must show:
per kernel name (event metadata name, ".kd" dropped) the calls and total ns of the events on the
"Stream ..." lines of the "/device:GPU:N" planes, and the kernel count per GPU. Times: an event's
duration_ps // 1000.

    python3 reference_xplane.py FILE.xplane.pb
"""
import json
import sys


def varint(b, i):
    r = s = 0
    while True:
        c = b[i]
        i += 1
        r |= (c & 0x7F) << s
        s += 7
        if c < 0x80:
            return r, i


def fields(b):
    i, out = 0, []
    while i < len(b):
        key, i = varint(b, i)
        f, w = key >> 3, key & 7
        if w == 0:
            v, i = varint(b, i)
        elif w == 1:
            v, i = b[i:i + 8], i + 8
        elif w == 2:
            n, i = varint(b, i)
            v, i = b[i:i + n], i + n
        elif w == 5:
            v, i = b[i:i + 4], i + 4
        else:
            raise ValueError("wire type %d" % w)
        out.append((f, v))
    return out


def first(fs, number, default=None):
    return next((v for f, v in fs if f == number), default)


def main():
    data = open(sys.argv[1], "rb").read()
    kernels, per_gpu = {}, {}
    for f, plane in fields(data):
        if f != 1:
            continue
        pf = fields(plane)
        name = first(pf, 2, b"").decode()
        if not name.startswith("/device:GPU:"):
            continue
        gpu = int(name.split(":")[-1])
        names = {}
        for f2, entry in pf:
            if f2 == 4:
                ef = fields(entry)
                meta = fields(first(ef, 2, b""))
                names[first(ef, 1, 0)] = (first(meta, 4) or first(meta, 2, b"")).decode()
        for f2, line in pf:
            if f2 != 3:
                continue
            lf = fields(line)
            if not first(lf, 2, b"").decode().startswith("Stream"):
                continue
            for f3, ev in lf:
                if f3 != 4:
                    continue
                ef = fields(ev)
                if first(ef, 2) is None:  # aggregated events have no offset
                    continue
                kname = names.get(first(ef, 1, 0), "event %d" % first(ef, 1, 0))
                if kname.endswith(".kd"):
                    kname = kname[:-3]
                r = kernels.setdefault(kname, {"calls": 0, "total_ns": 0})
                r["calls"] += 1
                r["total_ns"] += first(ef, 3, 0) // 1000
                per_gpu[gpu] = per_gpu.get(gpu, 0) + 1
    json.dump({"kernels": kernels, "per_gpu": {str(k): v for k, v in sorted(per_gpu.items())}}, sys.stdout, indent=1)


if __name__ == "__main__":
    main()
