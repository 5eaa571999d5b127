// Native call stack symbolization (capture/launch/stacksymbolizer.h): the addr2line output parser on
// captured text, and real runs of addr2line on wscap_stack_probe, a program built with -g that
// records its own stack the way the injection library does. No GPU needed.

#include "format/wscapreader.h"
#include "launch/stacksymbolizer.h"
#include "wscapfixtures.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <sys/wait.h>

namespace {

using namespace ws::wscap;
namespace sym = ws::stacksymbolizer;

struct StreamView {
    std::map<uint32_t, std::string> strings;
    std::map<uint32_t, ModuleRecord> modules;
    std::vector<StackDefRecord> stacks;
    std::vector<SymbolRecord> symbols;
    WscapReader::Status end = WscapReader::Status::Corrupt;
};

StreamView readStream(const std::string& path) {
    StreamView v;
    WscapReader reader;
    std::string error;
    if (!reader.open(path, &error))
        return v;
    RawRecord raw;
    while ((v.end = reader.next(&raw)) == WscapReader::Status::Record) {
        if (StringRecord s; raw.decode(&s))
            v.strings[s.id] = s.text;
        else if (ModuleRecord m; raw.decode(&m))
            v.modules[m.moduleId] = m;
        else if (StackDefRecord d; raw.decode(&d))
            v.stacks.push_back(d);
        else if (SymbolRecord y; raw.decode(&y))
            v.symbols.push_back(y);
    }
    return v;
}

bool runProbe(const std::string& path) {
    const std::string cmd = std::string(WSCAP_STACK_PROBE_BIN) + " '" + path + "'";
    return std::system(cmd.c_str()) == 0;
}

bool endsWith(const std::string& s, const std::string& suffix) {
    return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

} // namespace

TEST(StackSymbolizer, ParsesAddr2LineOutput) {
    // `addr2line -a -f -C -i -e vector_add 0x9eec 0xa34a 0x79d9c 0x9999999` as binutils 2.42 prints it
    // (the first address is inside an inlined function; the last is outside any function).
    const std::string text = "0x0000000000009eec\n"
                             "vectorAdd(float const*, float const*, float*, int)\n"
                             "/work/main/capture/samples/vector_add.cu:12\n"
                             "main\n"
                             "/work/main/capture/samples/vector_add.cu:65 (discriminator 1)\n"
                             "0x000000000000a34a\n"
                             "_start\n"
                             "??:?\n"
                             "0x0000000000079d9c\n"
                             "cudaLaunchKernel\n"
                             "??:0\n"
                             "0x0000000009999999\n"
                             "??\n"
                             "??:0\n";
    const auto frames = sym::parseAddr2Line(text, 4);
    ASSERT_EQ(frames.size(), 4u);
    ASSERT_EQ(frames[0].size(), 2u);
    EXPECT_EQ(frames[0][0].function, "vectorAdd(float const*, float const*, float*, int)");
    EXPECT_EQ(frames[0][0].file, "/work/main/capture/samples/vector_add.cu");
    EXPECT_EQ(frames[0][0].line, 12u);
    EXPECT_EQ(frames[0][1].function, "main");
    EXPECT_EQ(frames[0][1].line, 65u);
    ASSERT_EQ(frames[1].size(), 1u);
    EXPECT_EQ(frames[1][0].function, "_start");
    EXPECT_EQ(frames[1][0].file, "");
    EXPECT_EQ(frames[1][0].line, 0u);
    ASSERT_EQ(frames[2].size(), 1u);
    EXPECT_EQ(frames[2][0].function, "cudaLaunchKernel");
    EXPECT_EQ(frames[2][0].file, "");
    ASSERT_EQ(frames[3].size(), 1u);
    EXPECT_EQ(frames[3][0].function, "");
    // Fewer answers than addresses leave the rest empty instead of shifting them.
    const auto short_ = sym::parseAddr2Line("0x10\nf\na.c:3\n", 3);
    ASSERT_EQ(short_.size(), 3u);
    EXPECT_EQ(short_[0].size(), 1u);
    EXPECT_TRUE(short_[1].empty());
    EXPECT_TRUE(short_[2].empty());
}

TEST(StackSymbolizer, SymbolizesARealProgramToFileAndLine) {
    const std::string tool = sym::findAddr2Line();
    if (tool.empty())
        GTEST_SKIP() << "addr2line is not installed";
    const std::string path = wstest::tempPath("probe.wscap");
    ASSERT_TRUE(runProbe(path));
    StreamView before = readStream(path);
    ASSERT_EQ(before.stacks.size(), 1u);
    ASSERT_TRUE(before.symbols.empty());
    const std::string middleAt = before.strings[1]; // "<file>:<line>" of the probeLeaf() call
    const uint32_t middleLine = static_cast<uint32_t>(std::stoul(middleAt.substr(middleAt.rfind(':') + 1)));
    const uint32_t mainLine = static_cast<uint32_t>(std::stoul(before.strings[2]));

    sym::Result r;
    std::string error;
    ASSERT_TRUE(sym::symbolizeStream(path, tool, &r, &error)) << error;
    EXPECT_EQ(r.stacks, 1u);
    EXPECT_GE(r.addresses, 3u); // probeLeaf's caller, main, libc at least
    EXPECT_GE(r.withSource, 2u);
    EXPECT_FALSE(r.toolMissing);

    const StreamView after = readStream(path);
    EXPECT_EQ(after.end, WscapReader::Status::End);
    EXPECT_EQ(after.stacks.size(), 1u);
    // The program module is module 1 (dl_iterate_phdr lists the main program first).
    bool sawMiddle = false, sawMain = false;
    for (const SymbolRecord& s : after.symbols) {
        if (s.moduleId != 1)
            continue;
        if (s.function.find("probeMiddle") != std::string::npos) {
            sawMiddle = true;
            EXPECT_TRUE(endsWith(s.file, "stack_probe.cpp")) << s.file;
            EXPECT_EQ(s.line, middleLine);
        }
        if (s.function == "main") {
            sawMain = true;
            EXPECT_EQ(s.line, mainLine);
        }
        // Offsets are the unadjusted return addresses minus the load bias, as StackDef holds them.
        const ModuleRecord& m = after.modules.at(1);
        const auto& a = after.stacks[0].addresses;
        EXPECT_NE(std::find(a.begin(), a.end(), s.offset + m.loadBias), a.end());
    }
    EXPECT_TRUE(sawMiddle);
    EXPECT_TRUE(sawMain);

    // A second run leaves the stream alone.
    const std::string bytes = wstest::readFile(path);
    ASSERT_TRUE(sym::symbolizeStream(path, tool, &r, &error)) << error;
    EXPECT_TRUE(r.alreadySymbolized);
    EXPECT_EQ(wstest::readFile(path), bytes);
    std::remove(path.c_str());
}

TEST(StackSymbolizer, WithoutAddr2LineTheStreamIsUntouched) {
    const std::string path = wstest::tempPath("probe_notool.wscap");
    ASSERT_TRUE(runProbe(path));
    const std::string bytes = wstest::readFile(path);
    sym::Result r;
    std::string error;
    ASSERT_TRUE(sym::symbolizeStream(path, "", &r, &error)) << error;
    EXPECT_TRUE(r.toolMissing);
    EXPECT_EQ(r.stacks, 1u);
    EXPECT_EQ(wstest::readFile(path), bytes);
    ::setenv("WARPSCOPE_ADDR2LINE", "/nonexistent/addr2line", 1);
    EXPECT_EQ(sym::findAddr2Line(), "");
    ::unsetenv("WARPSCOPE_ADDR2LINE");
    std::remove(path.c_str());
}

TEST(StackSymbolizer, TornTailIsCutBeforeAppending) {
    const std::string tool = sym::findAddr2Line();
    if (tool.empty())
        GTEST_SKIP() << "addr2line is not installed";
    const std::string path = wstest::tempPath("probe_torn.wscap");
    ASSERT_TRUE(runProbe(path));
    // A process killed mid-write: half a record header at the end.
    wstest::writeFile(path, wstest::readFile(path) + std::string("\x04\x00\x10", 3));
    ASSERT_EQ(readStream(path).end, WscapReader::Status::Truncated);
    sym::Result r;
    std::string error;
    ASSERT_TRUE(sym::symbolizeStream(path, tool, &r, &error)) << error;
    const StreamView after = readStream(path);
    EXPECT_EQ(after.end, WscapReader::Status::End);
    EXPECT_FALSE(after.symbols.empty());
    std::remove(path.c_str());
}

TEST(StackSymbolizer, StrippedCodeGetsNoWrongNames) {
    // Without .symtab addr2line names any address after the nearest preceding exported symbol; the
    // probe's own (local) functions would all "be" _start. Only exported functions keep names:
    // main (exported with -rdynamic) and _start (the outermost frame, really in _start).
    const std::string tool = sym::findAddr2Line();
    if (tool.empty())
        GTEST_SKIP() << "addr2line is not installed";
    const std::string stripped = wstest::tempPath("probe_stripped");
    const std::string cmd = "cp '" + std::string(WSCAP_STACK_PROBE_BIN) + "' '" + stripped + "' && strip '" + stripped + "'";
    if (std::system(cmd.c_str()) != 0)
        GTEST_SKIP() << "strip is not installed";
    const std::string path = wstest::tempPath("probe_stripped.wscap");
    ASSERT_EQ(std::system(("'" + stripped + "' '" + path + "'").c_str()), 0);
    sym::Result r;
    std::string error;
    ASSERT_TRUE(sym::symbolizeStream(path, tool, &r, &error)) << error;
    const StreamView v = readStream(path);
    std::map<std::string, int> names;
    for (const SymbolRecord& s : v.symbols) {
        if (s.moduleId != 1)
            continue;
        EXPECT_TRUE(s.file.empty()); // no debug information left
        ++names[s.function];
    }
    // probeLeaf and probeMiddle (local functions) get no name instead of "_start".
    const std::map<std::string, int> expected = {{"", 2}, {"_start", 1}, {"main", 1}};
    EXPECT_EQ(names, expected);
    std::remove(path.c_str());
    std::remove(stripped.c_str());
}
