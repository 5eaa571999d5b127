#pragma once

#include "format/wscapformat.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace ws::wscap {

/*
 * CaptureSummary: what one stream holds, in a few numbers, for warpscope-capture's report, the dump
 * tool and quick validation. Built by reading the whole stream once; never throws on bad data.
 */
struct CaptureSummary {
    bool ok = false;         // the file opened and its header is valid
    std::string openError;   // why not, when !ok
    uint16_t versionMajor = 0;
    uint16_t versionMinor = 0;
    StreamHeaderRecord header;
    bool hasHeader = false;
    std::array<uint64_t, kMaxKnownRecordType + 1> counts{}; // index = record type
    uint64_t unknownRecords = 0;
    uint64_t malformedRecords = 0;
    uint64_t records = 0;
    uint64_t dropped = 0;   // sum of Dropped records
    uint64_t flushes = 0;
    bool hasFooter = false;
    bool truncated = false;
    bool corrupt = false;
    std::string problem;    // reader's reason for a truncated or corrupt end
    std::vector<ErrorRecord> errors;
    uint64_t firstTimestamp = 0; // min start/timestamp of timed GPU and API records, 0 if none
    uint64_t lastTimestamp = 0;

    uint64_t count(RecordType t) const { return counts[static_cast<uint16_t>(t)]; }
    static CaptureSummary read(const std::string& path);
};

} // namespace ws::wscap
