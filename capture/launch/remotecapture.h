#pragma once

#include "launch/launcher.h"
#include "launch/streamframes.h"

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace ws::remote {

/*
 * Capture on another machine over SSH (issue #26), the client side shared by warpscope-capture
 * --host and the New Capture dialog. It runs the user's own OpenSSH client, so their keys, agent,
 * known_hosts, ProxyJump and ControlMaster apply; nothing here stores a password (BatchMode: a
 * login that would prompt fails with a sentence saying what to do). WARPSCOPE_SSH replaces the
 * "ssh" command, split at spaces (e.g. "ssh -F /path/config"); the tests point it at a loopback sshd.
 *
 * On the host, `warpscope-capture --stream -o DIR -- PROGRAM ARGS` records into DIR and streams the
 * files as they grow (launch/streamframes.h); RemoteRun writes them into the local folder under the
 * same names (never over an existing file), so the local import and live view read them as if the
 * capture ran here.
 */

// The host aliases of an ssh_config file ("Host a b" lines; patterns with * ? ! left out), in order.
std::vector<std::string> configuredHosts(const std::string& sshConfigPath);

// The ssh command line up to the host (program and options), from WARPSCOPE_SSH or "ssh".
std::vector<std::string> sshCommand();
// A word for a POSIX shell: single-quoted unless it is plain.
std::string shellQuote(const std::string& word);
// One sentence for a failed ssh (exit status 255) from what it printed: unknown host key, refused
// login, unknown name, unreachable host.
std::string explainSshFailure(const std::string& host, const std::string& sshStderr);

struct HostCheck {
    bool ok = false;
    std::string message; // why not, one sentence; notes when ok (no CUDA driver)
    std::string version; // the host's warpscope-capture --version line
    bool cudaDriver = false;
    bool missing = false; // no warpscope-capture there (Deploy can fix that)
    int driverCudaVersion = 0; // what the host's driver supports (12040 = 12.4); 0 unknown
    int cuptiCudaVersion = 0;  // the CUDA of the CUPTI the host's capture tools use; 0 unknown
    bool driverTooOld = false; // the driver's CUDA major is older than that CUPTI's
};
// Reachable, logged in, warpscope-capture present (remoteCapture: its path, or "" for the PATH and
// the deploy directory), a CUDA driver. Blocks for the ssh round trip.
HostCheck checkHost(const std::string& host, const std::string& remoteCapture);
// What checkHost makes of `warpscope-capture --check-host`'s output on the host (tool: its name there).
HostCheck parseHostCheck(const std::string& host, const std::string& tool, const std::string& out, const std::string& err);

// Deploy: copies the capture tools of localDir (warpscope-capture, wscap-dump and the injection
// library) into the host's ~/.cache/warpscope/bin, where checkHost and streamCommand look first.
// One ssh round trip carrying a tar; the old tools are replaced only once the new ones are unpacked.
bool deploy(const std::string& host, const std::string& localDir, std::string* why);

// The remote command line that runs warpscope-capture --stream.
// Where a host keeps a capture when the user names no folder: under ~/.cache/warpscope/captures,
// the local folder's name with the time, this process and a count, so that two captures never share a
// folder there (the host's stream follows only files that were not there before it started: a folder
// shared with an earlier or concurrent capture of the same second lost its streams).
std::string defaultRemoteDir(const std::string& localDir);
std::string streamCommand(const std::string& remoteCapture, const std::string& remoteDir,
                          const std::vector<std::string>& captureOptions, const std::vector<std::string>& program);

/*
 * RemoteRun: one streaming capture. pump() moves what arrived into the local folder and reports
 * output, notes and the end; requestStop() asks the host to stop the program (its capture is kept);
 * disconnect() drops the connection, leaving the program running there.
 */
class RemoteRun {
public:
    enum class State { Running, Exited, Dropped, Failed };
    std::function<void(std::string_view)> onOutput; // the program's stdout and stderr
    std::function<void(const std::string&)> onMessage; // the host's warpscope-capture and ssh lines

    ~RemoteRun();
    bool start(const std::string& host, const std::string& remoteCommand, const std::string& remoteDir,
               const std::string& localDir, std::string* why);
    // Waits up to timeoutMs for data; false once the run is over (state() says how).
    bool pump(int timeoutMs);
    void requestStop();
    void disconnect();

    State state() const { return m_state; }
    int exitCode() const { return m_exitCode; }
    const std::string& problem() const { return m_problem; } // Dropped / Failed: one sentence
    std::vector<std::string> localFiles() const;
    uint64_t bytesReceived() const { return m_bytes; }

private:
    void onFrame(frames::Kind kind, const std::string& name, uint64_t offset, std::string_view data);
    int localFile(const std::string& name);
    void ended();

    std::string m_host, m_remoteDir, m_localDir;
    Launcher m_ssh;
    int m_toSsh = -1, m_fromSsh = -1, m_sshErr = -1;
    std::unique_ptr<frames::Parser> m_parser;
    std::map<std::string, int> m_files; // remote name -> local fd
    std::map<std::string, std::string> m_localNames;
    std::string m_stderrTail, m_stderrLine;
    State m_state = State::Running;
    int m_exitCode = -1;
    bool m_sawExit = false;
    std::string m_problem;
    uint64_t m_bytes = 0;
};

} // namespace ws::remote
