#!/bin/sh
# Usage: e2e_tab_screenshots.sh WARPSCOPE PNG_CHECK OUTDIR MIN_TABS FILE
# The real app under a fresh Xvfb renders every bottom tab of FILE and the New Capture dialog
# (--screenshot-tabs); each PNG must look like a rendered window, and at least MIN_TABS tabs are kept.
set -eu
app=$1 check=$2 out=$3 min=$4 file=$5
command -v xvfb-run >/dev/null || { echo "xvfb-run is not installed (package xvfb)"; exit 1; }
rm -rf "$out"
home=$(mktemp -d)
trap 'rm -rf "$home"' EXIT
HOME=$home XDG_CONFIG_HOME=$home/config XDG_DATA_HOME=$home/data LANG=C.UTF-8 LC_ALL=C.UTF-8 \
QT_QPA_PLATFORM=xcb timeout 150 xvfb-run -a -s "-screen 0 1600x1000x24" "$app" --screenshot-tabs "$out" "$file"
n=0
for png in "$out"/tab_*.png; do
    "$check" "$png"
    n=$((n + 1))
done
test "$n" -ge "$min" || { echo "only $n tab screenshots (want $min)"; exit 1; }
"$check" "$out/new_capture.png"
