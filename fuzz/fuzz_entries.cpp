#include "fuzz_entries.h"

#include "fuzz_support.h"
#include "import/capture_importer.h"
#include "import/chrome_json_importer.h"
#include "import/nsys_importer.h"
#include "import/nvprof_importer.h"
#include "import/rocprof_importer.h"
#include "analysis/snapshot_state.h"
#include "analysis/snapshot_stats.h"
#include "import/torch_memory_snapshot_importer.h"
#include "import/torch_memory_timeline_importer.h"
#include "io/pickle_reader.h"
#include "import/xplane_importer.h"
#include "import/trace_import.h"
#include "model/session.h"
#include "remote/gcs_credentials.h"
#include "remote/remote_listing.h"
#include "remote/remote_request.h"
#include "remote/remote_url.h"
#include "source/editor_command.h"
#include "source/path_mapping.h"
#include "store/session_store.h"

#include <string>
#include <string_view>
#include <vector>

namespace ws::fuzz {

namespace {

using Importer = ImportResult (*)(const std::string& path, const ImportControl& control);

// One importer on the input, then the analyses. One parse thread: deterministic, and no thread
// start per input; blockBytes small so that inputs of a few KB still cross parse-block seams.
int importAndAnalyse(Importer importer, const uint8_t* data, size_t size, const char* extension,
                     size_t blockBytes = 0) {
    ImportControl control;
    control.threads = 1;
    control.blockBytes = blockBytes;
    const ImportResult result = importer(inputFile(data, size, extension), control);
    if (result.session) analyse(*result.session);
    return 0;
}

} // namespace

int chromeJson(const uint8_t* data, size_t size) {
    return importAndAnalyse(importChromeJson, data, size, ".json", 4096);
}
int nsysSqlite(const uint8_t* data, size_t size) {
    return importAndAnalyse(importNsightSqlite, data, size, ".sqlite");
}
int nvprofSqlite(const uint8_t* data, size_t size) {
    return importAndAnalyse(importNvprofSqlite, data, size, ".nvvp");
}
int captureStream(const uint8_t* data, size_t size) {
    return importAndAnalyse(importCapture, data, size, ".wscap");
}

int rocprofJson(const uint8_t* data, size_t size) {
    return importAndAnalyse(importRocprofJson, data, size, ".rocprof.json", 4096);
}

int memoryTimeline(const uint8_t* data, size_t size) {
    return importAndAnalyse(importTorchMemoryTimeline, data, size, ".timeline.json", 4096);
}

int memorySnapshot(const uint8_t* data, size_t size) {
    // The unpickler alone (everything kept, no visitor), then the import and the snapshot's analyses.
    {
        pickle::Reader reader;
        size_t pos = 0;
        const pickle::ReadFn read = [&](char* out, size_t n) {
            const size_t take = std::min(n, size - pos);
            std::copy_n(data + pos, take, out);
            pos += take;
            return take;
        };
        (void)reader.read(read, nullptr);
    }
    ImportControl control;
    control.threads = 1;
    const ImportResult result = importTorchMemorySnapshot(inputFile(data, size, ".pickle"), control);
    if (!result.session)
        return 0;
    analyse(*result.session);
    if (const MemorySnapshot* s = result.session->memorySnapshot()) {
        (void)snapshotOoms(*s);
        (void)snapshotStacks(*s, std::nullopt, SnapshotMoment::fromTime(s->lastUs));
        for (int16_t d : s->devices) {
            (void)snapshotPeak(*s, d);
            (void)snapshotStateAt(*s, d, SnapshotMoment::fromTime((s->firstUs / 2) + (s->lastUs / 2)));
            (void)snapshotFinalState(*s, d);
        }
        for (uint32_t i = 0; i < s->stackCount(); ++i)
            (void)s->stackLabel(i);
    }
    return 0;
}

int xplane(const uint8_t* data, size_t size) {
    return importAndAnalyse(importXplane, data, size, ".xplane.pb");
}

int sessionFile(const uint8_t* data, size_t size) {
    const std::string& path = inputFile(data, size, ".warpscope");
    std::string error;
    (void)SessionStore::isSessionFile(path);
    (void)SessionStore::readMeta(path, &error);
    if (const std::shared_ptr<Session> session = SessionStore::read(path, &error)) analyse(*session);
    return 0;
}

int remoteText(const uint8_t* data, size_t size) {
    const std::string_view all(reinterpret_cast<const char*>(data), size);
    const size_t a = all.find('\0');
    const std::string_view url = all.substr(0, a);
    const std::string_view rest = a == std::string_view::npos ? std::string_view() : all.substr(a + 1);
    const size_t b = rest.find('\0');
    const std::string body(rest.substr(0, b));
    const std::string_view key = b == std::string_view::npos ? std::string_view() : rest.substr(b + 1);

    std::string error;
    (void)isRemoteUrl(url);
    (void)redactUrl(url);
    (void)percentEncode(url, true);
    const RemoteEndpoints endpoints{"http://127.0.0.1:4568", "eu-west-1",
                                    "http://127.0.0.1:10000/devstoreaccount1", "http://127.0.0.1:4443"};
    if (const auto parsed = parseRemoteUrl(url, endpoints, &error)) {
        RemoteRequest request;
        request.url = *parsed;
        (void)remoteHttpMessage(403, body, request, std::string(url));
        (void)remoteHttpMessage(404, body, request, std::string(url));
    }
    (void)parseListingPage(body, "Contents", "Key", "Size", "ETag");
    (void)parseListingPage(body, "Blob", "Name", "Content-Length", "Etag");
    (void)xmlElementText(body, "NextContinuationToken");
    (void)looksLikeTraceName(body);
    if (!key.empty()) {
        GcsServiceAccount account;
        if (readGcsServiceAccount(
                inputFile(reinterpret_cast<const uint8_t*>(key.data()), key.size(), ".json"), &account,
                &error))
            (void)makeGcsAssertion(account, 1764000000, &error);
    }
    return 0;
}

int sourceRules(const uint8_t* data, size_t size) {
    std::vector<std::string_view> parts;
    std::string_view all(reinterpret_cast<const char*>(data), size);
    for (size_t cut; parts.size() < 5 && (cut = all.find('\0')) != std::string_view::npos;
         all.remove_prefix(cut + 1))
        parts.push_back(all.substr(0, cut));
    parts.push_back(all);
    parts.resize(6);
    const std::string_view file = parts[0], from = parts[1], to = parts[2], templ = parts[3],
                           located = parts[4];
    const std::vector<PathMappingRule> rules{{std::string(from), std::string(to)}, {"~", "/root"}};
    (void)expandHome(file, "/home/user");
    (void)candidateSourcePaths(file, rules, "/home/user");
    (void)learnPathMapping(file, located);
    std::string error;
    (void)splitCommandTemplate(templ, &error);
    SourceLocation location;
    location.file = std::string(file);
    location.line = static_cast<int>(size);
    location.column = static_cast<int>(parts[5].size());
    (void)expandEditorCommand(templ, location, &error);
    return 0;
}

const std::vector<Entry>& entries() {
    static const std::vector<Entry> all{
        {"fuzz_chrome_json", chromeJson},     {"fuzz_nsys_sqlite", nsysSqlite},
        {"fuzz_nvprof_sqlite", nvprofSqlite}, {"fuzz_capture_stream", captureStream},
        {"fuzz_session_file", sessionFile},   {"fuzz_remote_text", remoteText},
        {"fuzz_source_rules", sourceRules},   {"fuzz_rocprof_json", rocprofJson},
        {"fuzz_memory_timeline", memoryTimeline}, {"fuzz_xplane", xplane},
        {"fuzz_memory_snapshot", memorySnapshot}};
    return all;
}

} // namespace ws::fuzz
