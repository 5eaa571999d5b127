#include "remote/remote_fetch.h"

#include "remote/ssh_transport.h"

#include "remote/environment.h"
#include "remote/remote_request.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <sys/stat.h>

namespace ws {

namespace {

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

} // namespace

std::string defaultRemoteCacheDir() {
    if (const std::string dir = environmentValue("WARPSCOPE_REMOTE_CACHE"); !dir.empty())
        return dir;
    if (const std::string xdg = environmentValue("XDG_CACHE_HOME"); !xdg.empty())
        return xdg + "/warpscope/remote";
    return environmentValue("HOME") + "/.cache/warpscope/remote";
}

RemoteFetchResult fetchRemoteObject(const std::string& text, const RemoteFetchOptions& options) {
    RemoteFetchResult result;
    result.displayUrl = redactUrl(text);
    std::string why;
    const auto parsed = parseRemoteUrl(text, remoteEndpointsFromEnvironment(), &why);
    if (!parsed) {
        result.error = why + ": " + result.displayUrl;
        return result;
    }
    if (parsed->isPrefix()) {
        result.error = "the URL names a folder (prefix), not an object: " + result.displayUrl;
        return result;
    }
    const RemoteRequest request = prepareRemoteRequest(*parsed);
    if (!request.error.empty()) {
        result.error = request.error;
        return result;
    }
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

    const bool ssh = parsed->kind == RemoteUrl::Kind::Ssh;
    const HttpResponse head = ssh ? sshHead(*parsed) : HttpClient::head(parsed->httpUrl, request.auth);
    auto useCachedCopy = [&](bool offline) {
        result.localPath = object;
        result.fromCache = true;
        result.offline = offline;
        result.bytes = cachedBytes;
        result.etag = cached.etag;
        return result;
    };
    if (head.networkError) {
        if (haveObject)
            return useCachedCopy(true);
        result.error = head.error + " (" + result.displayUrl + ")";
        return result;
    }
    // Reopened from a list that keeps URLs without their secrets (Recent files): a redacted token
    // no longer grants access, but the copy made when it did is still the object the user opened.
    if ((head.status == 401 || head.status == 403) && haveObject && text.find("=REDACTED") != std::string::npos)
        return useCachedCopy(true);
    // Some servers refuse HEAD (405) yet serve GET: go on and let the download say what is wrong.
    if (ssh && head.status >= 400) {
        result.error = head.error;
        return result;
    }
    if (head.status >= 400 && head.status != 405) {
        const HttpResponse doc = HttpClient::get(parsed->httpUrl, request.auth, 1u << 20); // the error document
        result.error = remoteHttpMessage(head.status, doc.body, request, result.displayUrl);
        return result;
    }
    if (haveObject && !head.etag.empty() && head.etag == cached.etag &&
        (head.size < 0 || static_cast<uint64_t>(head.size) == cachedBytes))
        return useCachedCopy(false);
    if (options.cachedOnly) {
        result.needsDownload = true;
        return result;
    }
    // A `.part` of another version of the object cannot be resumed.
    Meta partMeta;
    if (readMeta(metaPath + ".part", &partMeta) && partMeta.etag != head.etag)
        std::remove(part.c_str());
    {
        std::ofstream(metaPath + ".part") << "etag " << head.etag << "\nurl " << result.displayUrl << "\n";
    }
    if (options.downloadStarts)
        options.downloadStarts(part, object, head.status == 200 ? head.size : -1);
    const HttpDownload d = ssh ? sshDownload(*parsed, part, options.progress, options.written)
                               : HttpClient::download(parsed->httpUrl, request.auth, part, options.progress, options.written);
    result.resumes = d.resumes;
    if (!d.ok) {
        result.cancelled = d.cancelled;
        if (d.cancelled) {
            std::remove(part.c_str()); // nothing half-written stays behind
            std::remove((metaPath + ".part").c_str());
            result.error = "cancelled: " + result.displayUrl;
        } else if (d.status >= 300 && !ssh) {
            result.error = remoteHttpMessage(d.status, d.body, request, result.displayUrl);
        } else if (ssh) {
            result.error = d.error;
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
