#!/usr/bin/env python3
"""Writes a large synthetic PyTorch memory snapshot (torch.cuda.memory._dump_snapshot's structure:
segments with blocks, device_traces, allocator_settings) as a protocol 4 pickle, for timing the
snapshot import (issue #28): `warpscope-cli bench-import OUT`.

The pickle is written opcode by opcode as Python's pickler writes it (every str, dict and list
memoized, MARK ... SETITEMS / APPENDS in batches of 1000, repeated objects as BINGET/LONG_BINGET),
because pickle.dump would need the whole object graph in memory (many GB for 1 GB of pickle).
--check writes a small file and verifies that Python's own pickle.load reads it back as the same
dict the generator meant (the structure is pickle's, opcode for opcode).

The workload is calibrated on tests/data/memory_snapshots: stacks="all" (C++ and Python frames,
oom.pickle, ~450 bytes per trace entry) by default, or --stacks python (train.pickle, ~100 bytes
per entry). Each allocation has its own frame list (PyTorch gathers a traceback per allocation;
its free entries and its block reference that list again), over shared frame dicts. Allocations come and go with a working set of up to --live allocations; each has a
traceback from a pool that grows (2 % of allocations get a new one, up to 20 000 tracebacks over
30 000 distinct frames, as a program has a bounded set of code paths) and shares frames, as PyTorch
shares one frame list per traceback. Segments are bump-allocated 2 MiB (small) or 20 MiB+ (large)
blocks of a simple caching allocator; the final segments hold the live blocks.

    gen_memory_snapshot.py OUT [--size 1G] [--stacks all|python] [--live N] [--seed N]
    gen_memory_snapshot.py --check
"""
import argparse
import os
import pickle
import random
import struct
import sys
import tempfile

BATCH = 1000
MAX_TRACEBACKS = 20000
MAX_FRAMES = 30000


class Emitter:
    """Protocol 4 opcodes into a buffered file, with pickle's memo."""

    def __init__(self, f):
        self.f = f
        self.buf = []
        self.size = 0
        self.memo = {}
        self.next = 0

    def w(self, b):
        self.buf.append(b)
        if len(self.buf) > 4096:
            self.flush()

    def flush(self):
        data = b"".join(self.buf)
        self.f.write(data)
        self.size += len(data)
        self.buf = []

    def memoize(self, key):
        self.w(b"\x94")
        if key is not None:
            self.memo[key] = self.next
        self.next += 1

    def get(self, key):
        i = self.memo.get(key)
        if i is None:
            return False
        self.w(b"h" + bytes([i]) if i < 256 else b"j" + struct.pack("<I", i))
        return True

    def str(self, s):
        if self.get(("s", s)):
            return
        b = s.encode("utf-8")
        self.w((b"\x8c" + bytes([len(b)]) if len(b) < 256 else b"X" + struct.pack("<I", len(b))) + b)
        self.memoize(("s", s))

    def int(self, v):
        if 0 <= v < 256:
            self.w(b"K" + bytes([v]))
        elif 0 <= v < 65536:
            self.w(b"M" + struct.pack("<H", v))
        elif -(2 ** 31) <= v < 2 ** 31:
            self.w(b"J" + struct.pack("<i", v))
        else:
            n = (v.bit_length() + 8) // 8
            self.w(b"\x8a" + bytes([n]) + v.to_bytes(n, "little", signed=True))

    def value(self, v):
        if isinstance(v, bool):
            self.w(b"\x88" if v else b"\x89")
        elif isinstance(v, int):
            self.int(v)
        elif isinstance(v, float):
            self.w(b"G" + struct.pack(">d", v))
        elif isinstance(v, str):
            self.str(v)
        elif v is None:
            self.w(b"N")
        elif isinstance(v, dict):
            self.dict(v.items())
        elif isinstance(v, tuple):
            for x in v:
                self.value(x)
            self.w({1: b"\x85", 2: b"\x86", 3: b"\x87"}[len(v)])
            self.memoize(None)
        elif isinstance(v, list):
            self.list_start()
            self.items(v, self.value)
        elif isinstance(v, Shared):
            if not self.get(v.key):
                v.write(self)
        else:
            raise TypeError(type(v))

    def dict(self, items, key=None):
        items = list(items)
        self.w(b"}")
        self.memoize(key)
        if len(items) == 1:
            self.value(items[0][0])
            self.value(items[0][1])
            self.w(b"s")
        elif items:
            for i in range(0, len(items), BATCH):
                self.w(b"(")
                for k, v in items[i:i + BATCH]:
                    self.value(k)
                    self.value(v)
                self.w(b"u")

    def list_start(self, key=None):
        self.w(b"]")
        self.memoize(key)

    def items(self, iterable, write):
        """APPENDS in batches of 1000 (APPEND for a batch of one), from any iterable."""
        batch = []

        def emit():
            if len(batch) == 1:
                write(batch[0])
                self.w(b"a")
            elif batch:
                self.w(b"(")
                for x in batch:
                    write(x)
                self.w(b"e")

        for x in iterable:
            batch.append(x)
            if len(batch) == BATCH:
                emit()
                batch = []
        emit()


class Shared:
    """An object pickled once and referenced by memo afterwards (frame dicts, frame lists)."""

    def __init__(self, key, write):
        self.key = key
        self.write = write


class Workload:
    """The allocations, tracebacks and segments; the same seed gives the same run twice."""

    def __init__(self, seed, stacks, live):
        self.rng = random.Random(seed)
        self.stacks_mode = stacks
        self.live_max = live
        self.frames = []  # (name, filename, line)
        self.tracebacks = []  # lists of frame indices
        self.time = 1_795_685_000_000_000
        self.live = {}  # addr -> (size, stack)
        self.live_list = []
        self.owner = {}  # addr -> segment
        self.next_uid = 0
        self.segments = {}  # addr -> [size, bump offset, live count, is_large]
        self.open_small = None
        self.open_large = None
        self.next_seg = 0x7F00_0000_0000

    def frame(self):
        r = self.rng
        if self.stacks_mode == "all" and r.random() < 0.75:
            ns = r.choice(["at::native", "at::_ops", "c10::impl", "torch::autograd::VariableType", "at::cuda"])
            args = ", ".join(r.choice(["at::Tensor const&", "c10::ArrayRef<c10::SymInt>", "c10::SymInt", "bool",
                                       "std::optional<at::Tensor> const&", "long"]) for _ in range(r.randint(2, 14)))
            name = f"{ns}::op_{len(self.frames)}::call({args})"
            return (name, r.choice(["??", "RegisterCUDA_0.cpp", "VariableType_0.cpp", ""]), 0)
        mod = r.choice(["torch/nn/modules/module.py", "torch/nn/modules/conv.py", "model/layers.py", "train.py",
                        "torch/optim/adamw.py", "model/attention.py"])
        return (f"fn_{len(self.frames)}", "/opt/venv/lib/python3.12/site-packages/" + mod
                if mod.startswith("torch") else "/home/user/project/" + mod, r.randint(1, 2000))

    def traceback(self):
        r = self.rng
        # A program has a bounded number of code paths: new tracebacks (2 % of allocations) stop at
        # MAX_TRACEBACKS, new frames at MAX_FRAMES; after that the run reuses what it has.
        if not self.tracebacks or (len(self.tracebacks) < MAX_TRACEBACKS and r.random() < 0.02):
            depth = r.randint(30, 60) if self.stacks_mode == "all" else r.randint(6, 16)
            tb = []
            for _ in range(depth):
                if self.frames and (len(self.frames) >= MAX_FRAMES or r.random() < 0.85):
                    tb.append(r.randrange(len(self.frames)))
                else:
                    self.frames.append(self.frame())
                    tb.append(len(self.frames) - 1)
            self.tracebacks.append(tb)
            return len(self.tracebacks) - 1
        return r.randrange(len(self.tracebacks))

    def place(self, size):
        """An address for a block of `size` bytes, and the segment_alloc it needed, if any."""
        large = size > 1 << 20
        rounded = (size + 511) // 512 * 512
        seg = self.open_large if large else self.open_small
        event = None
        if seg is None or self.segments[seg][1] + rounded > self.segments[seg][0]:
            seg_size = max(20 << 20, (rounded + (2 << 20) - 1) // (2 << 20) * (2 << 20)) if large else 2 << 20
            seg = self.next_seg
            self.next_seg += seg_size + (2 << 20)
            self.segments[seg] = [seg_size, 0, 0, large]
            event = ("segment_alloc", seg, seg_size, self.time, None)
            old = self.open_large if large else self.open_small
            if large:
                self.open_large = seg
            else:
                self.open_small = seg
            if old is not None and self.segments[old][2] == 0:  # the allocator releases a segment left empty
                event = [("segment_free", old, self.segments.pop(old)[0], self.time, None), event]
        addr = seg + self.segments[seg][1]
        self.segments[seg][1] += rounded
        self.segments[seg][2] += 1
        self.owner[addr] = seg
        return addr, event if isinstance(event, list) else [event] if event else []

    def run(self, allocations):
        """Yields trace entries as (action, addr, size, time_us, stack or None)."""
        r = self.rng
        for _ in range(allocations):
            self.time += r.randint(1, 40)
            if self.live_list and (len(self.live_list) >= self.live_max or r.random() < 0.49):
                i = r.randrange(len(self.live_list))
                addr = self.live_list[i]
                self.live_list[i] = self.live_list[-1]
                self.live_list.pop()
                size, stack = self.live.pop(addr)
                yield ("free_requested", addr, size, self.time, stack)
                self.time += r.randint(0, 3)
                yield ("free_completed", addr, size, self.time, stack)
                seg = self.owner.pop(addr)
                self.segments[seg][2] -= 1
                if self.segments[seg][2] == 0 and seg not in (self.open_small, self.open_large):
                    yield ("segment_free", seg, self.segments.pop(seg)[0], self.time, None)
                continue
            size = r.choice([4, 512, 4096, 65536, 262144, 1 << 20, 4 << 20, 16 << 20]) * r.randint(1, 4)
            # PyTorch gathers a traceback per allocation: its own frame list (frames shared), which
            # the allocation's free entries and its block reference again.
            stack = (self.traceback(), self.next_uid)
            self.next_uid += 1
            addr, events = self.place(size)
            yield from events
            self.live[addr] = (size, stack)
            self.live_list.append(addr)
            yield ("alloc", addr, size, self.time, stack)


def write_snapshot(path, allocations, seed, stacks, live):
    # Pass 1: the end state (segments and their live blocks), which the file holds first.
    end = Workload(seed, stacks, live)
    for _ in end.run(allocations):
        pass
    with open(path, "wb") as f:
        p = Emitter(f)
        p.w(b"\x80\x04")
        p.w(b"}")
        p.memoize(None)
        p.w(b"(")
        frames_of = {}

        def frame_obj(i):
            name, filename, line = end.frames[i]
            return Shared(("f", i), lambda e: e.dict([("name", name), ("filename", filename), ("line", line)], key=("f", i)))

        def frames(stack):
            if stack is None:
                return []
            uid = stack[1]
            if uid not in frames_of:
                tb = end.tracebacks[stack[0]]

                def write(e, tb=tb, uid=uid):
                    e.list_start(key=("tb", uid))
                    e.items([frame_obj(i) for i in tb], e.value)

                frames_of[uid] = Shared(("tb", uid), write)
            return frames_of[uid]

        # segments
        p.str("segments")
        p.list_start()
        blocks_by_seg = {}
        for addr, (size, stack) in end.live.items():
            blocks_by_seg.setdefault(end.owner[addr], []).append((addr, size, stack))

        def segment(seg):
            seg_size, used, _, large = end.segments[seg]
            blocks = []
            allocated = 0
            for addr, size, stack in sorted(blocks_by_seg.get(seg, [])):
                rounded = (size + 511) // 512 * 512
                blocks.append({"address": addr, "size": rounded, "requested_size": size, "state": "active_allocated",
                               "frames": frames(stack)})
                allocated += rounded
            if seg_size > allocated:
                blocks.append({"address": seg + used, "size": seg_size - allocated, "requested_size": 0,
                               "state": "inactive", "frames": []})
            p.dict([("device", 0), ("address", seg), ("total_size", seg_size), ("allocated_size", allocated),
                    ("active_size", allocated), ("requested_size", sum(b["requested_size"] for b in blocks)),
                    ("stream", 0), ("segment_type", "large" if large else "small"), ("segment_pool_id", (0, 0)),
                    ("is_expandable", False), ("blocks", blocks), ("frames", [])])

        p.items(sorted(end.segments), segment)
        # device_traces: pass 2 replays the same run
        p.str("device_traces")
        p.list_start()
        p.w(b"(")
        p.list_start()

        def entry(e):
            action, addr, size, t, stack = e
            p.dict([("action", action), ("addr", addr), ("size", size), ("stream", 0), ("time_us", t),
                    ("compile_context", "N/A"), ("user_metadata", ""), ("frames", frames(stack))])
            if action == "free_completed" and stack[1] not in live_at_end:  # never referenced again
                frames_of.pop(stack[1], None)
                p.memo.pop(("tb", stack[1]), None)

        live_at_end = {stack[1] for _, stack in end.live.values()}
        p.items(Workload(seed, stacks, live).run(allocations), entry)
        p.w(b"e")
        p.str("allocator_settings")
        p.dict([("PYTORCH_CUDA_ALLOC_CONF", ""), ("max_split_size", -1), ("expandable_segments", False)])
        p.str("external_annotations")
        p.list_start()
        p.w(b"u.")
        p.flush()
        return p.size


def expected(allocations, seed, stacks, live):
    """The dict the file must unpickle to, built the plain way (small sizes only)."""
    end = Workload(seed, stacks, live)
    trace = list(end.run(allocations))

    def frames(stack):
        return [] if stack is None else [{"name": n, "filename": f, "line": l}
                                         for n, f, l in (end.frames[i] for i in end.tracebacks[stack[0]])]

    segs = []
    for seg in sorted(end.segments):
        seg_size, used, _, large = end.segments[seg]
        blocks, allocated = [], 0
        for addr, (size, stack) in sorted(end.live.items()):
            if end.owner[addr] == seg:
                rounded = (size + 511) // 512 * 512
                blocks.append({"address": addr, "size": rounded, "requested_size": size, "state": "active_allocated",
                               "frames": frames(stack)})
                allocated += rounded
        if seg_size > allocated:
            blocks.append({"address": seg + used, "size": seg_size - allocated, "requested_size": 0,
                           "state": "inactive", "frames": []})
        segs.append({"device": 0, "address": seg, "total_size": seg_size, "allocated_size": allocated,
                     "active_size": allocated, "requested_size": sum(b["requested_size"] for b in blocks), "stream": 0,
                     "segment_type": "large" if large else "small", "segment_pool_id": (0, 0),
                     "is_expandable": False, "blocks": blocks, "frames": []})
    return {"segments": segs,
            "device_traces": [[{"action": a, "addr": ad, "size": s, "stream": 0, "time_us": t,
                                "compile_context": "N/A", "user_metadata": "", "frames": frames(st)}
                               for a, ad, s, t, st in trace]],
            "allocator_settings": {"PYTORCH_CUDA_ALLOC_CONF": "", "max_split_size": -1, "expandable_segments": False},
            "external_annotations": []}


def parse_size(text):
    units = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
    return int(float(text[:-1]) * units[text[-1].upper()]) if text[-1].upper() in units else int(text)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out", nargs="?")
    ap.add_argument("--size", default="1G")
    ap.add_argument("--stacks", choices=["all", "python"], default="all")
    ap.add_argument("--live", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=28)
    ap.add_argument("--check", action="store_true")
    a = ap.parse_args()
    if a.check:
        with tempfile.TemporaryDirectory() as tmp:
            for stacks in ("all", "python"):
                path = os.path.join(tmp, "s.pickle")
                write_snapshot(path, 3000, 5, stacks, 400)
                with open(path, "rb") as f:
                    got = pickle.load(f)
                if got != expected(3000, 5, stacks, 400):
                    sys.exit(f"gen_memory_snapshot: the {stacks} file does not unpickle to the intended dict")
        print("gen_memory_snapshot: pickle.load reads the generated files back as intended")
        return
    if not a.out:
        ap.error("OUT is required")
    target = parse_size(a.size)
    # Bytes per allocation from a small run, then the count for the size asked.
    probe = a.out + ".probe"
    per = write_snapshot(probe, 20000, a.seed, a.stacks, a.live) / 20000
    os.remove(probe)
    n = max(1000, int(target / per))
    size = write_snapshot(a.out, n, a.seed, a.stacks, a.live)
    print(f"{a.out}: {size} bytes, {n} allocation steps, stacks={a.stacks}")


if __name__ == "__main__":
    main()
