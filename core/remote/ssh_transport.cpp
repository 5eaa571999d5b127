#include "remote/ssh_transport.h"

// Process spawning through capture/launch (plain C++), as nsys_report_export.cpp does: the ssh
// command line, quoting and the explanation of ssh's failures are remote capture's own.
#include "launch/launcher.h"
#include "launch/remotecapture.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <sstream>

namespace ws {

namespace {

struct SshRun {
    bool started = false;
    ExitStatus status;
    std::string err;     // what the remote side or ssh said on stderr (the tail)
    std::string out;     // stdout, when not sent to a file
    uint64_t written = 0;
    bool cancelled = false;
    std::string startError;
};

// The path as a word for the remote shell: quoted, except a leading ~/ that the shell must expand.
std::string remotePath(const std::string& path) {
    if (path == "~")
        return "~";
    if (path.rfind("~/", 0) == 0)
        return std::string("~/").append(remote::shellQuote(path.substr(2)));
    return remote::shellQuote(path);
}

// Runs `command` on the host through ssh. stdout goes to outFd when given (counted, with progress
// that may cancel), else into SshRun::out.
SshRun runSsh(const RemoteUrl& url, const std::string& command, int outFd = -1, const HttpProgress& progress = {},
              uint64_t already = 0, const std::function<void(uint64_t)>& written = {}) {
    SshRun run;
    std::vector<std::string> argv = remote::sshCommand();
    if (url.port > 0)
        argv.insert(argv.end(), {"-p", std::to_string(url.port)});
    argv.insert(argv.end(), {"--", url.account, command});
    int outPipe[2], errPipe[2];
    if (::pipe2(outPipe, O_CLOEXEC) != 0 || ::pipe2(errPipe, O_CLOEXEC) != 0) {
        run.startError = std::strerror(errno);
        return run;
    }
    const int devNull = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
    LaunchSpec spec;
    spec.program = argv.front();
    spec.args.assign(argv.begin() + 1, argv.end());
    spec.stdinFd = devNull;
    spec.stdoutFd = outPipe[1];
    spec.stderrFd = errPipe[1];
    Launcher child;
    run.started = child.start(spec, &run.startError);
    ::close(outPipe[1]);
    ::close(errPipe[1]);
    if (devNull >= 0)
        ::close(devNull);
    bool outOpen = run.started, errOpen = run.started;
    while (outOpen || errOpen) {
        pollfd fds[2] = {{outOpen ? outPipe[0] : -1, POLLIN, 0}, {errOpen ? errPipe[0] : -1, POLLIN, 0}};
        if (::poll(fds, 2, 200) < 0 && errno != EINTR)
            break;
        char buf[65536];
        if (outOpen && (fds[0].revents & (POLLIN | POLLHUP | POLLERR))) {
            const ssize_t n = ::read(outPipe[0], buf, sizeof buf);
            if (n <= 0) {
                outOpen = false;
            } else if (outFd < 0) {
                run.out.append(buf, static_cast<size_t>(n));
            } else {
                for (ssize_t off = 0; off < n;) {
                    const ssize_t w = ::write(outFd, buf + off, static_cast<size_t>(n - off));
                    if (w <= 0) {
                        run.startError = std::string("cannot write the download: ").append(std::strerror(errno));
                        child.stop(1000);
                        outOpen = errOpen = false;
                        break;
                    }
                    off += w;
                }
                run.written += static_cast<uint64_t>(n);
                if (written)
                    written(already + run.written);
            }
        }
        if (errOpen && (fds[1].revents & (POLLIN | POLLHUP | POLLERR))) {
            const ssize_t n = ::read(errPipe[0], buf, sizeof buf);
            if (n <= 0)
                errOpen = false;
            else if (run.err.size() < 65536)
                run.err.append(buf, static_cast<size_t>(n));
        }
        if (progress && !progress(already + run.written, -1)) {
            run.cancelled = true;
            child.stop(1000);
            break;
        }
    }
    ::close(outPipe[0]);
    ::close(errPipe[0]);
    if (run.started)
        run.status = child.wait();
    return run;
}

std::string lastLine(std::string text) {
    while (!text.empty() && (text.back() == '\n' || text.back() == '\r'))
        text.pop_back();
    const size_t nl = text.rfind('\n');
    return nl == std::string::npos ? text : text.substr(nl + 1);
}

// A failed run as an HTTP-like status and one sentence.
long failureStatus(const SshRun& run, const RemoteUrl& url, std::string* error, bool* network) {
    *network = false;
    if (!run.started) {
        *network = true;
        *error = std::string("cannot run ssh: ").append(run.startError);
        return 0;
    }
    if (run.status.signaled || run.status.code == 255) { // ssh's own failure: no connection or login
        *network = true;
        *error = remote::explainSshFailure(url.account, run.err);
        return 0;
    }
    const std::string said = lastLine(run.err);
    const bool denied = said.find("ermission denied") != std::string::npos;
    *error = (denied ? "permission denied" : said.find("No such file") != std::string::npos ? "no such file or folder"
                                                                                              : said) +
             " on " + url.account + ": " + url.key;
    return denied ? 403 : 404;
}

} // namespace

HttpResponse sshHead(const RemoteUrl& url) {
    HttpResponse r;
    const SshRun run = runSsh(url, std::string("stat -L -c '%s %Y' -- ").append(remotePath(url.key)));
    if (run.started && run.status.success()) {
        std::istringstream in(run.out);
        int64_t size = -1, mtime = 0;
        if (in >> size >> mtime) {
            r.status = 200;
            r.size = size;
            r.etag = std::to_string(size).append("-").append(std::to_string(mtime));
            return r;
        }
        r.status = 502;
        r.error = std::string("the host answered stat with something else: ").append(lastLine(run.out));
        return r;
    }
    r.status = failureStatus(run, url, &r.error, &r.networkError);
    return r;
}

HttpDownload sshDownload(const RemoteUrl& url, const std::string& partPath, const HttpProgress& progress,
                         const std::function<void(uint64_t)>& written) {
    HttpDownload d;
    const int fd = ::open(partPath.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (fd < 0) {
        d.error = std::string("cannot write ").append(partPath).append(": ").append(std::strerror(errno));
        return d;
    }
    struct stat st {};
    const uint64_t already = ::fstat(fd, &st) == 0 ? static_cast<uint64_t>(st.st_size) : 0;
    d.resumes = already > 0 ? 1 : 0;
    // tail -c +N starts at byte N (1-based): the part file's bytes are not sent again.
    const SshRun run = runSsh(url, std::string("tail -c +").append(std::to_string(already + 1)).append(" -- ").append(remotePath(url.key)), fd,
                              progress, already, written);
    ::close(fd);
    d.bytes = already + run.written;
    if (run.cancelled) {
        d.cancelled = true;
        return d;
    }
    if (run.started && run.status.success() && run.startError.empty()) {
        d.ok = true;
        d.status = 200;
        return d;
    }
    if (!run.startError.empty() && run.started) {
        d.error = run.startError;
        return d;
    }
    bool network = false;
    d.status = failureStatus(run, url, &d.error, &network);
    return d;
}

RemoteListing listSshFolder(const RemoteUrl& url) {
    RemoteListing listing;
    listing.pages = 1;
    const SshRun run = runSsh(url, std::string("find -L ").append(remotePath(url.key)).append(" -type f -printf '%s %T@ %p\\n'"));
    // find exits 1 when some entries could not be read; what it listed is still good.
    if (!run.started || run.status.signaled || run.status.code == 255 || (run.status.code != 0 && run.out.empty())) {
        bool network = false;
        failureStatus(run, url, &listing.error, &network);
        return listing;
    }
    std::string authority = url.account;
    if (url.port > 0)
        authority.append(":").append(std::to_string(url.port));
    std::istringstream lines(run.out);
    for (std::string line; std::getline(lines, line);) {
        std::istringstream fields(line);
        RemoteObject o;
        std::string mtime;
        if (!(fields >> o.size >> mtime))
            continue;
        std::getline(fields >> std::ws, o.key);
        if (o.key.empty())
            continue;
        o.etag = std::to_string(o.size).append("-").append(mtime.substr(0, mtime.find('.')));
        o.url = std::string("ssh://").append(authority).append(o.key.front() == '/' ? "" : "/").append(o.key);
        listing.objects.push_back(std::move(o));
    }
    return listing;
}

} // namespace ws
