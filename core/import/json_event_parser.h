#pragma once

#include "model/chunk_result.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

namespace ws {

/*
 * JsonEventParser: turns event-object spans (from JsonEventScanner) into ChunkResult records with
 * simdjson On-Demand, one small document per event so that a malformed event costs only itself.
 * One instance per worker thread; it keeps the worker's string interning across blocks so each
 * distinct name is copied once per worker. ts/dur are taken from the number lexeme (exact ns).
 */
class JsonEventParser {
public:
    explicit JsonEventParser(uint32_t worker);
    ~JsonEventParser();
    JsonEventParser(const JsonEventParser&) = delete;
    JsonEventParser& operator=(const JsonEventParser&) = delete;

    // buf must stay readable up to bufCapacity, which exceeds every span end by the simdjson
    // padding, and buf[-1] must be writable: the spans are parsed as one array document by
    // writing '[' before the first and ']' after the last (falling back to one document per
    // event if anything is odd, so a bad event still costs only itself). absOffset is the source
    // offset of buf[0]; seqBase the file-order number of spans[0].
    void parse(char* buf, size_t bufCapacity, const std::vector<std::pair<size_t, size_t>>& spans,
               uint64_t absOffset, uint64_t seqBase, ChunkResult& out);
    // Records where each event's args lie (ChunkResult::argsSpans), for an import to be stored.
    void setKeepArgsSpans(bool on);

private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

} // namespace ws
