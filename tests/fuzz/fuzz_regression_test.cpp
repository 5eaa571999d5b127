// Every input a fuzz target once failed on stays a test (issue #16): it is replayed through the
// target's own code (fuzz/fuzz_entries.cpp) in every ./test.sh, with the target's seeds, so a fix
// cannot quietly come undone. A failure is a crash of this process (or, in a WARPSCOPE_SANITIZE
// build, a sanitizer report); the expectations below check that the replay ran at all.
#include "fuzz_entries.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <cstdio>
#include <string>
#include <vector>

namespace {

std::vector<std::filesystem::path> filesIn(const std::filesystem::path& dir) {
    std::vector<std::filesystem::path> files;
    if (std::filesystem::is_directory(dir))
        for (const auto& entry : std::filesystem::directory_iterator(dir))
            if (entry.is_regular_file())
                files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    return files;
}

size_t replay(const ws::fuzz::Entry& entry, const std::filesystem::path& dir) {
    size_t replayed = 0;
    for (const auto& file : filesIn(dir / entry.target)) {
        std::string bytes(std::filesystem::file_size(file), '\0');
        if (FILE* f = std::fopen(file.c_str(), "rb")) {
            bytes.resize(std::fread(bytes.data(), 1, bytes.size(), f));
            std::fclose(f);
        }
        SCOPED_TRACE(file.string());
        EXPECT_EQ(entry.run(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()), 0);
        ++replayed;
    }
    return replayed;
}

} // namespace

TEST(FuzzRegressions, EveryFailedInputReplaysCleanly) {
    size_t replayed = 0;
    for (const ws::fuzz::Entry& entry : ws::fuzz::entries())
        replayed += replay(entry, WARPSCOPE_FUZZ_FAILURES_DIR);
    EXPECT_GT(replayed, 0u); // the folder is there and holds the inputs found so far
}

TEST(FuzzRegressions, EveryTargetRunsItsSeeds) {
    for (const ws::fuzz::Entry& entry : ws::fuzz::entries())
        EXPECT_GT(replay(entry, WARPSCOPE_FUZZ_SEEDS_DIR), 0u) << entry.target << " has no seeds";
}

TEST(FuzzRegressions, EmptyAndTinyInputs) {
    const uint8_t bytes[] = {'{', '[', 0, 0xff};
    for (const ws::fuzz::Entry& entry : ws::fuzz::entries())
        for (size_t n = 0; n <= sizeof bytes; ++n)
            EXPECT_EQ(entry.run(bytes, n), 0) << entry.target;
}
