#include "launch/streamprogress.h"

#include "format/wscapcodec.h"
#include "launch/capturesetup.h"

#include <sys/stat.h>

namespace ws {

using namespace wscap;

StreamProgress::~StreamProgress() {
    for (auto& [path, file] : m_files)
        if (file.f)
            std::fclose(file.f);
}

void StreamProgress::poll(const std::string& dir) {
    m_bytes = 0;
    for (const std::string& path : capturesetup::captureFiles(dir)) {
        File& file = m_files[path];
        if (!file.f)
            file.f = std::fopen(path.c_str(), "rb");
        if (!file.f)
            continue;
        scan(file);
        struct stat st {};
        if (::stat(path.c_str(), &st) == 0)
            m_bytes += static_cast<uint64_t>(st.st_size);
    }
}

void StreamProgress::scan(File& file) {
    std::clearerr(file.f);
    if (!file.headerChecked) {
        uint8_t head[kFileHeaderSize];
        if (std::fseek(file.f, 0, SEEK_SET) != 0 || std::fread(head, 1, sizeof head, file.f) != sizeof head)
            return;
        file.headerChecked = true;
        file.offset = kFileHeaderSize;
    }
    for (;;) {
        uint8_t h[kRecordHeaderSize];
        if (std::fseek(file.f, static_cast<long>(file.offset), SEEK_SET) != 0 ||
            std::fread(h, 1, sizeof h, file.f) != sizeof h)
            return;
        const uint16_t type = static_cast<uint16_t>(h[0] | h[1] << 8);
        const uint32_t size = uint32_t(h[4]) | uint32_t(h[5]) << 8 | uint32_t(h[6]) << 16 | uint32_t(h[7]) << 24;
        if (size > kMaxPayloadSize)
            return; // corrupt: stop watching this stream
        const auto t = static_cast<RecordType>(type);
        const bool wanted = t == RecordType::Dropped || t == RecordType::Error || t == RecordType::Footer ||
                            t == RecordType::StreamHeader;
        std::vector<uint8_t> payload;
        if (wanted) {
            payload.resize(size);
            if (size && std::fread(payload.data(), 1, size, file.f) != size)
                return; // record not complete yet
        } else {
            // Only count a record once its last byte is on disk.
            if (size && (std::fseek(file.f, static_cast<long>(file.offset + kRecordHeaderSize + size - 1), SEEK_SET) != 0 ||
                         std::fgetc(file.f) == EOF))
                return;
        }
        file.offset += kRecordHeaderSize + size;
        ++m_records;
        if (t == RecordType::StreamHeader) {
            StreamHeaderRecord r;
            if (decodeRecord(payload.data(), payload.size(), &r))
                file.pid = r.pid;
        } else if (t == RecordType::Dropped) {
            DroppedRecord r;
            if (decodeRecord(payload.data(), payload.size(), &r))
                m_dropped += r.count;
        } else if (t == RecordType::Error) {
            ErrorRecord r;
            if (decodeRecord(payload.data(), payload.size(), &r) &&
                r.severity != static_cast<uint8_t>(ErrorSeverity::Info))
                m_problems.push_back({file.pid, r.severity, r.code, r.where.empty() ? r.message : r.where + ": " + r.message});
        } else if (t == RecordType::Footer) {
            ++m_footers;
        }
    }
}

} // namespace ws
