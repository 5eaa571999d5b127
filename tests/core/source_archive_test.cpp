#include "store/session_store.h"
#include "store/source_archive.h"
#include "test_util.h"

#include <filesystem>

namespace ws {
namespace {

// A trace whose Python frames name a file that exists when the session is stored: the session
// file keeps a copy, readable after the file is deleted.
TEST(SourceArchive, StoredSessionKeepsSourcesOfItsFrames) {
    const auto dir = test::tempDir() / "archive_src";
    std::filesystem::create_directories(dir);
    const std::string source = (dir / "train.py").string();
    const std::string code = "import torch\n\ndef main():\n    x = torch.ones(4, device='cuda')\n";
    std::ofstream(source, std::ios::binary) << code;
    const std::string trace = R"({"traceEvents":[
      {"ph":"X","cat":"python_function","name":")" + source + R"((4): main","pid":1,"tid":1,"ts":0,"dur":10},
      {"ph":"X","cat":"python_function","name":"relative/only.py(2): f","pid":1,"tid":1,"ts":1,"dur":5},
      {"ph":"X","cat":"python_function","name":"/no/such/file.py(9): g","pid":1,"tid":1,"ts":2,"dur":2}]})";
    auto imported = test::importText(trace, {}, "archive.json");
    ASSERT_NE(imported.session, nullptr);
    const std::vector<SourceArchive::Entry> collected = SourceArchive::collect(*imported.session);
    ASSERT_EQ(collected.size(), 1u); // relative and missing paths are skipped
    EXPECT_EQ(collected[0].recordedPath, source);
    EXPECT_GT(collected[0].mtimeNs, 0);

    const std::string file = (test::tempDir() / "archive.warpscope").string();
    std::string error;
    ASSERT_TRUE(SessionStore::write(*imported.session, file, {}, &error)) << error;
    std::filesystem::remove(source);
    const auto stored = SourceArchive::read(file, source);
    ASSERT_TRUE(stored.has_value());
    EXPECT_EQ(stored->text, code);
    EXPECT_EQ(stored->mtimeNs, collected[0].mtimeNs);
    EXPECT_FALSE(SourceArchive::read(file, "/no/such/file.py").has_value());
    EXPECT_FALSE(SourceArchive::read((test::tempDir() / "missing.warpscope").string(), source).has_value());
    // The session itself still reads back (the table is an addition to schema 1).
    EXPECT_NE(SessionStore::read(file, &error), nullptr) << error;
}

} // namespace
} // namespace ws
