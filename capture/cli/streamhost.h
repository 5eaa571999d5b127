#pragma once

#include "launch/dirfollower.h"

#include <chrono>
#include <string>

namespace ws {

/*
 * StreamHost: the host side of a remote capture (warpscope-capture --stream, started over SSH by
 * warpscope-capture --host or the New Capture dialog). stdout becomes the frame channel
 * (launch/streamframes.h): the capture files as they grow, the program's output (also kept in
 * OUT/program-output.log), notes, and at the end the exit status. stdin carries the client's stop
 * request.
 *
 * A dropped connection (stdin ends without a stop request, or stdout stays blocked for
 * kStallSeconds) only ends the streaming: the program and its capture run on into OUT, whose path
 * the client printed so the user can fetch it later. stdout is non-blocking, so a stalled channel
 * never holds up the program's output pipe.
 */
class StreamHost {
public:
    static constexpr int kStallSeconds = 60;

    // Takes over stdin and stdout and opens the program's output pipe and log. False with *why.
    bool open(const std::string& outputDir, std::string* why);
    int programOutputFd() const { return m_outWrite; } // the child's stdout and stderr
    void launched();                                   // closes this side's copy of the write end
    // One round: the program's output, new capture bytes, the client's requests. Returns the signal
    // for the program's process group: SIGINT at the client's first stop request, SIGKILL at a
    // later one (a program that ignores Ctrl+C); 0 otherwise.
    int pump();
    void note(const std::string& line);
    // After the program ended (and symbolization): the last bytes, then the exit status.
    void finish(int exitCode);
    bool dropped() const { return m_dropped; }

private:
    void queue(const std::string& frame);
    void flush(bool block);
    void readOutput();
    void sendNewBytes(bool block); // what the capture files gained, as Data frames

    std::string m_dir;
    DirFollower m_follower{""};
    int m_outRead = -1, m_outWrite = -1, m_log = -1;
    size_t pendingBytes() const { return m_pending.size() - m_written; }

    // Capture bytes read ahead of a channel that does not keep up, at most (about one poll's worth
    // at hundreds of MB/s).
    static constexpr size_t kReadAhead = 8u << 20;

    std::string m_pending; // frames queued for stdout; the first m_written bytes of it are sent
    size_t m_written = 0;
    bool m_dropped = false;
    int m_stopRequests = 0;
    std::chrono::steady_clock::time_point m_lastProgress = std::chrono::steady_clock::now();
};

} // namespace ws
