#include "cli/streamhost.h"

#include "launch/streamframes.h"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

namespace ws {

namespace {

void setNonBlocking(int fd) {
    const int flags = ::fcntl(fd, F_GETFL);
    if (flags >= 0)
        ::fcntl(fd, F_SETFL, flags | O_NONBLOCK);
}

// Beyond this much unsent data the client is not keeping up; the connection counts as dropped.
// (Capture bytes wait in their files while the channel is behind: this bounds the program output.)
constexpr size_t kMaxPending = 256u << 20;

} // namespace

bool StreamHost::open(const std::string& outputDir, std::string* why) {
    m_dir = outputDir;
    m_follower = DirFollower(outputDir);
    m_follower.start();
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) {
        *why = std::string("cannot create a pipe: ") + std::strerror(errno);
        return false;
    }
    m_outRead = fds[0];
    m_outWrite = fds[1];
    setNonBlocking(m_outRead);
    m_log = ::open((outputDir + "/program-output.log").c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    // The connection may go while the program runs on: writes to it must fail, not kill us.
    ::signal(SIGPIPE, SIG_IGN);
    ::signal(SIGHUP, SIG_IGN);
    setNonBlocking(STDIN_FILENO);
    setNonBlocking(STDOUT_FILENO);
    m_pending.assign(frames::kGreeting);
    flush(false);
    return true;
}

void StreamHost::launched() {
    if (m_outWrite >= 0)
        ::close(m_outWrite);
    m_outWrite = -1;
}

void StreamHost::queue(const std::string& frame) {
    if (m_dropped)
        return;
    m_pending += frame;
    if (pendingBytes() > kMaxPending)
        m_dropped = true;
}

void StreamHost::flush(bool block) {
    while (!m_dropped && pendingBytes() > 0) {
        const ssize_t n = ::write(STDOUT_FILENO, m_pending.data() + m_written, pendingBytes());
        if (n > 0) {
            // Written bytes are dropped from the front only now and then: erasing after every
            // write (a pipe takes 64 KB at a time) moved the whole backlog each time.
            m_written += static_cast<size_t>(n);
            if (m_written == m_pending.size()) {
                m_pending.clear();
                m_written = 0;
            } else if (m_written > (4u << 20) && m_written * 2 > m_pending.size()) {
                m_pending.erase(0, m_written);
                m_written = 0;
            }
            m_lastProgress = std::chrono::steady_clock::now();
            continue;
        }
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && errno == EAGAIN) {
            if (std::chrono::steady_clock::now() - m_lastProgress > std::chrono::seconds(kStallSeconds)) {
                m_dropped = true;
                break;
            }
            if (!block)
                return;
            pollfd p{STDOUT_FILENO, POLLOUT, 0};
            ::poll(&p, 1, 200);
            continue;
        }
        m_dropped = true; // EPIPE: the client is gone
    }
    if (m_dropped) {
        m_pending.clear();
        m_written = 0;
    }
}

void StreamHost::readOutput() {
    char buf[65536];
    for (;;) {
        const ssize_t n = ::read(m_outRead, buf, sizeof buf);
        if (n <= 0)
            break;
        if (m_log >= 0 && ::write(m_log, buf, static_cast<size_t>(n)) < 0) {
            ::close(m_log); // a full disk: the output still streams
            m_log = -1;
        }
        std::string f;
        frames::append(f, frames::Kind::Output, "", 0, std::string_view(buf, static_cast<size_t>(n)));
        queue(f);
    }
}

void StreamHost::sendNewBytes(bool block) {
    if (m_dropped)
        return;
    m_follower.poll([&](const std::string& name, uint64_t offset, std::string_view data) {
        std::string f;
        frames::append(f, frames::Kind::Data, name, offset, data);
        queue(f);
        flush(block);
        // A slow channel: leave the rest in the files for the next round rather than reading the
        // whole capture into memory ahead of it.
        return !m_dropped && (block || pendingBytes() < kReadAhead);
    });
}

int StreamHost::pump() {
    int signal = 0;
    char c[64];
    for (;;) {
        const ssize_t n = ::read(STDIN_FILENO, c, sizeof c);
        if (n > 0) {
            for (ssize_t i = 0; i < n; ++i)
                if (c[i] == frames::kStopByte)
                    signal = ++m_stopRequests == 1 ? SIGINT : SIGKILL;
            continue;
        }
        if (n == 0 && !m_dropped && m_stopRequests == 0)
            m_dropped = true; // the client's end closed without asking to stop
        break;
    }
    readOutput();
    sendNewBytes(false);
    flush(false);
    return signal;
}

void StreamHost::note(const std::string& line) {
    std::string f;
    frames::append(f, frames::Kind::Note, "", 0, line);
    queue(f);
    flush(false);
}

void StreamHost::finish(int exitCode) {
    readOutput();
    sendNewBytes(true);
    std::string f;
    frames::append(f, frames::Kind::Exit, "", 0, std::to_string(exitCode));
    queue(f);
    flush(true);
    if (m_outRead >= 0)
        ::close(m_outRead);
    if (m_log >= 0)
        ::close(m_log);
}

} // namespace ws
