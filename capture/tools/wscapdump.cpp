// wscap-dump: prints what a capture stream holds: record counts per type, then the first records.
// With --replay it writes a recorded stream again at its original pace, as the injection library
// wrote it: the stand-in for a GPU program in the remote and live capture tests (issue #26).

#include "format/wscapprinter.h"
#include "format/wscapreader.h"
#include "format/wscapwriter.h"

#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

namespace {

// Copies FILE's bytes into DIR/<host>-<pid>.wscap (never over an existing file), one flush at a
// time: the bytes up to each Flush record, then a sleep of the time to the next flush / speed. The
// copy is byte for byte the original.
int replay(const std::string& path, std::string dir, double speed) {
    using namespace ws::wscap;
    if (dir.empty())
        if (const char* out = std::getenv("WARPSCOPE_OUTPUT"))
            dir = out;
    if (dir.empty()) {
        std::fprintf(stderr, "wscap-dump: --replay needs --to DIR or WARPSCOPE_OUTPUT\n");
        return 2;
    }
    FILE* in = std::fopen(path.c_str(), "rb");
    if (!in) {
        std::fprintf(stderr, "wscap-dump: cannot open %s\n", path.c_str());
        return 1;
    }
    std::string bytes;
    char buf[1 << 16];
    for (size_t n; (n = std::fread(buf, 1, sizeof buf, in)) > 0;)
        bytes.append(buf, n);
    std::fclose(in);
    WscapReader reader;
    std::string error;
    if (!reader.openMemory(bytes.data(), bytes.size(), &error)) {
        std::fprintf(stderr, "wscap-dump: %s\n", error.c_str());
        return 1;
    }
    char host[256] = {};
    ::gethostname(host, sizeof host - 1);
    std::string out;
    const int fd = createExclusive(dir, streamStem(host, static_cast<uint32_t>(::getpid())), ".wscap", &out, &error);
    if (fd < 0) {
        std::fprintf(stderr, "wscap-dump: %s\n", error.c_str());
        return 1;
    }
    size_t written = 0;
    auto writeUpTo = [&](size_t end) {
        while (written < end) {
            const ssize_t n = ::write(fd, bytes.data() + written, end - written);
            if (n <= 0)
                return false;
            written += static_cast<size_t>(n);
        }
        return true;
    };
    uint64_t lastFlush = 0;
    RawRecord r;
    while (reader.next(&r) == WscapReader::Status::Record) {
        FlushRecord f;
        if (!r.is<FlushRecord>() || !r.decode(&f))
            continue;
        if (!writeUpTo(static_cast<size_t>(r.offset + kRecordHeaderSize + r.payload.size())))
            break;
        if (lastFlush && f.timestamp > lastFlush && speed > 0)
            std::this_thread::sleep_for(std::chrono::nanoseconds(static_cast<int64_t>((f.timestamp - lastFlush) / speed)));
        lastFlush = f.timestamp;
    }
    writeUpTo(bytes.size());
    ::close(fd);
    return written == bytes.size() ? 0 : 1;
}

} // namespace

int main(int argc, char** argv) {
    using namespace ws::wscap;
    std::string path;
    long limit = 20;
    bool replaying = false;
    std::string to;
    double speed = 1.0;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if ((a == "-n" || a == "--records") && i + 1 < argc) {
            limit = std::strtol(argv[++i], nullptr, 10);
        } else if (a == "--replay") {
            replaying = true;
        } else if (a == "--to" && i + 1 < argc) {
            to = argv[++i];
        } else if (a == "--speed" && i + 1 < argc) {
            speed = std::strtod(argv[++i], nullptr);
        } else if (a == "-h" || a == "--help") {
            std::printf("Usage: wscap-dump [-n N] FILE\n       wscap-dump --replay [--to DIR] [--speed X] FILE\n"
                        "Prints record counts per type and the first N records (default 20, -1 = all) of a "
                        "Warpscope capture stream.\n--replay writes FILE again into DIR (default: "
                        "$WARPSCOPE_OUTPUT) as <host>-<pid>.wscap, flush by flush at the pace it was recorded "
                        "(X times faster with --speed X), as a capturing program would.\n");
            return 0;
        } else {
            path = a;
        }
    }
    if (replaying && !path.empty())
        return replay(path, to, speed);
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
