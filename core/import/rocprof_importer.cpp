#include "import/rocprof_importer.h"

#include "import/import_finish.h"
#include "import/json_record_reader.h"
#include "import/nsys_chunk_writer.h"
#include "import/rocprof_converter.h"
#include "import/rocprof_data.h"
#include "import/rocprof_event_text.h"
#include "model/trace_builder.h"

#include <chrono>
#include <memory>

namespace ws {


std::string RocprofData::operationName(uint32_t process, uint32_t kind, uint32_t operation) const {
    if (process < processes.size()) {
        const RocprofProcess& p = processes[process];
        if (kind < p.operationNames.size() && operation < p.operationNames[kind].size() &&
            !p.operationNames[kind][operation].empty())
            return p.operationNames[kind][operation];
    }
    return kindName(process, kind) + " operation " + std::to_string(operation);
}

std::string RocprofData::kindName(uint32_t process, uint32_t kind) const {
    if (process < processes.size() && kind < processes[process].kindNames.size() &&
        !processes[process].kindNames[kind].empty())
        return processes[process].kindNames[kind];
    return "kind " + std::to_string(kind);
}

bool looksLikeRocprofJson(std::string_view head) {
    // {"rocprofiler-sdk-tool": [...]}: the tool's key comes first in every version seen.
    size_t i = 0;
    while (i < head.size() && (head[i] == ' ' || head[i] == '\n' || head[i] == '\r' || head[i] == '\t'))
        ++i;
    if (i >= head.size() || head[i] != '{')
        return false;
    ++i;
    while (i < head.size() && (head[i] == ' ' || head[i] == '\n' || head[i] == '\r' || head[i] == '\t'))
        ++i;
    return head.substr(i, 22) == "\"rocprofiler-sdk-tool\"";
}

namespace {

struct Pass {
    std::unique_ptr<TraceBuilder> builder;
    std::unique_ptr<NsysChunkWriter> writer;
    std::unique_ptr<RocprofConverter> converter;
    JsonRecordReadResult read;
};

Pass readPass(const std::string& path, const ImportControl& control, std::shared_ptr<RocprofData> tables) {
    Pass p;
    p.builder = std::make_unique<TraceBuilder>(path, TraceFormat::RocprofJson);
    p.writer = std::make_unique<NsysChunkWriter>();
    p.converter = std::make_unique<RocprofConverter>(*p.builder, *p.writer, std::move(tables));
    RocprofConverter& c = *p.converter;
    p.read = readJsonRecords(path, RocprofConverter::recordPaths(), control, p.writer->report(),
                             [&c](const JsonRecord& r) { return c.read(r); });
    return p;
}

} // namespace

std::shared_ptr<RocprofData> RocprofData::tablesOnly() const {
    auto t = std::make_shared<RocprofData>();
    t->processes = processes;
    t->agents = agents;
    return t;
}

ImportResult importRocprofJson(const std::string& path, const ImportControl& control) {
    ImportResult result;
    const auto t0 = std::chrono::steady_clock::now();
    Pass pass = readPass(path, control, nullptr);
    // rocprofv3 writes its tables first; a file rewritten by another tool (keys sorted, say) may
    // not: read it again with the tables known.
    if (!pass.read.cancelled && pass.read.error.empty() && pass.converter->tablesLate())
        pass = readPass(path, control, pass.converter->data()->tablesOnly());
    const JsonRecordReadResult& read = pass.read;
    result.textBytes = read.textBytes;
    if (read.cancelled) {
        result.cancelled = true;
        return result;
    }
    if (!read.opened || !read.error.empty()) {
        result.error = read.error.empty() ? "cannot read the file" : read.error;
        return result;
    }
    RocprofConverter& converter = *pass.converter;
    if (read.firstKey != "rocprofiler-sdk-tool" && converter.records() == 0) {
        result.error = "JSON, but not rocprofiler-sdk output: there is no rocprofiler-sdk-tool member";
        return result;
    }
    converter.finish();
    TraceBuilder& builder = *pass.builder;
    builder.setDevices(converter.devices());
    builder.setEventTextSource(std::make_shared<RocprofEventText>(converter.data()));
    const double parsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    finishImport(builder, result, control, "read, parse and convert", parsed);
    return result;
}

} // namespace ws
