#pragma once

#include "import/trace_import.h"
#include "remote/remote_fetch.h"

#include <string>

namespace ws {

/*
 * importRemoteTrace: a remote trace (remote_url.h) imported while it downloads. The download runs
 * on its own thread into the cache's part file (remote_fetch.h); as soon as its first bytes show
 * what it is, a Chrome/Kineto JSON trace (plain, .gz or .zst) is parsed from the growing file
 * (io/growing_file.h), so the import ends shortly after the last byte arrives rather than starting
 * then. Other formats (SQLite exports, capture streams, sessions) need the whole file and are
 * imported once it is complete; a current cached copy is imported without downloading.
 *
 * A failed or cancelled download discards whatever was parsed; a download that had to start over
 * is imported again from the finished file. `fetched` (may be null) receives the download's
 * result: the cached file, which the session library keys the stored session on.
 */
ImportResult importRemoteTrace(const std::string& url, const ImportControl& control,
                               RemoteFetchResult* fetched = nullptr);

} // namespace ws
