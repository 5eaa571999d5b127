#pragma once

#include "import/trace_import.h"
#include "model/session.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

namespace ws::test {

inline std::string dataPath(const std::string& name) {
    return std::string(WARPSCOPE_TEST_DATA_DIR) + "/" + name;
}

inline std::string sharedPath(const std::string& name) {
    return std::string(WARPSCOPE_SHARED_TESTDATA_DIR) + "/" + name;
}

// A per-process scratch directory, removed when the process exits (each test runs in a process of
// its own under ctest: leftovers would pile up in /tmp run after run).
inline std::filesystem::path tempDir() {
    struct RemovedAtExit {
        std::filesystem::path path;
        ~RemovedAtExit() {
            std::error_code ignored;
            std::filesystem::remove_all(path, ignored);
        }
    };
    static const RemovedAtExit dir{[] {
        auto d = std::filesystem::temp_directory_path() / ("warpscope_core_tests_" + std::to_string(::getpid()));
        std::filesystem::create_directories(d);
        return d;
    }()};
    return dir.path;
}

inline std::string writeTemp(const std::string& name, const std::string& bytes) {
    const auto path = tempDir() / name;
    std::ofstream(path, std::ios::binary) << bytes;
    return path.string();
}

inline std::string readFile(const std::string& path) {
    std::string out;
    if (FILE* f = std::fopen(path.c_str(), "rb")) {
        char buf[1 << 16];
        size_t n;
        while ((n = std::fread(buf, 1, sizeof buf, f)) > 0)
            out.append(buf, n);
        std::fclose(f);
    }
    return out;
}

// Imports JSON text written to a temp file.
inline ImportResult importText(const std::string& text, ImportControl control = {}, const std::string& name = "t.json") {
    return importTraceFile(writeTemp(name, text), control);
}

inline const Track* findTrack(const Session& s, const std::string& label) {
    for (const Track& t : s.tracks())
        if (s.trackLabel(t) == label)
            return &t;
    return nullptr;
}

} // namespace ws::test
