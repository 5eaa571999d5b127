#include "import/trace_import.h"
#include "import/import_formats.h"

#include "import/capture_importer.h"
#include "import/chrome_json_importer.h"
#include "import/nsys_importer.h"
#include "import/nvprof_importer.h"
#include "import/remote_import.h"
#include "import/rocprof_importer.h"
#include "import/torch_memory_snapshot_importer.h"
#include "import/torch_memory_timeline_importer.h"
#include "import/xplane_importer.h"
#include "io/input_stream.h"
#include "model/session.h"
#include "io/sqlite_database.h"

#include <cctype>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace ws {

namespace {

// Which SQLite database this is, by its application id and tables; opened read-only and defensively.
TraceFormat classifySqlite(const std::string& path) {
    SqliteDatabase db;
    if (!db.open(path, SqliteDatabase::Mode::ReadOnly))
        return TraceFormat::Unknown;
    if (db.queryInt("PRAGMA application_id") == kSessionApplicationId)
        return TraceFormat::WarpscopeSession; // its version is the store's to judge (a clear message)
    bool nsight = false, nvprof = false;
    for (const std::string& name : db.tables()) {
        nsight = nsight || name == "StringIds" || name.rfind("TARGET_INFO_", 0) == 0;
        nvprof = nvprof || name.rfind("CUPTI_ACTIVITY_KIND_", 0) == 0 || name == "Version";
    }
    return nsight ? TraceFormat::NsightSqlite : nvprof ? TraceFormat::NvprofSqlite : TraceFormat::Unknown;
}

// Which JSON document this is, by its first key or shape; Chrome trace JSON unless it is sure.
TraceFormat jsonFormat(std::string_view head) {
    if (looksLikeRocprofJson(head))
        return TraceFormat::RocprofJson;
    if (looksLikeTorchMemoryTimeline(head))
        return TraceFormat::TorchMemoryTimeline;
    return TraceFormat::ChromeJson;
}

// What detectFormat saw, with the sentence to show when the file cannot be imported.
struct Sniff {
    TraceFormat format = TraceFormat::Unknown;
    std::string error;
};

// A pickle is read only when it is a PyTorch memory snapshot; any other pickle gets its own sentence.
Sniff pickleSniff(std::string_view head) {
    Sniff s;
    if (looksLikeTorchMemorySnapshot(head))
        s.format = TraceFormat::TorchMemorySnapshot;
    else
        s.error = "a Python pickle that is not a PyTorch memory snapshot (torch.cuda.memory._dump_snapshot): no "
                  "segments or device_traces at its start";
    return s;
}

Sniff sniff(const std::string& path) {
    Sniff s;
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) {
        s.error = errno == ENOENT ? "the file does not exist" : std::string("cannot read the file: ") + std::strerror(errno);
        return s;
    }
    if (S_ISDIR(st.st_mode)) {
        if (isCaptureDirectory(path))
            s.format = TraceFormat::WarpscopeCapture;
        else
            s.error = "is a directory, not a trace file (nor a capture directory with .wscap streams)";
        return s;
    }
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        s.error = std::string("cannot open the file: ") + std::strerror(errno);
        return s;
    }
    char head[4096];
    ssize_t n = ::read(fd, head, sizeof head);
    ::close(fd);
    if (n < 0) {
        s.error = std::string("cannot read the file: ") + std::strerror(errno);
        return s;
    }
    if (n == 0) {
        s.error = "the file is empty";
        return s;
    }
    const auto len = static_cast<size_t>(n);
    const auto* b = reinterpret_cast<const unsigned char*>(head);
    if (looksLikeJsonText(head, len)) {
        s.format = jsonFormat(std::string_view(head, len));
        return s;
    }
    const bool gzip = len >= 2 && b[0] == 0x1f && b[1] == 0x8b;
    const bool zstd = len >= 4 && b[0] == 0x28 && b[1] == 0xb5 && b[2] == 0x2f && b[3] == 0xfd;
    if (gzip || zstd) {
        InputStream in;
        char inner[4096];
        size_t got = 0;
        if (in.open(path))
            got = in.read(inner, sizeof inner);
        if (got == 0) {
            s.error = std::string(gzip ? "gzip" : "zstd") + " file that is empty or corrupt";
            return s;
        }
        if (looksLikeJsonText(inner, got)) {
            s.format = jsonFormat(std::string_view(inner, got));
            return s;
        }
        if (looksLikeCaptureStream(inner, got)) {
            s.format = TraceFormat::WarpscopeCapture;
            return s;
        }
        if (looksLikeXplane(std::string_view(inner, got))) {
            s.format = TraceFormat::Xplane;
            return s;
        }
        if (looksLikePickle(std::string_view(inner, got))) {
            s = pickleSniff(std::string_view(inner, got));
            return s;
        }
        s.error = std::string("not a trace: the ") + (gzip ? "gzip" : "zstd") + " data does not contain JSON";
        return s;
    }
    if (looksLikeCaptureStream(head, len)) {
        s.format = TraceFormat::WarpscopeCapture;
        return s;
    }
    if (looksLikePickle(std::string_view(head, len)))
        return pickleSniff(std::string_view(head, len));
    if (len >= 16 && std::memcmp(head, "SQLite format 3\0", 16) == 0) {
        s.format = classifySqlite(path);
        if (s.format == TraceFormat::Unknown)
            s.error = "an SQLite database that is neither an Nsight Systems nor an nvprof export";
        return s;
    }
    if (looksLikeXplane(std::string_view(head, len))) {
        s.format = TraceFormat::Xplane;
        return s;
    }
    if (len >= 32 && std::memcmp(head, "NVIDIA Tegra Profiler Report", 28) == 0) {
        s.format = TraceFormat::NsightReport;
        return s;
    }
    size_t printable = 0;
    for (size_t i = 0; i < len; ++i)
        if (b[i] == '\n' || b[i] == '\r' || b[i] == '\t' || (b[i] >= 0x20 && b[i] != 0x7f))
            ++printable;
    std::string lowered(head, len);
    for (char& c : lowered)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    const std::string_view firstLine = std::string_view(head, len).substr(0, std::string_view(head, len).find('\n'));
    if (lowered.find("<html") != std::string::npos || lowered.find("<!doctype html") != std::string::npos)
        s.error = "an HTML page, not a trace (PyTorch's memory timeline HTML holds only a picture: export the "
                  "timeline as .json or .raw.json.gz and open that)";
    else if (firstLine.find("Correlation_Id") != std::string_view::npos &&
             (firstLine.find("Start_Timestamp") != std::string_view::npos ||
              firstLine.find("Kernel_Name") != std::string_view::npos))
        // rocprofv3's CSV is one table per file (kernels, HIP calls, copies, ...): its JSON has them
        // all, with the agents, in one file, so that is the form read.
        s.error = "a rocprofv3 CSV table: Warpscope reads rocprofv3's JSON output, which holds every table in one "
                  "file; rerun with `rocprofv3 --output-format json ...` (or `--output-format csv json` for both)";
    else if (b[0] == 0x0a && printable < len)
        // A protobuf whose first field is length-delimited, but not an XSpace: most likely a Perfetto
        // trace (rocprofv3 --output-format pftrace, Perfetto's own tools).
        s.error = "protobuf data that is not an XSpace (xplane.pb), likely a Perfetto trace (.pftrace), which "
                  "Warpscope does not read: for rocprofv3 rerun with `--output-format json`, for PyTorch export "
                  "the trace as JSON";
    else
        s.error = printable == len ? "not a trace: text that is not JSON"
                                   : "not a trace: binary data that is neither JSON, gzip, zstd nor SQLite";
    return s;
}

} // namespace

bool looksLikeJsonText(const char* p, size_t n) {
    size_t i = 0;
    if (n >= 3 && static_cast<unsigned char>(p[0]) == 0xEF && static_cast<unsigned char>(p[1]) == 0xBB &&
        static_cast<unsigned char>(p[2]) == 0xBF)
        i = 3;
    while (i < n && (p[i] == ' ' || p[i] == '\n' || p[i] == '\r' || p[i] == '\t'))
        ++i;
    return i < n && (p[i] == '{' || p[i] == '[');
}

TraceFormat detectFormat(const std::string& path) {
    return sniff(path).format;
}

namespace {

// Size and modification time of a regular file (regular = false for anything else: a capture folder).
struct FileState {
    bool regular = false;
    uint64_t size = 0;
    int64_t mtimeNs = 0;
    bool operator==(const FileState&) const = default;
};

FileState fileState(const std::string& path) {
    struct stat st{};
    if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode))
        return {};
    return {true, static_cast<uint64_t>(st.st_size), int64_t(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec};
}

ImportResult importByFormat(const std::string& path, const ImportControl& control);

// A report is prepared as a URL is (remote_import.h): turned into a local file the importers read,
// here its SQLite export in the cache, which is then sniffed and imported like any file.
ImportResult importNsysReport(const std::string& path, const ImportControl& control) {
    ImportResult result;
    std::function<void(double)> exportProgress;
    if (control.progress)
        exportProgress = [&](double f) { control.progress(0.5 * f); };
    const NsysExportResult exported = exportNsysReport(path, control.nsysExport, exportProgress, control.cancel);
    if (exported.cancelled) {
        result.cancelled = true;
        return result;
    }
    if (exported.sqlitePath.empty()) {
        result.error = nsysExportFailure(exported);
        return result;
    }
    ImportControl importing = control;
    if (control.progress && !exported.fromCache)
        importing.progress = [&](double f) { control.progress(0.5 + 0.5 * f); };
    return importByFormat(exported.sqlitePath, importing);
}

} // namespace

ImportResult importTraceFile(const std::string& path, const ImportControl& control) {
    if (isRemoteUrl(path)) // downloaded into the cache (or found there), imported as it arrives
        return importRemoteTrace(path, control);
    // A trace still being written (a job exporting it, a copy in progress) is imported as it was
    // read, and the report says the file changed meanwhile: the result may mix old and new bytes.
    const FileState before = control.growing ? FileState{} : fileState(path);
    ImportResult result = importByFormat(path, control);
    if (result.session && before.regular) {
        const FileState after = fileState(path);
        if (after != before) {
            auto session = std::const_pointer_cast<Session>(result.session); // not shared with anyone yet
            session->reportDuringImport().add(
                "the file changed on disk while it was being imported (open it again once it is complete)",
                after.regular ? std::to_string(before.size) + " bytes when the import started, " + std::to_string(after.size) +
                                    " bytes at its end"
                              : std::string("it is gone"));
        }
    }
    return result;
}

namespace {

// A stored session given as a trace: the store's reader, handed in by the layer above (open_trace.h).
ImportResult importSessionFile(const std::string& path, const ImportControl& control) {
    ImportResult result;
    if (!control.readSession) {
        result.error = "a Warpscope session file, which this reader does not open (open it in Warpscope or warpscope-cli)";
        return result;
    }
    std::string error;
    result.session = control.readSession(path, &error);
    result.error = error;
    return result;
}

ImportResult importByFormat(const std::string& path, const ImportControl& control) {
    const Sniff s = sniff(path);
    if (const ImportFormat* f = findImportFormat(s.format))
        return f->import(path, control);
    ImportResult result;
    result.error = s.error.empty() ? "unknown file format" : s.error;
    return result;
}

constexpr ImportFormat kImportFormats[] = {
    {TraceFormat::ChromeJson, "*.pt.trace.json, *.json, *.json.gz, *.json.zst",
     "PyTorch profiler / Kineto traces and Chrome trace JSON (object and array forms)", importChromeJson},
    {TraceFormat::NsightSqlite, "*.sqlite (nsys export --type sqlite)", "Nsight Systems SQLite exports",
     importNsightSqlite},
    {TraceFormat::NsightReport, "*.nsys-rep, *.qdrep", "Nsight Systems reports, where Nsight Systems is installed",
     importNsysReport},
    {TraceFormat::NvprofSqlite, "*.nvvp, *.sql", "nvprof databases", importNvprofSqlite},
    {TraceFormat::RocprofJson, "rocprofv3 --output-format json (*.json, *.json.gz)", "rocprofiler-sdk JSON",
     importRocprofJson},
    {TraceFormat::Xplane, "*.xplane.pb, *.xplane.pb.gz", "XLA XSpace profiles (JAX, TensorFlow, PyTorch/XLA)",
     importXplane},
    {TraceFormat::TorchMemorySnapshot, "*.pickle, *.pickle.gz (torch.cuda.memory._dump_snapshot)",
     "PyTorch memory snapshots", importTorchMemorySnapshot},
    {TraceFormat::TorchMemoryTimeline, "*.json, *.raw.json.gz (export_memory_timeline)", "PyTorch memory timelines",
     importTorchMemoryTimeline},
    {TraceFormat::WarpscopeCapture, "*.wscap, *.wscap.gz, capture folders", "Warpscope captures", importCapture},
    {TraceFormat::WarpscopeSession, "*.warpscope", "Warpscope sessions", importSessionFile},
};

} // namespace

std::span<const ImportFormat> importFormats() { return kImportFormats; }

const ImportFormat* findImportFormat(TraceFormat format) {
    for (const ImportFormat& f : kImportFormats)
        if (f.format == format)
            return &f;
    return nullptr;
}

} // namespace ws
