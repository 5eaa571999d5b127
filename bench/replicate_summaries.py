#!/usr/bin/env python3
"""Makes the summaries of a large job from those of a small one, for `warpscope-cli dist --summaries
--bench` (issue #12: 1,024 rank summaries merged in <= 1 s).

    python3 bench/replicate_summaries.py SRC_DIR N OUT_DIR

SRC_DIR holds `warpscope-cli summary --json` outputs (*.json) of a few ranks; OUT_DIR receives N
files, rank i being a copy of source i mod len(SRC) renumbered to rank i (worker "worker<i>"), so
the job has N workers with real per-rank content.
"""
import json
import os
import sys


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    src, n, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    sources = sorted(os.path.join(src, f) for f in os.listdir(src) if f.endswith(".json"))
    if not sources:
        sys.exit("no *.json summaries in " + src)
    blocks = [json.load(open(p)) for p in sources]
    os.makedirs(out, exist_ok=True)
    for i in range(n):
        summary = blocks[i % len(blocks)]
        d = dict(summary["distributed"])
        d["rank"] = i
        d["world_size"] = n
        d["worker"] = "worker%d" % i
        summary = dict(summary, distributed=d)
        with open(os.path.join(out, "worker%05d.json" % i), "w") as f:
            json.dump(summary, f)
    print("wrote %d summaries to %s" % (n, out))


if __name__ == "__main__":
    main()
