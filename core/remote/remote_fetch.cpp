#include "remote/remote_fetch.h"

#include "remote/aws_credentials.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <sys/stat.h>

namespace ws {

namespace {

std::string env(const char* name) {
    const char* v = std::getenv(name);
    return v ? std::string(v) : std::string();
}

bool makeDirs(const std::string& path) {
    for (size_t pos = 1; pos <= path.size(); ++pos) {
        if (pos != path.size() && path[pos] != '/')
            continue;
        const std::string prefix = path.substr(0, pos);
        if (::mkdir(prefix.c_str(), 0700) != 0 && errno != EEXIST)
            return false;
    }
    return true;
}

std::string hashHex(const std::string& text) {
    uint64_t h = 0xcbf29ce484222325ull;
    for (unsigned char c : text) {
        h ^= c;
        h *= 0x100000001b3ull;
    }
    char buf[17];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
    return buf;
}

uint64_t fileSize(const std::string& path, bool* exists = nullptr) {
    struct stat st {};
    const bool ok = ::stat(path.c_str(), &st) == 0;
    if (exists)
        *exists = ok;
    return ok ? static_cast<uint64_t>(st.st_size) : 0;
}

struct Meta {
    std::string etag;
    uint64_t size = 0;
};

bool readMeta(const std::string& path, Meta* m) {
    std::ifstream in(path);
    std::string line;
    bool any = false;
    while (std::getline(in, line)) {
        if (line.rfind("etag ", 0) == 0) {
            m->etag = line.substr(5);
            any = true;
        } else if (line.rfind("size ", 0) == 0) {
            m->size = std::strtoull(line.c_str() + 5, nullptr, 10);
        }
    }
    return any;
}

// The <Code> of an S3/GCS/Azure XML error document, "" when there is none.
std::string xmlErrorCode(const std::string& body) {
    const size_t a = body.find("<Code>");
    const size_t b = body.find("</Code>");
    return a == std::string::npos || b == std::string::npos || b < a ? std::string() : body.substr(a + 6, b - a - 6);
}

struct Request {
    RemoteUrl url;
    HttpAuth auth;
    std::string credentialNote; // where the credentials came from, or where we looked
    bool signedRequest = false;
};

// What to tell the user for an HTTP failure, with the kind of store in mind.
std::string httpMessage(long status, const std::string& body, const Request& r, const std::string& shown) {
    const std::string code = xmlErrorCode(body);
    const std::string suffix = code.empty() ? std::string() : " (" + code + ")";
    if (code == "NoSuchBucket" || code == "ContainerNotFound")
        return "no such bucket or container" + suffix + ": " + shown;
    if (status == 404 || code == "NoSuchKey" || code == "BlobNotFound")
        return "no such object" + suffix + ": " + shown;
    if (code == "ExpiredToken" || code == "TokenRefreshRequired" ||
        (code == "AuthenticationFailed" && body.find("expired") != std::string::npos))
        return "the credentials have expired" + suffix + " (" + r.credentialNote + "); renew them and try again";
    if (status == 401 || status == 403) {
        if (r.url.kind == RemoteUrl::Kind::S3 && !r.signedRequest)
            return "access denied" + suffix + " and no AWS credentials were found (looked in " + r.credentialNote +
                   "); set AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY or a profile with AWS_PROFILE";
        if (r.url.kind == RemoteUrl::Kind::S3)
            return "access denied" + suffix + ": the credentials from " + r.credentialNote +
                   " may not read " + shown + " (wrong key or secret, or no permission)";
        return "access denied (HTTP " + std::to_string(status) + ")" + suffix + ": " + shown +
               (r.url.kind == RemoteUrl::Kind::AzureBlob ? "; a SAS token with read permission in the URL grants access"
                                                         : std::string());
    }
    return "the server answered HTTP " + std::to_string(status) + suffix + " for " + shown;
}

Request prepare(const RemoteUrl& parsed) {
    Request r;
    r.url = parsed;
    if (parsed.kind == RemoteUrl::Kind::S3) {
        const AwsSettings aws = findAwsSettings();
        if (aws.credentials) {
            r.signedRequest = true;
            r.auth.awsSigV4 = "aws:amz:" + parsed.region + ":s3";
            r.auth.user = aws.credentials->accessKey;
            r.auth.password = aws.credentials->secretKey;
            // S3 requires the payload hash header; a GET has no payload to sign.
            r.auth.headers.push_back("x-amz-content-sha256: UNSIGNED-PAYLOAD");
            if (!aws.credentials->sessionToken.empty())
                r.auth.headers.push_back("x-amz-security-token: " + aws.credentials->sessionToken);
            r.credentialNote = aws.credentials->source;
        } else {
            std::string looked;
            for (const std::string& where : aws.lookedAt)
                looked += (looked.empty() ? "" : ", ") + where;
            r.credentialNote = looked;
        }
    }
    return r;
}

RemoteEndpoints endpointsFromEnvironment() {
    RemoteEndpoints e;
    const AwsSettings aws = findAwsSettings();
    e.s3Endpoint = aws.endpoint;
    e.s3Region = aws.region;
    // Azurite and other emulators: the connection string's BlobEndpoint.
    const std::string connection = env("AZURE_STORAGE_CONNECTION_STRING");
    if (const size_t at = connection.find("BlobEndpoint="); at != std::string::npos) {
        const size_t end = connection.find(';', at);
        e.azureEndpoint = connection.substr(at + 13, end == std::string::npos ? std::string::npos : end - at - 13);
    }
    if (const std::string host = env("STORAGE_EMULATOR_HOST"); !host.empty())
        e.gcsEndpoint = host.rfind("http", 0) == 0 ? host : "http://" + host;
    return e;
}

} // namespace

std::string defaultRemoteCacheDir() {
    if (const std::string dir = env("WARPSCOPE_REMOTE_CACHE"); !dir.empty())
        return dir;
    if (const std::string xdg = env("XDG_CACHE_HOME"); !xdg.empty())
        return xdg + "/warpscope/remote";
    return env("HOME") + "/.cache/warpscope/remote";
}

RemoteFetchResult fetchRemoteObject(const std::string& text, const RemoteFetchOptions& options) {
    RemoteFetchResult result;
    result.displayUrl = redactUrl(text);
    std::string why;
    const auto parsed = parseRemoteUrl(text, endpointsFromEnvironment(), &why);
    if (!parsed) {
        result.error = why + ": " + result.displayUrl;
        return result;
    }
    if (parsed->isPrefix()) {
        result.error = "the URL names a folder (prefix), not an object: " + result.displayUrl;
        return result;
    }
    const Request request = prepare(*parsed);
    const std::string dir = (options.cacheDir.empty() ? defaultRemoteCacheDir() : options.cacheDir) + "/" +
                            hashHex(result.displayUrl);
    if (!makeDirs(dir)) {
        result.error = "cannot create the download cache " + dir + ": " + std::strerror(errno);
        return result;
    }
    // The object keeps its own file name, so views and tabs name it as the user knows it.
    std::string base = parsed->key.substr(parsed->key.rfind('/') + 1);
    if (parsed->kind == RemoteUrl::Kind::Http) {
        const std::string path = parsed->httpUrl.substr(0, parsed->httpUrl.find('?'));
        base = path.substr(path.rfind('/') + 1);
    }
    if (base.empty() || base == "meta" || base[0] == '.')
        base = "object";
    const std::string object = dir + "/" + base, part = object + ".part", metaPath = dir + "/meta";
    Meta cached;
    bool haveObject = false;
    const uint64_t cachedBytes = fileSize(object, &haveObject);
    haveObject = haveObject && readMeta(metaPath, &cached) && cachedBytes == cached.size;

    const HttpResponse head = HttpClient::head(parsed->httpUrl, request.auth);
    if (head.networkError) {
        if (haveObject) {
            result.localPath = object;
            result.fromCache = result.offline = true;
            result.bytes = cachedBytes;
            result.etag = cached.etag;
            return result;
        }
        result.error = head.error + " (" + result.displayUrl + ")";
        return result;
    }
    // Reopened from a list that keeps URLs without their secrets (Recent files): a redacted token
    // no longer grants access, but the copy made when it did is still the object the user opened.
    if ((head.status == 401 || head.status == 403) && haveObject && text.find("=REDACTED") != std::string::npos) {
        result.localPath = object;
        result.fromCache = result.offline = true;
        result.bytes = cachedBytes;
        result.etag = cached.etag;
        return result;
    }
    // Some servers refuse HEAD (405) yet serve GET: go on and let the download say what is wrong.
    if (head.status >= 400 && head.status != 405) {
        const HttpResponse doc = HttpClient::get(parsed->httpUrl, request.auth, 1u << 20); // the error document
        result.error = httpMessage(head.status, doc.body, request, result.displayUrl);
        return result;
    }
    if (haveObject && !head.etag.empty() && head.etag == cached.etag &&
        (head.size < 0 || static_cast<uint64_t>(head.size) == cachedBytes)) {
        result.localPath = object;
        result.fromCache = true;
        result.bytes = cachedBytes;
        result.etag = cached.etag;
        return result;
    }
    // A `.part` of another version of the object cannot be resumed.
    Meta partMeta;
    if (readMeta(metaPath + ".part", &partMeta) && partMeta.etag != head.etag)
        std::remove(part.c_str());
    {
        std::ofstream(metaPath + ".part") << "etag " << head.etag << "\nurl " << result.displayUrl << "\n";
    }
    const HttpDownload d = HttpClient::download(parsed->httpUrl, request.auth, part, options.progress);
    result.resumes = d.resumes;
    if (!d.ok) {
        result.cancelled = d.cancelled;
        if (d.cancelled) {
            std::remove(part.c_str()); // nothing half-written stays behind
            std::remove((metaPath + ".part").c_str());
            result.error = "cancelled: " + result.displayUrl;
        } else if (d.status >= 300) {
            result.error = httpMessage(d.status, d.body, request, result.displayUrl);
        } else {
            result.error = d.error + " (" + result.displayUrl + ")";
        }
        return result;
    }
    result.etag = d.etag.empty() ? head.etag : d.etag;
    result.bytes = d.bytes;
    std::ofstream(metaPath) << "etag " << result.etag << "\nsize " << d.bytes << "\nurl " << result.displayUrl << "\n";
    if (std::rename(part.c_str(), object.c_str()) != 0) {
        result.error = "cannot store the download in " + dir + ": " + std::strerror(errno);
        return result;
    }
    std::remove((metaPath + ".part").c_str());
    result.localPath = object;
    return result;
}

} // namespace ws
