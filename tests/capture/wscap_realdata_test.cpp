// Captures recorded on a GPU machine (tests/data/captures/README.md): the reader must take them as
// they are. No GPU needed.

#include "format/wscapreader.h"
#include "format/wscapsummary.h"

#include <gtest/gtest.h>

#include <set>
#include <unordered_map>

using namespace ws::wscap;

namespace {

std::string capturePath(const char* name) {
    return std::string(WARPSCOPE_CAPTURE_DATA_DIR) + "/" + name;
}

} // namespace

TEST(WscapRealData, NativeProgramCaptureIsCompleteAndLinked) {
    const CaptureSummary s = CaptureSummary::read(capturePath("vector_add.wscap"));
    ASSERT_TRUE(s.ok) << s.openError;
    EXPECT_TRUE(s.hasFooter);
    EXPECT_FALSE(s.truncated);
    EXPECT_EQ(s.malformedRecords, 0u);
    EXPECT_EQ(s.count(RecordType::Kernel), 20u);
    EXPECT_EQ(s.count(RecordType::Memcpy), 3u);
    EXPECT_EQ(s.count(RecordType::Memset), 1u);
    EXPECT_EQ(s.count(RecordType::NvtxRange), 10u);
    EXPECT_EQ(s.count(RecordType::NvtxMark), 1u);
    EXPECT_EQ(s.count(RecordType::Device), 1u);
    EXPECT_EQ(s.dropped, 0u);
    EXPECT_GT(s.count(RecordType::MetricSample), 0u);
    EXPECT_EQ(s.header.commandLine.size(), 1u);

    // Every kernel is named by a String defined before it and links to the API call that launched it.
    WscapReader reader;
    std::string error;
    ASSERT_TRUE(reader.open(capturePath("vector_add.wscap"), &error)) << error;
    std::unordered_map<uint32_t, std::string> strings;
    std::set<uint32_t> apiCorrelations;
    std::vector<KernelRecord> kernels;
    RawRecord r;
    while (reader.next(&r) == WscapReader::Status::Record) {
        StringRecord str;
        ApiRecord api;
        KernelRecord k;
        if (r.decode(&str)) {
            strings[str.id] = str.text;
        } else if (r.decode(&api)) {
            apiCorrelations.insert(api.correlationId);
        } else if (r.decode(&k)) {
            ASSERT_TRUE(strings.count(k.nameId)) << "kernel name id " << k.nameId << " used before definition";
            kernels.push_back(k);
        }
    }
    ASSERT_EQ(kernels.size(), 20u);
    std::set<std::string> names;
    for (const KernelRecord& k : kernels) {
        names.insert(strings[k.nameId]);
        EXPECT_TRUE(apiCorrelations.count(k.correlationId)) << k.correlationId;
        EXPECT_LT(k.start, k.end);
        EXPECT_EQ(k.blockX, 256);
    }
    EXPECT_TRUE(names.count("_Z9vectorAddPKfS0_Pfi"));
}

TEST(WscapRealData, KilledProcessKeepsEverythingUpToTheLastFlush) {
    const CaptureSummary s = CaptureSummary::read(capturePath("sigkill.wscap"));
    ASSERT_TRUE(s.ok) << s.openError;
    EXPECT_FALSE(s.hasFooter); // SIGKILL: no exit handler ran
    EXPECT_FALSE(s.corrupt);
    EXPECT_GE(s.flushes, 10u);
    EXPECT_GT(s.count(RecordType::Kernel), 1000u);
    EXPECT_GT(s.count(RecordType::NvtxRange), 500u);
    EXPECT_EQ(s.dropped, 0u);
}

TEST(WscapRealData, LaunchStacksAreDefinedAndFreeOfProfilerFrames) {
    // vector_add built with -g, captured with "stacks" (format 1.1), symbolized after the run.
    WscapReader reader;
    std::string error;
    ASSERT_TRUE(reader.open(capturePath("vector_add_stacks.wscap"), &error)) << error;
    EXPECT_EQ(reader.versionMinor(), 1u);
    std::vector<ModuleRecord> modules;
    std::unordered_map<uint32_t, std::vector<uint64_t>> stacks;
    std::set<uint32_t> kernelCorrelations, launchCorrelations;
    size_t symbols = 0, launches = 0;
    RawRecord raw;
    while (reader.next(&raw) == WscapReader::Status::Record) {
        if (ModuleRecord m; raw.decode(&m)) {
            modules.push_back(m);
        } else if (StackDefRecord d; raw.decode(&d)) {
            // Module records come before the first stack whose addresses they cover.
            for (uint64_t a : d.addresses) {
                bool inModule = false;
                for (const ModuleRecord& known : modules)
                    inModule = inModule || (a >= known.start && a - known.start < known.size);
                EXPECT_TRUE(inModule) << std::hex << a;
            }
            EXPECT_LE(d.addresses.size(), 32u);
            stacks[d.stackId] = d.addresses;
        } else if (CallStackRecord c; raw.decode(&c)) {
            ++launches;
            EXPECT_TRUE(stacks.count(c.stackId)) << "stack " << c.stackId << " used before its StackDef";
            launchCorrelations.insert(c.correlationId);
        } else if (KernelRecord k; raw.decode(&k)) {
            kernelCorrelations.insert(k.correlationId);
        } else if (raw.is<SymbolRecord>()) {
            ++symbols;
        }
    }
    EXPECT_FALSE(reader.truncated());
    EXPECT_EQ(launches, 20u);
    EXPECT_EQ(stacks.size(), 2u); // two launch sites, each hit 10 times
    EXPECT_EQ(launchCorrelations, kernelCorrelations);
    EXPECT_EQ(symbols, 12u);
    // The injection library leaves its own frames out: every stack starts in CUPTI or below.
    const ModuleRecord* self = nullptr;
    for (const ModuleRecord& m : modules)
        if (m.path.find("libwarpscope_inject") != std::string::npos)
            self = &m;
    ASSERT_NE(self, nullptr);
    for (const auto& [id, addresses] : stacks)
        for (uint64_t a : addresses)
            EXPECT_FALSE(a >= self->start && a - self->start < self->size) << "stack " << id;
}
