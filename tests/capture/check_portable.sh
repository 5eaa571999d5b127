#!/bin/sh
# What Deploy copies to GPU hosts needs no newer glibc and C++ runtime than MAX_GLIBC (default 2.34)
# and MAX_GLIBCXX (default 3.4.29, GCC 11's libstdc++): a Debian 12 build runs on Ubuntu 22.04,
# RHEL 9 and newer (issue #26). Prints each file's newest versions and the libraries it needs.
#   check_portable.sh FILE...
max_glibc=${MAX_GLIBC:-2.34}
max_glibcxx=${MAX_GLIBCXX:-3.4.29}
newest() { # PREFIX FILE: the newest version of the symbol versions PREFIX_x.y[.z] the file needs
    objdump -T "$2" | grep -o "$1_[0-9][0-9.]*" | sed "s/$1_//" | sort -t. -k1,1n -k2,2n -k3,3n -u | tail -1
}
newer() { # A B: whether version A is newer than B
    [ -n "$1" ] && [ "$(printf '%s\n%s\n' "$1" "$2" | sort -t. -k1,1n -k2,2n -k3,3n | tail -1)" != "$2" ]
}
status=0
for f in "$@"; do
    [ -e "$f" ] || continue
    glibc=$(newest GLIBC "$f")
    glibcxx=$(newest GLIBCXX "$f")
    echo "$(basename "$f"): glibc ${glibc:-none}, libstdc++ ${glibcxx:-none}; needs $(objdump -p "$f" | awk '/NEEDED/ {print $2}' | tr '\n' ' ')"
    if newer "$glibc" "$max_glibc"; then
        echo "  FAIL: needs glibc $glibc, newer than $max_glibc: $(objdump -T "$f" | grep -o "GLIBC_$glibc) [^ ]*" | sed 's/.* //' | tr '\n' ' ')"
        status=1
    fi
    if newer "$glibcxx" "$max_glibcxx"; then
        echo "  FAIL: needs libstdc++ $glibcxx, newer than $max_glibcxx"
        status=1
    fi
done
exit $status
