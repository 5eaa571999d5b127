#include "format/wscapwriter.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace ws::wscap {

WscapWriter::~WscapWriter() {
    close();
}

bool WscapWriter::open(const std::string& path, std::string* error) {
    close();
    m_fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (m_fd < 0) {
        *error = "cannot create " + path + ": " + std::strerror(errno);
        return false;
    }
    return started(error);
}

int createExclusive(const std::string& dir, const std::string& stem, const std::string& extension, std::string* path,
                    std::string* error) {
    constexpr int kMaxTries = 10000;
    for (int n = 1; n <= kMaxTries; ++n) {
        std::string candidate = dir;
        candidate.append("/").append(stem);
        if (n > 1)
            candidate.append("-").append(std::to_string(n));
        candidate.append(extension);
        const int fd = ::open(candidate.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
        if (fd >= 0) {
            *path = candidate;
            return fd;
        }
        if (errno != EEXIST) {
            *error = "cannot create " + candidate + ": " + std::strerror(errno);
            return -1;
        }
    }
    *error = "cannot create a file in " + dir + ": " + std::to_string(kMaxTries) + " named " + stem + " exist";
    return -1;
}

bool WscapWriter::createNew(const std::string& dir, const std::string& stem, std::string* path, std::string* error) {
    close();
    m_fd = createExclusive(dir, stem, ".wscap", path, error);
    return m_fd >= 0 && started(error);
}

bool WscapWriter::started(std::string* error) {
    m_bytes = 0;
    return write(fileHeader(), error);
}

std::string streamStem(const std::string& hostname, uint32_t pid) {
    std::string host = hostname.empty() ? std::string("host") : hostname;
    for (char& c : host)
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' ||
              c == '-'))
            c = '_';
    return host + "-" + std::to_string(pid);
}

bool WscapWriter::write(const std::string& bytes, std::string* error) {
    if (m_fd < 0) {
        *error = "capture file is not open";
        return false;
    }
    size_t done = 0;
    while (done < bytes.size()) {
        const ssize_t n = ::write(m_fd, bytes.data() + done, bytes.size() - done);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            *error = std::string("cannot write the capture file: ") + std::strerror(errno);
            return false;
        }
        done += static_cast<size_t>(n);
    }
    m_bytes += done;
    return true;
}

void WscapWriter::close() {
    if (m_fd >= 0)
        ::close(m_fd);
    m_fd = -1;
}

} // namespace ws::wscap
