"""How many of a --py-stacks capture's kernels have a Python line (issue #25's goal: >= 99 % of the
kernels launched from a Python thread).

  python3 zoo_python_lines.py WSCAP_DUMP CAPTURE.wscap[.gz]

Reads the stream as `wscap-dump -n -1` prints it: each kernel's correlation id, the CallStack of its
launch (thread, Python stack id) and the PyFrames of that stack. A Python thread is one that has
recorded at least one Python stack; the autograd engine's backward threads run no Python, as in
torch.profiler. A kernel "has a line" when its launch's Python stack holds a frame with a line.
"""
import collections, gzip, re, subprocess, sys, tempfile


def dump_records(dump, path):
    """The stream's records as `wscap-dump -n -1` prints them (a .gz stream is unpacked first)."""
    with tempfile.NamedTemporaryFile(suffix=".wscap") as tmp:
        if path.endswith(".gz"):
            tmp.write(gzip.open(path).read())
            tmp.flush()
            path = tmp.name
        return subprocess.run([dump, "-n", "-1", path], check=True, capture_output=True, text=True).stdout


def python_lines(dump, path):
    """(kernels, kernels launched from Python threads, those with a Python line, kernels by thread)."""
    out = dump_records(dump, path)

    kernels = []  # correlation ids
    launch = {}   # correlation -> (thread, python stack id)
    api_thread = {}  # correlation -> thread of the launching API call
    stacks = {}   # python stack id -> frame ids
    frames = {}   # frame id -> line
    for line in out.splitlines():
        if " Kernel " in line:
            kernels.append(int(re.search(r"correlationId=(\d+)", line).group(1)))
        elif " Api " in line:
            m = re.search(r"threadId=(\d+) correlationId=(\d+)", line)
            if m:
                api_thread[int(m.group(2))] = int(m.group(1))
        elif " CallStack " in line:
            m = re.search(r"correlationId=(\d+) .*threadId=(\d+) pyStackId=(\d+)", line)
            launch[int(m.group(1))] = (int(m.group(2)), int(m.group(3)))
        elif " PyStack " in line:
            m = re.search(r"stackId=(\d+) frameIds=\[([^\]]*)\]", line)
            stacks[int(m.group(1))] = [int(x, 0) for x in m.group(2).replace(",", " ").split()]
        elif " PyFrame " in line:
            m = re.search(r"frameId=(\d+) line=(\d+)", line)
            frames[int(m.group(1))] = int(m.group(2))

    python_threads = {t for t, s in launch.values() if s}
    by_thread = collections.Counter()
    with_line = 0
    from_python = 0
    for c in kernels:
        thread, stack = launch.get(c, (api_thread.get(c), 0))
        by_thread[thread] += 1
        if thread not in python_threads:
            continue
        from_python += 1
        if stack and any(frames.get(f, 0) > 0 for f in stacks.get(stack, [])):
            with_line += 1
    return len(kernels), from_python, with_line, dict(by_thread)


if __name__ == "__main__":
    total, from_python, with_line, by_thread = python_lines(sys.argv[1], sys.argv[2])
    print("%s: %d kernels, %d launched from Python threads, %d of those (%.2f %%) with a Python line; "
          "kernels by launching thread: %s" % (sys.argv[2], total, from_python, with_line,
                                              100.0 * with_line / max(1, from_python), by_thread))
