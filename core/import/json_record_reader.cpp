#include "import/json_record_reader.h"

#include "io/input_stream.h"
#include "model/import_report.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>

namespace ws {

namespace {

// A block of text with the records the scanner found complete in it; the record still open at its
// end continues in the next block.
struct Block {
    std::vector<char> text; // capacity bytes + kRecordPadding
    size_t len = 0;
    uint64_t base = 0; // text offset of text[0]
    std::vector<JsonRecordScanner::Span> spans;
};

/*
 * BlockQueue: the reading thread's finished blocks on their way to the converting thread, at most
 * `limit` at once, and the emptied blocks on their way back (no allocation per block).
 */
class BlockQueue {
public:
    explicit BlockQueue(size_t limit) : m_limit(limit) {}
    // Blocks while `limit` blocks wait; false once the consumer stopped.
    bool push(std::unique_ptr<Block> b) {
        std::unique_lock lock(m_mutex);
        m_space.wait(lock, [&] { return m_full.size() < m_limit || m_stopped; });
        if (m_stopped)
            return false;
        m_full.push_back(std::move(b));
        m_ready.notify_one();
        return true;
    }
    void close() {
        std::lock_guard lock(m_mutex);
        m_closed = true;
        m_ready.notify_one();
    }
    // Null when the reader closed and everything was taken.
    std::unique_ptr<Block> pop() {
        std::unique_lock lock(m_mutex);
        m_ready.wait(lock, [&] { return !m_full.empty() || m_closed; });
        if (m_full.empty())
            return nullptr;
        auto b = std::move(m_full.front());
        m_full.pop_front();
        m_space.notify_one();
        return b;
    }
    void stop() {
        std::lock_guard lock(m_mutex);
        m_stopped = true;
        m_space.notify_all();
    }
    void recycle(std::unique_ptr<Block> b) {
        std::lock_guard lock(m_mutex);
        if (m_free.size() < m_limit + 1)
            m_free.push_back(std::move(b));
    }
    std::unique_ptr<Block> fresh(size_t capacity) {
        {
            std::lock_guard lock(m_mutex);
            for (auto it = m_free.begin(); it != m_free.end(); ++it)
                if ((*it)->text.size() >= capacity + kRecordPadding) {
                    auto b = std::move(*it);
                    m_free.erase(it);
                    b->len = 0;
                    b->spans.clear();
                    return b;
                }
        }
        auto b = std::make_unique<Block>();
        b->text.assign(capacity + kRecordPadding, ' ');
        return b;
    }

private:
    std::mutex m_mutex;
    std::condition_variable m_ready, m_space;
    std::deque<std::unique_ptr<Block>> m_full;
    std::vector<std::unique_ptr<Block>> m_free;
    size_t m_limit;
    bool m_closed = false;
    bool m_stopped = false;
};

} // namespace

JsonRecordReadResult readJsonRecords(const std::string& path, const std::vector<std::string>& paths,
                                     const ImportControl& control, ImportReport& report,
                                     const std::function<bool(const JsonRecord&)>& onRecord) {
    JsonRecordReadResult r;
    InputStream in;
    if (!in.open(path, control.growing)) {
        r.error = in.error();
        return r;
    }
    r.opened = true;
    JsonRecordScanner scanner;
    for (const std::string& p : paths)
        scanner.want(p);
    const size_t blockBytes = control.blockBytes ? std::max<size_t>(control.blockBytes, 64) : size_t(4) << 20;

    // Reading, inflating and scanning on one thread, the records' conversion on the caller's: two
    // cores each do about half the work. The caller's thread also reports progress.
    BlockQueue queue(2);
    std::atomic<bool> cancelled{false};
    std::atomic<uint64_t> consumed{0};
    uint64_t textBytes = 0;
    std::thread reader([&] {
        auto block = queue.fresh(blockBytes);
        bool eof = false;
        while (!eof && !scanner.failed()) {
            if (control.cancel && control.cancel->load()) {
                cancelled = true;
                break;
            }
            const size_t capacity = block->text.size() - kRecordPadding;
            const size_t got = in.read(block->text.data() + block->len, capacity - block->len);
            textBytes += got;
            eof = got == 0;
            scanner.scan(block->text.data(), block->len, block->len + got, block->spans);
            block->len += got;
            consumed = in.fileBytesConsumed();
            if (!eof && block->len < capacity)
                continue;
            const size_t keep = std::min(scanner.openStart(), block->len); // a record still being read
            if (keep == 0 && !eof && block->spans.empty()) {
                block->text.resize(capacity * 2 + kRecordPadding, ' '); // one record larger than the block
                continue;
            }
            auto next = queue.fresh(std::max(blockBytes, (block->len - keep) * 2));
            next->len = block->len - keep;
            next->base = block->base + keep;
            std::memcpy(next->text.data(), block->text.data() + keep, next->len);
            scanner.shift(keep);
            std::memset(block->text.data() + block->len, ' ', kRecordPadding); // what simdjson may read
            if (!block->spans.empty() && !queue.push(std::move(block)))
                break; // the consumer stopped
            block = std::move(next);
        }
        if (!cancelled && !block->spans.empty()) { // the records before a malformed part
            std::memset(block->text.data() + block->len, ' ', kRecordPadding);
            queue.push(std::move(block));
        }
        queue.close();
    });

    bool stopped = false;
    while (auto block = queue.pop()) {
        for (const JsonRecordScanner::Span& s : block->spans) {
            if (stopped)
                break;
            ++r.records;
            if (!onRecord({std::string_view(block->text.data() + s.begin, s.end - s.begin), s.path, s.outerIndex,
                           block->base + s.begin})) {
                stopped = true;
                queue.stop();
            }
        }
        queue.recycle(std::move(block));
        if (control.progress && in.fileSize() > 0)
            control.progress(0.8 * static_cast<double>(consumed.load()) / static_cast<double>(in.fileSize()));
    }
    reader.join();
    r.textBytes = textBytes;
    if (cancelled) {
        r.cancelled = true;
        return r;
    }
    r.firstKey = scanner.firstKey();
    if (scanner.failed()) {
        if (r.records == 0)
            r.error = "malformed JSON: " + scanner.error();
        else
            report.add("malformed JSON (the rest of the file is ignored)", scanner.error());
    } else if (!scanner.complete() && !stopped) {
        report.setTruncated("the file ends at byte " + std::to_string(scanner.position()) + ", inside the document; " +
                            std::to_string(r.records) + " complete records before the cut were imported");
    } else if (scanner.trailingGarbage()) {
        report.add("data after the end of the JSON document (ignored)");
    }
    if (in.truncated())
        report.setTruncated(in.error().empty() ? "the compressed stream ends early" : in.error());
    return r;
}

} // namespace ws
