#include "format/activitylist.h"
#include "format/wscapprinter.h"
#include "format/wscapreader.h"
#include "format/wscapsummary.h"
#include "format/wscapwriter.h"
#include "wscapfixtures.h"

#include <gtest/gtest.h>

#include <cstdio>

using namespace ws::wscap;
using wstest::filled;
using wstest::payloadOf;

namespace {

// Every record type once, in type order, with distinct contents; returns the framed bytes.
std::string allRecords(std::vector<std::string>* payloads) {
    std::string bytes;
    auto add = [&](const auto& r) {
        const size_t at = bytes.size();
        appendRecord(bytes, r);
        payloads->push_back(bytes.substr(at + kRecordHeaderSize));
    };
    add(filled<StreamHeaderRecord>(100));
    add(filled<DeviceRecord>(200));
    add(filled<ContextRecord>(300));
    add(filled<StringRecord>(400));
    add(filled<KernelRecord>(500));
    add(filled<MemcpyRecord>(600));
    add(filled<MemsetRecord>(700));
    add(filled<ApiRecord>(800));
    add(filled<SynchronizationRecord>(900));
    add(filled<MemoryRecord>(1000));
    add(filled<NvtxRangeRecord>(1100));
    add(filled<NvtxMarkRecord>(1200));
    add(filled<OverheadRecord>(1300));
    add(filled<DroppedRecord>(1400));
    add(filled<MetricDescriptorRecord>(1500));
    add(filled<MetricSampleRecord>(1600));
    add(filled<ErrorRecord>(1700));
    add(filled<FlushRecord>(1800));
    add(filled<FooterRecord>(1900));
    add(filled<ExternalCorrelationRecord>(2000));
    add(filled<MetricDeviceRecord>(2100));
    add(filled<ModuleRecord>(2200));
    add(filled<StackDefRecord>(2300));
    add(filled<CallStackRecord>(2400));
    add(filled<SymbolRecord>(2500));
    add(filled<PyFrameRecord>(2600));
    add(filled<PyStackRecord>(2700));
    add(filled<CollectiveRecord>(2800));
    add(filled<PySampleRecord>(2900));
    add(filled<OpsWindowRecord>(3000));
    add(filled<RecordingRecord>(3100));
    add(filled<GraphNodeRecord>(3200));
    add(filled<GraphExecRecord>(3300));
    add(filled<GraphTraceRecord>(3400));
    return bytes;
}

template <class R> void expectRoundTrip(const RawRecord& raw, uint64_t seed) {
    ASSERT_TRUE(raw.is<R>()) << "type " << raw.type;
    R decoded;
    ASSERT_TRUE(raw.decode(&decoded));
    const std::string expected = payloadOf(filled<R>(seed));
    EXPECT_EQ(payloadOf(decoded), expected) << recordTypeName(raw.type);
    EXPECT_EQ(std::string(raw.payload.begin(), raw.payload.end()), expected) << recordTypeName(raw.type);
}

std::vector<RawRecord> readAll(const std::string& bytes, WscapReader::Status* end) {
    WscapReader reader;
    std::string error;
    std::vector<RawRecord> out;
    if (!reader.openMemory(bytes.data(), bytes.size(), &error)) {
        *end = WscapReader::Status::Corrupt;
        return out;
    }
    RawRecord r;
    while ((*end = reader.next(&r)) == WscapReader::Status::Record)
        out.push_back(r);
    return out;
}

} // namespace

TEST(WscapFormat, EveryRecordTypeRoundTripsThroughAFile) {
    std::vector<std::string> payloads;
    const std::string records = allRecords(&payloads);
    const std::string path = wstest::tempPath("roundtrip.wscap");
    {
        WscapWriter writer;
        std::string error;
        ASSERT_TRUE(writer.open(path, &error)) << error;
        ASSERT_TRUE(writer.write(records, &error)) << error;
        EXPECT_EQ(writer.bytesWritten(), kFileHeaderSize + records.size());
    }
    WscapReader reader;
    std::string error;
    ASSERT_TRUE(reader.open(path, &error)) << error;
    EXPECT_EQ(reader.versionMajor(), kVersionMajor);
    EXPECT_EQ(reader.versionMinor(), kVersionMinor);
    std::vector<RawRecord> got;
    RawRecord r;
    WscapReader::Status st;
    while ((st = reader.next(&r)) == WscapReader::Status::Record)
        got.push_back(r);
    EXPECT_EQ(st, WscapReader::Status::End);
    EXPECT_FALSE(reader.truncated());
    ASSERT_EQ(got.size(), static_cast<size_t>(kMaxKnownRecordType));
    for (size_t i = 0; i < got.size(); ++i)
        EXPECT_EQ(got[i].type, i + 1);
    expectRoundTrip<StreamHeaderRecord>(got[0], 100);
    expectRoundTrip<DeviceRecord>(got[1], 200);
    expectRoundTrip<ContextRecord>(got[2], 300);
    expectRoundTrip<StringRecord>(got[3], 400);
    expectRoundTrip<KernelRecord>(got[4], 500);
    expectRoundTrip<MemcpyRecord>(got[5], 600);
    expectRoundTrip<MemsetRecord>(got[6], 700);
    expectRoundTrip<ApiRecord>(got[7], 800);
    expectRoundTrip<SynchronizationRecord>(got[8], 900);
    expectRoundTrip<MemoryRecord>(got[9], 1000);
    expectRoundTrip<NvtxRangeRecord>(got[10], 1100);
    expectRoundTrip<NvtxMarkRecord>(got[11], 1200);
    expectRoundTrip<OverheadRecord>(got[12], 1300);
    expectRoundTrip<DroppedRecord>(got[13], 1400);
    expectRoundTrip<MetricDescriptorRecord>(got[14], 1500);
    expectRoundTrip<MetricSampleRecord>(got[15], 1600);
    expectRoundTrip<ErrorRecord>(got[16], 1700);
    expectRoundTrip<FlushRecord>(got[17], 1800);
    expectRoundTrip<FooterRecord>(got[18], 1900);
    expectRoundTrip<ExternalCorrelationRecord>(got[19], 2000);
    expectRoundTrip<MetricDeviceRecord>(got[20], 2100);
    expectRoundTrip<ModuleRecord>(got[21], 2200);
    expectRoundTrip<StackDefRecord>(got[22], 2300);
    expectRoundTrip<CallStackRecord>(got[23], 2400);
    expectRoundTrip<SymbolRecord>(got[24], 2500);
    expectRoundTrip<PyFrameRecord>(got[25], 2600);
    expectRoundTrip<PyStackRecord>(got[26], 2700);
    expectRoundTrip<CollectiveRecord>(got[27], 2800);
    expectRoundTrip<PySampleRecord>(got[28], 2900);
    expectRoundTrip<OpsWindowRecord>(got[29], 3000);
    expectRoundTrip<RecordingRecord>(got[30], 3100);
    expectRoundTrip<GraphNodeRecord>(got[31], 3200);
    expectRoundTrip<GraphExecRecord>(got[32], 3300);
    expectRoundTrip<GraphTraceRecord>(got[33], 3400);
    std::remove(path.c_str());
}

TEST(WscapFormat, FieldsAreLittleEndianWithoutPadding) {
    KernelRecord k;
    k.start = 0x0102030405060708ull;
    std::string bytes;
    appendRecord(bytes, k);
    ASSERT_GE(bytes.size(), kRecordHeaderSize + 8);
    EXPECT_EQ(static_cast<uint8_t>(bytes[0]), static_cast<uint8_t>(RecordType::Kernel));
    EXPECT_EQ(static_cast<uint8_t>(bytes[1]), 0);
    const uint32_t size = static_cast<uint8_t>(bytes[4]) | static_cast<uint8_t>(bytes[5]) << 8;
    EXPECT_EQ(size, bytes.size() - kRecordHeaderSize);
    EXPECT_EQ(static_cast<uint8_t>(bytes[8]), 0x08);
    EXPECT_EQ(static_cast<uint8_t>(bytes[15]), 0x01);
    const std::string header = fileHeader();
    ASSERT_EQ(header.size(), kFileHeaderSize);
    EXPECT_EQ(header.substr(0, 5), "WSCAP");
    EXPECT_TRUE(WscapReader::sniff(header.data(), header.size()));
}

TEST(WscapFormat, CutAtEveryByteOfTheLastRecordKeepsAllCompleteRecords) {
    std::vector<std::string> payloads;
    const std::string records = allRecords(&payloads);
    const std::string full = fileHeader() + records;
    const size_t lastStart = full.size() - kRecordHeaderSize - payloads.back().size();
    for (size_t cut = lastStart; cut <= full.size(); ++cut) {
        WscapReader::Status end;
        const std::vector<RawRecord> got = readAll(full.substr(0, cut), &end);
        if (cut == full.size()) {
            EXPECT_EQ(end, WscapReader::Status::End);
            EXPECT_EQ(got.size(), payloads.size());
        } else if (cut == lastStart) {
            // Cut exactly between records: a clean end with one record fewer.
            EXPECT_EQ(end, WscapReader::Status::End);
            EXPECT_EQ(got.size(), payloads.size() - 1);
        } else {
            EXPECT_EQ(end, WscapReader::Status::Truncated) << "cut at " << cut;
            ASSERT_EQ(got.size(), payloads.size() - 1) << "cut at " << cut;
            expectRoundTrip<GraphExecRecord>(got.back(), 3300); // the record before the last (GraphTrace)
        }
    }
}

TEST(WscapFormat, SummaryFlagsATruncatedFile) {
    std::vector<std::string> payloads;
    const std::string full = fileHeader() + allRecords(&payloads);
    const std::string path = wstest::tempPath("cut.wscap");
    wstest::writeFile(path, full.substr(0, full.size() - 3));
    const CaptureSummary s = CaptureSummary::read(path);
    EXPECT_TRUE(s.ok);
    EXPECT_TRUE(s.truncated);
    EXPECT_FALSE(s.problem.empty());
    EXPECT_EQ(s.records, payloads.size() - 1);
    EXPECT_EQ(s.count(RecordType::Kernel), 1u);
    EXPECT_TRUE(s.hasFooter); // the footer (type 19) precedes the cut record
    std::remove(path.c_str());
}

TEST(WscapFormat, UnknownRecordTypesAreSkipped) {
    std::string bytes = fileHeader();
    appendRecord(bytes, StringRecord{1, "before"});
    // A record type from a future version, with an arbitrary payload.
    const std::string future("\xe7\x03\x00\x00\x05\x00\x00\x00"
                             "abcde",
                             13);
    bytes += future;
    appendRecord(bytes, StringRecord{2, "after"});
    WscapReader::Status end;
    const std::vector<RawRecord> got = readAll(bytes, &end);
    EXPECT_EQ(end, WscapReader::Status::End);
    ASSERT_EQ(got.size(), 3u);
    EXPECT_FALSE(got[1].known());
    EXPECT_EQ(got[1].type, 999);
    StringRecord after;
    ASSERT_TRUE(got[2].decode(&after));
    EXPECT_EQ(after.text, "after");

    const std::string path = wstest::tempPath("unknown.wscap");
    wstest::writeFile(path, bytes);
    const CaptureSummary s = CaptureSummary::read(path);
    EXPECT_EQ(s.unknownRecords, 1u);
    EXPECT_EQ(s.count(RecordType::String), 2u);
    EXPECT_FALSE(s.truncated);
    std::remove(path.c_str());
}

TEST(WscapFormat, NewerMinorVersionsMayAppendFields) {
    // A newer writer appended 4 bytes to a Dropped payload: the known fields still decode.
    DroppedRecord d{123, 1, 45};
    std::string payload = payloadOf(d) + "\x01\x02\x03\x04";
    DroppedRecord got;
    bool isShort = true;
    ASSERT_TRUE(decodeRecord(reinterpret_cast<const uint8_t*>(payload.data()), payload.size(), &got, &isShort));
    EXPECT_FALSE(isShort);
    EXPECT_EQ(got.timestamp, 123u);
    EXPECT_EQ(got.count, 45u);
    // An older writer's shorter payload leaves the missing trailing fields at their defaults.
    payload = payloadOf(d).substr(0, 9);
    DroppedRecord older;
    ASSERT_TRUE(decodeRecord(reinterpret_cast<const uint8_t*>(payload.data()), payload.size(), &older, &isShort));
    EXPECT_TRUE(isShort);
    EXPECT_EQ(older.timestamp, 123u);
    EXPECT_EQ(older.source, 1u);
    EXPECT_EQ(older.count, 0u);
}

TEST(WscapFormat, MalformedStringIsRejected) {
    std::string payload = payloadOf(StringRecord{7, "hello"});
    payload.resize(payload.size() - 2); // string length now points past the payload
    StringRecord s;
    EXPECT_FALSE(decodeRecord(reinterpret_cast<const uint8_t*>(payload.data()), payload.size(), &s));
}

TEST(WscapFormat, OtherMajorVersionAndBadMagicAreRefused) {
    std::string error;
    {
        const std::string bytes = fileHeader(2, 0);
        WscapReader reader;
        EXPECT_FALSE(reader.openMemory(bytes.data(), bytes.size(), &error));
        EXPECT_NE(error.find("version 2.0"), std::string::npos) << error;
    }
    {
        std::string bytes = fileHeader(1, 7);
        appendRecord(bytes, FlushRecord{});
        WscapReader reader;
        ASSERT_TRUE(reader.openMemory(bytes.data(), bytes.size(), &error)) << error;
        EXPECT_EQ(reader.versionMinor(), 7);
    }
    {
        const std::string bytes = "{\"traceEvents\": []}";
        WscapReader reader;
        EXPECT_FALSE(reader.openMemory(bytes.data(), bytes.size(), &error));
        EXPECT_NE(error.find("not a Warpscope capture"), std::string::npos);
        EXPECT_FALSE(WscapReader::sniff(bytes.data(), bytes.size()));
    }
    {
        const std::string bytes = fileHeader().substr(0, 11);
        WscapReader reader;
        EXPECT_FALSE(reader.openMemory(bytes.data(), bytes.size(), &error));
        EXPECT_NE(error.find("cut off"), std::string::npos) << error;
    }
    {
        WscapReader reader;
        EXPECT_FALSE(reader.open("/nonexistent/warpscope.wscap", &error));
    }
}

TEST(WscapFormat, ImplausibleSizeIsCorruption) {
    std::string bytes = fileHeader();
    appendRecord(bytes, FlushRecord{});
    bytes += std::string("\x05\x00\x00\x00\xff\xff\xff\x7f", 8);
    WscapReader::Status end;
    const std::vector<RawRecord> got = readAll(bytes, &end);
    EXPECT_EQ(end, WscapReader::Status::Corrupt);
    EXPECT_EQ(got.size(), 1u);
}

TEST(WscapFormat, PrinterResolvesInternedNames) {
    std::string bytes = fileHeader();
    appendRecord(bytes, StringRecord{3, "_Z9vectorAddPKfS0_Pfi"});
    KernelRecord k;
    k.nameId = 3;
    k.gridX = 4096;
    appendRecord(bytes, k);
    WscapReader::Status end;
    const std::vector<RawRecord> got = readAll(bytes, &end);
    ASSERT_EQ(got.size(), 2u);
    RecordPrinter printer;
    EXPECT_EQ(printer.format(got[0]), "String id=3 text=\"_Z9vectorAddPKfS0_Pfi\"");
    const std::string line = printer.format(got[1]);
    EXPECT_NE(line.find("nameId=3(\"_Z9vectorAddPKfS0_Pfi\")"), std::string::npos) << line;
    EXPECT_NE(line.find("gridX=4096"), std::string::npos) << line;
}

TEST(ActivityList, ParsesNamesAliasesAndRemovals) {
    uint32_t bits = 0;
    std::string bad;
    ASSERT_TRUE(parseActivities("kernel, runtime", &bits, &bad));
    EXPECT_EQ(bits, ActKernel | ActRuntime);
    ASSERT_TRUE(parseActivities("default,-driver,-nvml", &bits, &bad));
    EXPECT_EQ(bits, kDefaultActivities & ~(ActDriver | ActNvml));
    ASSERT_TRUE(parseActivities("api", &bits, &bad));
    EXPECT_EQ(bits, ActRuntime | ActDriver);
    ASSERT_TRUE(parseActivities("none", &bits, &bad));
    EXPECT_EQ(bits, 0u);
    EXPECT_FALSE(parseActivities("kernel,gpu-magic", &bits, &bad));
    EXPECT_EQ(bad, "gpu-magic");
    ASSERT_TRUE(parseActivities(activitiesToString(kDefaultActivities), &bits, &bad));
    EXPECT_EQ(bits, kDefaultActivities);
}

TEST(WscapFormat, AddressListsAreCountedLittleEndianU64s) {
    StackDefRecord d;
    d.stackId = 7;
    d.addresses = {0x0102030405060708ull, 0x7fffdeadbeefull};
    const std::string p = payloadOf(d);
    ASSERT_EQ(p.size(), 4u + 4u + 2 * 8u);
    EXPECT_EQ(p.substr(0, 8), std::string("\x07\x00\x00\x00\x02\x00\x00\x00", 8));
    EXPECT_EQ(p.substr(8, 8), std::string("\x08\x07\x06\x05\x04\x03\x02\x01", 8));
    StackDefRecord back;
    ASSERT_TRUE(decodeRecord(reinterpret_cast<const uint8_t*>(p.data()), p.size(), &back));
    EXPECT_EQ(back.addresses, d.addresses);
    // A count larger than the payload holds is corruption, not a shorter (older) record.
    std::string bad = p;
    bad[4] = 3;
    EXPECT_FALSE(decodeRecord(reinterpret_cast<const uint8_t*>(bad.data()), bad.size(), &back));
}

TEST(WscapFormat, StackRecordsAreSkippableByOlderReaders) {
    // A 1.0 reader knows types up to 21: the 1.1 stack records must frame like any unknown type.
    std::string bytes = fileHeader();
    appendRecord(bytes, StringRecord{1, "before"});
    appendRecord(bytes, filled<StackDefRecord>(1));
    appendRecord(bytes, filled<CallStackRecord>(2));
    appendRecord(bytes, filled<SymbolRecord>(3));
    appendRecord(bytes, filled<ModuleRecord>(4));
    appendRecord(bytes, StringRecord{2, "after"});
    WscapReader::Status end;
    const std::vector<RawRecord> got = readAll(bytes, &end);
    EXPECT_EQ(end, WscapReader::Status::End);
    ASSERT_EQ(got.size(), 6u);
    for (size_t i = 1; i <= 4; ++i)
        EXPECT_GT(got[i].type, 21u);
    StringRecord after;
    ASSERT_TRUE(got[5].decode(&after));
    EXPECT_EQ(after.text, "after");
    RecordPrinter printer;
    const std::string line = printer.format(got[1]);
    EXPECT_EQ(line.rfind("StackDef stackId=", 0), 0u) << line;
    EXPECT_NE(line.find("addresses=[0x"), std::string::npos) << line;
}

TEST(ActivityList, StacksAreOptIn) {
    uint32_t bits = 0;
    std::string bad;
    EXPECT_FALSE(kDefaultActivities & ActStacks);
    ASSERT_TRUE(parseActivities("default,stacks", &bits, &bad));
    EXPECT_EQ(bits, kDefaultActivities | ActStacks);
    EXPECT_NE(activitiesToString(bits).find("stacks"), std::string::npos);
    ASSERT_TRUE(parseActivities(activitiesToString(bits), &bits, &bad));
    EXPECT_EQ(bits, kDefaultActivities | ActStacks);
    EXPECT_TRUE(isLaunchPlumbingModule("/usr/local/cuda/lib64/libcupti.so.13"));
    EXPECT_TRUE(isLaunchPlumbingModule("/usr/local/nvidia/lib64/libcuda.so.1"));
    EXPECT_TRUE(isLaunchPlumbingModule("/opt/torch/lib/libcudart.so.13"));
    EXPECT_TRUE(isLaunchPlumbingModule("/tmp/bs/libwarpscope_inject.so"));
    EXPECT_FALSE(isLaunchPlumbingModule("/opt/torch/lib/libcudnn.so.9"));
    EXPECT_FALSE(isLaunchPlumbingModule("/tmp/bs/vector_add"));
}

// Issue #26: the processes of a multi-node job writing into one shared folder can have equal pids,
// and a second capture can write into the same folder: a stream is <host>-<pid>.wscap, created only
// if it does not exist, else <host>-<pid>-2.wscap and so on. Nothing is ever replaced.
TEST(WscapFormat, StreamsNeverReplaceOneAnother) {
    EXPECT_EQ(streamStem("gpu7.cluster-a", 4242), "gpu7.cluster-a-4242");
    EXPECT_EQ(streamStem("odd host/name", 7), "odd_host_name-7");
    EXPECT_EQ(streamStem("", 7), "host-7");
    const std::string dir = wstest::tempPath("exclusive");
    std::system(("rm -rf '" + dir + "' && mkdir -p '" + dir + "'").c_str());
    std::vector<std::string> paths;
    {
        WscapWriter first, second, third;
        std::string path, error;
        ASSERT_TRUE(first.createNew(dir, "node1-1000", &path, &error)) << error;
        paths.push_back(path);
        ASSERT_TRUE(first.writeRecord(StringRecord{1, "first"}, &error)) << error;
        ASSERT_TRUE(second.createNew(dir, "node1-1000", &path, &error)) << error; // same host and pid
        paths.push_back(path);
        ASSERT_TRUE(third.createNew(dir, "node2-1000", &path, &error)) << error; // same pid, other host
        paths.push_back(path);
    }
    EXPECT_EQ(paths, (std::vector<std::string>{dir + "/node1-1000.wscap", dir + "/node1-1000-2.wscap",
                                               dir + "/node2-1000.wscap"}));
    // The first stream kept its record: the second writer did not truncate it.
    WscapReader reader;
    std::string error;
    ASSERT_TRUE(reader.open(paths[0], &error)) << error;
    RawRecord r;
    ASSERT_EQ(reader.next(&r), WscapReader::Status::Record);
    StringRecord s;
    ASSERT_TRUE(r.decode(&s));
    EXPECT_EQ(s.text, "first");
    // A folder that cannot be written says so.
    WscapWriter w;
    std::string path;
    EXPECT_FALSE(w.createNew(dir + "/missing", "node1-1", &path, &error));
    EXPECT_NE(error.find("cannot create"), std::string::npos) << error;
}
