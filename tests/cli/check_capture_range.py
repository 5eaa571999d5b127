"""ctest cli.capture_range_records_only_inside_the_programs_ranges: a capture recorded with
--capture-range=cudaProfilerApi (tests/data/captures/range) holds kernels only inside the on
blocks its program logged, the same number in each, and says how many ranges it recorded; its
Overview takes its numbers over the recorded spans only and leaves out the steps that reach into a
pause.

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
    overview = json.loads(subprocess.run([cli, "overview", capture, "--json"], check=True, capture_output=True,
                                         text=True).stdout)
    windows = json.load(open(log))["on_windows"]
    # The window runs from the first recorded step to the last: its 3 recorded pieces, the 2 pauses
    # between them left out, and the steps that reached into a pause with them.
    pieces_ok = overview["recorded_pieces"] == len(windows) and overview["unrecorded_ns"] > 0 and \
        overview["unrecorded_steps_left_out"] >= 1
    # The Summary's GPU utilization is taken over the same recorded pieces.
    brief = json.loads(subprocess.run([cli, "summary", capture, "--json"], check=True, capture_output=True,
                                      text=True).stdout)
    pieces_ok = pieces_ok and abs(brief["devices"][0]["gpu_utilization"] - overview["devices"][0]["gpu_utilization"]) < 1e-9
    print("inside=%s cut_window_fails=%s note=%s overview=%s" % (ok, cut_fails, noted, {
        k: overview[k] for k in ("recorded_pieces", "unrecorded_ns", "unrecorded_steps_left_out")}))
    sys.exit(0 if ok and cut_fails and noted and pieces_ok else 1)
