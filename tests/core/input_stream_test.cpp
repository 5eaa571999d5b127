#include "compression_util.h"
#include "io/input_stream.h"
#include "test_util.h"

using namespace ws;
using namespace ws::test;

namespace {

std::string readN(InputStream& in, size_t n) {
    std::string out(n, '\0');
    out.resize(in.read(out.data(), n));
    return out;
}

} // namespace

TEST(InputStream, GzipCheckpointResumesExactly) {
    const std::string path = dataPath("h100_gaunernst_bert-small-uncased__1016001.json.gz");
    const std::string plain = gunzipBytes(readFile(path));
    ASSERT_GT(plain.size(), 600000u);
    InputStream in;
    ASSERT_TRUE(in.open(path));
    ASSERT_TRUE(in.canCheckpoint());
    ASSERT_TRUE(in.skip(300001));
    EXPECT_EQ(in.textPosition(), 300001u);
    auto cp = in.checkpoint();
    ASSERT_TRUE(cp);
    EXPECT_EQ(readN(in, 5000), plain.substr(300001, 5000));
    for (int i = 0; i < 2; ++i) {
        InputStream again;
        ASSERT_TRUE(again.open(path));
        ASSERT_TRUE(again.restore(*cp));
        EXPECT_EQ(again.textPosition(), 300001u);
        EXPECT_EQ(readN(again, 5000), plain.substr(300001, 5000));
        ASSERT_TRUE(again.skip(200000));
        EXPECT_EQ(readN(again, 100), plain.substr(505001, 100));
    }
    // Concatenated members: a checkpoint in the second member.
    const std::string twoMembers = writeTemp("two.json.gz", gzipBytes(plain.substr(0, 1000)) + gzipBytes(plain.substr(1000)));
    InputStream a;
    ASSERT_TRUE(a.open(twoMembers));
    ASSERT_TRUE(a.skip(400000));
    auto cp2 = a.checkpoint();
    ASSERT_TRUE(cp2);
    InputStream b;
    ASSERT_TRUE(b.open(twoMembers));
    ASSERT_TRUE(b.restore(*cp2));
    EXPECT_EQ(readN(b, 3000), plain.substr(400000, 3000));
}

TEST(InputStream, PlainAndZstdHaveNoCheckpoints) {
    InputStream in;
    ASSERT_TRUE(in.open(dataPath("gpu_metrics_input.json")));
    EXPECT_FALSE(in.canCheckpoint());
    EXPECT_FALSE(in.checkpoint());
    ASSERT_TRUE(in.skip(10));
    EXPECT_EQ(in.textPosition(), 10u);
}

TEST(InputStream, EventTextOfCompressedSourcesMatchesPlain) {
    const std::string gz = dataPath("h100_gaunernst_bert-small-uncased__1016001.json.gz");
    ImportResult a = importTraceFile(gz);
    ImportResult b = importTraceFile(writeTemp("bert.json", gunzipBytes(readFile(gz))));
    ASSERT_TRUE(a.session && b.session);
    const Session& sa = *a.session;
    const Session& sb = *b.session;
    ASSERT_EQ(sa.tracks().size(), sb.tracks().size());
    for (size_t t = 0; t < sa.tracks().size(); ++t) {
        const Track& ta = sa.tracks()[t];
        for (size_t i = 0; i < ta.sliceCount(); i += std::max<size_t>(1, ta.sliceCount() / 5)) {
            const std::string text = sa.eventJson(ta, i);
            EXPECT_FALSE(text.empty());
            EXPECT_EQ(text, sb.eventJson(sb.tracks()[t], i));
        }
    }
}

// A reader that skips far between small reads (an analysis reading a few events' arguments spread
// over a large trace) reads a page at each, not a full buffer; reading on fills the buffer again.
TEST(InputStream, AFarSkipReadsOnlyWhatIsAskedFor) {
    std::string text(8u << 20, '\0');
    for (size_t i = 0; i < text.size(); ++i)
        text[i] = static_cast<char>('a' + (i * 7 + i / 4096) % 26);
    const std::string path = writeTemp("far_skip.txt", text);
    InputStream in;
    ASSERT_TRUE(in.open(path));
    const uint64_t opened = in.fileBytesConsumed(); // the first buffer
    ASSERT_GT(opened, 0u);
    EXPECT_EQ(readN(in, 100), text.substr(0, 100));
    ASSERT_TRUE(in.skip(3u << 20));
    EXPECT_EQ(readN(in, 300), text.substr(100 + (3u << 20), 300));
    EXPECT_LE(in.fileBytesConsumed() - opened, 4096u) << "a far skip's next read fills the whole buffer";
    // Reading on: full buffers again.
    const uint64_t before = in.fileBytesConsumed();
    const size_t at = 400 + (3u << 20);
    EXPECT_EQ(readN(in, 10000), text.substr(at, 10000));
    EXPECT_GT(in.fileBytesConsumed() - before, 64u << 10);
    // A near skip stays in the buffer.
    const uint64_t buffered = in.fileBytesConsumed();
    ASSERT_TRUE(in.skip(1000));
    EXPECT_EQ(readN(in, 50), text.substr(at + 11000, 50));
    EXPECT_EQ(in.fileBytesConsumed(), buffered);
}
