#include "launch/dirfollower.h"

#include "launch/capturesetup.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <string>

namespace ws {

void DirFollower::start() {
    for (const std::string& path : capturesetup::captureFiles(m_dir))
        m_ignored.insert(path);
}

bool DirFollower::poll(const DataFn& fn) {
    std::string buffer;
    for (const std::string& path : capturesetup::captureFiles(m_dir)) {
        if (m_ignored.count(path))
            continue;
        const std::string name = path.substr(path.rfind('/') + 1);
        struct stat st {};
        if (::stat(path.c_str(), &st) != 0)
            continue;
        uint64_t& sent = m_sent[name];
        const auto size = static_cast<uint64_t>(st.st_size);
        if (size < sent)
            sent = 0;
        if (size == sent)
            continue;
        const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
        if (fd < 0)
            continue;
        while (sent < size) {
            buffer.resize(static_cast<size_t>(std::min<uint64_t>(m_chunk, size - sent)));
            const ssize_t got = ::pread(fd, buffer.data(), buffer.size(), static_cast<off_t>(sent));
            if (got <= 0)
                break;
            if (!fn(name, sent, std::string_view(buffer.data(), static_cast<size_t>(got)))) {
                ::close(fd);
                return false;
            }
            sent += static_cast<uint64_t>(got);
            m_bytes += static_cast<uint64_t>(got);
        }
        ::close(fd);
    }
    return true;
}

} // namespace ws
