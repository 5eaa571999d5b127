#pragma once

#include <sys/types.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ws {

/* What to run: the program (looked up in PATH like a shell would, but never through a shell), its
 * arguments, an optional working directory and environment additions (which override inherited
 * values of the same name). */
struct LaunchSpec {
    std::string program;
    std::vector<std::string> args;
    std::string workingDirectory;
    std::vector<std::pair<std::string, std::string>> environment;
    // Descriptors the child gets as its stdin, stdout and stderr (-1: inherited); the caller keeps
    // and closes its own copies.
    int stdinFd = -1;
    int stdoutFd = -1;
    int stderrFd = -1;
};

struct ExitStatus {
    bool signaled = false;
    int code = 0;   // exit code when !signaled
    int signal = 0; // terminating signal when signaled
    bool success() const { return !signaled && code == 0; }
};

/*
 * Launcher: one child process started with fork + execvp. Exec failures (program not found, not
 * executable, bad working directory) are reported by start() itself through a close-on-exec pipe,
 * so "target not found" is an error message, not an exit code to guess from. The child leads its own
 * process group, so stop() and the destructor reach everything it spawned; the destructor kills and
 * reaps a child that is still running, so no zombie outlives it.
 */
class Launcher {
public:
    Launcher() = default;
    Launcher(const Launcher&) = delete;
    Launcher& operator=(const Launcher&) = delete;
    ~Launcher();

    // Returns false with a one-sentence reason in *error when the program could not be started.
    bool start(const LaunchSpec& spec, std::string* error);
    bool running() const { return m_pid > 0 && !m_status; }
    pid_t pid() const { return m_pid; }

    std::optional<ExitStatus> poll(); // non-blocking
    ExitStatus wait();                // blocks until the child exits
    // Asks the child's process group to stop (SIGINT, as Ctrl+C would), then SIGKILL after graceMs.
    ExitStatus stop(int graceMs);

private:
    pid_t m_pid = -1;
    std::optional<ExitStatus> m_status;
};

} // namespace ws
