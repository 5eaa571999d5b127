#include "import/ncu_report_export.h"

// Process spawning as nsys_report_export.cpp does it: capture/launch's Launcher (fork + execvp).
#include "launch/launcher.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <optional>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace ws {

namespace fs = std::filesystem;

namespace {

bool isExecutableFile(const std::string& path) {
    struct stat st {};
    return !path.empty() && ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(path.c_str(), X_OK) == 0;
}

bool endsWith(const std::string& s, const std::string& suffix) {
    return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// The last lines of a text (ncu's error), joined by "; ".
std::string lastLines(const std::string& text, size_t count) {
    std::vector<std::string> lines;
    size_t from = 0;
    while (from < text.size()) {
        const size_t end = std::min(text.find('\n', from), text.size());
        if (end > from)
            lines.push_back(text.substr(from, end - from));
        from = end + 1;
    }
    std::string out;
    for (size_t i = lines.size() > count ? lines.size() - count : 0; i < lines.size(); ++i)
        out += (out.empty() ? "" : "; ") + lines[i];
    return out;
}

// Runs ncu with these arguments; its stdout into *out, its stderr into *err. False when it could
// not start or failed, with *error set.
bool runNcu(const std::string& ncu, const std::vector<std::string>& args, std::string* out, std::string* error) {
    int outPipe[2], errPipe[2];
    if (::pipe2(outPipe, O_CLOEXEC) != 0)
        return *error = std::string("cannot run ncu: ") + std::strerror(errno), false;
    if (::pipe2(errPipe, O_CLOEXEC) != 0) {
        ::close(outPipe[0]);
        ::close(outPipe[1]);
        return *error = std::string("cannot run ncu: ") + std::strerror(errno), false;
    }
    const int devNull = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
    LaunchSpec spec;
    spec.program = ncu;
    spec.args = args;
    spec.stdinFd = devNull;
    spec.stdoutFd = outPipe[1];
    spec.stderrFd = errPipe[1];
    Launcher child;
    std::string startError;
    const bool started = child.start(spec, &startError);
    ::close(outPipe[1]);
    ::close(errPipe[1]);
    if (devNull >= 0)
        ::close(devNull);
    if (!started) {
        ::close(outPipe[0]);
        ::close(errPipe[0]);
        return *error = "cannot run " + ncu + ": " + startError, false;
    }
    std::string err;
    pollfd fds[2] = {{outPipe[0], POLLIN, 0}, {errPipe[0], POLLIN, 0}};
    int open = 2;
    while (open > 0) {
        if (::poll(fds, 2, 1000) < 0 && errno != EINTR)
            break;
        for (pollfd& p : fds) {
            if (p.fd < 0 || !(p.revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
            char buf[65536];
            const ssize_t n = ::read(p.fd, buf, sizeof buf);
            if (n > 0) {
                (p.fd == outPipe[0] ? *out : err).append(buf, static_cast<size_t>(n));
            } else if (n == 0 || (errno != EINTR && errno != EAGAIN)) {
                ::close(p.fd);
                p.fd = -1;
                --open;
            }
        }
    }
    for (pollfd& p : fds)
        if (p.fd >= 0)
            ::close(p.fd);
    std::optional<ExitStatus> status;
    while (!(status = child.poll()))
        ::usleep(10000);
    if (!status->success()) {
        const std::string said = lastLines(err.empty() ? *out : err, 3);
        *error = "ncu --import failed (" +
                 (status->signaled ? "killed by signal " + std::to_string(status->signal)
                                   : "exit code " + std::to_string(status->code)) +
                 ")" + (said.empty() ? std::string() : ": " + said);
        return false;
    }
    return true;
}

std::string newestNcuUnder(const std::string& root) {
    std::string best;
    std::error_code ec;
    for (fs::directory_iterator it(root, ec), end; !ec && it != end; it.increment(ec)) {
        const std::string product = it->path().filename().string();
        if (product.rfind("nsight-compute", 0) != 0)
            continue;
        std::vector<fs::path> candidates{it->path() / "ncu"};
        std::error_code sub;
        for (fs::directory_iterator v(it->path(), sub), vend; !sub && v != vend; v.increment(sub))
            candidates.push_back(v->path() / "ncu");
        for (const fs::path& c : candidates)
            if (isExecutableFile(c.string()) && c.string() > best) // versions sort as text here: a hint
                best = c.string();
    }
    return best;
}

} // namespace

std::string findNcu(std::string* why) {
    if (const char* configured = std::getenv("WARPSCOPE_NCU"); configured && *configured) {
        if (isExecutableFile(configured))
            return configured;
        if (why)
            *why = std::string("WARPSCOPE_NCU (") + configured + ") is not an executable file";
        return {};
    }
    const char* path = std::getenv("PATH");
    const std::string list = path ? path : "";
    for (size_t pos = 0; pos <= list.size();) {
        const size_t end = std::min(list.find(':', pos), list.size());
        const std::string dir = list.substr(pos, end - pos);
        if (!dir.empty() && isExecutableFile(dir + "/ncu"))
            return dir + "/ncu";
        pos = end + 1;
    }
    if (isExecutableFile("/usr/local/cuda/bin/ncu"))
        return "/usr/local/cuda/bin/ncu";
    if (std::string p = newestNcuUnder("/opt/nvidia"); !p.empty())
        return p;
    if (why)
        *why = "no ncu was found (WARPSCOPE_NCU, PATH, /usr/local/cuda/bin, /opt/nvidia/nsight-compute*)";
    return {};
}

bool readNcuFile(const std::string& path, NcuResults& into, std::string& error) {
    if (!endsWith(path, ".ncu-rep"))
        return readNcuCsvFile(path, into, error);
    std::string why;
    const std::string ncu = findNcu(&why);
    if (ncu.empty()) {
        error = "an Nsight Compute report (.ncu-rep) is read through Nsight Compute's own `ncu --import`, and " + why +
                ": install Nsight Compute, or export the report where it is (ncu --import " + path +
                " --csv --page raw > raw.csv, and --page details) and attach the CSV files";
        return false;
    }
    for (const char* page : {"raw", "details"}) {
        std::string csv;
        if (!runNcu(ncu, {"--import", path, "--csv", "--page", page}, &csv, &error))
            return false;
        if (!readNcuCsv(csv, into, error)) {
            error = "ncu --import " + std::string(page) + ": " + error;
            return false;
        }
    }
    return true;
}

} // namespace ws
