#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ws {

/*
 * The processes of one Nsight Systems SQLite export that did GPU work, as ranks of a job. One nsys
 * over `mpirun`/`srun`/`torchrun` records every rank in one export; Warpscope opens such an export
 * as a job of its processes (each imported alone, ImportControl::process) and one with a single GPU
 * process as one session, as before.
 *
 * GPU processes: those owning CUDA streams (TARGET_INFO_CUDA_STREAM.processId, one small row per
 * stream, so this is cheap on any export; exports without the table: owners of kernel rows). A
 * launcher (torchrun's agent, mpirun) creates no streams and is no rank.
 *
 * Ranks, in order of trust:
 *  1. MPI_RANKS(globalTid, rank), written when MPI is traced (`-t mpi`);
 *  2. the environment nsys recorded for a process it launched (META_DATA_CAPTURE's PROCESS_<n>:PID
 *     and PROCESS_<n>:ENVIRONMENT_VARIABLE rows): RANK, OMPI_COMM_WORLD_RANK, PMI_RANK, PMIX_RANK,
 *     SLURM_PROCID. nsys records it for the process it starts, so it applies only when that pid is
 *     the GPU process itself, never to the children of a launcher (they share its environment);
 *  3. otherwise the process order by pid: launchers start ranks 0..N-1 in order, so their pids
 *     rise with the rank unless pids wrapped around.
 * Sources 1-2 are used only when they give every process a distinct rank; a mix would not be an order.
 */
struct NsysRankProcess {
    int64_t pid = 0;
    int rank = 0;
    std::string name;       // PROCESSES.name, "" when the export lacks it
    std::string rankSource; // "MPI_RANKS", "environment" or "process order"
};

// Sorted by rank; empty when the file cannot be read as an Nsight Systems export.
std::vector<NsysRankProcess> nsysRankProcesses(const std::string& sqlitePath);

} // namespace ws
