#!/usr/bin/env python3
"""Independent reference for the flame graph's gpu weight (core/analysis/flame_graph.h) over a Kineto
JSON trace recorded with with_stack=True.

For every kernel (cat "kernel"): its launching runtime/driver call (same `correlation` in args); the
python_function events on the launch's thread whose [ts, ts + dur) contains the launch's ts, outermost
first (earlier start, then longer); their names `file(line): func` give the frames
"func (file:line)", other names ("nn.Module: X_0", "<built-in method ...>") stand as they are.
Without a Python frame, the launch's `Call stack` argument (innermost first). Kernels with neither
weigh on "(no stack)". Prints the folded lines "frame1;...;frameN weight_ns", one per distinct
stack, sorted (times read as exact decimals: Kineto writes microseconds with 3 decimals).
--fold drops the dispatch and decorator frames below a stack's outermost frame: those whose function's
last dotted part is _call_impl, _wrapped_call_impl, wrapper, wrapped_func, decorate_context or __call__ (issue #51).
Usage: reference_flame.py [--fold] TRACE.json[.gz]
"""
import gzip
import json
import sys
from collections import defaultdict
from decimal import Decimal, ROUND_HALF_UP


def ns(us):
    return int((Decimal(us) * 1000).to_integral_value(rounding=ROUND_HALF_UP))


def split_name(name):
    """(function, file, line) of `file(line): func`, else (name, '', 0)."""
    close = name.find('): ')
    if close > 0:
        open_ = name.rfind('(', 0, close)
        digits = name[open_ + 1:close] if open_ > 0 else ''
        if digits.isdigit():
            return name[close + 3:], name[:open_], int(digits)
    return name, '', 0


def text(function, file, line):
    t = function
    if file:
        t += ' (' + file + (':%d' % line if line > 0 else '') + ')'
    return t.replace(';', ',').replace('\n', ' ').replace('\r', ' ')


FOLDED = {'_call_impl', '_wrapped_call_impl', 'wrapper', 'wrapped_func', 'decorate_context', '__call__'}


def fold(stack, functions):
    """The stack (outermost first) without the folded frames, keeping the outermost."""
    return [f for i, (f, fn) in enumerate(zip(stack, functions)) if i == 0 or fn.rsplit('.', 1)[-1] not in FOLDED]


def main():
    args = [a for a in sys.argv[1:] if a != '--fold']
    folding = len(args) != len(sys.argv) - 1
    path = args[0]
    raw = gzip.open(path, 'rb').read() if path.endswith('.gz') else open(path, 'rb').read()
    data = json.loads(raw, parse_float=Decimal)
    events = data['traceEvents'] if isinstance(data, dict) else data
    python = defaultdict(list)  # (pid, tid) -> [(start, end, frame text)]
    launches = {}
    kernels = []
    for e in events:
        if e.get('ph') != 'X':
            continue
        cat = e.get('cat', '')
        if cat == 'python_function':
            start = Decimal(e['ts'])
            parts = split_name(e['name'])
            python[(e['pid'], e['tid'])].append((start, start + Decimal(e.get('dur', 0)), text(*parts), parts[0]))
        elif cat in ('cuda_runtime', 'cuda_driver', 'runtime'):
            c = (e.get('args') or {}).get('correlation')
            if c is not None:
                launches.setdefault((e['pid'], c), e)
        elif cat == 'kernel':
            kernels.append(e)
    # CUPTI correlation ids are unique per process; a kernel's process is its GPU's, so match by id.
    by_correlation = {}
    for (pid, c), e in launches.items():
        by_correlation.setdefault(c, e)
    for frames in python.values():
        frames.sort(key=lambda f: (f[0], -(f[1] - f[0])))
    folded = defaultdict(int)
    for k in kernels:
        weight = ns(k.get('dur', 0))
        launch = by_correlation.get((k.get('args') or {}).get('correlation'))
        stack = []
        if launch is not None:
            ts = Decimal(launch['ts'])
            frames = [f for f in python.get((launch['pid'], launch['tid']), ()) if f[0] <= ts < f[1]]
            stack = [f[2] for f in frames]
            functions = [f[3] for f in frames]
            if not stack:
                entries = [split_name(x) for x in reversed([x for x in ((launch.get('args') or {}).get('Call stack') or '').split(';') if x])]
                stack = [text(*x) for x in entries]
                functions = [x[0] for x in entries]
            if folding:
                stack = fold(stack, functions)
        folded[';'.join(stack) if stack else '(no stack)'] += weight
    for line in sorted('%s %d' % (k, v) for k, v in folded.items() if v != 0):
        print(line)


if __name__ == '__main__':
    main()
