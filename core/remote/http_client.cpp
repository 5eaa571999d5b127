#include "remote/http_client.h"

#include <curl/curl.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <mutex>
#include <sys/stat.h>
#include <unistd.h>

namespace ws {

namespace {

void globalInit() {
    static std::once_flag once;
    std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

std::string caFile() {
    for (const char* name : {"WARPSCOPE_CA_FILE", "CURL_CA_BUNDLE", "SSL_CERT_FILE"})
        if (const char* v = std::getenv(name); v && *v)
            return v;
    return {};
}

struct Handle {
    CURL* curl = nullptr;
    curl_slist* headers = nullptr;
    char errorBuffer[CURL_ERROR_SIZE] = {};
    Handle() {
        globalInit();
        curl = curl_easy_init();
    }
    ~Handle() {
        curl_slist_free_all(headers);
        curl_easy_cleanup(curl);
    }
};

// What the header callback collects for the response being received (reset at each status line).
struct Headers {
    long status = 0;
    std::string etag;
    int64_t contentLength = -1;
    int64_t rangeTotal = -1; // from Content-Range: bytes a-b/TOTAL
};

size_t onHeader(char* data, size_t size, size_t n, void* user) {
    auto* h = static_cast<Headers*>(user);
    std::string line(data, size * n);
    while (!line.empty() && (line.back() == '\n' || line.back() == '\r'))
        line.pop_back();
    if (line.rfind("HTTP/", 0) == 0) {
        *h = Headers{};
        const size_t sp = line.find(' ');
        if (sp != std::string::npos)
            h->status = std::strtol(line.c_str() + sp + 1, nullptr, 10);
        return size * n;
    }
    const size_t colon = line.find(':');
    if (colon == std::string::npos)
        return size * n;
    std::string name = line.substr(0, colon);
    for (char& c : name)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    std::string value = line.substr(colon + 1);
    while (!value.empty() && value.front() == ' ')
        value.erase(value.begin());
    if (name == "etag")
        h->etag = value;
    else if (name == "content-length")
        h->contentLength = std::strtoll(value.c_str(), nullptr, 10);
    else if (name == "content-range")
        if (const size_t slash = value.rfind('/'); slash != std::string::npos && value.substr(slash + 1) != "*")
            h->rangeTotal = std::strtoll(value.c_str() + slash + 1, nullptr, 10);
    return size * n;
}

// range: the Range header's value for this request ("" = none), signed along when auth signs.
void configure(Handle& h, const std::string& url, const HttpAuth& auth, Headers* headers, const char* method,
               const std::string& range = {}) {
    CURL* c = h.curl;
    curl_easy_setopt(c, CURLOPT_URL, url.c_str());
    curl_easy_setopt(c, CURLOPT_ERRORBUFFER, h.errorBuffer);
    curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 1L);
    curl_easy_setopt(c, CURLOPT_MAXREDIRS, 5L);
    curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT, 20L);
    // A stalled transfer (under 1 byte/s for 30 s) fails and is resumed, rather than hanging.
    curl_easy_setopt(c, CURLOPT_LOW_SPEED_LIMIT, 1L);
    curl_easy_setopt(c, CURLOPT_LOW_SPEED_TIME, 30L);
    curl_easy_setopt(c, CURLOPT_USERAGENT, "Warpscope");
    curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, onHeader);
    curl_easy_setopt(c, CURLOPT_HEADERDATA, headers);
    if (const std::string ca = caFile(); !ca.empty())
        curl_easy_setopt(c, CURLOPT_CAINFO, ca.c_str());
    if (!auth.awsSigV4.empty()) {
        curl_easy_setopt(c, CURLOPT_AWS_SIGV4, auth.awsSigV4.c_str());
        curl_easy_setopt(c, CURLOPT_USERNAME, auth.user.c_str());
        curl_easy_setopt(c, CURLOPT_PASSWORD, auth.password.c_str());
    }
    for (const std::string& header : auth.headers)
        h.headers = curl_slist_append(h.headers, header.c_str());
    if (!range.empty())
        h.headers = curl_slist_append(h.headers, ("Range: " + range).c_str());
    if (auth.signer)
        for (const std::string& header : auth.signer(method, url, range))
            h.headers = curl_slist_append(h.headers, header.c_str());
    if (h.headers)
        curl_easy_setopt(c, CURLOPT_HTTPHEADER, h.headers);
}

std::string networkMessage(CURLcode code, const char* buffer) {
    std::string detail = buffer && *buffer ? buffer : curl_easy_strerror(code);
    switch (code) {
    case CURLE_COULDNT_RESOLVE_HOST: return "the host name could not be resolved (" + detail + "); is the network up?";
    case CURLE_COULDNT_CONNECT: return "could not connect (" + detail + "); is the network up and the server running?";
    case CURLE_PEER_FAILED_VERIFICATION:
    case CURLE_SSL_CACERT_BADFILE:
        return "the server's TLS certificate could not be verified (" + detail +
               "); set WARPSCOPE_CA_FILE to a CA file that trusts it";
    case CURLE_OPERATION_TIMEDOUT: return "the connection timed out (" + detail + ")";
    default: return "network error: " + detail;
    }
}

size_t toString(char* data, size_t size, size_t n, void* user) {
    auto* s = static_cast<std::pair<std::string*, size_t>*>(user);
    if (s->first->size() + size * n > s->second)
        return 0; // too large: abort
    s->first->append(data, size * n);
    return size * n;
}

} // namespace

namespace {

// Runs a request whose handle is configured (a body goes to r.body); fills status, ETag and size.
HttpResponse perform(Handle& h, const Headers& headers, HttpResponse& r) {
    const CURLcode code = curl_easy_perform(h.curl);
    if (code != CURLE_OK) {
        r.networkError = true;
        r.error = networkMessage(code, h.errorBuffer);
        r.body.clear();
        return std::move(r);
    }
    r.status = headers.status;
    r.etag = headers.etag;
    r.size = headers.contentLength;
    return std::move(r);
}

} // namespace

HttpResponse HttpClient::head(const std::string& url, const HttpAuth& auth) {
    Handle h;
    Headers headers;
    configure(h, url, auth, &headers, "HEAD");
    curl_easy_setopt(h.curl, CURLOPT_NOBODY, 1L);
    HttpResponse r;
    return perform(h, headers, r);
}

HttpResponse HttpClient::get(const std::string& url, const HttpAuth& auth, size_t maxBytes) {
    HttpResponse r;
    Handle h;
    Headers headers;
    configure(h, url, auth, &headers, "GET");
    std::pair<std::string*, size_t> sink{&r.body, maxBytes};
    curl_easy_setopt(h.curl, CURLOPT_WRITEFUNCTION, toString);
    curl_easy_setopt(h.curl, CURLOPT_WRITEDATA, &sink);
    return perform(h, headers, r);
}

HttpResponse HttpClient::post(const std::string& url, const std::string& contentType, const std::string& body,
                              size_t maxBytes) {
    HttpResponse r;
    Handle h;
    Headers headers;
    HttpAuth none;
    none.headers.push_back("Content-Type: " + contentType);
    configure(h, url, none, &headers, "POST");
    curl_easy_setopt(h.curl, CURLOPT_POSTFIELDS, body.c_str());
    curl_easy_setopt(h.curl, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(body.size()));
    std::pair<std::string*, size_t> sink{&r.body, maxBytes};
    curl_easy_setopt(h.curl, CURLOPT_WRITEFUNCTION, toString);
    curl_easy_setopt(h.curl, CURLOPT_WRITEDATA, &sink);
    return perform(h, headers, r);
}

namespace {

struct Sink {
    int fd = -1;
    const std::function<void(uint64_t)>* written = nullptr;
    Headers* headers = nullptr;
    uint64_t start = 0;   // bytes in the file when this request began
    bool restarted = false; // the server sent the whole object: the file was emptied
    std::string errorBody;  // a non-2xx response's document
    uint64_t received = 0; // body bytes written by this request
};

bool writeAll(int fd, const char* data, size_t bytes) {
    while (bytes > 0) {
        const ssize_t n = ::write(fd, data, bytes);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        data += n;
        bytes -= static_cast<size_t>(n);
    }
    return true;
}

size_t onBody(char* data, size_t size, size_t n, void* user) {
    auto* s = static_cast<Sink*>(user);
    const size_t bytes = size * n;
    const long status = s->headers->status;
    if (status < 200 || status >= 300) {
        if (s->errorBody.size() < (1u << 20))
            s->errorBody.append(data, bytes);
        return bytes;
    }
    if (status == 200 && s->start > 0 && !s->restarted) {
        // Range ignored, or If-Range saw a changed object: the whole object comes again.
        if (::ftruncate(s->fd, 0) != 0) // O_APPEND: the next write lands at the new end, 0
            return 0;
        s->restarted = true;
        if (*s->written)
            (*s->written)(0);
    }
    // Unbuffered, so a reader of the growing file (remote_import.h) finds what was reported.
    if (!writeAll(s->fd, data, bytes))
        return 0; // disk full: fail the transfer
    s->received += bytes;
    if (*s->written)
        (*s->written)((s->restarted ? 0 : s->start) + s->received);
    return bytes;
}

struct ProgressState {
    const HttpProgress* progress = nullptr;
    Sink* sink = nullptr;
    Headers* headers = nullptr;
    bool cancelled = false;
};

int onProgress(void* user, curl_off_t total, curl_off_t now, curl_off_t, curl_off_t) {
    auto* p = static_cast<ProgressState*>(user);
    if (!*p->progress)
        return 0;
    const uint64_t base = p->sink->restarted ? 0 : p->sink->start;
    const int64_t all = p->headers->rangeTotal >= 0 ? p->headers->rangeTotal
                        : total > 0                 ? static_cast<int64_t>(base) + total
                                                    : -1;
    if (!(*p->progress)(base + static_cast<uint64_t>(now), all)) {
        p->cancelled = true;
        return 1;
    }
    return 0;
}

uint64_t fileSize(const std::string& path) {
    struct stat st {};
    return ::stat(path.c_str(), &st) == 0 ? static_cast<uint64_t>(st.st_size) : 0;
}

} // namespace

HttpDownload HttpClient::download(const std::string& url, const HttpAuth& auth, const std::string& path,
                                  const HttpProgress& progress, const std::function<void(uint64_t)>& written,
                                  int maxResumes) {
    HttpDownload d;
    std::string etag;
    for (int attempt = 0;; ++attempt) {
        const uint64_t have = fileSize(path);
        const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
        if (fd < 0) {
            d.error = "cannot write the download: " + path;
            return d;
        }
        Handle h;
        Headers headers;
        // A resumed download asks for the rest with a Range header of its own (not libcurl's resume,
        // which fails when a server ignores ranges; the sink restarts the file on a 200 instead).
        configure(h, url, auth, &headers, "GET", have > 0 ? "bytes=" + std::to_string(have) + "-" : std::string());
        Sink sink;
        sink.fd = fd;
        sink.written = &written;
        sink.headers = &headers;
        sink.start = have;
        ProgressState state;
        state.progress = &progress;
        state.sink = &sink;
        state.headers = &headers;
        curl_easy_setopt(h.curl, CURLOPT_WRITEFUNCTION, onBody);
        curl_easy_setopt(h.curl, CURLOPT_BUFFERSIZE, 512L << 10); // fewer, larger writes and wake-ups
        curl_easy_setopt(h.curl, CURLOPT_WRITEDATA, &sink);
        curl_easy_setopt(h.curl, CURLOPT_NOPROGRESS, 0L);
        curl_easy_setopt(h.curl, CURLOPT_XFERINFOFUNCTION, onProgress);
        curl_easy_setopt(h.curl, CURLOPT_XFERINFODATA, &state);
        if (have > 0 && !etag.empty()) {
            h.headers = curl_slist_append(h.headers, ("If-Range: " + etag).c_str());
            curl_easy_setopt(h.curl, CURLOPT_HTTPHEADER, h.headers);
        }
        const CURLcode code = curl_easy_perform(h.curl);
        const bool closed = ::close(fd) == 0;
        if (!headers.etag.empty())
            etag = headers.etag;
        d.status = headers.status;
        d.etag = etag;
        d.bytes = fileSize(path);
        if (state.cancelled) {
            d.cancelled = true;
            d.error = "cancelled";
            return d;
        }
        if (code == CURLE_OK && headers.status == 416 && have > 0 && headers.rangeTotal == static_cast<int64_t>(have)) {
            d.ok = true; // the earlier attempt had everything but its end of transfer
            return d;
        }
        if (code == CURLE_OK && (headers.status < 200 || headers.status >= 300)) {
            d.body = std::move(sink.errorBody);
            d.error = "HTTP " + std::to_string(headers.status);
            return d;
        }
        if (code == CURLE_OK && closed) {
            d.ok = true;
            return d;
        }
        // CURLE_RANGE_ERROR: the server cannot resume; start over once.
        const bool resumable = code == CURLE_PARTIAL_FILE || code == CURLE_RECV_ERROR || code == CURLE_GOT_NOTHING ||
                               code == CURLE_OPERATION_TIMEDOUT || code == CURLE_SEND_ERROR || code == CURLE_RANGE_ERROR;
        if (!resumable || attempt >= maxResumes) {
            d.error = code == CURLE_WRITE_ERROR ? "cannot write the download (disk full?)"
                                                : networkMessage(code, h.errorBuffer);
            return d;
        }
        if (code == CURLE_RANGE_ERROR) {
            std::remove(path.c_str());
            if (written)
                written(0); // a reader of the old file must start over
        }
        ++d.resumes;
    }
}

} // namespace ws
