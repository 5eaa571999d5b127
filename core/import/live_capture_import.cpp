#include "import/live_capture_import.h"

#include "import/capture_merge.h"

#include "format/wscapformat.h"
#include "format/wscapreader.h"

#include <chrono>
#include <filesystem>
#include <set>

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
    m_refs.clear();
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
        s->converter = std::make_unique<CaptureStreamConverter>(static_cast<uint32_t>(m_streams.size()), &m_refs);
        m_streams.push_back(std::move(s));
    }
    return true;
}

ImportResult LiveCaptureImport::update(const ImportControl& control) {
    ImportResult result;
    const auto t0 = std::chrono::steady_clock::now();
    ImportReport skipped;
    if (!addNewStreams(skipped)) {
        restart();
        skipped = ImportReport();
        addNewStreams(skipped);
    }
    if (m_streams.empty()) {
        result.error = "the directory holds no capture streams (.wscap files) yet";
        return result;
    }
    // Reading is never cancelled halfway: a converter must see every record once, in order.
    ImportControl reading;
    for (auto& s : m_streams) {
        s->reader->resume(); // false for a compressed stream, read whole the first time
        s->converter->readAvailable(*s->reader, reading);
    }
    std::vector<ConvertedCaptureStream> converted;
    converted.reserve(m_streams.size());
    for (const auto& s : m_streams) {
        ConvertedCaptureStream c;
        c.converter = s->converter->finishedCopy(*s->reader);
        c.file = s->file;
        c.shown = s->shown;
        c.bytes = s->bytes;
        c.bytesRead = s->reader->completeOffset();
        c.cut = s->cut;
        converted.push_back(std::move(c));
    }
    const double read = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    mergeCaptureStreams(m_dir, std::move(converted), m_refs, skipped, result, control, read);
    return result;
}

std::vector<std::pair<std::string, uint64_t>> LiveCaptureImport::bytesRead() const {
    std::vector<std::pair<std::string, uint64_t>> out;
    for (const auto& s : m_streams)
        out.emplace_back(s->shown, s->reader->completeOffset());
    return out;
}

} // namespace ws
