// The Distributed view (issue #12): communication nodes, per-rank blocks, the job merge, summaries
// and clock alignment. Numbers on the 8 DLRM ranks are the ones tests/core/reference_distributed.py
// computes independently (Python json module + FORMATS.md 3.11, no shared code):
//   python3 tests/core/reference_distributed.py tests/data/dlrm_8ranks/*.gz
#include "analysis/distributed.h"
#include "analysis/distributed_json.h"
#include "analysis/job_clock.h"
#include "import/capture_importer.h"
#include "import/job_files.h"
#include "test_util.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <map>
#include <stdexcept>

using namespace ws;
using namespace ws::test;

namespace {

std::shared_ptr<const Session> importOrFail(const std::string& path) {
    ImportResult r = importTraceFile(path);
    if (!r.session)
        throw std::runtime_error(path + ": " + r.error);
    return r.session;
}

std::vector<std::string> dlrmFiles() {
    std::string error;
    return expandJobInputs({dataPath("dlrm_8ranks")}, &error);
}

std::vector<RankDistributed> dlrmRanks() {
    std::vector<RankDistributed> ranks;
    for (const std::string& f : dlrmFiles()) {
        auto s = importOrFail(f);
        ranks.push_back(summarizeRank(*s));
    }
    return ranks;
}

const std::vector<RankDistributed>& cachedDlrm() {
    static const std::vector<RankDistributed> ranks = dlrmRanks();
    return ranks;
}

} // namespace

TEST(CommOps, CollectiveKindsAndBandwidthFactors) {
    EXPECT_EQ(collectiveKindOf("nccl:all_reduce"), CollectiveKind::AllReduce);
    EXPECT_EQ(collectiveKindOf("nccl:_all_gather_base"), CollectiveKind::AllGather);
    EXPECT_EQ(collectiveKindOf("nccl:_reduce_scatter_base"), CollectiveKind::ReduceScatter);
    EXPECT_EQ(collectiveKindOf("nccl:all_to_all"), CollectiveKind::AllToAll);
    EXPECT_EQ(collectiveKindOf("gloo:broadcast"), CollectiveKind::Broadcast);
    EXPECT_EQ(collectiveKindOf("nccl:recv 1<-0"), CollectiveKind::Recv);
    EXPECT_EQ(collectiveKindOf("nccl:reduce"), CollectiveKind::Reduce);
    EXPECT_EQ(collectiveKindOf("nccl:barrier"), CollectiveKind::Barrier);
    EXPECT_EQ(collectiveKindOf("nccl:something"), CollectiveKind::Other);
    EXPECT_DOUBLE_EQ(*busBandwidthFactor(CollectiveKind::AllReduce, 8), 2.0 * 7 / 8);
    EXPECT_DOUBLE_EQ(*busBandwidthFactor(CollectiveKind::AllGather, 4), 0.75);
    EXPECT_DOUBLE_EQ(*busBandwidthFactor(CollectiveKind::Broadcast, 4), 1.0);
    EXPECT_FALSE(busBandwidthFactor(CollectiveKind::Barrier, 4));
    EXPECT_FALSE(busBandwidthFactor(CollectiveKind::AllReduce, 0));
    EXPECT_EQ(collectiveSizeBytes(CollectiveKind::AllGather, 100, 8), 800);
    EXPECT_EQ(collectiveSizeBytes(CollectiveKind::AllReduce, 100, 8), 100);
}

TEST(CommOps, InputBytesFromShapesAndTypes) {
    EXPECT_EQ(inputBytesOf("[[394241]]", R"(["float"])"), 394241 * 4);
    EXPECT_EQ(inputBytesOf("[[2, 3], [], [5]]", R"(["c10::BFloat16", "Scalar", "long int"])"), 2 * 3 * 2 + 5 * 8);
    EXPECT_EQ(inputBytesOf("[[[4], [6]]]", R"(["float"])"), (4 + 6) * 4); // a TensorList of one dtype
    EXPECT_EQ(inputBytesOf("[[[4], [6]]]", R"(["TensorList"])"), 0);      // no element size known
    EXPECT_FALSE(inputBytesOf("", "[]"));
    EXPECT_FALSE(inputBytesOf("not json", "[]"));
    EXPECT_EQ(dtypeSize("BFloat16"), 2);
    EXPECT_EQ(dtypeSize("Float"), 4);
    EXPECT_EQ(dtypeSize("mystery"), 0);
}

TEST(JobFiles, RanksAndWorkersFromFileNames) {
    EXPECT_EQ(rankFromFileName("/x/worker3_step_12.1694128201557.pt.trace.json"), 3);
    EXPECT_EQ(rankFromFileName("rank-12.Jul_15.pt.trace.json.gz"), 12);
    EXPECT_EQ(rankFromFileName("RANK_0.json"), 0);
    EXPECT_EQ(rankFromFileName("/ranked/trace.json"), -1);
    EXPECT_EQ(workerNameFromFileName("/d/worker0_step_12.1694128201545.pt.trace.json"), "worker0_step_12");
    EXPECT_EQ(workerNameFromFileName("host_123.pt.trace.json.gz"), "host_123");
    EXPECT_EQ(workerNameFromFileName("/d/rank1.json.gz"), "rank1");
}

TEST(JobFiles, FolderExpandsToItsTracesInRankOrder) {
    const std::vector<std::string> files = dlrmFiles();
    ASSERT_EQ(files.size(), 8u);
    for (size_t i = 0; i < files.size(); ++i)
        EXPECT_EQ(rankFromFileName(files[i]), static_cast<int>(i)) << files[i];
    // Non-trace files in a folder are skipped; a folder without traces is an error.
    const auto dir = tempDir() / "job_without_traces";
    std::filesystem::create_directories(dir);
    writeTemp("job_without_traces/README", "not a trace\n");
    std::string error;
    EXPECT_TRUE(expandJobInputs({dir.string()}, &error).empty());
    EXPECT_NE(error.find("no trace files"), std::string::npos) << error;
}

TEST(Distributed, DlrmCommunicationNodesAreLinkedToTheirKernels) {
    const auto& ranks = cachedDlrm();
    ASSERT_EQ(ranks.size(), 8u);
    for (const RankDistributed& r : ranks) {
        EXPECT_EQ(r.worldSize, 8);
        EXPECT_EQ(r.backend, "nccl");
        EXPECT_EQ(r.gpuName, "Tesla V100-SXM2-32GB");
        EXPECT_EQ(r.computeCapability, "7.0");
        ASSERT_EQ(r.steps.size(), 1u);
        EXPECT_EQ(r.steps[0].label, "10");
        size_t inStep = 0;
        for (const CommNode& n : r.nodes) {
            inStep += n.step == 0;
            // The runtime calls inside every nccl:* op launched exactly one NCCL kernel.
            EXPECT_EQ(n.ranges.size(), 2u) << n.name;
            ASSERT_TRUE(n.bytes.has_value()) << n.name;
        }
        EXPECT_EQ(inStep, 8u) << r.rank;
    }
    // Rank 0's first op: nccl:all_to_all of [6144] floats launched ncclKernel_SendRecv (2146 µs).
    const CommNode& first = ranks[0].nodes.front();
    EXPECT_EQ(first.name, "nccl:all_to_all");
    EXPECT_EQ(first.kind, CollectiveKind::AllToAll);
    EXPECT_EQ(*first.bytes, 6144 * 4);
    EXPECT_EQ(first.ranges[1].end - first.ranges[1].start, 2146000);
}

TEST(Distributed, NodesTakeProcessGroupAndSizeFromRecordParamComms) {
    auto s = importOrFail(dataPath("nccl_data_rank0.json.gz"));
    const RankDistributed r = summarizeRank(*s);
    EXPECT_EQ(r.rank, 0);
    EXPECT_EQ(r.worldSize, 2);
    ASSERT_FALSE(r.nodes.empty());
    size_t allReduce = 0;
    for (const CommNode& n : r.nodes) {
        EXPECT_EQ(n.processGroup, "0") << n.name;
        EXPECT_EQ(n.groupSize, 2) << n.name;
        EXPECT_GE(n.ranges.size(), 2u) << n.name; // every op launched its NCCL kernel
        allReduce += n.kind == CollectiveKind::AllReduce;
    }
    EXPECT_EQ(allReduce, 15u);
    const JobDistributed job = computeJobDistributed({r});
    ASSERT_FALSE(job.ops.empty());
    for (const CommOpStats& op : job.ops) {
        if (op.kind != CollectiveKind::AllReduce)
            continue;
        ASSERT_TRUE(op.busBwGBps.has_value());
        EXPECT_DOUBLE_EQ(*op.busBwGBps, *op.algBwGBps * 2.0 * 1 / 2); // n = 2: factor 1
    }
    EXPECT_FALSE(job.straggler); // one worker: nobody waits for anyone
}

TEST(Distributed, DlrmJobMatchesTheReferenceScript) {
    const JobDistributed job = computeJobDistributed(cachedDlrm());
    ASSERT_EQ(job.workers.size(), 8u);
    const nlohmann::json j = nlohmann::json::parse(jobDistributedToJson(job));
    // reference_distributed.py tests/data/dlrm_8ranks/*.gz: per worker (computation, communication,
    // overlap, other, sync, transfer) of step 10, in ns.
    struct Row {
        int64_t comp, comm, overlap, other, sync, transfer;
    };
    const Row expected[8] = {
        {1034000, 5997000, 261000, 7685000, 5369000, 628000},
        {1050000, 11536000, 280000, 6278000, 10898000, 638000},
        {1068000, 3716000, 275000, 8508000, 3078000, 638000},
        {1064000, 9981000, 324000, 7990000, 9343000, 638000},
        {1126000, 6826000, 37000, 10064000, 6235000, 591000},
        {1041000, 6517000, 40000, 10279000, 5962000, 555000},
        {1051000, 3764000, 269000, 8545000, 3135000, 629000},
        {1059000, 2049000, 166000, 9567000, 1490000, 559000},
    };
    for (size_t w = 0; w < 8; ++w) {
        const auto& st = j["workers"][w]["steps"][0];
        EXPECT_EQ(j["workers"][w]["rank"], static_cast<int>(w));
        EXPECT_EQ(st["computation_ns"].get<int64_t>(), expected[w].comp) << w;
        EXPECT_EQ(st["communication_ns"].get<int64_t>(), expected[w].comm) << w;
        EXPECT_EQ(st["overlap_ns"].get<int64_t>(), expected[w].overlap) << w;
        EXPECT_EQ(st["other_ns"].get<int64_t>(), expected[w].other) << w;
        EXPECT_EQ(st["sync_ns"].get<int64_t>(), expected[w].sync) << w;
        EXPECT_EQ(st["transfer_ns"].get<int64_t>(), expected[w].transfer) << w;
    }
    // The others wait on rank 7 in step 10.
    ASSERT_EQ(job.stragglers.size(), 1u);
    EXPECT_EQ(job.workers[job.stragglers[0].worker].rank, 7);
    EXPECT_NEAR(job.stragglers[0].waitNs, 6288571.429, 0.5);
    ASSERT_TRUE(job.straggler);
    EXPECT_EQ(job.workers[*job.straggler].rank, 7);
    EXPECT_EQ(job.workers[*job.slowestWorker].rank, 3);
    EXPECT_EQ(job.workers[*job.fastestWorker].rank, 7);
    EXPECT_EQ(job.unmatchedNodes, 0u);
    // Rank 0's ops table.
    const auto& ops = j["ops"];
    ASSERT_GE(ops.size(), 2u);
    EXPECT_EQ(ops[0]["name"], "nccl:all_reduce");
    EXPECT_EQ(ops[0]["calls"], 3);
    EXPECT_EQ(ops[0]["total_bytes"], 2485252);
    EXPECT_EQ(ops[0]["total_latency_ns"], 1905000);
    EXPECT_EQ(ops[0]["transfer_ns"], 323000);
    EXPECT_EQ(ops[0]["kernel_ns"], 1799000);
    EXPECT_NEAR(ops[0]["algbw_gbps"].get<double>(), 2485252.0 / 1799000.0, 1e-9);
    EXPECT_NEAR(ops[0]["busbw_gbps"].get<double>(), 2485252.0 / 1799000.0 * 2 * 7 / 8, 1e-9);
    EXPECT_EQ(ops[1]["name"], "nccl:all_to_all");
    EXPECT_EQ(ops[1]["calls"], 5);
    EXPECT_EQ(ops[1]["total_bytes"], 64448);
    EXPECT_EQ(ops[1]["total_latency_ns"], 4186000);
    EXPECT_EQ(ops[1]["transfer_ns"], 315000);
    EXPECT_EQ(ops[1]["kernel_ns"], 3999000);
}

TEST(Distributed, SummariesMergeToTheSameTables) {
    std::vector<RankDistributed> viaJson;
    for (const RankDistributed& r : cachedDlrm()) {
        // As `warpscope-cli summary --json` writes it: the block inside a summary object.
        const std::string summary = R"({"format": "Chrome JSON", "distributed": )" + rankDistributedToJson(r) + "}";
        std::string error;
        auto back = rankDistributedFromJson(summary, &error);
        ASSERT_TRUE(back) << error;
        viaJson.push_back(std::move(*back));
    }
    EXPECT_EQ(jobDistributedToJson(computeJobDistributed(viaJson)), jobDistributedToJson(computeJobDistributed(cachedDlrm())));
}

TEST(Distributed, MalformedSummariesAreRefusedWithAReason) {
    std::string error;
    EXPECT_FALSE(rankDistributedFromJson("[1, 2]", &error));
    EXPECT_FALSE(error.empty());
    EXPECT_FALSE(rankDistributedFromJson(R"({"format": "x"})", &error));
    EXPECT_NE(error.find("no distributed block"), std::string::npos) << error;
    EXPECT_FALSE(rankDistributedFromJson(R"({"version": 2})", &error));
    EXPECT_NE(error.find("version"), std::string::npos) << error;
    std::string block = rankDistributedToJson(cachedDlrm()[0]);
    const size_t at = block.find("\"range_count\":[");
    ASSERT_NE(at, std::string::npos);
    block.insert(at + 15, "99,"); // one count too many: the arrays disagree
    EXPECT_FALSE(rankDistributedFromJson(block, &error));
    EXPECT_FALSE(error.empty());
}

TEST(Distributed, AStepFilterKeepsOnlyThoseStepsAndTheirOps) {
    const auto& ranks = cachedDlrm();
    const JobDistributed none = computeJobDistributed(ranks, [](size_t, const RankStep&) { return false; });
    ASSERT_EQ(none.workers.size(), 8u);
    EXPECT_TRUE(none.workers[0].steps.empty());
    EXPECT_TRUE(none.ops.empty());
    EXPECT_TRUE(none.stragglers.empty());
    // Only rank 2's step: the others have no step, so no straggler, and only rank 2 has ops.
    const JobDistributed one = computeJobDistributed(ranks, [](size_t rank, const RankStep&) { return rank == 2; });
    EXPECT_EQ(one.workers[2].steps.size(), 1u);
    EXPECT_TRUE(one.workers[3].steps.empty());
    for (const CommOpStats& op : one.ops)
        EXPECT_EQ(op.worker, 2u);
    EXPECT_TRUE(one.stragglers.empty());
    const JobDistributed all = computeJobDistributed(ranks, [](size_t, const RankStep&) { return true; });
    EXPECT_EQ(jobDistributedToJson(all), jobDistributedToJson(computeJobDistributed(ranks)));
}

TEST(Distributed, ClocksThatAgreeAreKeptAndShiftedOnesRealigned) {
    std::vector<RankDistributed> ranks = cachedDlrm();
    ClockAlignment same = alignJobClocks(ranks);
    EXPECT_EQ(same.method, ClockAlignment::Method::TraceClocks);
    EXPECT_LT(same.spreadNs, 1'000'000);
    for (int64_t o : same.offsetNs)
        EXPECT_EQ(o, 0);
    // Rank 5's host clock runs 40 ms ahead: its collectives now end 40 ms late.
    const int64_t skew = 40'000'000;
    for (RankStep& s : ranks[5].steps) {
        s.start += skew;
        s.end += skew;
    }
    for (CommNode& n : ranks[5].nodes)
        for (Interval& iv : n.ranges) {
            iv.start += skew;
            iv.end += skew;
        }
    const ClockAlignment fixed = alignJobClocks(ranks);
    EXPECT_EQ(fixed.method, ClockAlignment::Method::FirstCollective);
    EXPECT_EQ(fixed.reference, ranks[0].nodes.front().name);
    EXPECT_NEAR(static_cast<double>(fixed.offsetNs[5]), static_cast<double>(-skew), 20'000.0);
    EXPECT_NEAR(static_cast<double>(fixed.offsetNs[3]), 0.0, 20'000.0);
    // The merged tables do not depend on the clocks at all (only the steps' own times moved).
    auto withoutTimes = [](const std::vector<RankDistributed>& r) {
        nlohmann::json j = nlohmann::json::parse(jobDistributedToJson(computeJobDistributed(r)));
        for (auto& w : j["workers"])
            for (auto& st : w["steps"]) {
                st.erase("start_ns");
                st.erase("end_ns");
            }
        return j;
    };
    EXPECT_EQ(withoutTimes(ranks), withoutTimes(cachedDlrm()));
}

TEST(Distributed, CaptureStreamsOfADdpRunAreAJob) {
    // A capture folder of a 2-rank DDP run (2x H200, NCCL): one stream per rank plus the torchrun
    // launcher's. No torch.profiler here, so the NCCL kernels are the communication ops.
    std::vector<RankDistributed> processes;
    for (const char* f : {"captures/ddp_launcher.wscap.gz", "captures/ddp_rank1.wscap.gz", "captures/ddp_rank0.wscap.gz"}) {
        RankDistributed r = summarizeRank(*importOrFail(dataPath(f)));
        r.worker = workerNameFromFileName(f);
        processes.push_back(std::move(r));
    }
    EXPECT_EQ(captureStreamRank(dataPath("captures/ddp_rank1.wscap.gz")), 1); // read from the header alone
    EXPECT_EQ(captureStreamRank(dataPath("captures/ddp_launcher.wscap.gz")), -1);
    EXPECT_EQ(captureStreamRank(dataPath("dlrm_8ranks/worker0_step_12.1694128201545.pt.trace.json.gz")), -1);
    EXPECT_EQ(processes[0].worker, "ddp_launcher");
    EXPECT_EQ(processes[0].rank, -1); // no RANK in the launcher's environment
    EXPECT_EQ(processes[1].rank, 1);  // the stream header's RANK
    const std::vector<size_t> workers = jobWorkerIndices(processes);
    ASSERT_EQ(workers, (std::vector<size_t>{1, 2})); // the launcher is not a worker
    std::vector<RankDistributed> ranks = {processes[1], processes[2]};
    const ClockAlignment clock = alignJobClocks(ranks);
    EXPECT_EQ(clock.method, ClockAlignment::Method::TraceClocks); // one host, one clock
    EXPECT_LT(clock.spreadNs, 1'000'000);
    const JobDistributed job = computeJobDistributed(ranks);
    ASSERT_EQ(job.workers.size(), 2u);
    EXPECT_EQ(job.workers[0].rank, 0);
    std::map<std::string, uint64_t> calls;
    for (const CommOpStats& op : job.ops) {
        EXPECT_EQ(op.name.rfind("ncclDevKernel_", 0), 0u) << op.name;
        if (op.worker == 0)
            calls[collectiveKindName(op.kind)] = op.calls;
    }
    // Inside the analysed steps (the ops table counts them): DDP's gradient buckets and its buffer
    // broadcasts, 3 and 2 per step; the set-up's parameter broadcast and all_gather come before
    // step 0, and step 0 itself is start-up (below).
    EXPECT_EQ(calls["all_reduce"], 57u);
    EXPECT_EQ(calls["broadcast"], 40u);
    EXPECT_EQ(calls.count("all_gather"), 0u);
    EXPECT_EQ(job.unmatchedNodes, 0u);
    // ddp_step.py marks each of its 20 steps with an NVTX range `step i`: those are the steps, but
    // step 0 (NCCL and cuDNN start-up, far longer than the others) is left out (issue #25).
    ASSERT_EQ(job.workers[0].steps.size(), 19u);
    EXPECT_EQ(job.workers[0].steps[0].label, "1");
    EXPECT_EQ(job.workers[0].steps[7].label, "8");
    EXPECT_EQ(job.workers[1].steps.size(), 19u);
    // Both ranks move the same data each step (transfer within 1 %); who waits varies by step.
    for (size_t k = 0; k < 19; ++k)
        EXPECT_NEAR(static_cast<double>(job.steps[0].transfer[k]), static_cast<double>(job.steps[1].transfer[k]),
                    0.01 * static_cast<double>(job.steps[0].transfer[k]) + 1000.0) << k;
    ASSERT_EQ(job.stragglers.size(), 19u);
    ASSERT_TRUE(job.straggler);
    EXPECT_EQ(job.workers[*job.straggler].rank, 1); // the one waited on in most steps
    EXPECT_GT(job.steps[0].meanSync, job.steps[1].meanSync);
}

TEST(Distributed, TracesWithoutFlowEventsLinkByCorrelation) {
    // HTA's sampled ranks 0 and 1 of a 128-rank job carry no ac2g flow events.
    const std::string r0 = sharedPath("pytorch_kineto/hta/sampled_rank-0.json.gz");
    const std::string r1 = sharedPath("pytorch_kineto/hta/sampled_rank-1.json.gz");
    if (!std::filesystem::exists(r0) || !std::filesystem::exists(r1))
        GTEST_SKIP() << "../shared/testdata is not here";
    const JobDistributed job = computeJobDistributed({summarizeRank(*importOrFail(r0)), summarizeRank(*importOrFail(r1))});
    ASSERT_EQ(job.workers.size(), 2u);
    // reference_distributed.py on the two files.
    const nlohmann::json j = nlohmann::json::parse(jobDistributedToJson(job));
    EXPECT_EQ(j["workers"][0]["steps"][0]["sync_ns"], 54866000);
    EXPECT_EQ(j["workers"][0]["steps"][0]["transfer_ns"], 140980000);
    EXPECT_EQ(j["workers"][1]["steps"][1]["sync_ns"], 69624000);
    ASSERT_EQ(job.stragglers.size(), 2u);
    EXPECT_EQ(job.workers[job.stragglers[0].worker].rank, 1);
    for (const CommOpStats& op : job.ops)
        EXPECT_GT(op.kernelNs, 0) << op.name; // every op found its kernels
}

// Issue #26: a stream is named <host>-<pid>.wscap, so the workers of a multi-node job keep their host.
TEST(Distributed, CaptureStreamWorkersAreNamedByHostAndPid) {
    EXPECT_EQ(workerName("/shared/run1/gpu7.cluster-4242.wscap"), "gpu7.cluster-4242");
    EXPECT_EQ(workerName("/shared/run1/gpu7-4242-2.wscap.gz"), "gpu7-4242-2");
    EXPECT_EQ(workerName("/old/capture/4242.wscap"), "pid 4242"); // streams of format 1.2 captures
}
