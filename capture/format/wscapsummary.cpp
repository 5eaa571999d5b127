#include "format/wscapsummary.h"

#include "format/wscapreader.h"

#include <algorithm>

namespace ws::wscap {

namespace {

struct TimeSpan {
    uint64_t first = 0;
    uint64_t last = 0;
    void add(uint64_t start, uint64_t end) {
        if (start == 0)
            return;
        first = first == 0 ? start : std::min(first, start);
        last = std::max(last, std::max(start, end));
    }
};

} // namespace

CaptureSummary CaptureSummary::read(const std::string& path) {
    CaptureSummary s;
    WscapReader reader;
    if (!reader.open(path, &s.openError))
        return s;
    s.ok = true;
    s.versionMajor = reader.versionMajor();
    s.versionMinor = reader.versionMinor();
    TimeSpan span;
    RawRecord r;
    WscapReader::Status st;
    while ((st = reader.next(&r)) == WscapReader::Status::Record) {
        ++s.records;
        if (!r.known()) {
            ++s.unknownRecords;
            continue;
        }
        ++s.counts[r.type];
        bool good = true;
        switch (static_cast<RecordType>(r.type)) {
        case RecordType::StreamHeader:
            good = r.decode(&s.header);
            s.hasHeader = s.hasHeader || good;
            break;
        case RecordType::Kernel: {
            KernelRecord k;
            good = r.decode(&k);
            span.add(k.start, k.end);
            break;
        }
        case RecordType::Api: {
            ApiRecord a;
            good = r.decode(&a);
            span.add(a.start, a.end);
            break;
        }
        case RecordType::Memcpy: {
            MemcpyRecord m;
            good = r.decode(&m);
            span.add(m.start, m.end);
            break;
        }
        case RecordType::Dropped: {
            DroppedRecord d;
            good = r.decode(&d);
            s.dropped += d.count;
            break;
        }
        case RecordType::Error: {
            ErrorRecord e;
            good = r.decode(&e);
            if (good)
                s.errors.push_back(std::move(e));
            break;
        }
        case RecordType::Flush:
            ++s.flushes;
            break;
        case RecordType::Footer:
            s.hasFooter = true;
            break;
        default:
            break;
        }
        if (!good)
            ++s.malformedRecords;
    }
    s.truncated = st == WscapReader::Status::Truncated;
    s.corrupt = st == WscapReader::Status::Corrupt;
    s.problem = reader.problem();
    s.firstTimestamp = span.first;
    s.lastTimestamp = span.last;
    return s;
}

} // namespace ws::wscap
