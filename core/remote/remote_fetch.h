#pragma once

#include "remote/http_client.h"
#include "remote/remote_url.h"

#include <functional>
#include <string>

namespace ws {

/*
 * fetchRemoteObject: brings a remote trace (remote_url.h) into a local cache and returns its path,
 * so every importer reads it as it reads a local file (sniffed by content; .gz/.zst inflate while
 * importing). The cache is keyed by URL + ETag:
 *   <cacheDir>/<hash of the redacted URL>/<name>   the object's bytes as served, under its own name
 *   <cacheDir>/<hash>/meta                          the ETag and size it had, and the redacted URL
 * A second open of an unchanged object costs one HEAD request; when the network is down the
 * cached copy opens anyway (offline is set). A download goes to `<name>.part` and is renamed
 * only when complete, so a cancel or a failure never leaves a half object where a whole one is
 * expected; a `.part` left by an interrupted run is resumed with a range request.
 *
 * Credentials: S3 uses aws_credentials.h (signed with SigV4 by libcurl; unsigned for public
 * buckets when none is found). Azure uses a SAS token in the URL; GCS public objects. Secrets never
 * reach the cache files, errors or logs: everything shown uses redactUrl().
 */
struct RemoteFetchOptions {
    std::string cacheDir;   // "" = defaultRemoteCacheDir()
    HttpProgress progress;  // downloads only; return false to cancel
    // Only look: return the cached copy when it is current (or the server cannot be reached), and
    // otherwise set needsDownload instead of downloading.
    bool cachedOnly = false;
    // For a reader that follows the download (remote_import.h): called once before the first byte
    // with the file being written (`.part`), where it will be when complete, and the object's size
    // (-1 when unknown); then `written` hears the part file's size after every write.
    std::function<void(const std::string& partPath, const std::string& objectPath, int64_t size)> downloadStarts;
    std::function<void(uint64_t bytes)> written;
};

struct RemoteFetchResult {
    std::string localPath;  // "" on failure
    std::string error;      // one or two sentences: what happened and what to do
    bool cancelled = false;
    bool fromCache = false; // the cached copy was current: no download
    bool offline = false;   // the server could not be reached: the cached copy was used
    bool needsDownload = false; // cachedOnly, and the cache has no current copy
    uint64_t bytes = 0;
    int resumes = 0;
    std::string etag;
    std::string displayUrl; // redacted
};

// $WARPSCOPE_REMOTE_CACHE, else $XDG_CACHE_HOME/warpscope/remote, else ~/.cache/warpscope/remote.
std::string defaultRemoteCacheDir();
RemoteFetchResult fetchRemoteObject(const std::string& url, const RemoteFetchOptions& options = {});

} // namespace ws
