// Capture over SSH (issue #26) against a real OpenSSH server on loopback, started here with its own
// host key and one authorized client key. The "GPU program" on the host is wscap-dump --replay,
// which writes a recorded capture again at its recorded pace, as the injection library would; the
// host's warpscope-capture gets a fake injection library and a loadable "CUDA driver" (libc) through
// sshd's SetEnv, so nothing needs a GPU.

#include "launch/launcher.h"
#include "launch/remotecapture.h"
#include "launch/streamframes.h"
#include "wscapfixtures.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <optional>
#include <set>
#include <tuple>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <dirent.h>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <netinet/in.h>
#include <pwd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

const char* kSshd = "/usr/sbin/sshd";

std::string readAll(const std::string& path) { return fs::exists(path) ? wstest::readFile(path) : std::string(); }

uint64_t sizeOf(const std::string& path) {
    struct stat st {};
    return ::stat(path.c_str(), &st) == 0 ? static_cast<uint64_t>(st.st_size) : 0;
}

std::vector<std::string> wscapFiles(const std::string& dir) {
    std::vector<std::string> out;
    if (fs::exists(dir))
        for (const auto& e : fs::directory_iterator(dir))
            if (e.path().extension() == ".wscap")
                out.push_back(e.path().string());
    std::sort(out.begin(), out.end());
    return out;
}

bool run(const std::string& command) { return std::system(command.c_str()) == 0; }

int freePort() {
    const int s = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ::bind(s, reinterpret_cast<sockaddr*>(&a), sizeof a);
    socklen_t len = sizeof a;
    ::getsockname(s, reinterpret_cast<sockaddr*>(&a), &len);
    ::close(s);
    return ntohs(a.sin_port);
}

bool accepts(int port) {
    const int s = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(static_cast<uint16_t>(port));
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    const bool ok = ::connect(s, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0;
    ::close(s);
    return ok;
}

/* The loopback sshd, its keys and the client's ssh_config, shared by the tests of this file. */
struct Sshd {
    std::string dir;
    int port = 0;
    ws::Launcher server;
    std::string ssh; // WARPSCOPE_SSH
    std::string skip;

    void start() {
        if (::access(kSshd, X_OK) != 0) {
            skip = "no OpenSSH server (apt-get install openssh-server; test.sh installs it)";
            return;
        }
        dir = wstest::tempPath("sshd");
        fs::remove_all(dir);
        fs::create_directories(dir);
        for (const char* key : {"host_key", "client_key", "other_key"})
            if (!run("ssh-keygen -q -t ed25519 -N '' -f " + dir + "/" + key + " >/dev/null")) {
                skip = "ssh-keygen failed";
                return;
            }
        fs::copy_file(dir + "/client_key.pub", dir + "/authorized_keys");
        std::string hostKey = readAll(dir + "/host_key.pub");
        hostKey = hostKey.substr(0, hostKey.rfind(' ')); // "ssh-ed25519 AAAA..." without the comment
        std::ofstream(dir + "/known_hosts") << "wstesthost " << hostKey << "\n";
        std::ofstream(dir + "/empty_known_hosts") << "";
        if (::geteuid() == 0)
            fs::create_directories("/run/sshd"); // privilege separation, when started as root
        port = freePort();
        std::ofstream(dir + "/sshd_config")
            << "Port " << port << "\nListenAddress 127.0.0.1\nHostKey " << dir << "/host_key\nPidFile " << dir
            << "/sshd.pid\nAuthorizedKeysFile " << dir << "/authorized_keys\nStrictModes no\nUsePAM no\n"
            << "PasswordAuthentication no\nKbdInteractiveAuthentication no\nPubkeyAuthentication yes\n"
            << "PermitRootLogin yes\nLogLevel ERROR\n"
            // The host's warpscope-capture: a fake injection library and a "CUDA driver" that loads.
            << "SetEnv WARPSCOPE_INJECT_LIBRARY=" << WARPSCOPE_CAPTURE_BIN
            << " WARPSCOPE_CUDA_DRIVER_LIBRARY=libc.so.6"
            // Deploys land here, not in the account's own ~/.cache/warpscope/bin.
            << " WARPSCOPE_DEPLOY_DIR=" << dir << "/deployed\n";
        const passwd* me = ::getpwuid(::geteuid());
        const std::string user = me ? me->pw_name : "root";
        std::ofstream(dir + "/ssh_config")
            << "Host wshost wsunknown wsrefused\n  HostName 127.0.0.1\n  Port " << port << "\n  User " << user
            << "\n  IdentitiesOnly yes\n  HostKeyAlias wstesthost\n  StrictHostKeyChecking yes\n  LogLevel ERROR\n"
            << "Host wshost\n  IdentityFile " << dir << "/client_key\n  UserKnownHostsFile " << dir << "/known_hosts\n"
            << "Host wsunknown\n  IdentityFile " << dir << "/client_key\n  UserKnownHostsFile " << dir
            << "/empty_known_hosts\n"
            << "Host wsrefused\n  IdentityFile " << dir << "/other_key\n  UserKnownHostsFile " << dir << "/known_hosts\n";
        ssh = "ssh -F " + dir + "/ssh_config";
        ws::LaunchSpec spec;
        spec.program = kSshd;
        spec.args = {"-D", "-f", dir + "/sshd_config"}; // its log (syslog) would only repeat the tests' probes
        // Not the test's own output: ctest waits for that pipe to close, which a server outliving a
        // crashed test would never do.
        const int devNull = ::open("/dev/null", O_RDWR | O_CLOEXEC);
        spec.stdinFd = spec.stdoutFd = spec.stderrFd = devNull;
        std::string why;
        const bool started = server.start(spec, &why);
        ::close(devNull);
        if (!started) {
            skip = "cannot start sshd: " + why;
            return;
        }
        for (int i = 0; i < 100 && !accepts(port); ++i)
            std::this_thread::sleep_for(50ms);
        if (!accepts(port))
            skip = "sshd did not listen on port " + std::to_string(port);
    }
    // The per-connection sshd processes (children of the listener): killing them drops connections.
    std::vector<pid_t> sessions() const {
        std::vector<pid_t> out;
        for (const auto& e : fs::directory_iterator("/proc")) {
            const std::string name = e.path().filename();
            if (name.find_first_not_of("0123456789") != std::string::npos)
                continue;
            const std::string stat = readAll(e.path().string() + "/stat");
            const size_t close = stat.rfind(')');
            if (close == std::string::npos)
                continue;
            int ppid = 0;
            char state = 0;
            if (std::sscanf(stat.c_str() + close + 1, " %c %d", &state, &ppid) == 2 && ppid == server.pid())
                out.push_back(std::stoi(name));
        }
        return out;
    }
};

// Started once per test process, and stopped with it (the Launcher's destructor kills the listener).
Sshd& sshd() {
    static Sshd s;
    static const bool started = (s.start(), true);
    (void)started;
    return s;
}

#define NEED_SSHD()                                                                                                    \
    do {                                                                                                               \
        if (!sshd().skip.empty())                                                                                      \
            GTEST_SKIP() << sshd().skip;                                                                               \
    } while (0)

/* warpscope-capture --host running in the background, its stdout and stderr in files. */
struct Client {
    ws::Launcher process;
    std::string out, err;
    std::optional<ws::ExitStatus> status;

    void start(const std::string& host, const std::string& remoteDir, const std::string& localDir,
               const std::vector<std::string>& program) {
        const std::string n = std::to_string(counter());
        out = wstest::tempPath("client_out_" + n);
        err = wstest::tempPath("client_err_" + n); // removed at exit too (out + ".err" was left in /tmp)
        ws::LaunchSpec spec;
        spec.program = WARPSCOPE_CAPTURE_BIN;
        spec.args = {"--host", host, "--remote-capture", WARPSCOPE_CAPTURE_BIN, "--remote-dir", remoteDir, "-o", localDir,
                     "--"};
        spec.args.insert(spec.args.end(), program.begin(), program.end());
        spec.environment = {{"WARPSCOPE_SSH", sshd().ssh}};
        const int o = ::open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        const int e = ::open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        spec.stdoutFd = o;
        spec.stderrFd = e;
        std::string why;
        EXPECT_TRUE(process.start(spec, &why)) << why;
        ::close(o);
        ::close(e);
    }
    static int counter() {
        static int n = 0;
        return ++n;
    }
    ws::ExitStatus wait(std::chrono::seconds limit) {
        const auto end = std::chrono::steady_clock::now() + limit;
        while (!(status = process.poll()) && std::chrono::steady_clock::now() < end)
            std::this_thread::sleep_for(20ms);
        if (!status)
            status = process.stop(1000);
        return *status;
    }
    std::string stderrText() const { return readAll(err); }
    std::string stdoutText() const { return readAll(out); }
};

std::string sample() { return std::string(WARPSCOPE_CAPTURE_DATA_DIR) + "/sigkill.wscap"; } // 7 s, 15 flushes

std::vector<std::string> replay(double speed) {
    return {WSCAP_DUMP_BIN, "--replay", "--speed", std::to_string(speed), sample()};
}

std::string fresh(const std::string& name) {
    const std::string d = wstest::tempPath(name);
    fs::remove_all(d);
    return d;
}

} // namespace

TEST(StreamFrames, RoundTripInPiecesAndRefuseForeignBytes) {
    std::string bytes(ws::frames::kGreeting);
    ws::frames::append(bytes, ws::frames::Kind::Data, "gpu7-1.wscap", 4096, std::string("abc\0def", 7));
    ws::frames::append(bytes, ws::frames::Kind::Output, "", 0, "hello\n");
    ws::frames::append(bytes, ws::frames::Kind::Exit, "", 0, "3");
    std::vector<std::tuple<int, std::string, uint64_t, std::string>> got;
    ws::frames::Parser p([&](ws::frames::Kind k, const std::string& n, uint64_t o, std::string_view d) {
        got.emplace_back(static_cast<int>(k), n, o, std::string(d));
    });
    std::string error;
    for (char c : bytes) // one byte at a time, as a slow channel may deliver them
        ASSERT_TRUE(p.feed(&c, 1, &error)) << error;
    ASSERT_EQ(got.size(), 3u);
    EXPECT_EQ(got[0], std::make_tuple(1, std::string("gpu7-1.wscap"), uint64_t(4096), std::string("abc\0def", 7)));
    EXPECT_EQ(std::get<3>(got[1]), "hello\n");
    EXPECT_EQ(std::get<3>(got[2]), "3");

    ws::frames::Parser login([](ws::frames::Kind, const std::string&, uint64_t, std::string_view) {});
    const std::string motd = "Welcome to gpu7!\n";
    EXPECT_FALSE(login.feed(motd.data(), motd.size(), &error));
    EXPECT_NE(error.find("did not answer as warpscope-capture --stream"), std::string::npos) << error;
}

TEST(RemoteCapture, ShellQuotingAndSshFailuresInOneSentence) {
    EXPECT_EQ(ws::remote::shellQuote("train.py"), "train.py");
    EXPECT_EQ(ws::remote::shellQuote("it's a $HOME"), "'it'\\''s a $HOME'");
    EXPECT_EQ(ws::remote::shellQuote(""), "''");
    EXPECT_NE(ws::remote::explainSshFailure("gpu7", "ssh: Could not resolve hostname gpu7: Name or service not known")
                  .find("gpu7 is not a known host name"),
              std::string::npos);
    EXPECT_NE(ws::remote::explainSshFailure("gpu7", "ssh: connect to host gpu7 port 22: Connection refused")
                  .find("cannot reach gpu7"),
              std::string::npos);
}

TEST(RemoteCapture, HostCheckRefusesADriverOlderThanTheCuptiOfTheTools) {
    const std::string version = "warpscope-capture 0.1.0\ninject yes\n";
    // A CUDA 12.4 driver under tools whose CUPTI is CUDA 13.0's: one sentence that says what to do.
    ws::remote::HostCheck c =
        ws::remote::parseHostCheck("gpu7", "warpscope-capture", version + "cuda-driver yes 12040\ncupti-cuda 13000\n", "");
    EXPECT_FALSE(c.ok);
    EXPECT_TRUE(c.driverTooOld);
    EXPECT_EQ(c.message, "the CUDA driver on gpu7 supports CUDA 12.4, older than the CUDA 13.0 whose CUPTI "
                         "`warpscope-capture` there uses: update the NVIDIA driver there to one for CUDA 13 or newer, "
                         "or install a warpscope-capture built with CUDA 12");
    // Newer drivers, and a minor version behind (minor version compatibility), are fine.
    for (const char* driver : {"13000", "13020", "14000"}) {
        c = ws::remote::parseHostCheck("gpu7", "warpscope-capture",
                                       version + "cuda-driver yes " + driver + "\ncupti-cuda 13010\n", "");
        EXPECT_TRUE(c.ok) << driver << ": " << c.message;
        EXPECT_FALSE(c.driverTooOld);
    }
    // Either version unknown (an older warpscope-capture there, a build without CUPTI): no judgement.
    EXPECT_TRUE(ws::remote::parseHostCheck("gpu7", "warpscope-capture", version + "cuda-driver yes\ncupti-cuda 13000\n", "").ok);
    EXPECT_TRUE(ws::remote::parseHostCheck("gpu7", "warpscope-capture", version + "cuda-driver yes 11080\n", "").ok);
    // No driver at all.
    c = ws::remote::parseHostCheck("gpu7", "warpscope-capture", version + "cuda-driver no: libcuda.so.1 missing\n", "");
    EXPECT_FALSE(c.ok);
    EXPECT_NE(c.message.find("gpu7 has no CUDA driver"), std::string::npos) << c.message;
}

TEST(RemoteCapture, StreamsTheCaptureAsItIsRecorded) {
    NEED_SSHD();
    const std::string remoteDir = fresh("remote_stream"), localDir = fresh("local_stream");
    Client c;
    const auto begin = std::chrono::steady_clock::now();
    std::vector<std::string> program = {"sh", "-c", "echo hello-from-the-host; exec \"$@\"", "sh"};
    const std::vector<std::string> r = replay(2.0);
    program.insert(program.end(), r.begin(), r.end());
    c.start("wshost", remoteDir, localDir, program);
    // Live: the local file grows while the program still writes on the host.
    std::set<uint64_t> sizesWhileRunning;
    while (!c.process.poll()) {
        const auto files = wscapFiles(localDir);
        if (files.size() == 1)
            sizesWhileRunning.insert(sizeOf(files[0]));
        std::this_thread::sleep_for(50ms);
        ASSERT_LT(std::chrono::steady_clock::now() - begin, 60s) << c.stderrText();
    }
    const ws::ExitStatus st = c.wait(1s);
    EXPECT_TRUE(st.success()) << c.stderrText();
    EXPECT_GE(sizesWhileRunning.size(), 3u) << "the capture arrived in one piece, not as it grew";
    const auto local = wscapFiles(localDir), remote = wscapFiles(remoteDir);
    ASSERT_EQ(local.size(), 1u) << c.stderrText();
    ASSERT_EQ(remote.size(), 1u);
    EXPECT_EQ(fs::path(local[0]).filename(), fs::path(remote[0]).filename());
    const std::string original = readAll(sample());
    EXPECT_TRUE(readAll(local[0]) == original) << "the bytes that arrived differ from the recording";
    EXPECT_TRUE(readAll(remote[0]) == original);
    EXPECT_NE(c.stdoutText().find("hello-from-the-host"), std::string::npos);
    EXPECT_NE(readAll(remoteDir + "/program-output.log").find("hello-from-the-host"), std::string::npos);
    EXPECT_NE(c.stderrText().find("1 capture written to " + localDir), std::string::npos) << c.stderrText();
}

TEST(RemoteCapture, StopEndsTheProgramThereAndKeepsWhatWasRecorded) {
    NEED_SSHD();
    const std::string remoteDir = fresh("remote_stop"), localDir = fresh("local_stop");
    Client c;
    c.start("wshost", remoteDir, localDir, replay(0.25)); // 28 s if left alone
    for (int i = 0; i < 400 && (wscapFiles(localDir).empty() || sizeOf(wscapFiles(localDir)[0]) == 0); ++i)
        std::this_thread::sleep_for(50ms);
    ASSERT_EQ(wscapFiles(localDir).size(), 1u) << c.stderrText();
    const auto stopAt = std::chrono::steady_clock::now();
    ::kill(c.process.pid(), SIGINT);
    const ws::ExitStatus st = c.wait(20s);
    EXPECT_LT(std::chrono::steady_clock::now() - stopAt, 5s);
    EXPECT_EQ(st.code, 128 + SIGINT) << c.stderrText(); // the program's own status: killed by SIGINT there
    EXPECT_NE(c.stderrText().find("stopping"), std::string::npos) << c.stderrText();
    const std::string got = readAll(wscapFiles(localDir)[0]), original = readAll(sample());
    EXPECT_GT(got.size(), 0u);
    EXPECT_LT(got.size(), original.size());
    EXPECT_TRUE(original.compare(0, got.size(), got) == 0) << "what arrived is not the recording's beginning";
    // Nothing runs on there any more: the host's copy stays as it is.
    const uint64_t there = sizeOf(wscapFiles(remoteDir)[0]);
    std::this_thread::sleep_for(1500ms);
    EXPECT_EQ(sizeOf(wscapFiles(remoteDir)[0]), there);
    EXPECT_EQ(there, got.size());
}

TEST(RemoteCapture, DroppedConnectionLeavesTheProgramAndItsCaptureRunning) {
    NEED_SSHD();
    const std::string remoteDir = fresh("remote_drop"), localDir = fresh("local_drop");
    Client c;
    c.start("wshost", remoteDir, localDir, replay(1.0)); // 7 s
    for (int i = 0; i < 400 && (wscapFiles(localDir).empty() || sizeOf(wscapFiles(localDir)[0]) == 0); ++i)
        std::this_thread::sleep_for(50ms);
    ASSERT_EQ(wscapFiles(localDir).size(), 1u) << c.stderrText();
    const std::vector<pid_t> sessions = sshd().sessions();
    ASSERT_FALSE(sessions.empty());
    for (pid_t p : sessions)
        ::kill(p, SIGKILL); // the connection breaks as a network would drop it
    const ws::ExitStatus st = c.wait(20s);
    EXPECT_EQ(st.code, 125);
    const std::string err = c.stderrText();
    EXPECT_NE(err.find("the connection to wshost was lost"), std::string::npos) << err;
    EXPECT_NE(err.find("scp -r wshost:" + remoteDir), std::string::npos) << err;
    // The program finishes there, and its capture with it.
    const std::string original = readAll(sample());
    for (int i = 0; i < 300 && (wscapFiles(remoteDir).empty() || sizeOf(wscapFiles(remoteDir)[0]) < original.size()); ++i)
        std::this_thread::sleep_for(50ms);
    ASSERT_EQ(wscapFiles(remoteDir).size(), 1u);
    EXPECT_TRUE(readAll(wscapFiles(remoteDir)[0]) == original);
}

TEST(RemoteCapture, HostProblemsGetOneSentenceEach) {
    NEED_SSHD();
    auto attempt = [](const std::string& host, const std::string& remoteCapture) {
        Client c;
        c.out = wstest::tempPath("client_check");
        ws::LaunchSpec spec;
        spec.program = WARPSCOPE_CAPTURE_BIN;
        spec.args = {"--host", host};
        if (!remoteCapture.empty())
            spec.args.insert(spec.args.end(), {"--remote-capture", remoteCapture});
        spec.args.insert(spec.args.end(), {"-o", fresh("local_check"), "--", "true"});
        spec.environment = {{"WARPSCOPE_SSH", sshd().ssh}};
        const int e = ::open(c.out.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        spec.stderrFd = e;
        std::string why;
        EXPECT_TRUE(c.process.start(spec, &why)) << why;
        ::close(e);
        const ws::ExitStatus st = c.wait(30s);
        EXPECT_EQ(st.code, 125);
        return readAll(c.out);
    };
    EXPECT_NE(attempt("wsunknown", WARPSCOPE_CAPTURE_BIN).find("the host key of wsunknown is not known here"),
              std::string::npos);
    EXPECT_NE(attempt("wsrefused", WARPSCOPE_CAPTURE_BIN).find("wsrefused refused the login"), std::string::npos);
    EXPECT_NE(attempt("wshost", "/opt/nowhere/warpscope-capture")
                  .find("`/opt/nowhere/warpscope-capture` is not installed on wshost: install the warpscope-capture "
                        "package there, or deploy it (--deploy; Deploy in New Capture)"),
              std::string::npos);
}

TEST(RemoteCapture, EqualNamesFromTwoHostsNeverReplaceEachOther) {
    NEED_SSHD();
    // Two hosts whose programs had the same pid write streams of the same name; both land here.
    const std::string localDir = fresh("local_equal");
    for (const char* remote : {"remote_equal_a", "remote_equal_b"}) {
        Client c;
        c.start("wshost", fresh(remote), localDir,
                {"sh", "-c", "cp \"$0\" \"$WARPSCOPE_OUTPUT/gpu7-1234.wscap\"", sample()});
        EXPECT_TRUE(c.wait(30s).success()) << c.stderrText();
    }
    const auto files = wscapFiles(localDir);
    ASSERT_EQ(files.size(), 2u);
    EXPECT_EQ(fs::path(files[0]).filename(), "gpu7-1234-2.wscap");
    EXPECT_EQ(fs::path(files[1]).filename(), "gpu7-1234.wscap");
    const std::string original = readAll(sample());
    for (const auto& f : files)
        EXPECT_TRUE(readAll(f) == original) << f;
}

TEST(RemoteCapture, DeployCopiesTheCaptureToolsOnceAndTheyRun) {
    NEED_SSHD();
    if (std::system("command -v warpscope-capture > /dev/null 2>&1") == 0)
        GTEST_SKIP() << "warpscope-capture is installed on this machine's PATH: the \"host\" would not need a deploy";
    const std::string deployed = sshd().dir + "/deployed";
    fs::remove_all(deployed);
    auto capture = [&](const std::string& name) {
        Client c;
        ws::LaunchSpec spec;
        c.err = wstest::tempPath(name + "_err");
        spec.program = WARPSCOPE_CAPTURE_BIN;
        spec.args = {"--host", "wshost", "--deploy", "--remote-dir", fresh(name + "_remote"), "-o", fresh(name + "_local"),
                     "--", "sh", "-c", "cp \"$0\" \"$WARPSCOPE_OUTPUT/gpu7-1.wscap\"", sample()};
        spec.environment = {{"WARPSCOPE_SSH", sshd().ssh}};
        const int e = ::open(c.err.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        spec.stderrFd = e;
        std::string why;
        EXPECT_TRUE(c.process.start(spec, &why)) << why;
        ::close(e);
        EXPECT_TRUE(c.wait(60s).success()) << c.stderrText();
        EXPECT_TRUE(readAll(wstest::tempPath(name + "_local") + "/gpu7-1.wscap") == readAll(sample())) << c.stderrText();
        return c.stderrText();
    };
    // A host without warpscope-capture: the tools go there first, then the capture runs with them.
    const std::string first = capture("deploy_first");
    EXPECT_NE(first.find("deployed warpscope-capture "), std::string::npos) << first;
    std::printf("%s", first.substr(first.find("deployed"), first.find('\n', first.find("deployed")) - first.find("deployed") + 1).c_str());
    EXPECT_TRUE(fs::exists(deployed + "/warpscope-capture"));
    EXPECT_TRUE(fs::exists(deployed + "/wscap-dump"));
    EXPECT_FALSE(fs::exists(deployed + ".new"));
    // The same version there: nothing is copied again.
    const std::string second = capture("deploy_second");
    EXPECT_EQ(second.find("deployed"), std::string::npos) << second;
}
