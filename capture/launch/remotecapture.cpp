#include "launch/remotecapture.h"

#include "launch/capturesetup.h"

#include "format/wscapwriter.h"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <sstream>
#include <unistd.h>

namespace ws::remote {

namespace {

// The host's deploy directory in $D: ~/.cache/warpscope/bin, or WARPSCOPE_DEPLOY_DIR as the host's
// environment sets it (the tests' sshd does, to keep deploys out of the account's own cache).
constexpr const char* kDeployDirShell = "D=\"${WARPSCOPE_DEPLOY_DIR:-$HOME/.cache/warpscope/bin}\"";

bool contains(const std::string& text, const char* what) { return text.find(what) != std::string::npos; }

std::string lastLine(const std::string& text) {
    std::string t = text;
    while (!t.empty() && (t.back() == '\n' || t.back() == '\r'))
        t.pop_back();
    const size_t nl = t.rfind('\n');
    return nl == std::string::npos ? t : t.substr(nl + 1);
}

// ssh HOST -- COMMAND (the user's ssh, sshCommand()) with the given stdin, stdout and stderr.
LaunchSpec sshSpec(const std::string& host, const std::string& command, int in, int out, int err) {
    LaunchSpec spec;
    const std::vector<std::string> argv = sshCommand();
    spec.program = argv[0];
    spec.args.assign(argv.begin() + 1, argv.end());
    spec.args.insert(spec.args.end(), {host, "--", command});
    spec.stdinFd = in;
    spec.stdoutFd = out;
    spec.stderrFd = err;
    return spec;
}

// Runs ssh HOST -- COMMAND to the end; its stdout and stderr and exit status.
struct Finished {
    bool started = false;
    std::string out, err, why;
    ExitStatus status;
};

Finished runSsh(const std::string& host, const std::string& command, int stdinFd = -1) {
    Finished f;
    int outPipe[2], errPipe[2];
    if (::pipe2(outPipe, O_CLOEXEC) != 0 || ::pipe2(errPipe, O_CLOEXEC) != 0) {
        f.why = std::string("cannot create a pipe: ") + std::strerror(errno);
        return f;
    }
    const int devNull = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
    Launcher ssh;
    f.started = ssh.start(sshSpec(host, command, stdinFd >= 0 ? stdinFd : devNull, outPipe[1], errPipe[1]), &f.why);
    ::close(outPipe[1]);
    ::close(errPipe[1]);
    if (devNull >= 0)
        ::close(devNull);
    if (f.started) {
        pollfd fds[2] = {{outPipe[0], POLLIN, 0}, {errPipe[0], POLLIN, 0}};
        int open = 2;
        char buf[4096];
        while (open > 0 && ::poll(fds, 2, -1) >= 0) {
            for (int i = 0; i < 2; ++i) {
                if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR)))
                    continue;
                const ssize_t n = ::read(fds[i].fd, buf, sizeof buf);
                if (n > 0) {
                    (i == 0 ? f.out : f.err).append(buf, static_cast<size_t>(n));
                } else if (n == 0 || errno != EINTR) {
                    fds[i].fd = -1;
                    --open;
                }
            }
        }
        f.status = ssh.wait();
    }
    ::close(outPipe[0]);
    ::close(errPipe[0]);
    return f;
}

// The name a remote file gets here: its base name, and never one that exists already (a second
// host, or a second run into the same folder, with the same name).
std::string freeLocalName(const std::string& dir, const std::string& remoteName, int* fd) {
    std::string base = remoteName.substr(remoteName.rfind('/') + 1);
    if (base.empty() || base == "." || base == "..")
        base = "stream.wscap";
    std::string stem = base, ext;
    if (const size_t dot = base.rfind('.'); dot != std::string::npos && dot > 0) {
        stem = base.substr(0, dot);
        ext = base.substr(dot);
    }
    std::string path, error;
    *fd = wscap::createExclusive(dir, stem, ext, &path, &error);
    return *fd >= 0 ? path.substr(path.rfind('/') + 1) : base;
}

} // namespace

std::vector<std::string> configuredHosts(const std::string& path) {
    std::vector<std::string> hosts;
    FILE* f = std::fopen(path.c_str(), "r");
    if (!f)
        return hosts;
    char line[4096];
    while (std::fgets(line, sizeof line, f)) {
        std::istringstream words(line);
        std::string key;
        words >> key;
        std::transform(key.begin(), key.end(), key.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
        if (key != "host")
            continue;
        for (std::string h; words >> h;) {
            if (h[0] == '#')
                break;
            if (h.find_first_of("*?!") == std::string::npos && std::find(hosts.begin(), hosts.end(), h) == hosts.end())
                hosts.push_back(h);
        }
    }
    std::fclose(f);
    return hosts;
}

std::vector<std::string> sshCommand() {
    std::vector<std::string> argv;
    if (const char* custom = std::getenv("WARPSCOPE_SSH"); custom && *custom) {
        std::istringstream words(custom);
        for (std::string w; words >> w;)
            argv.push_back(w);
    }
    if (argv.empty())
        argv.push_back("ssh");
    // Never prompt (no password is asked or kept); give up on a dead host instead of waiting.
    argv.insert(argv.end(), {"-o", "BatchMode=yes", "-o", "ConnectTimeout=15", "-o", "ServerAliveInterval=15"});
    return argv;
}

std::string shellQuote(const std::string& word) {
    const bool plain = !word.empty() && std::all_of(word.begin(), word.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || std::strchr("@%+=:,./-_", c) != nullptr;
    });
    if (plain)
        return word;
    std::string q = "'";
    for (char c : word)
        q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
}

std::string explainSshFailure(const std::string& host, const std::string& err) {
    if (contains(err, "Host key verification failed") || contains(err, "HOST IDENTIFICATION HAS CHANGED") ||
        contains(err, "No matching host key") || contains(err, "host key is not known"))
        return "the host key of " + host + " is not known here (or has changed): connect once with `ssh " + host +
               "` to check and accept it, then try again";
    if (contains(err, "Permission denied") || contains(err, "Too many authentication failures"))
        return host + " refused the login: load your key into the agent (ssh-add) or add it to " + host +
               "'s ~/.ssh/authorized_keys; Warpscope never asks for passwords";
    if (contains(err, "Could not resolve hostname") || contains(err, "Name or service not known"))
        return host + " is not a known host name: add it to ~/.ssh/config or check the spelling";
    if (contains(err, "Connection refused") || contains(err, "timed out") || contains(err, "No route to host") ||
        contains(err, "Network is unreachable") || contains(err, "Connection closed") ||
        contains(err, "Connection reset"))
        return "cannot reach " + host + " (" + lastLine(err) + "): is it up, and is sshd listening?";
    const std::string line = lastLine(err);
    return "ssh to " + host + " failed" + (line.empty() ? std::string() : ": " + line);
}

HostCheck checkHost(const std::string& host, const std::string& remoteCapture) {
    HostCheck c;
    // The deploy directory first on PATH, so a deployed capture is found as an installed one is.
    const std::string tool = remoteCapture.empty() ? "warpscope-capture" : remoteCapture;
    const std::string script = std::string(kDeployDirShell) + "; PATH=\"$D:$PATH\"; command -v " + shellQuote(tool) +
                               " >/dev/null 2>&1 || { echo WS_MISSING; exit 0; }; exec " + shellQuote(tool) +
                               " --check-host";
    const Finished f = runSsh(host, script);
    if (!f.started) {
        c.message = "cannot run ssh: " + f.why;
        return c;
    }
    if (f.status.signaled || f.status.code == 255) {
        c.message = explainSshFailure(host, f.err);
        return c;
    }
    if (contains(f.out, "WS_MISSING")) {
        c.missing = true;
        c.message = "`" + tool + "` is not installed on " + host +
                    ": install the warpscope-capture package there, or deploy it (--deploy; Deploy in New "
                    "Capture)";
        return c;
    }
    return parseHostCheck(host, tool, f.out, f.err);
}

HostCheck parseHostCheck(const std::string& host, const std::string& tool, const std::string& out, const std::string& err) {
    HostCheck c;
    std::istringstream lines(out);
    for (std::string line; std::getline(lines, line);) {
        if (line.rfind("warpscope-capture ", 0) == 0) {
            c.version = line;
        } else if (line.rfind("cuda-driver yes", 0) == 0) {
            c.cudaDriver = true;
            c.driverCudaVersion = std::atoi(line.c_str() + 15);
        } else if (line.rfind("cuda-driver no", 0) == 0) {
            c.message = host + " has no CUDA driver (" + line.substr(std::min<size_t>(line.size(), 16)) +
                        "): nothing there can be captured";
        } else if (line.rfind("cupti-cuda ", 0) == 0) {
            c.cuptiCudaVersion = std::atoi(line.c_str() + 11);
        }
    }
    if (c.version.empty()) {
        c.message = "`" + tool + "` on " + host + " did not answer --check-host (" +
                    lastLine(err.empty() ? out : err) + "): it may be older than this Warpscope; update it or choose Deploy";
        return c;
    }
    if (c.cudaDriver && capturesetup::driverTooOldForCupti(c.driverCudaVersion, c.cuptiCudaVersion)) {
        c.driverTooOld = true;
        c.message = "the CUDA driver on " + host + " supports CUDA " + capturesetup::cudaVersionText(c.driverCudaVersion) +
                    ", older than the CUDA " + capturesetup::cudaVersionText(c.cuptiCudaVersion) + " whose CUPTI `" + tool +
                    "` there uses: update the NVIDIA driver there to one for CUDA " + std::to_string(c.cuptiCudaVersion / 1000) +
                    " or newer, or install a warpscope-capture built with CUDA " + std::to_string(c.driverCudaVersion / 1000);
        return c;
    }
    c.ok = c.cudaDriver;
    return c;
}

bool deploy(const std::string& host, const std::string& localDir, std::string* why) {
    // The capture tools as they lie next to this program; the injection library and the CUPTI it
    // was built against (libcupti.so.N beside it) only where CUDA was found at build time.
    std::vector<std::string> files;
    for (const char* f : {"warpscope-capture", "wscap-dump", "libwarpscope_inject.so"})
        if (::access((localDir + "/" + f).c_str(), R_OK) == 0)
            files.push_back(f);
    if (files.size() == 3)
        if (DIR* d = ::opendir(localDir.c_str())) {
            while (const dirent* e = ::readdir(d))
                if (std::strncmp(e->d_name, "libcupti.so.", 12) == 0)
                    files.push_back(e->d_name);
            ::closedir(d);
        }
    if (files.empty() || files[0] != "warpscope-capture") {
        *why = "warpscope-capture is not in " + localDir + ": nothing to deploy";
        return false;
    }
    char tarPath[] = "/tmp/warpscope-deploy-XXXXXX";
    const int tarFd = ::mkstemp(tarPath);
    if (tarFd < 0) {
        *why = std::string("cannot make a temporary file: ") + std::strerror(errno);
        return false;
    }
    LaunchSpec tar;
    tar.program = "tar";
    tar.args = {"-C", localDir, "-cf", "-"};
    tar.args.insert(tar.args.end(), files.begin(), files.end());
    tar.stdoutFd = tarFd;
    Launcher packer;
    const bool packed = packer.start(tar, why) && packer.wait().success();
    ::unlink(tarPath); // the open descriptor keeps it readable
    if (!packed) {
        ::close(tarFd);
        if (why->empty())
            *why = "tar could not pack " + localDir;
        return false;
    }
    ::lseek(tarFd, 0, SEEK_SET);
    // Unpacked beside, then renamed over the old tools, so a capture running there is not disturbed.
    const std::string script = std::string(kDeployDirShell) +
                               "; mkdir -p \"$D.new\" && tar -xf - -C \"$D.new\" && mkdir -p \"$D\" && "
                               "for f in \"$D.new\"/*; do mv -f \"$f\" \"$D/\"; done && rmdir \"$D.new\" && echo WS_DEPLOYED";
    const Finished f = runSsh(host, script, tarFd);
    ::close(tarFd);
    if (!f.started) {
        *why = "cannot run ssh: " + f.why;
        return false;
    }
    if (f.status.signaled || f.status.code == 255) {
        *why = explainSshFailure(host, f.err);
        return false;
    }
    if (!contains(f.out, "WS_DEPLOYED")) {
        *why = "could not unpack the capture tools on " + host + " (" + lastLine(f.err) + ")";
        return false;
    }
    return true;
}

std::string defaultRemoteDir(const std::string& localDir) {
    static std::atomic<unsigned> count{0};
    std::string base = localDir;
    while (base.size() > 1 && base.back() == '/')
        base.pop_back();
    base = base.substr(base.rfind('/') + 1);
    return ".cache/warpscope/captures/" + base + "-" + std::to_string(::time(nullptr)) + "-" + std::to_string(::getpid()) +
           "-" + std::to_string(++count);
}

std::string streamCommand(const std::string& remoteCapture, const std::string& remoteDir,
                          const std::vector<std::string>& captureOptions, const std::vector<std::string>& program) {
    std::string cmd = std::string(kDeployDirShell) + "; PATH=\"$D:$PATH\" exec " +
                      shellQuote(remoteCapture.empty() ? "warpscope-capture" : remoteCapture) + " --stream -o " +
                      shellQuote(remoteDir);
    // (Appended piecewise: `" " + word` trips GCC 12's -Wrestrict false positive.)
    for (const std::string& o : captureOptions) {
        cmd += ' ';
        cmd += shellQuote(o);
    }
    cmd += " --";
    for (const std::string& w : program) {
        cmd += ' ';
        cmd += shellQuote(w);
    }
    return cmd;
}

RemoteRun::~RemoteRun() {
    for (auto& [name, fd] : m_files)
        if (fd >= 0)
            ::close(fd);
    for (int fd : {m_toSsh, m_fromSsh, m_sshErr})
        if (fd >= 0)
            ::close(fd);
}

bool RemoteRun::start(const std::string& host, const std::string& remoteCommand, const std::string& remoteDir,
                      const std::string& localDir, std::string* why) {
    m_host = host;
    m_remoteDir = remoteDir;
    m_localDir = localDir;
    int in[2], out[2], err[2];
    if (::pipe2(in, O_CLOEXEC) != 0 || ::pipe2(out, O_CLOEXEC) != 0 || ::pipe2(err, O_CLOEXEC) != 0) {
        *why = std::string("cannot create a pipe: ") + std::strerror(errno);
        return false;
    }
    const bool ok = m_ssh.start(sshSpec(host, remoteCommand, in[0], out[1], err[1]), why);
    ::close(in[0]);
    ::close(out[1]);
    ::close(err[1]);
    m_toSsh = in[1];
    m_fromSsh = out[0];
    m_sshErr = err[0];
    ::fcntl(m_fromSsh, F_SETFL, ::fcntl(m_fromSsh, F_GETFL) | O_NONBLOCK);
    if (!ok)
        return false;
    m_parser = std::make_unique<frames::Parser>(
        [this](frames::Kind k, const std::string& n, uint64_t o, std::string_view d) { onFrame(k, n, o, d); });
    return true;
}

int RemoteRun::localFile(const std::string& name) {
    const auto it = m_files.find(name);
    if (it != m_files.end())
        return it->second;
    int fd = -1;
    m_localNames[name] = freeLocalName(m_localDir, name, &fd);
    m_files[name] = fd;
    return fd;
}

void RemoteRun::onFrame(frames::Kind kind, const std::string& name, uint64_t offset, std::string_view data) {
    switch (kind) {
    case frames::Kind::Data: {
        const int fd = localFile(name);
        size_t done = 0;
        while (fd >= 0 && done < data.size()) {
            const ssize_t n = ::pwrite(fd, data.data() + done, data.size() - done, static_cast<off_t>(offset + done));
            if (n <= 0)
                break;
            done += static_cast<size_t>(n);
        }
        m_bytes += data.size();
        break;
    }
    case frames::Kind::Output:
        if (onOutput)
            onOutput(data);
        break;
    case frames::Kind::Note:
        if (onMessage)
            onMessage(std::string(data));
        break;
    case frames::Kind::Exit:
        m_sawExit = true;
        m_exitCode = std::atoi(std::string(data).c_str());
        break;
    }
}

bool RemoteRun::pump(int timeoutMs) {
    if (m_state != State::Running)
        return false;
    pollfd fds[2] = {{m_fromSsh, POLLIN, 0}, {m_sshErr, POLLIN, 0}};
    ::poll(fds, 2, timeoutMs);
    char buf[1 << 16];
    if (m_sshErr >= 0 && (fds[1].revents & (POLLIN | POLLHUP | POLLERR))) {
        const ssize_t n = ::read(m_sshErr, buf, sizeof buf);
        if (n > 0) {
            // The host's warpscope-capture lines and ssh's own, passed on whole.
            m_stderrLine.append(buf, static_cast<size_t>(n));
            for (size_t nl; (nl = m_stderrLine.find('\n')) != std::string::npos;) {
                const std::string line = m_stderrLine.substr(0, nl);
                m_stderrLine.erase(0, nl + 1);
                m_stderrTail = (m_stderrTail + line + "\n").substr(m_stderrTail.size() > 4000 ? 2000 : 0);
                if (onMessage)
                    onMessage(line);
            }
        } else if (n == 0) {
            ::close(m_sshErr);
            m_sshErr = -1;
        }
    }
    if (m_fromSsh >= 0 && (fds[0].revents & (POLLIN | POLLHUP | POLLERR))) {
        // Everything there is now (the channel is non-blocking), up to a bound that keeps a caller's
        // event loop responsive: a GUI polling every 250 ms still takes hundreds of MB/s.
        for (size_t taken = 0; taken < (64u << 20);) {
            const ssize_t n = ::read(m_fromSsh, buf, sizeof buf);
            if (n > 0) {
                taken += static_cast<size_t>(n);
                std::string error;
                if (!m_parser->feed(buf, static_cast<size_t>(n), &error)) {
                    m_problem = "the stream from " + m_host + " is not readable: " + error;
                    m_state = State::Failed;
                    disconnect();
                    return false;
                }
                continue;
            }
            if (n == 0) {
                ::close(m_fromSsh);
                m_fromSsh = -1;
            }
            break; // EAGAIN: all read
        }
    }
    if (m_fromSsh < 0) {
        ended();
        return false;
    }
    return true;
}

void RemoteRun::ended() {
    const ExitStatus ssh = m_ssh.wait();
    if (m_sshErr >= 0) { // what ssh said last
        char buf[4096];
        for (ssize_t n; (n = ::read(m_sshErr, buf, sizeof buf)) > 0;)
            m_stderrTail.append(buf, static_cast<size_t>(n));
        ::close(m_sshErr);
        m_sshErr = -1;
    }
    if (m_toSsh >= 0) {
        ::close(m_toSsh);
        m_toSsh = -1;
    }
    if (m_sawExit) {
        m_state = State::Exited;
        return;
    }
    if (!m_parser->sawGreeting()) {
        m_state = State::Failed;
        m_problem = !ssh.signaled && ssh.code == 255
                        ? explainSshFailure(m_host, m_stderrTail)
                        : "warpscope-capture --stream did not start on " + m_host + " (" + lastLine(m_stderrTail) + ")";
        return;
    }
    m_state = State::Dropped;
    const std::string where = m_remoteDir.rfind('/', 0) == 0 ? m_remoteDir : "~/" + m_remoteDir;
    m_problem = "the connection to " + m_host + " was lost; the program and its capture go on there in " + where +
                ": fetch it later with `scp -r " + m_host + ":" + m_remoteDir + " .`";
}

void RemoteRun::requestStop() {
    if (m_toSsh >= 0) {
        const char c = frames::kStopByte;
        if (::write(m_toSsh, &c, 1) != 1) {
            // The connection is gone already; pump() reports it.
        }
    }
}

void RemoteRun::disconnect() {
    if (m_ssh.running())
        ::kill(m_ssh.pid(), SIGTERM);
}

std::vector<std::string> RemoteRun::localFiles() const {
    std::vector<std::string> out;
    for (const auto& [remote, local] : m_localNames)
        out.push_back(m_localDir + "/" + local);
    return out;
}

} // namespace ws::remote
