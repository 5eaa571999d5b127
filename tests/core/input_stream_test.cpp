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
