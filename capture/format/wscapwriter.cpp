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
    m_bytes = 0;
    return write(fileHeader(), error);
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
