"""ctest cli.capture_range_records_only_inside_the_programs_ranges: a capture recorded with
--capture-range=cudaProfilerApi (tests/data/captures/range) holds kernels only inside the on
blocks its program logged, the same number in each, and says how many ranges it recorded.

  python3 check_capture_range.py CLI WSCAP_DUMP CAPTURE.wscap.gz LOG.json

range_check.py (capture/samples) must also fail when a window is cut short, so it can tell."""
import gzip, json, os, subprocess, sys, tempfile

cli, dump, capture, log = sys.argv[1:5]
check = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "capture", "samples", "range_check.py")
with tempfile.TemporaryDirectory() as tmp:
    stream = os.path.join(tmp, "range.wscap")
    with gzip.open(capture) as src, open(stream, "wb") as dst:
        dst.write(src.read())
    records = subprocess.run([dump, "-n", "-1", stream], check=True, capture_output=True, text=True).stdout

    def range_check(log_path):
        r = subprocess.run([sys.executable, check, log_path], input=records, capture_output=True, text=True)
        print(r.stdout.strip())
        return r.returncode

    ok = range_check(log) == 0
    cut = json.load(open(log))
    a, b = cut["on_windows"][-1]
    cut["on_windows"][-1] = [a, (a + b) // 2]
    cut_path = os.path.join(tmp, "cut.json")
    json.dump(cut, open(cut_path, "w"))
    cut_fails = range_check(cut_path) != 0
    summary = subprocess.run([cli, "summary", capture], check=True, capture_output=True, text=True).stdout
    noted = "recorded 3 range(s) between cudaProfilerStart and cudaProfilerStop" in summary
    print("inside=%s cut_window_fails=%s note=%s" % (ok, cut_fails, noted))
    sys.exit(0 if ok and cut_fails and noted else 1)
