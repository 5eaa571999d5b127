#!/bin/sh
# Usage: e2e_screenshot.sh WARPSCOPE PNG_CHECK OUT.png LANG [FILE...]
# Starts the real app under a fresh Xvfb, lets it load FILEs and write a screenshot, then checks the PNG.
set -eu
app=$1 check=$2 out=$3 lang=$4
shift 4
command -v xvfb-run >/dev/null || { echo "xvfb-run is not installed (package xvfb)"; exit 1; }
rm -f "$out"
# Isolated settings and data, so the test neither reads nor writes the user's.
home=$(mktemp -d)
trap 'rm -rf "$home"' EXIT
HOME=$home XDG_CONFIG_HOME=$home/config XDG_DATA_HOME=$home/data LANG=$lang LC_ALL=$lang \
QT_QPA_PLATFORM=xcb timeout 90 xvfb-run -a -s "-screen 0 1600x1000x24" "$app" --screenshot "$out" "$@"
"$check" "$out"
