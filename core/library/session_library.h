#pragma once

#include "import/trace_import.h"

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ws {

class Session;
class SessionAnalyses;

/*
 * SessionLibrary: a directory of session files, one per import or capture (by default the XDG data
 * location; the GUI passes it in, core reads no settings). Listing reads only each file's meta
 * table. open() is what File > Open does for any trace: when the library already holds a session
 * made from the same file (same absolute path, size and content hash, or modification time; see
 * findFor) it opens that session,
 * otherwise it imports the trace and stores the result in the library. A URL is opened the same
 * way through its cached copy (openRemote).
 */
class SessionLibrary {
public:
    struct Entry {
        std::string path;       // the .warpscope file
        std::string name;       // display name
        std::string sourcePath; // what it was made from
        std::string format;
        std::string gpus;       // device names, comma-separated
        int64_t createdAtNs = 0;
        int64_t durationNs = 0;
        uint64_t fileSize = 0;
        uint64_t events = 0;
        std::map<std::string, std::string> meta;
    };

    struct OpenResult {
        std::shared_ptr<const Session> session;
        std::string error;
        bool cancelled = false;
        bool fromLibrary = false;   // reopened a stored session instead of importing
        std::string sessionPath;    // the stored session file
        std::string storeError;     // imported fine but could not be stored (disk full, ...)
        std::string sourcePath;     // the file the session was made from (a URL's cached copy)
    };

    explicit SessionLibrary(std::string directory);
    const std::string& directory() const { return m_directory; }

    std::vector<Entry> list() const;
    // The stored session made from `tracePath`, if the library has one that still matches it.
    // Same path and size, and the same modification time when that was more than
    // kMtimeTrustMarginNs before the session was made or before its content was last found
    // unchanged (meta "source_verified_ns", noted here), else the same content hash.
    std::optional<std::string> findFor(const std::string& tracePath) const;
    // The same among entries listed before (a job looks up all its ranks in one listing).
    static std::optional<std::string> findFor(const std::string& tracePath, const std::vector<Entry>& entries);
    static constexpr int64_t kMtimeTrustMarginNs = 2'000'000'000;
    OpenResult open(const std::string& path, const ImportControl& control = {});
    // The first half of open(): the stored session for `path` (a session file itself, or the
    // library's copy of a trace), or an empty result when it has to be imported.
    OpenResult openStored(const std::string& path) const;
    // openStored() for a URL (remote_url.h): a current cached copy (one HEAD request) opens its
    // stored session, or is imported; an object not in the cache is imported while it downloads
    // (remote_import.h). Nothing is stored yet: store(*session, result.sourcePath) does that.
    OpenResult openRemote(const std::string& url, const ImportControl& control = {}) const;
    // The second half: stores an imported session in the library; returns the new session file.
    // `analyses`: the session's analyses as the views hold them (SessionWriteOptions::analyses).
    std::optional<std::string> store(const Session& session, const std::string& sourcePath, std::string* error,
                                     const std::atomic<bool>* cancel = nullptr,
                                     std::shared_ptr<SessionAnalyses> analyses = nullptr) const;

    bool rename(const std::string& sessionPath, const std::string& newName, std::string* error) const;
    bool remove(const std::string& sessionPath, std::string* error) const;
    // Copies a session file into the library (Import Session); returns the new path.
    std::optional<std::string> importSessionFile(const std::string& file, std::string* error) const;

    // What cleanUp() did: removed the temp files of stores that were killed before they finished
    // (their sessions never became visible), and moved session files it cannot read (damaged by
    // something else: a disk error, a partial copy) into the `damaged` folder of the library.
    struct Cleanup {
        std::vector<std::string> removedFiles; // temp sessions and their SQLite journals
        size_t interruptedStores = 0;          // temp sessions among them
        uint64_t removedBytes = 0;
        std::vector<std::string> movedAside;   // where each unreadable session went
    };
    // Run when the app starts (and by `warpscope-cli library`), which say what it did. Temp files
    // of a writer that is still running are left alone.
    Cleanup cleanUp() const;

private:
    std::string newSessionPath(const std::string& sourcePath) const;

    std::string m_directory;
};

} // namespace ws
