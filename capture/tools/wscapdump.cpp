// wscap-dump: prints what a capture stream holds: record counts per type, then the first records.

#include "format/wscapprinter.h"
#include "format/wscapreader.h"

#include <array>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

int main(int argc, char** argv) {
    using namespace ws::wscap;
    std::string path;
    long limit = 20;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if ((a == "-n" || a == "--records") && i + 1 < argc) {
            limit = std::strtol(argv[++i], nullptr, 10);
        } else if (a == "-h" || a == "--help") {
            std::printf("Usage: wscap-dump [-n N] FILE\nPrints record counts per type and the first N records "
                        "(default 20, -1 = all) of a Warpscope capture stream.\n");
            return 0;
        } else {
            path = a;
        }
    }
    if (path.empty()) {
        std::fprintf(stderr, "Usage: wscap-dump [-n N] FILE\n");
        return 2;
    }
    WscapReader reader;
    std::string error;
    if (!reader.open(path, &error)) {
        std::fprintf(stderr, "wscap-dump: %s\n", error.c_str());
        return 1;
    }
    std::printf("version %u.%u\n", reader.versionMajor(), reader.versionMinor());
    RecordPrinter printer;
    std::array<uint64_t, 65536> counts{};
    uint64_t total = 0;
    RawRecord r;
    WscapReader::Status st;
    while ((st = reader.next(&r)) == WscapReader::Status::Record) {
        ++counts[r.type];
        // Strings are always given to the printer so later records can show names.
        const std::string line = printer.format(r);
        if (limit < 0 || static_cast<long>(total) < limit)
            std::printf("@%llu %s\n", static_cast<unsigned long long>(r.offset), line.c_str());
        ++total;
    }
    std::printf("-- %llu records\n", static_cast<unsigned long long>(total));
    for (size_t t = 0; t < counts.size(); ++t)
        if (counts[t])
            std::printf("%-20s %llu\n", recordTypeName(static_cast<uint16_t>(t)), static_cast<unsigned long long>(counts[t]));
    if (st == WscapReader::Status::Truncated)
        std::printf("TRUNCATED: %s\n", reader.problem().c_str());
    else if (st == WscapReader::Status::Corrupt)
        std::printf("CORRUPT: %s\n", reader.problem().c_str());
    return st == WscapReader::Status::End ? 0 : 3;
}
