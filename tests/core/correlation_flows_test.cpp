// TraceBuilder::setCorrelationFlows (issue #29): flows made from the correlation column after the
// tracks are final must be those that FlowEnd records (a runtime call's start, its kernel's end,
// both bound as enclosing ends) give, with repeated ids, a child starting with its launch, a kernel
// without a launch, a launch without a kernel and a kernel at its launch's time.
#include "import/nsys_chunk_writer.h"
#include "model/trace_builder.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <tuple>
#include <vector>

namespace ws {
namespace {

struct Event {
    bool device; // a kernel on the GPU's stream, else a call on the host thread
    int64_t ts, dur;
    const char* name;
    uint32_t corr; // 0: none
};

std::shared_ptr<Session> build(const std::vector<Event>& events, bool fromColumn) {
    TraceBuilder builder("test", TraceFormat::Xplane);
    if (fromColumn)
        builder.setCorrelationFlows("ac2g");
    NsysChunkWriter w;
    for (const Event& e : events) {
        ChunkResult::Slice s;
        s.ts = e.ts;
        s.dur = e.dur;
        s.name = w.string(e.name);
        s.cat = w.string(e.device ? "kernel" : e.corr ? "cuda_runtime" : "cpu_op");
        s.track = e.device ? w.track(0, 7) : w.track(100, 1);
        s.argRef = Track::kNoArgs;
        if (e.corr) {
            s.corr = e.corr;
            s.have |= ChunkResult::kCorr;
            if (!fromColumn) {
                ChunkResult::FlowEnd f;
                f.ts = e.ts;
                f.seq = w.nextSeq();
                f.id = e.corr;
                f.track = s.track;
                f.cat = w.string("ac2g");
                f.ph = e.device ? 'f' : 's';
                f.bindEnclosing = true;
                w.chunk().flows.push_back(f);
            }
        }
        w.noteTime(e.ts, e.ts + e.dur);
        w.chunk().slices.push_back(s);
        ++w.chunk().events;
    }
    ChunkResult c = w.takeChunk();
    builder.addChunk(c);
    return builder.finish(1);
}

using FlowKey = std::tuple<std::string, uint32_t, std::string, uint32_t, uint64_t, std::string>;

std::vector<FlowKey> flowsOf(const Session& s) {
    std::vector<FlowKey> out;
    for (const Flow& f : s.flows()) {
        const Track& from = s.tracks()[f.fromTrack];
        const Track& to = s.tracks()[f.toTrack];
        out.emplace_back(std::string(s.str(from.names[f.fromSlice])), f.fromTrack,
                         std::string(s.str(to.names[f.toSlice])), f.toTrack, f.id, std::string(s.str(f.category)));
    }
    return out;
}

TEST(CorrelationFlows, MatchTheFlowsOfFlowEndRecords) {
    const std::vector<Event> events = {
        {false, 10, 5, "cudaLaunchKernel", 1},
        {false, 20, 5, "cudaLaunchKernel", 2},
        {false, 20, 2, "inner", 0}, // starts with its launch: the enclosing end binds to it
        {false, 30, 5, "cudaMemcpyAsync", 1}, // id 1 again, later
        {false, 40, 5, "cudaLaunchKernel", 4}, // no kernel
        {true, 12, 3, "k1", 1},
        {true, 22, 3, "k2", 2},
        {true, 32, 3, "k1 again", 1},
        {true, 50, 3, "k3", 3}, // no launch
        {true, 60, 3, "k5", 5}, // at its launch's time, before it in the file: the start still comes first
        {false, 60, 5, "cudaLaunchKernel", 5},
    };
    const auto records = build(events, false);
    const auto column = build(events, true);
    const std::vector<FlowKey> expected = flowsOf(*records);
    ASSERT_EQ(expected.size(), 4u);
    EXPECT_EQ(flowsOf(*column), expected);
    EXPECT_EQ(std::get<2>(expected[0]), "k1");
    EXPECT_EQ(std::get<0>(expected[1]), "cudaMemcpyAsync");
    EXPECT_EQ(std::get<0>(expected[2]), "inner");
    EXPECT_EQ(std::get<2>(expected[3]), "k5");
    // Both indexes of the flows by end agree too.
    for (uint32_t t = 0; t < column->tracks().size(); ++t)
        for (uint32_t i = 0; i < column->tracks()[t].start.size(); ++i)
            EXPECT_EQ(column->flowsOf(t, i).size(), records->flowsOf(t, i).size()) << "track " << t << " slice " << i;
}

} // namespace
} // namespace ws
