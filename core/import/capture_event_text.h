#pragma once

#include "import/capture_collectives.h"
#include "import/capture_stacks.h"
#include "model/event_text_source.h"

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace ws {

/*
 * CaptureEventText: the arguments of slices imported from capture streams, decoded on demand.
 *
 * argRef = stream index << 40 | byte offset of the record in that (decompressed) stream. Nothing
 * per event is kept in memory: eventJson() reads the one record back (pread on a plain file; a
 * gzip stream is held inflated in memory, as its bytes are needed for random access anyway),
 * decodes it and writes {"args":{...}} with the stream's interned names; a launch call recorded with
 * the "stacks" activity also gets its native `Call stack` (CaptureStacks). Thread-safe (pread,
 * immutable state and a read window per thread).
 */
class CaptureEventText : public EventTextSource {
public:
    static constexpr int kOffsetBits = 40;
    static constexpr uint64_t kMaxOffset = (uint64_t(1) << (kOffsetBits - 1)) - 1;
    // With the offset of a launch call's record: the operator the importer inferred around that
    // launch (import/operator_inference.h), whose arguments say so.
    static constexpr uint64_t kInferredOperator = uint64_t(1) << (kOffsetBits - 1);

    /* One stream: where its bytes are, and its String records (id -> text). */
    struct Stream {
        std::string path;                                  // plain file, read with pread
        std::shared_ptr<const std::vector<uint8_t>> bytes; // or the whole inflated stream
        std::unordered_map<uint32_t, std::string> strings;
        std::unordered_map<uint32_t, uint32_t> callNames; // (domain << 24 | cbid) -> String id
        uint32_t pid = 0;
        std::shared_ptr<const CaptureStacks> stacks; // native launch stacks; null when none
        std::shared_ptr<const CaptureCollectives> collectives; // NCCL calls by launch; null when none
    };

    CaptureEventText();
    CaptureEventText(const CaptureEventText&) = delete;
    CaptureEventText& operator=(const CaptureEventText&) = delete;
    ~CaptureEventText() override;

    static uint64_t makeRef(uint32_t stream, uint64_t offset) { return uint64_t(stream) << kOffsetBits | offset; }
    void addStream(Stream stream);

    std::string eventJson(uint64_t argRef) const override;
    bool parallelReads() const override { return true; } // pread and a read window per thread

private:
    bool readRecord(const Stream& s, int fd, uint64_t offset, uint16_t* type, std::vector<uint8_t>* payload) const;
    // n bytes of the file at `at` through this thread's read window (capture_event_text.cpp).
    bool readWindowed(int fd, void* dst, size_t n, uint64_t at) const;

    std::vector<Stream> m_streams;
    std::vector<int> m_fds; // per stream; -1 for in-memory streams or when the file is gone
    uint64_t m_generation;  // tells this reader's read windows from those of an earlier one
};

} // namespace ws
