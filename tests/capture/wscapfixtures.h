#pragma once

// Helpers shared by the capture stream tests: deterministic record contents and temp files.

#include "format/wscapcodec.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <system_error>
#include <unistd.h>
#include <vector>

namespace wstest {

/* Sets every field of a record to a distinct value derived from a seed, so a round trip that
 * swaps, drops or truncates any field shows up as a difference. */
class FieldFiller {
public:
    explicit FieldFiller(uint64_t seed) : m_next(seed) {}
    template <class T> void operator()(const char*, T& value) { fill(value); }

private:
    template <class T> void fill(T& v) requires std::is_integral_v<T> {
        v = static_cast<T>(m_next++ * 0x9e3779b97f4a7c15ull >> 7);
    }
    void fill(double& v) { v = static_cast<double>(m_next++) * 1.25; }
    void fill(std::string& s) { s = "text-" + std::to_string(m_next++) + " \xe2\x9c\x93"; }
    void fill(std::vector<std::string>& l) { l = {"python", "train.py", "--arg=" + std::to_string(m_next++), ""}; }
    void fill(std::vector<uint64_t>& l) {
        l.clear();
        for (int i = 0; i < 5; ++i)
            l.push_back(m_next++ * 0x9e3779b97f4a7c15ull);
    }
    void fill(ws::wscap::Uuid& u) {
        for (auto& b : u)
            b = static_cast<uint8_t>(m_next++);
    }
    uint64_t m_next;
};

template <class R> R filled(uint64_t seed) {
    R r;
    FieldFiller f(seed);
    R::fields(r, f);
    return r;
}

template <class R> std::string payloadOf(const R& r) {
    std::string bytes;
    ws::wscap::appendRecord(bytes, r);
    return bytes.substr(ws::wscap::kRecordHeaderSize);
}

// A scratch path of this process (a file or a capture's output folder), removed when it exits: each
// test runs in a process of its own, and leftovers would pile up in /tmp run after run.
inline std::string tempPath(const std::string& name) {
    struct RemovedAtExit {
        std::vector<std::string> paths;
        ~RemovedAtExit() {
            for (const std::string& p : paths) {
                std::error_code ignored;
                std::filesystem::remove_all(p, ignored);
            }
        }
    };
    static RemovedAtExit scratch;
    std::string path = std::string(::testing::TempDir()) + "/" + name + "." + std::to_string(::getpid());
    scratch.paths.push_back(path);
    return path;
}

inline void writeFile(const std::string& path, const std::string& bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

inline std::string readFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

} // namespace wstest
