#include "import/nsys_report_export.h"

// Process spawning: core's one child process, run with capture/launch's Launcher (fork + execvp,
// exec errors reported by start(), its own process group so a stop reaches nsys' helpers, reaped
// by its destructor). That library is plain C++/POSIX with no Qt and no core, already built on
// every machine for the GUI's New Capture dialog, so linking it here keeps a single spawning
// implementation and lets every caller of importTraceFile (GUI, CLI, job loading) convert a report
// the same way, where QProcess would have made the conversion a GUI-only second import path.
#include "launch/launcher.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstdio>
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

std::string env(const char* name) {
    const char* v = std::getenv(name);
    return v ? std::string(v) : std::string();
}

bool isExecutableFile(const std::string& path) {
    struct stat st {};
    return !path.empty() && ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(path.c_str(), X_OK) == 0;
}

uint64_t fnv1a(std::string_view text, uint64_t h = 1469598103934665603ull) {
    for (unsigned char c : text) {
        h ^= c;
        h *= 1099511628211ull;
    }
    return h;
}

std::string hex16(uint64_t v) {
    char buf[17];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(v));
    return buf;
}

// Numeric parts of a version folder name ("2025.1.1.110-251135" -> 2025, 1, 1, 110, 251135).
std::vector<long> versionParts(const std::string& name) {
    std::vector<long> parts;
    for (size_t i = 0; i < name.size();) {
        if (!std::isdigit(static_cast<unsigned char>(name[i]))) {
            ++i;
            continue;
        }
        size_t j = i;
        while (j < name.size() && std::isdigit(static_cast<unsigned char>(name[j])))
            ++j;
        parts.push_back(std::strtol(name.substr(i, std::min<size_t>(j - i, 9)).c_str(), nullptr, 10));
        i = j;
    }
    return parts;
}

/* Where a report's export lives: the stem names the report, the key its state. */
struct CacheName {
    std::string dir, stem, key;
    std::string finalPath() const { return dir + "/" + stem + "-" + key + ".sqlite"; }
};

bool cacheName(const std::string& report, const NsysExportOptions& options, CacheName* out) {
    std::error_code ec;
    const std::string absolute = fs::absolute(report, ec).lexically_normal().string();
    struct stat st {};
    if (ec || ::stat(report.c_str(), &st) != 0)
        return false;
    out->dir = options.cacheDir.empty() ? defaultNsysExportCacheDir() : options.cacheDir;
    out->stem = hex16(fnv1a(absolute));
    // Size and mtime stand for the content: a report is written once by nsys, and hashing a
    // multi-GB report on every open would cost what the cache saves.
    const int64_t mtimeNs = int64_t(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
    out->key = hex16(fnv1a(std::to_string(st.st_size) + ":" + std::to_string(mtimeNs)));
    return true;
}

bool looksLikeSqlite(const std::string& path) {
    char head[16] = {};
    FILE* f = std::fopen(path.c_str(), "rb");
    if (!f)
        return false;
    const size_t n = std::fread(head, 1, sizeof head, f);
    std::fclose(f);
    return n == sizeof head && std::memcmp(head, "SQLite format 3\0", 16) == 0;
}

// The last percentage nsys printed ("Processing [=====   ] 42%"), -1 when none yet.
int lastPercent(const std::string& text) {
    for (size_t p = text.rfind('%'); p != std::string::npos && p > 0; p = text.rfind('%', p - 1)) {
        size_t b = p;
        while (b > 0 && std::isdigit(static_cast<unsigned char>(text[b - 1])) && p - b < 3)
            --b;
        if (b < p)
            return std::min(100, std::atoi(text.substr(b, p - b).c_str()));
        if (p == 0)
            break;
    }
    return -1;
}

// nsys' own words for a failure: its last non-empty lines, progress bars and control bytes left out.
std::string lastLines(const std::string& output, size_t count) {
    std::vector<std::string> lines;
    std::string line;
    auto flush = [&] {
        const size_t a = line.find_first_not_of(" \t");
        if (a != std::string::npos && line.find("[=") == std::string::npos)
            lines.push_back(line.substr(a));
        line.clear();
    };
    for (char c : output) {
        if (c == '\n' || c == '\r')
            flush();
        else if (static_cast<unsigned char>(c) >= 0x20 || c == '\t')
            line += c;
    }
    flush();
    std::string out;
    for (size_t i = lines.size() > count ? lines.size() - count : 0; i < lines.size(); ++i)
        out += (out.empty() ? "" : " / ") + lines[i];
    return out;
}

} // namespace

std::string nsysOnPath(const std::string& pathList) {
    size_t pos = 0;
    while (pos <= pathList.size()) {
        const size_t end = std::min(pathList.find(':', pos), pathList.size());
        const std::string dir = pathList.substr(pos, end - pos);
        if (!dir.empty() && isExecutableFile(dir + "/nsys"))
            return dir + "/nsys";
        pos = end + 1;
    }
    return {};
}

std::string newestNsysUnder(const std::string& root) {
    std::string best;
    std::vector<long> bestVersion;
    std::error_code ec;
    for (fs::directory_iterator it(root, ec), end; !ec && it != end; it.increment(ec)) {
        const std::string product = it->path().filename().string();
        if (product.rfind("nsight-systems", 0) != 0)
            continue;
        // Installers put versions under the product folder (nsight-systems/2025.1.1/bin/nsys);
        // some packages drop the version folder, and then the product name carries it.
        std::vector<std::pair<fs::path, std::string>> candidates{{it->path(), product}};
        std::error_code sub;
        for (fs::directory_iterator v(it->path(), sub), vend; !sub && v != vend; v.increment(sub))
            if (v->is_directory(sub))
                candidates.emplace_back(v->path(), v->path().filename().string());
        for (const auto& [dir, versionName] : candidates)
            for (const char* bin : {"bin/nsys", "target-linux-x64/nsys"}) {
                const std::string path = (dir / bin).string();
                if (!isExecutableFile(path))
                    continue;
                const std::vector<long> version = versionParts(versionName);
                if (best.empty() || version > bestVersion) {
                    best = path;
                    bestVersion = version;
                }
                break; // bin/ is the launcher; target-linux-x64/ only where bin/ is missing
            }
    }
    return best;
}

std::string defaultNsysExportCacheDir() {
    if (const std::string dir = env("WARPSCOPE_NSYS_CACHE"); !dir.empty())
        return dir;
    if (const std::string xdg = env("XDG_CACHE_HOME"); !xdg.empty())
        return xdg + "/warpscope/nsys-export";
    return env("HOME") + "/.cache/warpscope/nsys-export";
}

std::string findNsys(const NsysExportOptions& options, std::string* why) {
    std::string configured = options.nsys;
    if (configured.empty() && options.searchSystem)
        configured = env("WARPSCOPE_NSYS");
    if (!configured.empty()) {
        if (isExecutableFile(configured))
            return configured;
        if (why)
            *why = "the configured nsys (" + configured + ") is not an executable file";
        return {};
    }
    if (options.searchSystem) {
        if (std::string p = nsysOnPath(env("PATH")); !p.empty())
            return p;
        if (std::string p = newestNsysUnder("/opt/nvidia"); !p.empty())
            return p;
    }
    if (why)
        *why = "no nsys was found (on PATH, under /opt/nvidia/nsight-systems*, in WARPSCOPE_NSYS or in the app's Settings)";
    return {};
}

std::string nsysExportFailure(const NsysExportResult& result) {
    if (result.nsys.empty())
        return "an Nsight Systems report (.nsys-rep/.qdrep) is read through Nsight Systems' own `nsys export`, and " +
               result.error +
               ": Warpscope converts the report itself once nsys is installed or configured; or export it to SQLite "
               "with `nsys export --type sqlite -o out.sqlite report.nsys-rep` and open out.sqlite";
    return "could not convert the Nsight Systems report with " + result.nsys + ": " + result.error;
}

std::string cachedNsysExport(const std::string& report, const NsysExportOptions& options) {
    CacheName name;
    if (!cacheName(report, options, &name))
        return {};
    const std::string path = name.finalPath();
    return looksLikeSqlite(path) ? path : std::string();
}

NsysExportResult exportNsysReport(const std::string& report, const NsysExportOptions& options,
                                  const std::function<void(double)>& progress, const std::atomic<bool>* cancel) {
    NsysExportResult result;
    CacheName name;
    if (!cacheName(report, options, &name)) {
        result.error = std::string("cannot read the report: ") + std::strerror(errno);
        return result;
    }
    if (const std::string cached = cachedNsysExport(report, options); !cached.empty()) {
        result.sqlitePath = cached;
        result.fromCache = true;
        return result;
    }
    std::string why;
    result.nsys = findNsys(options, &why);
    if (result.nsys.empty()) {
        result.error = why;
        return result;
    }
    std::error_code ec;
    fs::create_directories(name.dir, ec);
    if (ec) {
        result.error = "cannot create the export cache " + name.dir + ": " + ec.message();
        return result;
    }
    // A temp name per process, so two exports of one report at once never write the same file.
    const std::string temp = name.dir + "/" + name.stem + "-" + name.key + ".tmp-" + std::to_string(::getpid()) + ".sqlite";
    fs::remove(temp, ec);

    int pipeFds[2];
    if (::pipe2(pipeFds, O_CLOEXEC) != 0) {
        result.error = std::string("cannot run nsys: ") + std::strerror(errno);
        return result;
    }
    const int devNull = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
    LaunchSpec spec;
    spec.program = result.nsys;
    spec.args = {"export", "--type", "sqlite", "--force-overwrite", "true", "--output", temp, report};
    spec.stdinFd = devNull; // nsys never waits on a prompt
    spec.stdoutFd = pipeFds[1];
    spec.stderrFd = pipeFds[1];
    Launcher child;
    std::string startError;
    const bool started = child.start(spec, &startError);
    ::close(pipeFds[1]);
    if (devNull >= 0)
        ::close(devNull);
    if (!started) {
        ::close(pipeFds[0]);
        result.error = "cannot run " + result.nsys + ": " + startError;
        return result;
    }

    std::string output; // the tail of what nsys said (its progress bar rewrites one line)
    int lastShown = -1;
    bool open = true;
    std::optional<ExitStatus> status;
    while (true) {
        if (cancel && cancel->load()) {
            child.stop(2000);
            ::close(pipeFds[0]);
            fs::remove(temp, ec);
            result.cancelled = true;
            return result;
        }
        bool quiet = true; // nothing read this round
        if (open) {
            pollfd p{pipeFds[0], POLLIN, 0};
            if (::poll(&p, 1, 100) > 0) {
                quiet = false;
                char buf[4096];
                const ssize_t n = ::read(pipeFds[0], buf, sizeof buf);
                if (n > 0) {
                    output.append(buf, static_cast<size_t>(n));
                    if (output.size() > 65536)
                        output.erase(0, output.size() - 32768);
                    const int percent = lastPercent(output);
                    if (percent > lastShown && progress) {
                        lastShown = percent;
                        progress(percent / 100.0);
                    }
                } else if (n == 0 || (errno != EINTR && errno != EAGAIN)) {
                    open = false; // nsys closed its output: it is exiting
                }
            }
        } else {
            ::usleep(20000);
        }
        if (!status)
            status = child.poll();
        // Exited, and its output is drained (or held open by a helper it left behind).
        if (status && (!open || quiet))
            break;
    }
    ::close(pipeFds[0]);
    const std::string said = lastLines(output, 4);
    if (!status->success()) {
        fs::remove(temp, ec);
        result.error = "nsys export failed (" +
                       (status->signaled ? "killed by signal " + std::to_string(status->signal)
                                         : "exit code " + std::to_string(status->code)) +
                       ")" + (said.empty() ? std::string() : ": " + said);
        return result;
    }
    if (!looksLikeSqlite(temp)) {
        fs::remove(temp, ec);
        result.error = "nsys export reported success but wrote no SQLite database" + (said.empty() ? std::string() : ": " + said);
        return result;
    }
    // Earlier exports of this report (it changed since) go; then the new one becomes visible.
    for (fs::directory_iterator it(name.dir, ec), end; !ec && it != end; it.increment(ec)) {
        const std::string f = it->path().filename().string();
        if (f.rfind(name.stem + "-", 0) == 0 && f.find(".tmp-") == std::string::npos && f.ends_with(".sqlite")) {
            std::error_code gone;
            fs::remove(it->path(), gone);
        }
    }
    fs::rename(temp, name.finalPath(), ec);
    if (ec) {
        fs::remove(temp, ec);
        result.error = "cannot keep the export in " + name.dir + ": " + ec.message();
        return result;
    }
    if (progress)
        progress(1.0);
    result.sqlitePath = name.finalPath();
    return result;
}

} // namespace ws
