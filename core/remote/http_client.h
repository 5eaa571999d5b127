#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace ws {

/*
 * HTTP(S) requests through libcurl: no HTTP or TLS code of our own. TLS peers are verified (a CA
 * file from WARPSCOPE_CA_FILE, CURL_CA_BUNDLE or SSL_CERT_FILE replaces the system store, e.g. for
 * a test server's self-signed certificate); proxies come from the usual environment variables
 * (https_proxy, no_proxy, ...), which libcurl reads itself.
 *
 * Messages never contain the URL's query (where SAS tokens and presigned signatures live) or any
 * header value: callers pass the redacted URL for messages.
 */
struct HttpAuth {
    std::string awsSigV4; // "aws:amz:REGION:s3": sign with AWS Signature V4 (libcurl's)
    std::string user;     // SigV4: the access key id
    std::string password; // SigV4: the secret key
    std::vector<std::string> headers; // extra request headers ("x-amz-security-token: ...")
    // Per-request signing (Azure Shared Key): the headers to add for (method, URL, Range value).
    std::function<std::vector<std::string>(const std::string& method, const std::string& url,
                                           const std::string& range)>
        signer;
};

struct HttpResponse {
    long status = 0;          // 0 when no HTTP response came (network error)
    bool networkError = false;
    std::string error;        // one sentence when the request failed at the network level
    std::string etag;         // as sent, quotes included
    int64_t size = -1;        // Content-Length of the full object, -1 when unknown
    std::string body;         // GET: the body (error documents, listings); HEAD: empty
};

struct HttpDownload {
    bool ok = false;
    bool cancelled = false;
    long status = 0;
    std::string error;
    std::string etag;
    uint64_t bytes = 0; // bytes in the file at the end
    int resumes = 0;    // range requests made after a dropped connection
    std::string body;   // the error document when status is not 2xx
};

// Called with (bytes so far, total or -1); returns false to cancel.
using HttpProgress = std::function<bool(uint64_t done, int64_t total)>;

class HttpClient {
public:
    static HttpResponse head(const std::string& url, const HttpAuth& auth);
    // A small GET into memory (listings, error documents), at most maxBytes.
    static HttpResponse get(const std::string& url, const HttpAuth& auth, size_t maxBytes = 64u << 20);
    // A form or JSON POST without authentication (an OAuth2 token request), answer into memory.
    static HttpResponse post(const std::string& url, const std::string& contentType, const std::string& body,
                             size_t maxBytes = 1u << 20);
    // Downloads into path, appending to what is there (a resumed download) when the server still
    // has the same object (If-Range on the ETag); after a dropped connection it resumes with a range
    // request, up to maxResumes times. `written` (may be empty) hears the file's size after every
    // write, so a reader can follow the file as it grows; a smaller size than before means the
    // file started over (the server sent the whole object again).
    static HttpDownload download(const std::string& url, const HttpAuth& auth, const std::string& path,
                                 const HttpProgress& progress, const std::function<void(uint64_t)>& written = {},
                                 int maxResumes = 8);
};

} // namespace ws
