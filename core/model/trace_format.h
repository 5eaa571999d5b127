#pragma once

#include <cstdint>
#include <string_view>

namespace ws {

/*
 * What a file is, decided from its first bytes (and, for SQLite, its tables), never its name
 * (detectFormat, import/trace_import.h). Part of the model because a Session records the format it
 * was built from and the store keeps it by name.
 */
enum class TraceFormat {
    Unknown,
    ChromeJson,      // Chrome trace JSON, including PyTorch/Kineto (plain, .gz or .zst)
    NsightSqlite,    // nsys export --type sqlite
    NvprofSqlite,    // nvprof --export-profile / .nvvp
    WarpscopeSession,
    WarpscopeCapture,
    NsightReport,    // .nsys-rep / .qdrep: must be exported to SQLite first
    RocprofJson,     // rocprofv3 --output-format json (plain, .gz or .zst)
    TorchMemoryTimeline, // torch.profiler export_memory_timeline (.json, .raw.json.gz)
    Xplane,          // XLA/JAX/TensorFlow XSpace protobuf (.xplane.pb, also .gz)
    TorchMemorySnapshot, // torch.cuda.memory._dump_snapshot / pickled _snapshot() (plain or .gz)
};

// PRAGMA application_id of a Warpscope session file ("WSs1"): the sniff (import) and the store both
// need it, neither includes the other.
inline constexpr int kSessionApplicationId = 0x57537331;

// A stable text for each format (stored in session files, printed by the CLI).
const char* formatName(TraceFormat format);
// The inverse of formatName; Unknown for any other text.
TraceFormat formatFromName(std::string_view name);

} // namespace ws
