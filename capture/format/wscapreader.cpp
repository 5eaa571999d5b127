#include "format/wscapreader.h"

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace ws::wscap {

WscapReader::~WscapReader() {
    if (m_file)
        std::fclose(m_file);
}

bool WscapReader::open(const std::string& path, std::string* error) {
    m_file = std::fopen(path.c_str(), "rb");
    if (!m_file) {
        *error = "cannot open " + path + ": " + std::strerror(errno);
        return false;
    }
    return readHeader(error);
}

bool WscapReader::openMemory(const void* data, size_t size, std::string* error) {
    m_memory = static_cast<const uint8_t*>(data);
    m_memorySize = size;
    return readHeader(error);
}

bool WscapReader::sniff(const void* data, size_t size) {
    return size >= sizeof(kMagic) && std::memcmp(data, kMagic, sizeof(kMagic)) == 0;
}

size_t WscapReader::readBytes(void* dst, size_t n) {
    size_t got;
    if (m_file) {
        got = std::fread(dst, 1, n, m_file);
    } else {
        got = m_offset < m_memorySize ? std::min<uint64_t>(n, m_memorySize - m_offset) : 0;
        std::memcpy(dst, m_memory + m_offset, got);
    }
    m_offset += got;
    return got;
}

bool WscapReader::readHeader(std::string* error) {
    uint8_t h[kFileHeaderSize];
    const size_t got = readBytes(h, sizeof(h));
    if (got < sizeof(kMagic) || !sniff(h, got)) {
        *error = "not a Warpscope capture stream (bad magic)";
        m_status = Status::Corrupt;
        return false;
    }
    if (got < sizeof(h)) {
        *error = "capture stream cut off inside its file header";
        m_status = Status::Truncated;
        return false;
    }
    m_major = static_cast<uint16_t>(h[8] | (h[9] << 8));
    m_minor = static_cast<uint16_t>(h[10] | (h[11] << 8));
    if (m_major != kVersionMajor) {
        *error = "capture stream version " + std::to_string(m_major) + "." + std::to_string(m_minor) +
                 " is not supported (this reader reads version " + std::to_string(kVersionMajor) + ".x)";
        m_status = Status::Corrupt;
        return false;
    }
    m_complete = m_offset;
    return true;
}

bool WscapReader::resume() {
    if (!m_file || (m_status != Status::End && m_status != Status::Truncated))
        return false;
    // fseek drops the stdio buffer and the end-of-file flag: bytes appended since are read.
    if (std::fseek(m_file, static_cast<long>(m_complete), SEEK_SET) != 0)
        return false;
    m_offset = m_complete;
    m_status = Status::Record;
    m_problem.clear();
    return true;
}

WscapReader::Status WscapReader::next(RawRecord* record) {
    if (m_status != Status::Record)
        return m_status;
    const uint64_t at = m_offset;
    uint8_t h[kRecordHeaderSize];
    const size_t got = readBytes(h, sizeof(h));
    if (got == 0) {
        m_status = Status::End;
        return m_status;
    }
    if (got < sizeof(h)) {
        m_status = Status::Truncated;
        m_problem = "record header cut off at offset " + std::to_string(at);
        return m_status;
    }
    const uint32_t size = static_cast<uint32_t>(h[4]) | static_cast<uint32_t>(h[5]) << 8 |
                          static_cast<uint32_t>(h[6]) << 16 | static_cast<uint32_t>(h[7]) << 24;
    if (size > kMaxPayloadSize) {
        m_status = Status::Corrupt;
        m_problem = "implausible record size " + std::to_string(size) + " at offset " + std::to_string(at);
        return m_status;
    }
    record->type = static_cast<uint16_t>(h[0] | (h[1] << 8));
    record->flags = static_cast<uint16_t>(h[2] | (h[3] << 8));
    record->offset = at;
    record->payload.resize(size);
    if (readBytes(record->payload.data(), size) < size) {
        m_status = Status::Truncated;
        m_problem = "record of type " + std::to_string(record->type) + " cut off at offset " + std::to_string(at);
        return m_status;
    }
    m_complete = m_offset;
    return Status::Record;
}

} // namespace ws::wscap
