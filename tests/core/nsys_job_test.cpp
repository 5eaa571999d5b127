// A multi-process Nsight Systems export as a job (issue #28): tests/data/nsys/
// saxpy_mpi_4proc_derived.sqlite holds four copies of the real saxpy MPI rank's CUDA process
// (make_mpi_job_export.py: pids +10k, devices k, MPI_RANKS 2, 0, 3, 1 in pid order). Each process
// imported alone must hold exactly its own rows, checked with independent SQL on the file.
#include "analysis/trace_summary.h"
#include "import/job_files.h"
#include "import/nsys_processes.h"
#include "library/job_loading.h"
#include "io/sqlite_database.h"
#include "test_util.h"

#include <algorithm>
#include <filesystem>
#include <set>

using namespace ws;
using namespace ws::test;
namespace fs = std::filesystem;

namespace {

const char* kJob = "nsys/saxpy_mpi_4proc_derived.sqlite";

int64_t sqlInt(const std::string& path, const std::string& sql) {
    SqliteDatabase db;
    EXPECT_TRUE(db.open(path, SqliteDatabase::Mode::ReadOnly)) << db.error();
    return db.queryInt(sql).value_or(-1);
}

// A copy of the job export changed by `sql` (another way an export may carry its ranks).
std::string variant(const std::string& name, const std::string& sql) {
    const fs::path path = tempDir() / name;
    fs::copy_file(dataPath(kJob), path, fs::copy_options::overwrite_existing);
    SqliteDatabase db;
    EXPECT_TRUE(db.open(path.string(), SqliteDatabase::Mode::ReadWriteCreate)) << db.error();
    EXPECT_TRUE(db.exec(sql)) << db.error();
    return path.string();
}

std::vector<int64_t> pidsOf(const std::vector<NsysRankProcess>& ps) {
    std::vector<int64_t> pids;
    for (const auto& p : ps)
        pids.push_back(p.pid);
    return pids;
}

} // namespace

TEST(NsysJob, RanksComeFromMpiRanks) {
    const std::vector<NsysRankProcess> ps = nsysRankProcesses(dataPath(kJob));
    ASSERT_EQ(ps.size(), 4u);
    // By rank; the table gave pids 1230493, 1230503, 1230513, 1230523 the ranks 2, 0, 3, 1.
    EXPECT_EQ(pidsOf(ps), (std::vector<int64_t>{1230503, 1230523, 1230493, 1230513}));
    for (size_t i = 0; i < ps.size(); ++i) {
        EXPECT_EQ(ps[i].rank, static_cast<int>(i));
        EXPECT_EQ(ps[i].rankSource, "MPI_RANKS");
        EXPECT_EQ(ps[i].name, "./saxpy-mpi-cuda");
    }
}

TEST(NsysJob, RanksFromTheRecordedEnvironmentElseProcessOrder) {
    const std::string byPid = variant("no_mpi_ranks.sqlite", "DROP TABLE MPI_RANKS");
    const std::vector<NsysRankProcess> ordered = nsysRankProcesses(byPid);
    ASSERT_EQ(ordered.size(), 4u);
    EXPECT_EQ(pidsOf(ordered), (std::vector<int64_t>{1230493, 1230503, 1230513, 1230523}));
    EXPECT_EQ(ordered.front().rankSource, "process order");

    // nsys' record of processes it launched, each with its own environment (OMPI's variable here).
    std::string sql = "DROP TABLE MPI_RANKS; CREATE TABLE IF NOT EXISTS META_DATA_CAPTURE (name TEXT, value TEXT);";
    const int ranks[4] = {3, 1, 0, 2};
    for (int k = 0; k < 4; ++k) {
        const std::string entry = "PROCESS_" + std::to_string(k);
        sql += "INSERT INTO META_DATA_CAPTURE VALUES ('" + entry + ":PID', '" + std::to_string(1230493 + 10 * k) + "');";
        sql += "INSERT INTO META_DATA_CAPTURE VALUES ('" + entry + ":ENVIRONMENT_VARIABLE', 'OMPI_COMM_WORLD_RANK=\"" +
               std::to_string(ranks[k]) + "\"');";
    }
    const std::vector<NsysRankProcess> env = nsysRankProcesses(variant("env_ranks.sqlite", sql));
    ASSERT_EQ(env.size(), 4u);
    EXPECT_EQ(pidsOf(env), (std::vector<int64_t>{1230513, 1230503, 1230523, 1230493}));
    EXPECT_EQ(env.front().rankSource, "environment");

    // A launcher's environment (PID 0: nsys started it) says nothing about its children.
    const std::vector<NsysRankProcess> launcher = nsysRankProcesses(variant(
        "launcher_env.sqlite", "DROP TABLE MPI_RANKS; CREATE TABLE IF NOT EXISTS META_DATA_CAPTURE (name TEXT, value TEXT);"
                               "INSERT INTO META_DATA_CAPTURE VALUES ('PROCESS_0:PID', '0');"
                               "INSERT INTO META_DATA_CAPTURE VALUES ('PROCESS_0:ENVIRONMENT_VARIABLE', 'RANK=\"0\"');"));
    ASSERT_EQ(launcher.size(), 4u);
    EXPECT_EQ(launcher.front().rankSource, "process order");
}

TEST(NsysJob, EachProcessImportsExactlyItsOwnRows) {
    const std::string path = dataPath(kJob);
    const ImportResult whole = importTraceFile(path);
    ASSERT_TRUE(whole.session) << whole.error;
    uint64_t kernels = 0, events = 0;
    for (const NsysRankProcess& p : nsysRankProcesses(path)) {
        ImportControl control;
        control.process = p.pid;
        const ImportResult one = importTraceFile(path, control);
        ASSERT_TRUE(one.session) << one.error;
        const TraceSummary s = summarizeSession(*one.session);
        const std::string pid = std::to_string(p.pid);
        EXPECT_EQ(static_cast<int64_t>(s.kernelCount),
                  sqlInt(path, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE globalPid / 16777216 % 16777216 = " + pid));
        EXPECT_EQ(static_cast<int64_t>(s.memcpyCount),
                  sqlInt(path, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_MEMCPY WHERE globalPid / 16777216 % 16777216 = " + pid));
        // Its kernels ran on its own GPU only (the derived process k used device k).
        const int64_t device = sqlInt(path, "SELECT min(deviceId) FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE globalPid / "
                                            "16777216 % 16777216 = " + pid);
        ASSERT_EQ(s.devices.size(), 1u);
        EXPECT_EQ(s.devices.front().id, device);
        kernels += s.kernelCount;
        events += s.events;
    }
    const TraceSummary all = summarizeSession(*whole.session);
    EXPECT_EQ(kernels, all.kernelCount);
    EXPECT_EQ(events, all.events);
}

TEST(NsysJob, LoadsAsAJobOfItsProcessesAndSingleProcessFilesStayFiles) {
    std::vector<std::string> singles = {dataPath("nsys/nvfuser_report2_h200_nsys2024.6.sqlite")};
    for (const char* shared : {"nsys_sqlite/pipit_saxpy-mpi-cuda_nsys_perlmutter0.sqlite",
                               "nsys_sqlite/nvfuser_report2_8xh100_nsys2024.6.sqlite"})
        if (fs::exists(sharedPath(shared))) // the shared data is absent from users' clones
            singles.push_back(sharedPath(shared));
    for (const std::string& f : singles) {
        EXPECT_FALSE(isMultiProcessExport(f)) << f;
        const std::vector<JobRankSource> sources = jobRankSources({f}, {});
        ASSERT_EQ(sources.size(), 1u) << f;
        EXPECT_EQ(sources[0].process, -1) << f;
        EXPECT_EQ(sources[0].importPath, f);
        EXPECT_EQ(sources[0].rank, -1);
    }

    EXPECT_TRUE(isMultiProcessExport(dataPath(kJob)));
    JobLoadOptions options;
    options.libraryDir = (tempDir() / "library").string();
    std::vector<JobRankLoad> ranks = loadJobRanks({dataPath(kJob)}, options);
    ASSERT_EQ(ranks.size(), 4u);
    std::set<int> seen;
    for (const JobRankLoad& r : ranks) {
        ASSERT_TRUE(r.session) << r.error;
        EXPECT_EQ(r.block.rank, r.source.rank);
        EXPECT_EQ(r.block.worker, "saxpy-mpi-cuda[" + std::to_string(r.source.process) + "]");
        seen.insert(r.block.rank);
    }
    EXPECT_EQ(seen, (std::set<int>{0, 1, 2, 3}));
    // One file, four ranks: none goes to the library, which keeps one session per file.
    storeJobRanks(ranks, options);
    EXPECT_FALSE(fs::exists(options.libraryDir) && !fs::is_empty(options.libraryDir));
}
