#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ws {

/*
 * The traces under a remote folder (a URL whose key ends in '/'), as torch-tb-profiler listed a
 * bucket: every object whose name looks like a trace (Kineto/Chrome JSON, compressed or not,
 * Nsight/nvprof SQLite, capture streams, Warpscope sessions), grouped into runs by folder, each
 * run's files being its workers. S3 and S3-compatible stores and Google Cloud Storage (whose XML
 * API answers ListObjectsV2) follow continuation tokens, Azure's List Blobs its markers, to the
 * last page (pageSize keys per request; S3's own maximum is 1000).
 */
struct RemoteObject {
    std::string key;  // the full key
    std::string url;  // the object's own URL, e.g. s3://bucket/key (fetchRemoteObject takes it)
    uint64_t size = 0;
    std::string etag;
};

struct RemoteRun {
    std::string prefix; // the folder, ending in '/'
    std::vector<RemoteObject> workers;
};

struct RemoteListing {
    std::vector<RemoteObject> objects; // every object under the prefix, in key order
    std::vector<RemoteRun> runs;       // the trace-like objects by folder, in folder order
    int pages = 0;                     // list requests made
    std::string error;                 // set when the listing failed (objects may hold what came)
};

RemoteListing listRemoteFolder(const std::string& url, int pageSize = 1000);
// The objects of one listing page: each <item> element's <key>, <size> and <etag> (S3 and GCS:
// Contents/Key/Size/ETag; Azure: Blob/Name/Content-Length/Etag); url is left empty.
std::vector<RemoteObject> parseListingPage(std::string_view body, std::string_view item, std::string_view key,
                                           std::string_view size, std::string_view etag);
// Whether an object's name looks like a trace Warpscope opens.
bool looksLikeTraceName(const std::string& key);

} // namespace ws
