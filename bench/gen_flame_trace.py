#!/usr/bin/env python3
"""A Kineto-style trace of N python_function slices for the flame graph bench (issue #27).

    gen_flame_trace.py OUT.json [--slices 1000000] [--threads 4] [--paths 5000] [--seed 1]

Like a training loop: each thread runs one fixed program, a random call tree of about --paths
distinct stacks (functions from a pool of 400 in 60 files, depth up to 30), once per iteration,
until it has written its share of the slices. Every call is a python_function slice
`file.py(line): function` with its own random duration, so the graph has about --paths nodes per
thread and --slices samples. --paths 1000000 --threads 1 makes every slice a distinct stack: the
bottom-up worst case (1 M top-down nodes invert to ~15 M), read with
`warpscope-cli flame OUT.json --weight cpu --bench` and `warpscope --bench-flame OUT.json`.
"""
import argparse
import json
import random


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--slices", type=int, default=1_000_000)
    ap.add_argument("--threads", type=int, default=4)
    ap.add_argument("--paths", type=int, default=5000)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    functions = [("pkg/mod%d.py" % (i % 60), 10 + (i * 7) % 900, "fn_%d" % i) for i in range(400)]
    # The program: children lists of a random tree grown breadth-first to --paths nodes.
    tree = {0: []}
    depth = {0: 0}
    func = {0: rng.randrange(400)}
    frontier = [0]
    while len(tree) < a.paths and frontier:
        parent = frontier.pop(0)
        for _ in range(rng.randint(1, 4)):
            if len(tree) >= a.paths or depth[parent] >= 30:
                break
            node = len(tree)
            tree[node], depth[node], func[node] = [], depth[parent] + 1, rng.randrange(400)
            tree[parent].append(node)
            frontier.append(node)
    per_thread = a.slices // a.threads
    with open(a.out, "w") as f:
        f.write('{"schemaVersion": 1, "traceEvents": [\n')
        first = True
        for tid in range(1, a.threads + 1):
            count, t = 0, 0

            def run(node):
                nonlocal count, t, first
                start = t
                t += rng.randint(1, 20)
                for child in tree[node]:
                    if count < per_thread:
                        run(child)
                t += rng.randint(1, 20)
                count += 1
                file, line, name = functions[func[node]]
                f.write(("" if first else ",\n") + json.dumps(
                    {"ph": "X", "cat": "python_function", "name": "%s(%d): %s" % (file, line, name),
                     "pid": 1, "tid": tid, "ts": start, "dur": t - start}))
                first = False

            while count < per_thread:
                run(0)
                t += 5
        f.write("\n]}\n")


if __name__ == "__main__":
    main()
