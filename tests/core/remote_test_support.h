#pragma once
// What the remote-trace tests share. A server the tests start on loopback (s3rver, Azurite) and stop when done: the
// process is forked with its arguments and environment, and the constructor returns once the port
// answers HTTP.
#include "remote/remote_fetch.h"
#include "test_util.h"

#include <nlohmann/json.hpp>

#include <arpa/inet.h>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <random>
#include <netinet/in.h>
#include <string>
#include <sys/socket.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <utility>
#include <vector>

namespace ws::test {

// A TCP port on 127.0.0.1 that nothing listens on (the kernel's choice).
inline int freeLoopbackPort() {
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

class LoopbackServer {
public:
    LoopbackServer(const std::vector<std::string>& argv, int port,
                   const std::vector<std::pair<std::string, std::string>>& env = {}) {
        m_pid = ::fork();
        if (m_pid == 0) {
            for (const auto& [name, value] : env)
                ::setenv(name.c_str(), value.c_str(), 1);
            std::vector<char*> args;
            for (const std::string& a : argv)
                args.push_back(const_cast<char*>(a.c_str()));
            args.push_back(nullptr);
            ::execv(args[0], args.data());
            ::_exit(127);
        }
        const std::string probe = "curl -s -o /dev/null http://127.0.0.1:" + std::to_string(port) + "/";
        for (int i = 0; i < 150 && std::system(probe.c_str()) != 0; ++i)
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    ~LoopbackServer() {
        ::kill(m_pid, SIGTERM);
        ::waitpid(m_pid, nullptr, 0);
    }
    LoopbackServer(const LoopbackServer&) = delete;
    LoopbackServer& operator=(const LoopbackServer&) = delete;

private:
    pid_t m_pid = -1;
};

inline bool havePython() { return std::system("python3 -c 'import http.server' > /dev/null 2>&1") == 0; }

// tests/remote/http_test_server.py as a child process; its port is the first line it prints.
class TestServer {
public:
    explicit TestServer(const std::vector<std::string>& args) {
        int out[2];
        if (::pipe(out) != 0)
            return;
        m_pid = ::fork();
        if (m_pid == 0) {
            ::dup2(out[1], 1);
            ::close(out[0]);
            std::vector<std::string> all = {"python3",
                                            std::string(WARPSCOPE_TEST_DATA_DIR) + "/../remote/http_test_server.py"};
            all.insert(all.end(), args.begin(), args.end());
            std::vector<char*> argv;
            for (std::string& a : all)
                argv.push_back(a.data());
            argv.push_back(nullptr);
            ::execvp("python3", argv.data());
            ::_exit(127);
        }
        ::close(out[1]);
        std::string line;
        char c;
        while (::read(out[0], &c, 1) == 1 && c != '\n')
            line += c;
        ::close(out[0]);
        m_port = std::atoi(line.c_str());
    }
    ~TestServer() { stop(); }
    void stop() {
        if (m_pid > 0) {
            ::kill(m_pid, SIGTERM);
            ::waitpid(m_pid, nullptr, 0);
            m_pid = -1;
        }
    }
    int port() const { return m_port; }
    std::string url(const std::string& path, bool tls = false) const {
        return std::string(tls ? "https" : "http") + "://127.0.0.1:" + std::to_string(m_port) + path;
    }

private:
    pid_t m_pid = -1;
    int m_port = 0;
};

struct Dirs {
    std::string root;  // what the server serves
    std::string cache; // the download cache
};

inline Dirs makeDirs(const std::string& name) {
    const std::string base = tempDir() / name;
    std::system(("rm -rf '" + base + "' && mkdir -p '" + base + "/www' '" + base + "/cache'").c_str());
    return {base + "/www", base + "/cache"};
}

inline void copyFile(const std::string& from, const std::string& to) {
    std::ofstream(to, std::ios::binary) << std::ifstream(from, std::ios::binary).rdbuf();
}

// Incompressible bytes, so the transfer really has this size.
inline void writeRandom(const std::string& path, size_t bytes) {
    std::mt19937_64 rng(42);
    std::string data(bytes, '\0');
    for (size_t i = 0; i + 8 <= bytes; i += 8) {
        const uint64_t v = rng();
        std::memcpy(&data[i], &v, 8);
    }
    std::ofstream(path, std::ios::binary) << data;
}

inline nlohmann::json stats(const TestServer& server) {
    const std::string out = tempDir() / "stats.json";
    std::system(("python3 -c \"import urllib.request,sys; sys.stdout.write(urllib.request.urlopen('" +
                 server.url("/_stats") + "').read().decode())\" > '" + out + "'")
                    .c_str());
    return nlohmann::json::parse(readFile(out), nullptr, false);
}

// Fetch options with only the cache folder set.
inline RemoteFetchOptions cacheAt(const std::string& dir) {
    RemoteFetchOptions o;
    o.cacheDir = dir;
    return o;
}

} // namespace ws::test
