#!/usr/bin/env python3
"""Independent reference for LineTotals (core/analysis/line_totals.h) over a Kineto JSON trace.

For every kernel: its launching runtime call (same `correlation`), the python_function events on
the runtime's thread that enclose it, the distinct (file, line) of their names `file(line): func`;
the kernel's duration is added to each. Allocations: [memory] records with Bytes > 0, the
python_function events on the record's thread enclosing its ts. Prints every line as JSON
(the golden file tests/data/golden/*_line_totals.json is this output).
Usage: reference_line_totals.py TRACE.json[.gz]
"""
import gzip, json, re, sys
from collections import defaultdict

path = sys.argv[1]
data = json.load(gzip.open(path) if path.endswith('.gz') else open(path))
events = data['traceEvents'] if isinstance(data, dict) else data
frame_re = re.compile(r'^(.*)\((\d+)\): (.*)$')
pyf = defaultdict(list)  # (pid, tid) -> [(ts, end, file, line)]
runtime = {}
kernels = []
mem = []
for e in events:
    cat = e.get('cat', '')
    if e.get('ph') == 'X' and cat == 'python_function':
        m = frame_re.match(e['name'])
        if m and int(m.group(2)) > 0:
            pyf[(e['pid'], e['tid'])].append((e['ts'], e['ts'] + e.get('dur', 0), m.group(1), int(m.group(2))))
    elif e.get('ph') == 'X' and cat in ('cuda_runtime', 'runtime', 'cuda_driver'):
        c = e.get('args', {}).get('correlation')
        if c is not None:
            runtime[c] = e
    elif e.get('ph') == 'X' and cat == 'kernel':
        kernels.append(e)
    elif e.get('ph') == 'i' and e.get('name') == '[memory]':
        mem.append(e)

def lines_at(pid, tid, ts, end):
    out = set()
    for s, t, f, l in pyf.get((pid, tid), ()):
        if s <= ts and end <= t:
            out.add((f, l))
    return out

totals = defaultdict(lambda: [0.0, 0, 0, 0])
for k in kernels:
    r = runtime.get(k.get('args', {}).get('correlation'))
    if r is None:
        continue
    for fl in lines_at(r['pid'], r['tid'], r['ts'], r['ts'] + r.get('dur', 0)):
        totals[fl][0] += k['dur']
        totals[fl][1] += 1
for m in mem:
    b = m.get('args', {}).get('Bytes', 0)
    if b <= 0:
        continue
    for fl in lines_at(m['pid'], m['tid'], m['ts'], m['ts']):
        totals[fl][2] += b
        totals[fl][3] += 1
top = sorted(totals.items(), key=lambda kv: (-kv[1][0], kv[0]))
print(json.dumps([{'file': f, 'line': l, 'kernel_us': v[0], 'kernels': v[1], 'alloc_bytes': v[2], 'allocs': v[3]}
                  for (f, l), v in top], indent=1))
