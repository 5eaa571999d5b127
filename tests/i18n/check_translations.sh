#!/bin/sh
# Usage: check_translations.sh LUPDATE FILE.ts SOURCE_DIR...
# Fails when the sources hold a user-visible string that FILE.ts does not translate: lupdate runs on a
# copy of the .ts, and any message it leaves unfinished (new or changed text) is listed.
# LUPDATE_FLAGS=-pluralonly: for a file of plural forms only (warpscope_en.ts).
set -eu
lupdate=$1 ts=$2
shift 2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$ts" "$work/check.ts"
find "$@" -maxdepth 1 \( -name '*.cpp' -o -name '*.h' \) | sort > "$work/sources.lst"
"$lupdate" -silent ${LUPDATE_FLAGS:-} -no-obsolete -locations none "@$work/sources.lst" -ts "$work/check.ts"
untranslated=$(grep -c 'type="unfinished"' "$work/check.ts" || true)
if [ "$untranslated" -ne 0 ]; then
    echo "$untranslated untranslated message(s) in $(basename "$ts"):"
    grep -B2 'type="unfinished"' "$work/check.ts" | grep '<source>' | sed 's/^ */  /'
    exit 1
fi
echo "$(grep -c '<message' "$work/check.ts") messages, all translated"
