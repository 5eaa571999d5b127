#include "import/nsys_processes.h"

#include "io/sqlite_database.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <set>

namespace ws {

namespace {

int64_t pidOf(int64_t globalId) { return (globalId >> 24) & 0xFFFFFF; }

std::set<int64_t> gpuProcesses(SqliteDatabase& db) {
    std::set<int64_t> pids;
    const std::vector<std::string> cols = db.columns("TARGET_INFO_CUDA_STREAM");
    if (std::find(cols.begin(), cols.end(), "processId") != cols.end()) {
        SqliteStatement q(db, "SELECT DISTINCT processId FROM TARGET_INFO_CUDA_STREAM");
        while (q.step())
            if (!q.isNull(0))
                pids.insert(q.int64(0));
    }
    if (pids.empty() && !db.columns("CUPTI_ACTIVITY_KIND_KERNEL").empty()) {
        SqliteStatement q(db, "SELECT DISTINCT globalPid FROM CUPTI_ACTIVITY_KIND_KERNEL");
        while (q.step())
            if (!q.isNull(0))
                pids.insert(pidOf(q.int64(0)));
    }
    return pids;
}

std::map<int64_t, int> mpiRanks(SqliteDatabase& db) {
    std::map<int64_t, int> ranks;
    const std::vector<std::string> cols = db.columns("MPI_RANKS");
    if (std::find(cols.begin(), cols.end(), "globalTid") == cols.end() ||
        std::find(cols.begin(), cols.end(), "rank") == cols.end())
        return ranks;
    SqliteStatement q(db, "SELECT globalTid, rank FROM MPI_RANKS");
    while (q.step())
        if (!q.isNull(0) && !q.isNull(1))
            ranks.emplace(pidOf(q.int64(0)), static_cast<int>(q.int64(1)));
    return ranks;
}

// A rank variable's value in one `NAME="value"` (or NAME=value) row; -1 when it is another variable.
int rankVariable(const std::string& row) {
    static const char* const kNames[] = {"RANK", "OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK", "SLURM_PROCID"};
    const size_t eq = row.find('=');
    if (eq == std::string::npos)
        return -1;
    const std::string name = row.substr(0, eq);
    if (std::none_of(std::begin(kNames), std::end(kNames), [&](const char* n) { return name == n; }))
        return -1;
    std::string value = row.substr(eq + 1);
    if (value.size() >= 2 && value.front() == '"' && value.back() == '"')
        value = value.substr(1, value.size() - 2);
    if (value.empty() || value.find_first_not_of("0123456789") != std::string::npos || value.size() > 9)
        return -1;
    return std::atoi(value.c_str());
}

std::map<int64_t, int> environmentRanks(SqliteDatabase& db) {
    std::map<int64_t, int> ranks;
    if (db.columns("META_DATA_CAPTURE").empty())
        return ranks;
    std::map<std::string, int64_t> pidOfEntry; // "PROCESS_<n>" -> pid
    std::map<std::string, int> rankOfEntry;    // "PROCESS_<n>" -> its first rank variable
    SqliteStatement q(db, "SELECT name, value FROM META_DATA_CAPTURE WHERE name LIKE 'PROCESS_%'");
    while (q.step()) {
        const std::string name(q.text(0)), value(q.text(1));
        const size_t colon = name.find(':');
        if (colon == std::string::npos)
            continue;
        const std::string entry = name.substr(0, colon), field = name.substr(colon + 1);
        if (field == "PID" && !value.empty() && value.find_first_not_of("0123456789") == std::string::npos)
            pidOfEntry[entry] = std::atoll(value.c_str());
        else if (field == "ENVIRONMENT_VARIABLE")
            if (const int r = rankVariable(value); r >= 0)
                rankOfEntry.emplace(entry, r);
    }
    for (const auto& [entry, rank] : rankOfEntry)
        if (auto p = pidOfEntry.find(entry); p != pidOfEntry.end() && p->second > 0)
            ranks.emplace(p->second, rank);
    return ranks;
}

// Whether `ranks` names every process with a rank of its own.
bool coversDistinct(const std::map<int64_t, int>& ranks, const std::set<int64_t>& pids) {
    std::set<int> seen;
    for (int64_t pid : pids) {
        auto it = ranks.find(pid);
        if (it == ranks.end() || !seen.insert(it->second).second)
            return false;
    }
    return true;
}

} // namespace

std::vector<NsysRankProcess> nsysRankProcesses(const std::string& sqlitePath) {
    std::vector<NsysRankProcess> out;
    SqliteDatabase db;
    if (!db.open(sqlitePath, SqliteDatabase::Mode::ReadOnly))
        return out;
    const std::set<int64_t> pids = gpuProcesses(db);
    std::map<int64_t, int> ranks = mpiRanks(db);
    std::string source = "MPI_RANKS";
    if (!coversDistinct(ranks, pids)) {
        ranks = environmentRanks(db);
        source = "environment";
    }
    if (!coversDistinct(ranks, pids)) {
        ranks.clear();
        int next = 0;
        for (int64_t pid : pids) // std::set: ascending pid
            ranks[pid] = next++;
        source = "process order";
    }
    for (int64_t pid : pids)
        out.push_back({pid, ranks[pid], {}, source});
    if (!db.columns("PROCESSES").empty()) {
        SqliteStatement q(db, "SELECT pid, name FROM PROCESSES");
        while (q.step())
            for (NsysRankProcess& p : out)
                if (!q.isNull(0) && q.int64(0) == p.pid && p.name.empty())
                    p.name = std::string(q.text(1));
    }
    std::sort(out.begin(), out.end(), [](const NsysRankProcess& a, const NsysRankProcess& b) { return a.rank < b.rank; });
    return out;
}

} // namespace ws
