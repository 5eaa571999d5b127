#include "launch/dirfollower.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <string>
#include <vector>

namespace ws {

namespace {

std::vector<std::string> captureFiles(const std::string& dir) {
    std::vector<std::string> names;
    if (DIR* d = ::opendir(dir.c_str())) {
        while (const dirent* e = ::readdir(d)) {
            const std::string name = e->d_name;
            if (name.size() > 6 && name.compare(name.size() - 6, 6, ".wscap") == 0)
                names.push_back(name);
        }
        ::closedir(d);
    }
    return names;
}

} // namespace

void DirFollower::start() {
    for (const std::string& name : captureFiles(m_dir))
        m_ignored.insert(name);
}

bool DirFollower::poll(const DataFn& fn) {
    std::string buffer;
    for (const std::string& name : captureFiles(m_dir)) {
        if (m_ignored.count(name))
            continue;
        const std::string path = m_dir + "/" + name;
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
