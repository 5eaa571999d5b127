#include "import/chrome_json_importer.h"

#include "import/import_finish.h"
#include "import/json_event_parser.h"
#include "import/json_event_scanner.h"
#include "io/growing_file.h"
#include "io/input_stream.h"
#include "io/usable_cores.h"
#include "model/trace_builder.h"
#include "model/event_args_pack.h"
#include "io/file_fingerprint.h"

#include <chrono>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <map>
#include <mutex>
#include <thread>

namespace ws {

namespace {

constexpr size_t kPadding = 128; // >= SIMDJSON_PADDING
constexpr size_t kDefaultBlockSize = 2u << 20;

struct Block {
    std::unique_ptr<char[]> storage; // one spare byte before `data` lets the parser write a '['
    char* data = nullptr;
    size_t capacity = 0; // usable bytes (padding excluded)
    size_t len = 0;
    uint64_t absOffset = 0;
    uint64_t seqBase = 0;
    uint64_t index = 0;
    std::vector<JsonEventScanner::Span> spans;

    explicit Block(size_t cap) : storage(new char[cap + kPadding + 1]), data(storage.get() + 1), capacity(cap) {
        storage[0] = ' ';
        std::memset(data + cap, ' ', kPadding);
    }
};

/*
 * WorkerPool: parses blocks on N threads. Blocks go in through submit() (bounded queue: submit
 * blocks while `maxInFlight` are queued or running) and come back as ChunkResults keyed by block
 * index, so the caller can merge them in file order.
 */
class WorkerPool {
public:
    WorkerPool(unsigned n, size_t maxInFlight, ImportControl::StorePrep forStore) : m_maxInFlight(maxInFlight) {
        for (unsigned i = 0; i < n; ++i)
            m_threads.emplace_back([this, i, forStore] { run(i, forStore); });
    }
    ~WorkerPool() {
        {
            std::lock_guard lock(m_mutex);
            m_stop = true;
        }
        m_wake.notify_all();
        for (auto& t : m_threads)
            t.join();
    }
    void submit(std::unique_ptr<Block> b) {
        std::unique_lock lock(m_mutex);
        m_space.wait(lock, [&] { return m_inFlight < m_maxInFlight; });
        ++m_inFlight;
        m_queue.push_back(std::move(b));
        m_wake.notify_one();
    }
    // A cleared block of at least `capacity` bytes, recycled when possible.
    std::unique_ptr<Block> acquire(size_t capacity) {
        {
            std::lock_guard lock(m_mutex);
            for (auto it = m_free.begin(); it != m_free.end(); ++it)
                if ((*it)->capacity >= capacity) {
                    std::unique_ptr<Block> b = std::move(*it);
                    m_free.erase(it);
                    b->len = 0;
                    b->spans.clear();
                    return b;
                }
        }
        return std::make_unique<Block>(capacity);
    }
    void recycle(std::unique_ptr<Block> b) {
        std::lock_guard lock(m_mutex);
        if (m_free.size() < m_maxInFlight)
            m_free.push_back(std::move(b));
    }
    // Takes the result of block `index` if ready (wait: block until it is).
    bool take(uint64_t index, ChunkResult& out, bool wait) {
        std::unique_lock lock(m_mutex);
        if (wait)
            m_done.wait(lock, [&] { return m_results.count(index) != 0; });
        auto it = m_results.find(index);
        if (it == m_results.end())
            return false;
        out = std::move(it->second);
        m_results.erase(it);
        return true;
    }

private:
    void run(unsigned worker, ImportControl::StorePrep forStore) {
        JsonEventParser parser(worker);
        parser.setKeepArgsSpans(forStore != ImportControl::StorePrep::None);
        while (true) {
            std::unique_ptr<Block> b;
            {
                std::unique_lock lock(m_mutex);
                m_wake.wait(lock, [&] { return m_stop || !m_queue.empty(); });
                if (m_queue.empty())
                    return;
                b = std::move(m_queue.front());
                m_queue.pop_front();
            }
            ChunkResult r;
            parser.parse(b->data, b->capacity + kPadding, b->spans, b->absOffset, b->seqBase, r);
            // The block's args packed for the store here, where the text is in the cache and the
            // parse threads run side by side (StorePreparation).
            if (forStore == ImportControl::StorePrep::Packed)
                r.packedArgs = packSpansArgs(r.argsSpans, b->data, b->len, b->absOffset, kArgsZstdLevel);
            const uint64_t index = b->index;
            recycle(std::move(b)); // reuse the buffer: fresh 4 MiB buffers would page-fault every time
            {
                std::lock_guard lock(m_mutex);
                m_results.emplace(index, std::move(r));
                --m_inFlight;
            }
            m_space.notify_one();
            m_done.notify_all();
        }
    }

    std::mutex m_mutex;
    std::condition_variable m_wake, m_space, m_done;
    std::deque<std::unique_ptr<Block>> m_queue;
    std::map<uint64_t, ChunkResult> m_results;
    std::vector<std::thread> m_threads;
    std::vector<std::unique_ptr<Block>> m_free;
    size_t m_inFlight = 0;
    size_t m_maxInFlight;
    bool m_stop = false;
};

} // namespace

ImportResult importChromeJson(const std::string& path, const ImportControl& control) {
    ImportResult result;
    const auto t0 = std::chrono::steady_clock::now();
    auto since = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); };
    InputStream in;
    if (!in.open(path, control.growing)) {
        result.error = in.error();
        return result;
    }
    unsigned threads = control.threads ? control.threads : usableCores();
    threads = std::max(1u, threads);
    const size_t kBlockSize = control.blockBytes ? std::max<size_t>(control.blockBytes, 64) : kDefaultBlockSize;
    TraceBuilder builder(path, TraceFormat::ChromeJson);
    builder.setArgColumns(true); // JsonEventParser decodes them (arg_columns.h)
    // An import that packs the store's args hashes the file on its reads too, for the session's
    // fingerprint (a file still being downloaded is hashed by the store, once complete).
    std::optional<FingerprintOnReads> hashing;
    const bool packs = control.forStore == ImportControl::StorePrep::Packed;
    if (control.forStore != ImportControl::StorePrep::None)
        builder.prepareForStore(packs ? std::optional<int>(kArgsZstdLevel) : std::nullopt);
    if (packs && !control.growing) {
        hashing.emplace(path);
        if (!hashing->started() ||
            !in.observeFileBytes([&hashing](const char* p, size_t n) { hashing->update(p, n); }))
            hashing.reset();
    }
    JsonEventScanner scanner;
    uint64_t nextMerge = 0, nextIndex = 0, seq = 0;
    {
        WorkerPool pool(threads, threads + 2, control.forStore);
        auto mergeReady = [&](bool wait) {
            ChunkResult r;
            while (nextMerge < nextIndex && pool.take(nextMerge, r, wait)) {
                builder.addChunk(r);
                r = ChunkResult();
                ++nextMerge;
            }
        };
        auto block = pool.acquire(kBlockSize);
        bool eof = false;
        uint64_t reserveAtBytes = in.fileSize() / 64; // then at a 32nd, a 16th, ..., a half
        constexpr uint64_t kReserveFromBytes = uint64_t(256) << 20;
        while (!eof && !scanner.failed()) {
            if (control.cancel && control.cancel->load()) {
                result.cancelled = true;
                break;
            }
            const size_t got = in.read(block->data + block->len, block->capacity - block->len);
            result.textBytes += got;
            if (got == 0)
                eof = true;
            scanner.scan(block->data, block->len, block->len + got, block->spans);
            block->len += got;
            if (!eof && block->len < block->capacity)
                continue;
            const size_t carryStart = std::min(scanner.openEventStart(), block->len);
            if (block->spans.empty() && !eof && carryStart == 0) {
                // One element bigger than the block: grow it.
                auto bigger = std::make_unique<Block>(block->capacity * 2);
                std::memcpy(bigger->data, block->data, block->len);
                bigger->len = block->len;
                bigger->absOffset = block->absOffset;
                block = std::move(bigger);
                continue;
            }
            auto next = pool.acquire(std::max(kBlockSize, (block->len - carryStart) * 2));
            next->len = block->len - carryStart;
            std::memcpy(next->data, block->data + carryStart, next->len);
            next->absOffset = block->absOffset + carryStart;
            scanner.shift(carryStart);
            if (!block->spans.empty()) {
                block->index = nextIndex++;
                block->seqBase = seq;
                seq += block->spans.size();
                pool.submit(std::move(block));
            }
            block = std::move(next);
            mergeReady(false);
            // Once a 64th of a large file is in, its tracks' final sizes are known well enough to
            // reserve them (TraceBuilder::reserveForShare). Again at a 32nd, a 16th, ..., a half,
            // for what began later in the file or grew faster (the 10 GB trace's second-largest
            // thread has no slice in its first 16th).
            if (in.fileSize() >= kReserveFromBytes && reserveAtBytes <= in.fileSize() / 2 &&
                in.fileBytesConsumed() >= reserveAtBytes) {
                builder.reserveForShare(static_cast<double>(in.fileBytesConsumed()) / static_cast<double>(in.fileSize()));
                reserveAtBytes *= 2;
            }
            if (control.progress && in.fileSize() > 0)
                control.progress(0.9 * static_cast<double>(in.fileBytesConsumed()) / static_cast<double>(in.fileSize()));
        }
        if (!result.cancelled && !block->spans.empty()) {
            block->index = nextIndex++;
            block->seqBase = seq;
            seq += block->spans.size();
            pool.submit(std::move(block));
        }
        mergeReady(true);
    }
    if (result.cancelled)
        return result;
    if (hashing && in.observedAll() && in.error().empty())
        if (const std::optional<FileFingerprint> fp = hashing->finish())
            builder.setSourceHash({fp->size, fp->mtimeNs, fp->hash});

    ImportReport& report = builder.report();
    builder.setTopLevelMembers(scanner.members());
    if (scanner.failed() && seq == 0) {
        result.error = scanner.error();
        return result;
    }
    if (!scanner.sawEventArray()) {
        result.error = scanner.complete() ? "JSON, but not a Chrome trace: there is no traceEvents array"
                                          : "not a Chrome trace: the JSON ends before any traceEvents array";
        return result;
    }
    if (seq == 0 && scanner.nonObjectElements() > 0) {
        result.error = "JSON array, but not a Chrome trace: its elements are not event objects";
        return result;
    }
    if (scanner.nonObjectElements() > 0)
        report.add("non-object elements in the event array (skipped)", {}, scanner.nonObjectElements());
    if (scanner.failed())
        report.add("malformed JSON outside the events (rest of file ignored)", scanner.error());
    else if (!scanner.complete()) {
        std::string where = "the file ends " + scanner.whereText();
        if (scanner.inEventArray())
            where += ", inside the event array; " + std::to_string(seq) + " complete events before the cut were imported";
        report.setTruncated(where);
    } else if (scanner.trailingGarbage()) {
        report.add("data after the end of the JSON document (ignored)");
    }
    if (in.truncated())
        report.setTruncated(in.error().empty() ? "the compressed stream ends early" : in.error());
    if (control.progress)
        control.progress(0.92);
    const double parsed = since();
    finishImport(builder, result, control, "read, scan, parse and merge", parsed);
    return result;
}

} // namespace ws
