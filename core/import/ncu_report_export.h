#pragma once

#include "analysis/ncu_results.h"

#include <string>

namespace ws {

/*
 * Nsight Compute's own reports (.ncu-rep), read through Nsight Compute: `ncu --import REPORT --csv
 * --page raw` and `--page details` (issue #49), the same exports readNcuCsv takes as files. The ncu
 * is $WARPSCOPE_NCU, else the first on PATH, else /usr/local/cuda/bin/ncu, else the newest under
 * /opt/nvidia/nsight-compute*. It runs with an argument vector (never a shell) and stdin from
 * /dev/null; its stdout is the CSV, its last lines the error when it fails.
 */
std::string findNcu(std::string* why);

// readNcuCsvFile for CSV exports (plain or compressed); a .ncu-rep through ncu, both pages.
// False with the reason (no ncu, ncu's own words, not an export).
bool readNcuFile(const std::string& path, NcuResults& into, std::string& error);

} // namespace ws
