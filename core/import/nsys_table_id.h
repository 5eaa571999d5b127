#pragma once

#include <cstdint>

namespace ws {

/*
 * Slice argRefs of the SQLite importers: (table id << kNsysArgRowBits) | rowid, so the event text
 * source can find the row again. Row ids at or above 2^kNsysArgRowBits get no arguments.
 */
enum class NsysTableId : uint64_t {
    None = 0,
    Kernel,
    Memcpy,
    Memset,
    Sync,
    Runtime,
    Nvtx,
    Osrt,
    MemoryUsage,
    // nvprof tables
    NvprofKernel = 32,
    NvprofConcurrentKernel,
    NvprofRuntime,
    NvprofDriver,
    NvprofMemcpy,
    NvprofMemcpy2,
    NvprofMemset,
    NvprofSync,
    NvprofMarker,
};

constexpr int kNsysArgRowBits = 40;

constexpr uint64_t nsysArgRef(NsysTableId table, int64_t rowid) {
    if (rowid < 0 || rowid >= (int64_t(1) << kNsysArgRowBits)) return ~uint64_t(0);
    return (static_cast<uint64_t>(table) << kNsysArgRowBits) | static_cast<uint64_t>(rowid);
}
constexpr NsysTableId nsysArgTable(uint64_t argRef) {
    return static_cast<NsysTableId>(argRef >> kNsysArgRowBits);
}
constexpr int64_t nsysArgRow(uint64_t argRef) {
    return static_cast<int64_t>(argRef & ((uint64_t(1) << kNsysArgRowBits) - 1));
}

} // namespace ws
