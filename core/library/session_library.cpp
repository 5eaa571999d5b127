#include "library/session_library.h"

#include "import/remote_import.h"
#include "library/open_trace.h"
#include "model/session.h"
#include "io/file_fingerprint.h"
#include "store/session_store.h"
#include "io/sqlite_database.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <sys/stat.h>
#include <unistd.h>

namespace fs = std::filesystem;

namespace ws {

namespace {

int64_t metaInt(const std::map<std::string, std::string>& m, const char* key) {
    auto it = m.find(key);
    if (it == m.end())
        return 0;
    try {
        return std::stoll(it->second);
    } catch (...) {
        return 0;
    }
}

std::string metaText(const std::map<std::string, std::string>& m, const char* key) {
    auto it = m.find(key);
    return it == m.end() ? std::string() : it->second;
}

std::string gpuNames(const std::string& devicesJson) {
    const auto j = nlohmann::json::parse(devicesJson, nullptr, false);
    std::vector<std::string> names;
    if (j.is_array())
        for (const auto& d : j)
            if (d.is_object() && d.contains("name") && d["name"].is_string()) {
                std::string n = d["name"].get<std::string>();
                if (std::find(names.begin(), names.end(), n) == names.end())
                    names.push_back(std::move(n));
            }
    std::string out;
    for (const std::string& n : names)
        out += (out.empty() ? "" : ", ") + n;
    return out;
}

// File-name-safe stem of a trace's name: letters, digits, '.', '-', '_' kept, the rest '_'.
std::string safeStem(const std::string& sourcePath) {
    std::string stem = fs::path(sourcePath).filename().string();
    for (const char* ext : {".gz", ".zst", ".json", ".trace", ".pt", ".sqlite"})
        if (stem.size() > std::strlen(ext) && stem.ends_with(ext))
            stem.resize(stem.size() - std::strlen(ext));
    for (char& c : stem)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '-' && c != '_')
            c = '_';
    if (stem.size() > 80)
        stem.resize(80);
    return stem.empty() ? "session" : stem;
}

} // namespace

SessionLibrary::SessionLibrary(std::string directory) : m_directory(std::move(directory)) {}

std::vector<SessionLibrary::Entry> SessionLibrary::list() const {
    std::vector<Entry> out;
    std::error_code ec;
    for (const auto& item : fs::directory_iterator(m_directory, ec)) {
        if (!item.is_regular_file(ec) || item.path().extension() != ".warpscope")
            continue;
        std::string error;
        auto meta = SessionStore::readMeta(item.path().string(), &error);
        if (!meta)
            continue; // not ours or damaged: the library lists what it can open
        Entry e;
        e.path = item.path().string();
        e.name = metaText(*meta, "name");
        if (e.name.empty())
            e.name = fs::path(metaText(*meta, "source_path")).filename().string();
        e.sourcePath = metaText(*meta, "source_path");
        e.format = metaText(*meta, "format");
        e.gpus = gpuNames(metaText(*meta, "devices"));
        e.createdAtNs = metaInt(*meta, "created_at_ns");
        e.durationNs = metaInt(*meta, "end_ns") - metaInt(*meta, "start_ns");
        e.fileSize = item.file_size(ec);
        e.events = static_cast<uint64_t>(metaInt(*meta, "source_event_count"));
        e.meta = std::move(*meta);
        out.push_back(std::move(e));
    }
    std::sort(out.begin(), out.end(), [](const Entry& a, const Entry& b) { return a.createdAtNs > b.createdAtNs; });
    return out;
}

std::optional<std::string> SessionLibrary::findFor(const std::string& tracePath) const { return findFor(tracePath, list()); }

std::optional<std::string> SessionLibrary::findFor(const std::string& tracePath, const std::vector<Entry>& entries) {
    std::error_code ec;
    const std::string absolute = fs::absolute(tracePath, ec).lexically_normal().string();
    const auto size = fs::file_size(tracePath, ec);
    if (ec)
        return std::nullopt;
    struct stat st {};
    const int64_t mtimeNs = ::stat(tracePath.c_str(), &st) == 0
                                ? static_cast<int64_t>(st.st_mtim.tv_sec) * 1'000'000'000 + st.st_mtim.tv_nsec
                                : -1;
    std::optional<FileFingerprint> fingerprint; // hashed only when a candidate matches path and size
    std::optional<std::string> legacyHash;      // the same for a candidate stored with the first hash
    for (const Entry& e : entries) {
        if (e.sourcePath != absolute || metaInt(e.meta, "source_size") != static_cast<int64_t>(size) ||
            metaInt(e.meta, "import_revision") != kImportRevision)
            continue; // another file, or derived by older importers: import again
        // The file's modification time as stored, well before the session was made or its content
        // was last found unchanged (so a change after that would have moved it, even on a file
        // system with coarse timestamps): the same file, without hashing it (as git trusts its
        // index). Otherwise the content decides.
        const int64_t storedMtime = metaInt(e.meta, "source_mtime_ns");
        const bool sameMtime = mtimeNs >= 0 && e.meta.count("source_mtime_ns") && storedMtime == mtimeNs;
        const int64_t checkedNs = std::max(metaInt(e.meta, "created_at_ns"), metaInt(e.meta, "source_verified_ns"));
        if (sameMtime && checkedNs - storedMtime > kMtimeTrustMarginNs)
            return e.path;
        if (e.meta.count("source_hash2")) {
            if (!fingerprint)
                fingerprint = fingerprintFile(tracePath);
            if (fingerprint && metaText(e.meta, "source_hash2") == fingerprint->hashHex()) {
                // A trace opened within the margin of its writing (a job's ranks imported as soon as
                // they were written) was hashed at every reopen. Once its time is well past, as git
                // refreshes a racily clean index entry, the session notes when the content was found
                // unchanged, and the next reopen trusts the time again.
                const int64_t nowNs = std::chrono::duration_cast<std::chrono::nanoseconds>(
                                          std::chrono::system_clock::now().time_since_epoch())
                                          .count();
                if (sameMtime && nowNs - storedMtime > kMtimeTrustMarginNs)
                    SessionStore::writeMetaValue(e.path, "source_verified_ns", std::to_string(nowNs));
                return e.path;
            }
        } else if (e.meta.count("source_hash")) { // stored before ContentHasher: the first hash
            if (!legacyHash)
                legacyHash = legacyContentHashHex(tracePath);
            if (legacyHash && metaText(e.meta, "source_hash") == *legacyHash)
                return e.path;
        }
    }
    return std::nullopt;
}

std::string SessionLibrary::newSessionPath(const std::string& sourcePath) const {
    const auto now = std::chrono::system_clock::now().time_since_epoch();
    const std::string stamp = std::to_string(std::chrono::duration_cast<std::chrono::milliseconds>(now).count());
    std::string base = (fs::path(m_directory) / (safeStem(sourcePath) + "-" + stamp)).string();
    std::string path = base + ".warpscope";
    for (int i = 2; fs::exists(path); ++i)
        path = base + "-" + std::to_string(i) + ".warpscope";
    return path;
}

SessionLibrary::OpenResult SessionLibrary::openStored(const std::string& path) const {
    OpenResult result;
    const TraceFormat format = detectFormat(path);
    const bool isSession = format == TraceFormat::WarpscopeSession;
    const std::optional<std::string> stored = isSession ? std::optional<std::string>(path) : findFor(path);
    if (!stored)
        return result;
    std::string error;
    if (auto s = SessionStore::read(*stored, &error)) {
        // Sessions stored before a memory snapshot's own tables were (allocator records only): the
        // pickle is imported again so the Memory tab has its stacks, segments and blocks.
        if (s->sourceFormat() == TraceFormat::TorchMemorySnapshot && !s->memorySnapshot() && !isSession)
            return result;
        result.session = std::move(s);
        result.fromLibrary = !isSession;
        result.sessionPath = *stored;
    } else if (isSession) {
        result.error = error; // a damaged library copy is not an error: the trace is imported again
    }
    return result;
}

std::optional<std::string> SessionLibrary::store(const Session& session, const std::string& sourcePath, std::string* error,
                                                 const std::atomic<bool>* cancel,
                                                 std::shared_ptr<SessionAnalyses> analyses) const {
    std::error_code ec;
    fs::create_directories(m_directory, ec);
    SessionWriteOptions options;
    options.name = fs::path(sourcePath).filename().string();
    options.cancel = cancel;
    options.keepExisting = true; // another process may store under the same name at the same moment
    options.analyses = std::move(analyses);
    std::string written;
    options.writtenPath = &written;
    const bool ok = SessionStore::write(session, newSessionPath(sourcePath), options, error);
    session.dropStorePreparation(); // only the store reads it
    if (!ok)
        return std::nullopt;
    return written;
}

SessionLibrary::Cleanup SessionLibrary::cleanUp() const {
    Cleanup done;
    std::error_code ec;
    for (fs::directory_iterator it(m_directory, ec), end; !ec && it != end; it.increment(ec)) {
        // SessionStore::write's temp files: NAME.warpscope.tmp-PID. One whose writer is gone was
        // left by an import killed while storing (its session was never moved into place).
        const std::string name = it->path().filename().string();
        if (it->path().extension() == ".warpscope" && it->is_regular_file()) {
            std::string why;
            if (!SessionStore::readMeta(it->path().string(), &why)) {
                // Not listed, never opened: kept for the user to look at, out of the way.
                const fs::path aside = fs::path(m_directory) / "damaged";
                std::error_code made;
                fs::create_directories(aside, made);
                std::string moved;
                if (SessionStore::publish(it->path().string(), (aside / name).string(), &moved, &why))
                    done.movedAside.push_back(moved);
            }
            continue;
        }
        const size_t mark = name.rfind(".tmp-");
        if (mark == std::string::npos || !it->is_regular_file())
            continue;
        const long pid = std::strtol(name.c_str() + mark + 5, nullptr, 10);
        if (pid > 0 && (::kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM))
            continue; // still being written
        std::error_code size;
        const uint64_t bytes = it->file_size(size);
        std::error_code removed;
        if (fs::remove(it->path(), removed)) {
            done.removedFiles.push_back(name);
            done.interruptedStores += name.find('-', mark + 5) == std::string::npos; // not NAME.tmp-PID-journal
            done.removedBytes += size ? 0 : bytes;
        }
    }
    return done;
}

SessionLibrary::OpenResult SessionLibrary::openRemote(const std::string& url, const ImportControl& control) const {
    OpenResult result;
    RemoteFetchOptions look;
    look.cachedOnly = true;
    RemoteFetchResult fetched = fetchRemoteObject(url, look);
    if (fetched.needsDownload) {
        ImportResult imported = importRemoteTrace(url, control, &fetched);
        result.session = std::move(imported.session);
        result.error = std::move(imported.error);
        result.cancelled = imported.cancelled;
        result.sourcePath = fetched.localPath;
        return result;
    }
    if (fetched.localPath.empty()) {
        result.error = fetched.error;
        return result;
    }
    result = openStored(fetched.localPath);
    result.sourcePath = fetched.localPath;
    if (!result.session && result.error.empty()) {
        ImportResult imported = openTraceFile(fetched.localPath, control);
        result.session = std::move(imported.session);
        result.error = std::move(imported.error);
        result.cancelled = imported.cancelled;
    }
    return result;
}

SessionLibrary::OpenResult SessionLibrary::open(const std::string& path, const ImportControl& control) {
    if (isRemoteUrl(path)) {
        OpenResult result = openRemote(path, control);
        if (result.session && !result.fromLibrary)
            if (auto stored = store(*result.session, result.sourcePath, &result.storeError))
                result.sessionPath = *stored;
        return result;
    }
    OpenResult result = openStored(path);
    if (result.session || !result.error.empty())
        return result;
    ImportControl storing = control;
    storing.forStore = ImportControl::StorePrep::Packed; // stored below, while the caller waits
    ImportResult imported = openTraceFile(path, storing);
    result.cancelled = imported.cancelled;
    result.error = imported.error;
    result.session = imported.session;
    result.sourcePath = path;
    if (!result.session)
        return result;
    if (auto stored = store(*result.session, path, &result.storeError))
        result.sessionPath = *stored;
    return result;
}

bool SessionLibrary::rename(const std::string& sessionPath, const std::string& newName, std::string* error) const {
    SqliteDatabase db;
    if (!fs::is_regular_file(sessionPath) || !SessionStore::isSessionFile(sessionPath) ||
        !db.open(sessionPath, SqliteDatabase::Mode::ReadWriteCreate)) {
        *error = db.error().empty() ? "not a Warpscope session" : db.error();
        return false;
    }
    SqliteStatement q(db, "INSERT OR REPLACE INTO meta(key, value) VALUES ('name', ?1)");
    q.bind(1, std::string_view(newName));
    q.step();
    if (!q.ok()) {
        *error = q.error();
        return false;
    }
    return true;
}

bool SessionLibrary::remove(const std::string& sessionPath, std::string* error) const {
    std::error_code ec;
    if (!fs::remove(sessionPath, ec)) {
        *error = ec ? ec.message() : "no such session";
        return false;
    }
    return true;
}

std::optional<std::string> SessionLibrary::importSessionFile(const std::string& file, std::string* error) const {
    std::string why;
    if (!SessionStore::readMeta(file, &why)) {
        *error = why;
        return std::nullopt;
    }
    std::error_code ec;
    fs::create_directories(m_directory, ec);
    // Copied to a temp file, then moved to a free name: never over a session another process stores.
    fs::path name = fs::path(file).filename();
    if (name.extension() != ".warpscope")
        name += ".warpscope";
    const std::string target = (fs::path(m_directory) / name).string();
    const std::string temp = target + ".tmp-" + std::to_string(::getpid());
    fs::copy_file(file, temp, fs::copy_options::overwrite_existing, ec);
    if (ec) {
        *error = ec.message();
        fs::remove(temp, ec);
        return std::nullopt;
    }
    std::string written;
    if (!SessionStore::publish(temp, target, &written, error)) {
        fs::remove(temp, ec);
        return std::nullopt;
    }
    return written;
}

} // namespace ws
