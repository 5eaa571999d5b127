#pragma once

#include "format/wscapreader.h"

#include <string>
#include <unordered_map>

namespace ws::wscap {

/*
 * RecordPrinter: one line of text per record ("Kernel start=... nameId=7 ..."), for wscap-dump and
 * for tests. It remembers String records so fields named *nameId / domainId also show their text.
 */
class RecordPrinter {
public:
    std::string format(const RawRecord& record);

private:
    std::unordered_map<uint32_t, std::string> m_strings;
};

} // namespace ws::wscap
