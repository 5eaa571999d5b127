#include "launch/launcher.h"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace ws {

namespace {

ExitStatus decode(int raw) {
    ExitStatus s;
    if (WIFSIGNALED(raw)) {
        s.signaled = true;
        s.signal = WTERMSIG(raw);
    } else {
        s.code = WEXITSTATUS(raw);
    }
    return s;
}

// Reports errno from the child to the parent through the pipe, then exits without running atexit
// handlers of the copied parent state.
[[noreturn]] void childFail(int fd, int stage) {
    const int payload[2] = {stage, errno};
    ssize_t ignored = ::write(fd, payload, sizeof(payload));
    (void)ignored;
    ::_exit(127);
}

} // namespace

Launcher::~Launcher() {
    if (running()) {
        ::kill(-m_pid, SIGKILL);
        wait();
    }
}

bool Launcher::start(const LaunchSpec& spec, std::string* error) {
    if (spec.program.empty()) {
        *error = "no program given";
        return false;
    }
    // Everything the child needs is built before fork: only async-signal-safe calls after it.
    std::vector<std::string> argStorage;
    argStorage.push_back(spec.program);
    argStorage.insert(argStorage.end(), spec.args.begin(), spec.args.end());
    std::vector<char*> argv;
    for (std::string& a : argStorage)
        argv.push_back(a.data());
    argv.push_back(nullptr);

    std::vector<std::string> envStorage;
    for (char** e = environ; *e; ++e) {
        const std::string entry(*e);
        const std::string name = entry.substr(0, entry.find('='));
        bool overridden = false;
        for (const auto& [k, v] : spec.environment)
            overridden = overridden || k == name;
        if (!overridden)
            envStorage.push_back(entry);
    }
    for (const auto& [k, v] : spec.environment)
        envStorage.push_back(k + "=" + v);
    std::vector<char*> envp;
    for (std::string& e : envStorage)
        envp.push_back(e.data());
    envp.push_back(nullptr);

    int pipeFds[2];
    if (::pipe2(pipeFds, O_CLOEXEC) != 0) {
        *error = std::string("cannot create a pipe: ") + std::strerror(errno);
        return false;
    }
    const pid_t pid = ::fork();
    if (pid < 0) {
        *error = std::string("cannot fork: ") + std::strerror(errno);
        ::close(pipeFds[0]);
        ::close(pipeFds[1]);
        return false;
    }
    if (pid == 0) {
        ::close(pipeFds[0]);
        // Own process group: stop() then reaches the whole job (data-loader workers, ranks).
        ::setpgid(0, 0);
        const int redirect[3] = {spec.stdinFd, spec.stdoutFd, spec.stderrFd};
        for (int target = 0; target < 3; ++target)
            if (redirect[target] >= 0 && ::dup2(redirect[target], target) < 0)
                childFail(pipeFds[1], 3);
        if (!spec.workingDirectory.empty() && ::chdir(spec.workingDirectory.c_str()) != 0)
            childFail(pipeFds[1], 1);
        ::execvpe(argv[0], argv.data(), envp.data());
        childFail(pipeFds[1], 2);
    }
    ::close(pipeFds[1]);
    int payload[2] = {0, 0};
    ssize_t n;
    do {
        n = ::read(pipeFds[0], payload, sizeof(payload));
    } while (n < 0 && errno == EINTR);
    ::close(pipeFds[0]);
    m_pid = pid;
    m_status.reset();
    if (n == static_cast<ssize_t>(sizeof(payload))) {
        wait();
        const char* what = payload[0] == 1 ? "cannot enter the working directory " : "cannot run ";
        const std::string& subject = payload[0] == 1 ? spec.workingDirectory : spec.program;
        *error = what + subject + ": " + std::strerror(payload[1]);
        m_pid = -1;
        return false;
    }
    return true;
}

std::optional<ExitStatus> Launcher::poll() {
    if (m_status || m_pid <= 0)
        return m_status;
    int raw = 0;
    const pid_t r = ::waitpid(m_pid, &raw, WNOHANG);
    if (r == m_pid)
        m_status = decode(raw);
    return m_status;
}

ExitStatus Launcher::wait() {
    if (m_status || m_pid <= 0)
        return m_status.value_or(ExitStatus{});
    int raw = 0;
    pid_t r;
    do {
        r = ::waitpid(m_pid, &raw, 0);
    } while (r < 0 && errno == EINTR);
    m_status = decode(raw);
    return *m_status;
}

ExitStatus Launcher::stop(int graceMs) {
    if (!running())
        return m_status.value_or(ExitStatus{});
    ::kill(-m_pid, SIGINT);
    for (int waited = 0; waited < graceMs; waited += 10) {
        if (poll())
            return *m_status;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    ::kill(-m_pid, SIGKILL);
    return wait();
}

} // namespace ws
