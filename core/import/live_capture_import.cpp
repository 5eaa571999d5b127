#include "import/live_capture_import.h"

#include "import/capture_merge.h"

#include "format/wscapformat.h"
#include "format/wscapreader.h"
#include "io/usable_cores.h"
#include "model/run_on_threads.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <set>
#include <thread>
#include <tuple>

namespace ws {

namespace fs = std::filesystem;

/* One stream being followed: its reader stays open where the last update stopped. */
struct LiveCaptureImport::Stream {
    std::string file;
    std::string shown;
    std::shared_ptr<std::vector<uint8_t>> bytes; // a compressed stream's content (read whole once)
    std::string cut;                             // why that content ends early
    std::unique_ptr<wscap::WscapReader> reader;
    std::unique_ptr<CaptureStreamConverter> converter;
};

LiveCaptureImport::LiveCaptureImport(std::string directory) : m_dir(std::move(directory)) {}

LiveCaptureImport::~LiveCaptureImport() = default;

void LiveCaptureImport::restart() {
    m_streams.clear();
    m_last = {};
    ++m_restarts;
}

bool LiveCaptureImport::addNewStreams(ImportReport& skipped) {
    std::set<std::string> known;
    for (const auto& s : m_streams)
        known.insert(s->file);
    for (const std::string& file : captureStreamFiles(m_dir)) {
        if (known.count(file))
            continue;
        if (!m_streams.empty() && file < m_streams.back()->file)
            return false; // its number would come before streams already read: start over
        auto s = std::make_unique<Stream>();
        s->file = file;
        s->shown = fs::path(file).filename().string();
        std::string error;
        bool cut = false;
        s->bytes = inflateCaptureStream(file, &error, &cut);
        if (cut)
            s->cut = error;
        s->reader = std::make_unique<wscap::WscapReader>();
        std::string openError;
        const bool opened = s->bytes ? s->reader->openMemory(s->bytes->data(), s->bytes->size(), &openError)
                                     : error.empty() && s->reader->open(file, &openError);
        if (!opened) {
            std::error_code ec;
            if (!s->bytes && fs::file_size(file, ec) < wscap::kFileHeaderSize && !ec)
                break; // its header is still being written; the streams after it wait for it
            skipped.add("unreadable capture streams (skipped)", s->shown + ": " + (error.empty() ? openError : error));
            continue;
        }
        s->converter = std::make_unique<CaptureStreamConverter>(static_cast<uint32_t>(m_streams.size()));
        m_streams.push_back(std::move(s));
        m_added = true;
    }
    return true;
}

ImportResult LiveCaptureImport::update(const ImportControl& control) {
    ImportResult result;
    const auto t0 = std::chrono::steady_clock::now();
    ImportReport skipped;
    m_added = false;
    if (!addNewStreams(skipped)) {
        restart();
        skipped = ImportReport();
        addNewStreams(skipped);
    }
    if (m_streams.empty()) {
        result.error = "the directory holds no capture streams (.wscap files) yet";
        return result;
    }
    // Each stream has its own reader, converter and device slots: the streams are read, and their
    // finished copies made, side by side. Reading is never cancelled halfway: a converter must see
    // every record once, in order.
    const unsigned threads = std::max(1u, control.threads ? control.threads : usableCores());
    // What each reader says before: its finished copy's report depends on where it stopped and why.
    auto state = [](const wscap::WscapReader& r) { return std::tuple(r.completeOffset(), r.truncated(), r.problem()); };
    std::vector<decltype(state(*m_streams[0]->reader))> before;
    for (const auto& s : m_streams)
        before.push_back(state(*s->reader));
    forEachIndexOnThreads(m_streams.size(), threads, [&](size_t i) {
        Stream& s = *m_streams[i];
        s.reader->resume(); // false for a compressed stream, read whole the first time
        s.converter->readAvailable(*s.reader, ImportControl());
    });
    bool grew = m_added || !m_last.session;
    for (size_t i = 0; i < m_streams.size(); ++i)
        grew = grew || state(*m_streams[i]->reader) != before[i];
    grew = grew || skipped.toText() != m_lastSkipped;
    if (!grew) {
        // Nothing new: the model of the last update is still the whole truth (a poll of an idle
        // capture costs a stat and a read per stream, not a rebuild).
        ImportResult same = m_last;
        same.timings.clear();
        same.timings.emplace_back("nothing new", std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
        return same;
    }
    const auto readEnd = std::chrono::steady_clock::now();
    std::vector<ConvertedCaptureStream> converted(m_streams.size());
    forEachIndexOnThreads(m_streams.size(), threads, [&](size_t i) {
        const Stream& s = *m_streams[i];
        ConvertedCaptureStream& c = converted[i];
        c.converter = s.converter->finishedCopy(*s.reader);
        c.file = s.file;
        c.shown = s.shown;
        c.bytes = s.bytes;
        c.bytesRead = s.reader->completeOffset();
        c.cut = s.cut;
    });
    const double read = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const std::string skippedText = skipped.toText();
    mergeCaptureStreams(m_dir, std::move(converted), skipped, result, control, read);
    // Where a live update's time goes (benches): reading what arrived, O(new bytes); the finished
    // copies and the merge, O(records so far).
    auto seconds = [](auto from, auto to) { return std::chrono::duration<double>(to - from).count(); };
    result.timings.insert(result.timings.begin(), {{"live: read new records", seconds(t0, readEnd)},
                                                   {"live: finished copies", read - seconds(t0, readEnd)}});
    m_last = result;
    m_lastSkipped = skippedText;
    return result;
}

std::vector<std::pair<std::string, uint64_t>> LiveCaptureImport::bytesRead() const {
    std::vector<std::pair<std::string, uint64_t>> out;
    for (const auto& s : m_streams)
        out.emplace_back(s->shown, s->reader->completeOffset());
    return out;
}

} // namespace ws
