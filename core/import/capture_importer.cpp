#include "import/capture_importer.h"

#include "import/capture_event_text.h"
#include "import/capture_merge.h"
#include "import/capture_stream_converter.h"
#include "import/import_finish.h"
#include "io/input_stream.h"
#include "model/trace_builder.h"

#include "format/wscapreader.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <map>
#include <memory>
#include <set>
#include <thread>

namespace ws {

namespace fs = std::filesystem;

namespace {

/* One stream to read: its path and, when compressed, its inflated bytes. */
struct StreamSource {
    std::string path;
    std::shared_ptr<const std::vector<uint8_t>> bytes;
};

} // namespace

std::shared_ptr<std::vector<uint8_t>> inflateCaptureStream(const std::string& path, std::string* error, bool* truncated) {
    InputStream in;
    if (!in.open(path)) {
        *error = in.error();
        return nullptr;
    }
    if (in.compression() == InputStream::Compression::None)
        return nullptr;
    auto out = std::make_shared<std::vector<uint8_t>>();
    std::vector<char> buf(1 << 20);
    for (size_t got; (got = in.read(buf.data(), buf.size())) > 0;)
        out->insert(out->end(), buf.begin(), buf.begin() + static_cast<std::ptrdiff_t>(got));
    *truncated = in.truncated();
    if (in.truncated())
        *error = in.error().empty() ? "the compressed stream ends early" : in.error();
    return out;
}

namespace {

// The first bytes of a file's (decompressed) content.
size_t head(const std::string& path, char* out, size_t n) {
    InputStream in;
    return in.open(path) ? in.read(out, n) : 0;
}

bool isCaptureFile(const fs::path& p) {
    std::error_code ec;
    if (!fs::is_regular_file(p, ec))
        return false;
    char buf[16];
    return looksLikeCaptureStream(buf, head(p.string(), buf, sizeof buf));
}

} // namespace

std::vector<std::string> captureStreamFiles(const std::string& dir) {
    std::vector<std::string> files;
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        const std::string name = it->path().filename().string();
        const bool named = name.size() > 6 && (name.ends_with(".wscap") || name.ends_with(".wscap.gz") ||
                                               name.ends_with(".wscap.zst"));
        if (named && isCaptureFile(it->path()))
            files.push_back(it->path().string());
    }
    std::sort(files.begin(), files.end());
    return files;
}

namespace {

std::string uuidKey(const wscap::Uuid& u) { return std::string(reinterpret_cast<const char*>(u.data()), u.size()); }

/* Resolves device refs to global indices (rules in capture_importer.h). */
std::vector<int> resolveDeviceIndices(const std::vector<CaptureDeviceRef>& refs) {
    std::vector<int> global(refs.size(), -1);
    std::map<std::string, int> byKey;
    std::set<int> used;
    auto assign = [&](size_t slot) {
        const CaptureDeviceRef& r = refs[slot];
        const std::string key = r.hasUuid ? "u" + uuidKey(r.uuid)
                                          : "s" + std::to_string(r.stream) + (r.cuda ? "c" : "n") + std::to_string(r.index);
        auto it = byKey.find(key);
        if (it == byKey.end()) {
            int g = static_cast<int>(r.index);
            if (used.count(g))
                for (g = 0; used.count(g); ++g) {
                }
            used.insert(g);
            it = byKey.emplace(key, g).first;
        }
        global[slot] = it->second;
    };
    for (size_t i = 0; i < refs.size(); ++i)
        if (refs[i].cuda)
            assign(i);
    for (size_t i = 0; i < refs.size(); ++i)
        if (!refs[i].cuda)
            assign(i);
    return global;
}

} // namespace

bool looksLikeCaptureStream(const void* data, size_t size) { return wscap::WscapReader::sniff(data, size); }

bool isCaptureDirectory(const std::string& path) {
    std::error_code ec;
    return fs::is_directory(path, ec) && !captureStreamFiles(path).empty();
}

int captureStreamRank(const std::string& path) {
    // The header is the first record; 64 KiB of (decompressed) content hold it with room to spare.
    std::vector<char> start(64 * 1024);
    start.resize(head(path, start.data(), start.size()));
    wscap::WscapReader reader;
    std::string error;
    if (!reader.openMemory(start.data(), start.size(), &error))
        return -1;
    wscap::RawRecord record;
    wscap::StreamHeaderRecord header;
    if (reader.next(&record) != wscap::WscapReader::Status::Record || !record.decode(&header))
        return -1;
    return header.rank;
}

size_t rankedCaptureStreams(const std::string& dir) {
    size_t n = 0;
    for (const std::string& f : captureStreamFiles(dir))
        n += captureStreamRank(f) >= 0;
    return n;
}

void mergeCaptureStreams(const std::string& path, std::vector<ConvertedCaptureStream> streams,
                         const ImportReport& skipped, ImportResult& result, const ImportControl& control,
                         double parsedSeconds) {
    const auto t0 = std::chrono::steady_clock::now();
    TraceBuilder builder(path, TraceFormat::WarpscopeCapture);
    builder.setArgColumns(true); // the converters fill kernels' and operators' (arg_columns.h)
    auto text = std::make_shared<CaptureEventText>();
    nlohmann::json info = nlohmann::json::array();
    for (ConvertedCaptureStream& stream : streams) {
        CaptureStreamConverter* conv = stream.converter.get();
        if (!stream.cut.empty())
            conv->chunk().report.setTruncated(stream.shown + ": " + stream.cut);
        result.textBytes += stream.bytesRead;
        const wscap::StreamHeaderRecord& h = conv->header();
        info.push_back({{"file", stream.shown},
                        {"pid", h.pid},
                        {"ppid", h.parentPid},
                        {"rank", h.rank},
                        {"hostname", h.hostname},
                        {"command", h.commandLine},
                        {"name", h.captureName},
                        {"cudaDriverVersion", h.cudaDriverVersion},
                        {"cuptiApiVersion", h.cuptiApiVersion},
                        {"nvidiaDriverVersion", h.nvidiaDriverVersion},
                        {"records", conv->records()},
                        {"launchStacks", 0},
                        {"dropped", conv->dropped()},
                        {"complete", conv->sawFooter()}});
        // A capture that followed cudaProfilerStart/Stop recorded only these spans (recorded_spans.h).
        if (!conv->recorded().empty())
            info.back()["recorded"] = conv->recorded();
        CaptureEventText::Stream s;
        s.path = stream.file;
        s.bytes = stream.bytes;
        s.strings = conv->takeStrings();
        s.callNames = conv->takeCallNames();
        s.pid = h.pid;
        s.stacks = conv->takeStacks();
        if (s.stacks)
            info.back()["launchStacks"] = s.stacks->launches();
        s.collectives = conv->takeCollectives();
        info.back()["collectives"] = s.collectives ? s.collectives->calls() : 0;
        text->addStream(std::move(s));
    }

    // Devices across streams (every stream's slots one after the other, in stream order), then the
    // placeholders in every chunk.
    std::vector<CaptureDeviceRef> refs;
    std::vector<size_t> firstSlot; // of each stream in refs
    for (const auto& stream : streams) {
        firstSlot.push_back(refs.size());
        const std::vector<CaptureDeviceRef>& mine = stream.converter->deviceRefs();
        refs.insert(refs.end(), mine.begin(), mine.end());
    }
    const std::vector<int> globalOfSlot = resolveDeviceIndices(refs);
    const int deviceCount = globalOfSlot.empty() ? 0 : *std::max_element(globalOfSlot.begin(), globalOfSlot.end()) + 1;
    std::vector<std::vector<int>> globalOfStreamSlot;
    for (size_t i = 0; i < streams.size(); ++i) {
        const auto first = globalOfSlot.begin() + static_cast<std::ptrdiff_t>(firstSlot[i]);
        globalOfStreamSlot.emplace_back(first, first + static_cast<std::ptrdiff_t>(streams[i].converter->deviceRefs().size()));
    }
    std::vector<uint32_t> streamsOfGlobal(static_cast<size_t>(deviceCount), 0);
    for (size_t i = 0; i < streams.size(); ++i) {
        std::set<int> mine;
        for (uint32_t slot : streams[i].converter->streamSlots())
            mine.insert(globalOfStreamSlot[i][slot]);
        for (int g : mine)
            ++streamsOfGlobal[static_cast<size_t>(g)];
    }
    std::unordered_set<int64_t> deviceIndices(globalOfSlot.begin(), globalOfSlot.end());
    for (size_t i = 0; i < streams.size(); ++i)
        streams[i].converter->resolveDevices(globalOfStreamSlot[i], streamsOfGlobal, deviceIndices);

    // One DeviceInfo and one "GPU n" process per global device.
    std::vector<DeviceInfo> devices;
    ChunkResult names;
    names.worker = static_cast<uint32_t>(streams.size());
    names.firstNewString = 1;
    for (int g = 0; g < deviceCount; ++g) {
        const CaptureDeviceRef* best = nullptr;
        for (size_t slot = 0; slot < refs.size(); ++slot)
            if (globalOfSlot[slot] == g && (!best || (!best->device && refs[slot].device)))
                best = &refs[slot];
        if (!best)
            continue;
        DeviceInfo d;
        d.id = g;
        d.name = best->name;
        if (best->device) {
            const wscap::DeviceRecord& r = *best->device;
            d.totalGlobalMem = static_cast<int64_t>(std::min<uint64_t>(r.globalMemoryBytes, INT64_MAX));
            d.numSms = static_cast<int>(r.smCount);
            d.computeMajor = static_cast<int>(r.ccMajor);
            d.computeMinor = static_cast<int>(r.ccMinor);
            d.maxThreadsPerMultiprocessor = static_cast<int>(r.maxWarpsPerSm * r.threadsPerWarp);
        }
        IdValue pid;
        pid.number = g;
        auto meta = [&](ChunkResult::MetaKind kind, const std::string& str) {
            if (str.empty())
                return;
            names.newStrings.push_back(str);
            ChunkResult::Meta m;
            m.kind = kind;
            m.pid = pid;
            m.str = static_cast<uint32_t>(names.newStrings.size());
            m.seq = names.metas.size();
            names.metas.push_back(m);
        };
        meta(ChunkResult::MetaKind::ProcessName, d.name);
        meta(ChunkResult::MetaKind::ProcessLabels, "GPU " + std::to_string(g));
        devices.push_back(std::move(d));
    }

    builder.report().merge(skipped);
    for (auto& stream : streams) {
        CaptureStreamConverter& conv = *stream.converter;
        if (const std::vector<std::string>* shared = conv.sharedStrings())
            builder.addStrings(conv.chunk().worker, 1, *shared);
        builder.addChunk(conv.sealedChunk());
    }
    builder.addChunk(names);
    streams.clear();
    builder.setDevices(std::move(devices));
    builder.setEventTextSource(text);
    std::vector<std::pair<std::string, std::string>> members = {
        {"warpscopeCapture",
         nlohmann::json{{"streams", info}}.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)}};
    // One stream of a distributed job (its RANK in the header) is that rank, as distributedInfo
    // says for a Kineto trace; a folder of several ranks is a job (job_files.h), not one rank.
    if (info.size() == 1 && info[0]["rank"].is_number_integer() && info[0]["rank"].get<int64_t>() >= 0)
        members.emplace_back("distributedInfo", nlohmann::json{{"rank", info[0]["rank"]}}.dump());
    builder.setTopLevelMembers(members);
    const double merged = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (control.progress)
        control.progress(0.85);
    finishImport(builder, result, control, "read and convert capture streams", parsedSeconds + merged);
}

ImportResult importCapture(const std::string& path, const ImportControl& control) {
    ImportResult result;
    const auto t0 = std::chrono::steady_clock::now();
    std::error_code ec;
    const bool directory = fs::is_directory(path, ec);
    const std::vector<std::string> files = directory ? captureStreamFiles(path) : std::vector<std::string>{path};
    if (files.empty()) {
        result.error = "the directory holds no capture streams (.wscap files)";
        return result;
    }

    std::vector<ConvertedCaptureStream> streams;
    ImportReport skipped;
    for (size_t i = 0; i < files.size(); ++i) {
        const std::string& file = files[i];
        const std::string shown = directory ? fs::path(file).filename().string() : file;
        std::string error;
        bool cut = false;
        std::shared_ptr<std::vector<uint8_t>> bytes = inflateCaptureStream(file, &error, &cut);
        wscap::WscapReader reader;
        std::string openError;
        const bool opened = bytes ? reader.openMemory(bytes->data(), bytes->size(), &openError)
                                  : error.empty() && reader.open(file, &openError);
        if (!opened) {
            const std::string why = !error.empty() ? error : openError;
            if (!directory) {
                result.error = "cannot read the capture stream: " + why;
                return result;
            }
            skipped.add("unreadable capture streams (skipped)", shown + ": " + why);
            continue;
        }
        const auto index = static_cast<uint32_t>(streams.size());
        auto conv = std::make_unique<CaptureStreamConverter>(index);
        if (!conv->read(reader, control)) {
            result.cancelled = true;
            return result;
        }
        ConvertedCaptureStream s;
        s.converter = std::move(conv);
        s.file = file;
        s.shown = shown;
        s.bytes = bytes;
        s.bytesRead = reader.completeOffset(); // whole records, as the live import counts them
        if (cut)
            s.cut = error;
        streams.push_back(std::move(s));
        if (control.progress)
            control.progress(0.8 * static_cast<double>(i + 1) / static_cast<double>(files.size()));
    }
    if (streams.empty()) {
        result.error = "none of the capture streams in the directory could be read";
        return result;
    }
    const double parsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    mergeCaptureStreams(path, std::move(streams), skipped, result, control, parsed);
    return result;
}

} // namespace ws
