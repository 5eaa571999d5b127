#include "cli/capturesession.h"

#include "cli/streamhost.h"

#include "format/activitylist.h"
#include "format/wscapsummary.h"
#include "launch/capturesetup.h"
#include "launch/launcher.h"
#include "launch/remotecapture.h"
#include "launch/stacksymbolizer.h"

#include <cerrno>
#include <chrono>
#include <climits>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <ctime>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

namespace ws {

namespace {

volatile std::sig_atomic_t g_pendingSignal = 0;

void onSignal(int sig) {
    g_pendingSignal = sig;
}

// SIGINT and SIGTERM caught (into g_pendingSignal) while it lives, the old handlers back after.
class CaughtSignals {
public:
    CaughtSignals() {
        struct sigaction sa {};
        sa.sa_handler = onSignal;
        ::sigemptyset(&sa.sa_mask);
        ::sigaction(SIGINT, &sa, &m_oldInt);
        ::sigaction(SIGTERM, &sa, &m_oldTerm);
    }
    ~CaughtSignals() { release(); }
    void release() {
        if (m_released)
            return;
        m_released = true;
        ::sigaction(SIGINT, &m_oldInt, nullptr);
        ::sigaction(SIGTERM, &m_oldTerm, nullptr);
    }
    CaughtSignals(const CaughtSignals&) = delete;
    CaughtSignals& operator=(const CaughtSignals&) = delete;

private:
    struct sigaction m_oldInt {}, m_oldTerm {};
    bool m_released = false;
};

void say(const std::string& text) {
    std::fprintf(stderr, "warpscope-capture: %s\n", text.c_str());
}

std::string megabytes(uint64_t bytes) {
    char buf[32];
    std::snprintf(buf, sizeof(buf), "%.1f MB", static_cast<double>(bytes) / 1e6);
    return buf;
}

uint64_t fileSize(const std::string& path) {
    struct stat st {};
    return ::stat(path.c_str(), &st) == 0 ? static_cast<uint64_t>(st.st_size) : 0;
}

} // namespace

bool CaptureSession::findInjectLibrary(std::string* path, std::string* why) const {
    return capturesetup::findInjectLibrary(
        m_options.injectLibrary,
        capturesetup::defaultSearchDirs(capturesetup::executableDir(), WARPSCOPE_INSTALL_LIBDIR), "warpscope-capture",
        path, why);
}

bool CaptureSession::cudaDriverAvailable(std::string* why) {
    return capturesetup::cudaDriverAvailable(why);
}

std::set<std::string> CaptureSession::captureFiles() const {
    const std::vector<std::string> files = capturesetup::captureFiles(m_outputDir);
    return {files.begin(), files.end()};
}

int CaptureSession::run() {
    if (m_options.checkHost)
        return checkHost();
    if (!m_options.host.empty())
        return runRemote();
    return runLocal();
}

int CaptureSession::checkHost() const {
    std::printf("%s\n", CaptureOptions::versionLine().c_str());
    std::string why;
    std::string injectPath;
    if (!findInjectLibrary(&injectPath, &why))
        std::printf("inject no: %s\n", why.c_str());
    else
        std::printf("inject yes\n");
    if (!cudaDriverAvailable(&why))
        std::printf("cuda-driver no: %s\n", why.c_str());
    else if (const int version = capturesetup::cudaDriverVersion(); version > 0)
        std::printf("cuda-driver yes %d\n", version);
    else
        std::printf("cuda-driver yes\n");
    // The CUDA version of the CUPTI this build's injection library uses; the client compares.
    if (WARPSCOPE_CUPTI_CUDA_VERSION > 0)
        std::printf("cupti-cuda %d\n", WARPSCOPE_CUPTI_CUDA_VERSION);
    return 0;
}

int CaptureSession::runRemote() {
    const std::string& host = m_options.host;
    std::string why;
    m_outputDir = capturesetup::absolute(m_options.output);
    while (m_outputDir.size() > 1 && m_outputDir.back() == '/')
        m_outputDir.pop_back();
    if (!capturesetup::makeDirectories(m_outputDir, &why)) {
        say(why);
        return 125;
    }
    remote::HostCheck check = remote::checkHost(host, m_options.remoteCapture);
    const std::string ours = CaptureOptions::versionLine();
    if (m_options.deploy && m_options.remoteCapture.empty() && (check.missing || (!check.version.empty() && check.version != ours))) {
        const auto begin = std::chrono::steady_clock::now();
        if (!remote::deploy(host, capturesetup::executableDir(), &why)) {
            say("cannot deploy to " + host + ": " + why);
            return 125;
        }
        if (!m_options.quiet) {
            char secs[32];
            std::snprintf(secs, sizeof secs, "%.1f s",
                          std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count());
            say("deployed " + ours + " to " + host + ":~/.cache/warpscope/bin (" + secs + ")");
        }
        check = remote::checkHost(host, m_options.remoteCapture);
    }
    if (!check.ok) {
        say(check.message);
        return 125;
    }
    std::string remoteDir = m_options.remoteDir;
    if (remoteDir.empty())
        remoteDir = remote::defaultRemoteDir(m_outputDir);
    if (!m_options.quiet)
        say("recording on " + host + " (" + check.version + ") into " + remoteDir + ", streamed to " + m_outputDir);

    const std::set<std::string> before = captureFiles();
    CaughtSignals signals;
    const auto begin = std::chrono::steady_clock::now();
    remote::RemoteRun run;
    run.onOutput = [](std::string_view text) { std::fwrite(text.data(), 1, text.size(), stdout); std::fflush(stdout); };
    run.onMessage = [](const std::string& line) { std::fprintf(stderr, "%s\n", line.c_str()); };
    const std::string command =
        remote::streamCommand(m_options.remoteCapture, remoteDir, m_options.forwarded, m_options.command);
    if (!run.start(host, command, remoteDir, m_outputDir, &why)) {
        signals.release();
        say("cannot run ssh: " + why);
        return 125;
    }
    int interrupts = 0;
    while (run.pump(50)) {
        if (g_pendingSignal) {
            g_pendingSignal = 0;
            // The first Ctrl+C stops the program there (its capture is kept); a second one leaves.
            if (++interrupts == 1) {
                say("stopping " + m_options.command[0] + " on " + host + " (Ctrl+C again to leave it running there)");
                run.requestStop();
            } else {
                run.disconnect();
            }
        }
    }
    signals.release();
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
    if (run.state() != remote::RemoteRun::State::Exited) {
        say(run.problem());
        if (!m_options.quiet && run.bytesReceived() > 0)
            summarize(before, seconds, -1);
        return 125;
    }
    if (!m_options.quiet)
        summarize(before, seconds, run.exitCode());
    return run.exitCode();
}

int CaptureSession::runLocal() {
    std::string injectPath;
    std::string why;
    if (!findInjectLibrary(&injectPath, &why)) {
        say(why);
        return 125;
    }
    m_outputDir = capturesetup::absolute(m_options.output);
    while (m_outputDir.size() > 1 && m_outputDir.back() == '/')
        m_outputDir.pop_back();
    if (!capturesetup::makeDirectories(m_outputDir, &why)) {
        say(why);
        return 125;
    }
    StreamHost host;
    if (m_options.stream && !host.open(m_outputDir, &why)) {
        say(why);
        return 125;
    }
    if (!cudaDriverAvailable(&why)) {
        m_driverMissing = true;
        say(why + "; running " + m_options.command[0] + " without capture");
    } else if (const int driver = capturesetup::cudaDriverVersion();
               capturesetup::driverTooOldForCupti(driver, WARPSCOPE_CUPTI_CUDA_VERSION)) {
        say("the CUDA driver here supports CUDA " + capturesetup::cudaVersionText(driver) + ", older than the CUDA " +
            capturesetup::cudaVersionText(WARPSCOPE_CUPTI_CUDA_VERSION) +
            " whose CUPTI this warpscope-capture uses: the capture will fail; update the NVIDIA driver or use a "
            "warpscope-capture built with CUDA " + std::to_string(driver / 1000));
    }

    LaunchSpec spec;
    spec.program = m_options.command[0];
    spec.args.assign(m_options.command.begin() + 1, m_options.command.end());
    CaptureSettings settings;
    settings.outputDir = m_outputDir;
    settings.activityBits = m_options.activityBits;
    settings.sampleHz = m_options.sampleHz;
    settings.flushMs = m_options.flushMs;
    settings.delaySeconds = m_options.delaySeconds;
    settings.durationSeconds = m_options.durationSeconds;
    settings.profilerApiRange = m_options.profilerApiRange;
    settings.name = m_options.name;
    settings.stackDepth = static_cast<int>(m_options.stackDepth);
    settings.torchOps = m_options.torchOps;
    settings.stepFunction = m_options.stepFunction;
    settings.pySampleHz = m_options.pySampleHz;
    if (!capturesetup::prepareTorchHook(settings, &why)) {
        say(why);
        return 125;
    }
    spec.environment = capturesetup::environment(settings, injectPath);
    int devNull = -1;
    if (m_options.stream) { // stdin and stdout are the channel; the program reads nothing from it
        devNull = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
        spec.stdinFd = devNull;
        spec.stdoutFd = spec.stderrFd = host.programOutputFd();
    }

    const std::set<std::string> before = captureFiles();
    CaughtSignals signals;

    const auto begin = std::chrono::steady_clock::now();
    Launcher launcher;
    const bool started = launcher.start(spec, &why);
    if (devNull >= 0)
        ::close(devNull);
    if (m_options.stream)
        host.launched();
    if (!started) {
        signals.release();
        say(why);
        const bool notFound = why.find(std::strerror(ENOENT)) != std::string::npos;
        if (m_options.stream)
            host.finish(notFound ? 127 : 126);
        return notFound ? 127 : 126;
    }
    std::optional<ExitStatus> status;
    while (!(status = launcher.poll())) {
        if (const int sig = g_pendingSignal) {
            g_pendingSignal = 0;
            ::kill(-launcher.pid(), sig);
        }
        if (m_options.stream)
            if (const int sig = host.pump())
                ::kill(-launcher.pid(), sig); // the client's Stop
        std::this_thread::sleep_for(std::chrono::milliseconds(m_options.stream ? 10 : 20));
    }
    signals.release();
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
    const int code = status->signaled ? 128 + status->signal : status->code;
    if (m_options.activityBits & wscap::ActStacks)
        symbolize(before);
    if (m_options.stream) {
        host.finish(code); // the client summarizes what arrived
        return code;
    }
    if (!m_options.quiet)
        summarize(before, seconds, code);
    return code;
}

void CaptureSession::symbolize(const std::set<std::string>& before) const {
    const std::string tool = stacksymbolizer::findAddr2Line();
    bool noted = false;
    for (const std::string& file : captureFiles()) {
        if (before.count(file))
            continue;
        stacksymbolizer::Result r;
        std::string error;
        if (!stacksymbolizer::symbolizeStream(file, tool, &r, &error)) {
            say("cannot symbolize the call stacks of " + file + ": " + error);
            continue;
        }
        if (r.toolMissing && !noted) {
            // One note for the whole run: the stacks stay as module+offset frames.
            std::fprintf(stderr, "[warpscope] note: addr2line not found (install binutils or set "
                                 "WARPSCOPE_ADDR2LINE); native call stacks keep raw addresses\n");
            noted = true;
        }
        if (!m_options.quiet && r.addresses > 0)
            say("  " + file.substr(file.rfind('/') + 1) + ": " + std::to_string(r.stacks) + " distinct launch stacks, " +
                std::to_string(r.withSource) + " of " + std::to_string(r.addresses) +
                " code addresses symbolized to file:line (" + std::to_string(r.modules) + " modules)");
    }
}

void CaptureSession::summarize(const std::set<std::string>& before, double seconds, int exitCode) const {
    std::vector<std::string> created;
    for (const std::string& f : captureFiles())
        if (!before.count(f))
            created.push_back(f);
    char secs[32];
    std::snprintf(secs, sizeof(secs), "%.1f s", seconds);
    if (created.empty()) {
        std::string reason;
        if (m_driverMissing)
            reason = "there is no CUDA driver on this machine";
        else if (seconds < 2.0 && exitCode != 0)
            reason = m_options.command[0] + " exited after " + secs + " with status " + std::to_string(exitCode) +
                     " before it initialized CUDA";
        else
            reason = m_options.command[0] + " never initialized CUDA (or its environment dropped "
                     "CUDA_INJECTION64_PATH)";
        say("nothing was captured: " + reason);
        return;
    }
    say(std::to_string(created.size()) + (created.size() == 1 ? " capture" : " captures") + " written to " +
        m_outputDir + "/ (" + secs + ", exit status " + std::to_string(exitCode) + ")");
    for (const std::string& file : created) {
        const wscap::CaptureSummary s = wscap::CaptureSummary::read(file);
        const std::string base = file.substr(file.rfind('/') + 1);
        if (!s.ok) {
            say("  " + base + ": unreadable: " + s.openError);
            continue;
        }
        using wscap::RecordType;
        std::string line = "  " + base;
        if (s.header.rank >= 0)
            line += " rank " + std::to_string(s.header.rank);
        line += ": " + megabytes(fileSize(file)) + ", " + std::to_string(s.records) + " records (" +
                std::to_string(s.count(RecordType::Kernel)) + " kernels, " +
                std::to_string(s.count(RecordType::Memcpy)) + " memcpy, " +
                std::to_string(s.count(RecordType::Memset)) + " memset, " + std::to_string(s.count(RecordType::Api)) +
                " API calls, " + std::to_string(s.count(RecordType::NvtxRange) + s.count(RecordType::NvtxMark)) +
                " NVTX, " + std::to_string(s.count(RecordType::Memory)) + " alloc/free, " +
                std::to_string(s.count(RecordType::MetricSample)) + " samples";
        if (s.count(RecordType::CallStack) > 0)
            line += ", " + std::to_string(s.count(RecordType::CallStack)) + " launch stacks";
        line += "), dropped " + std::to_string(s.dropped);
        if (s.truncated || !s.hasFooter)
            line += ", cut off (process ended without closing: data up to the last flush is kept)";
        say(line);
        for (const wscap::ErrorRecord& e : s.errors)
            if (e.severity != static_cast<uint8_t>(wscap::ErrorSeverity::Info))
                say(std::string("    ") + (e.severity == 2 ? "error" : "warning") + " in " + e.where + ": " + e.message);
    }
}

} // namespace ws
