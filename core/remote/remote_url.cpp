#include "remote/remote_url.h"

#include <algorithm>
#include <array>
#include <cctype>

namespace ws {

namespace {

bool startsWith(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

std::string lower(std::string_view s) {
    std::string out(s);
    std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return out;
}

std::string trimSlash(std::string s) {
    while (!s.empty() && s.back() == '/')
        s.pop_back();
    return s;
}

// Query parameters whose values are credentials (compared case-insensitively).
constexpr std::array<std::string_view, 12> kSecretParameters = {
    "sig", "signature", "x-amz-signature", "x-amz-credential", "x-amz-security-token", "token", "access_token",
    "key", "x-goog-signature", "x-goog-credential", "code", "password"};

// Splits "host/rest" after a scheme: the first path segment and what follows its '/'.
bool splitFirst(std::string_view rest, std::string* first, std::string* tail) {
    const size_t slash = rest.find('/');
    *first = std::string(rest.substr(0, slash));
    *tail = slash == std::string_view::npos ? std::string() : std::string(rest.substr(slash + 1));
    return !first->empty();
}

} // namespace

bool isRemoteUrl(std::string_view text) {
    const std::string l = lower(text.substr(0, 8));
    return startsWith(l, "s3://") || startsWith(l, "gs://") || startsWith(l, "az://") || startsWith(l, "http://") ||
           startsWith(l, "https://") || startsWith(l, "ssh://");
}

std::string percentEncode(std::string_view text, bool keepSlash) {
    static const char hex[] = "0123456789ABCDEF";
    std::string out;
    for (unsigned char c : text) {
        if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~' || (keepSlash && c == '/')) {
            out += static_cast<char>(c);
        } else {
            out += '%';
            out += hex[c >> 4];
            out += hex[c & 15];
        }
    }
    return out;
}

std::optional<RemoteUrl> parseRemoteUrl(std::string_view text, const RemoteEndpoints& endpoints, std::string* error) {
    RemoteUrl u;
    const std::string scheme = lower(text.substr(0, text.find("://")));
    const std::string_view rest = text.find("://") == std::string_view::npos ? std::string_view()
                                                                             : text.substr(text.find("://") + 3);
    if (scheme == "ssh") {
        // ssh://[user@]host[:port]/path: the destination is what the user's ssh is given, so
        // ~/.ssh/config aliases, keys and ProxyJump apply.
        const size_t slash = rest.find('/');
        std::string authority(rest.substr(0, slash));
        if (authority.empty() || slash == std::string_view::npos || slash + 1 >= rest.size()) {
            *error = "the URL names no host or no path (expected ssh://HOST/PATH)";
            return std::nullopt;
        }
        const size_t at = authority.rfind('@'), colon = authority.rfind(':');
        if (colon != std::string::npos && (at == std::string::npos || colon > at)) {
            const std::string port = authority.substr(colon + 1);
            if (port.empty() || port.size() > 5 || !std::all_of(port.begin(), port.end(), ::isdigit)) {
                *error = "the port in the URL is not a number";
                return std::nullopt;
            }
            u.port = std::stoi(port);
            authority.resize(colon);
        }
        u.kind = RemoteUrl::Kind::Ssh;
        u.account = authority;
        u.key = std::string(rest.substr(slash));
        if (startsWith(u.key, "/~/") || u.key == "/~")
            u.key.erase(0, 1); // under the home directory
        u.httpUrl = std::string(text);
        return u;
    }
    if (scheme == "s3" || scheme == "gs") {
        if (!splitFirst(rest, &u.bucket, &u.key)) {
            *error = "the URL names no bucket (expected " + scheme + "://BUCKET/KEY)";
            return std::nullopt;
        }
        if (scheme == "s3") {
            u.kind = RemoteUrl::Kind::S3;
            u.region = endpoints.s3Region.empty() ? "us-east-1" : endpoints.s3Region;
            if (!endpoints.s3Endpoint.empty()) {
                u.pathStyle = true; // MinIO, Ceph, s3rver, GCS interoperability: endpoint/bucket/key
                u.httpUrl = trimSlash(endpoints.s3Endpoint) + "/" + encodeKey(u.bucket) + "/" + encodeKey(u.key);
            } else {
                u.httpUrl = "https://" + u.bucket + ".s3." + u.region + ".amazonaws.com/" + encodeKey(u.key);
            }
        } else {
            u.kind = RemoteUrl::Kind::Gcs;
            const std::string base =
                endpoints.gcsEndpoint.empty() ? std::string("https://storage.googleapis.com") : trimSlash(endpoints.gcsEndpoint);
            u.httpUrl = base + "/" + encodeKey(u.bucket) + "/" + encodeKey(u.key);
        }
        return u;
    }
    if (scheme == "az") {
        std::string tail;
        if (!splitFirst(rest, &u.account, &tail) || !splitFirst(tail, &u.bucket, &u.key)) {
            *error = "the URL names no account and container (expected az://ACCOUNT/CONTAINER/BLOB)";
            return std::nullopt;
        }
        u.kind = RemoteUrl::Kind::AzureBlob;
        const std::string base = endpoints.azureEndpoint.empty()
                                     ? "https://" + u.account + ".blob.core.windows.net"
                                     : trimSlash(endpoints.azureEndpoint);
        u.httpUrl = base + "/" + encodeKey(u.bucket) + "/" + encodeKey(u.key);
        return u;
    }
    if (scheme == "http" || scheme == "https") {
        std::string host, path;
        if (!splitFirst(rest, &host, &path)) {
            *error = "the URL names no host";
            return std::nullopt;
        }
        const std::string hostOnly = lower(host.substr(0, host.find(':')));
        const std::string azureSuffix = ".blob.core.windows.net";
        if (hostOnly.size() > azureSuffix.size() &&
            hostOnly.compare(hostOnly.size() - azureSuffix.size(), azureSuffix.size(), azureSuffix) == 0) {
            u.kind = RemoteUrl::Kind::AzureBlob;
            u.account = hostOnly.substr(0, hostOnly.size() - azureSuffix.size());
            const std::string pathOnly = path.substr(0, path.find('?'));
            if (!splitFirst(pathOnly, &u.bucket, &u.key)) {
                *error = "the Azure URL names no container (expected https://ACCOUNT.blob.core.windows.net/CONTAINER/BLOB)";
                return std::nullopt;
            }
        }
        u.httpUrl = std::string(text);
        return u;
    }
    *error = "not a URL Warpscope can open (s3://, gs://, az://, https:// or http://)";
    return std::nullopt;
}

std::string redactUrl(std::string_view url) {
    std::string out(url);
    // user:password@ in the authority
    if (const size_t scheme = out.find("://"); scheme != std::string::npos) {
        const size_t start = scheme + 3;
        const size_t end = std::min(out.find('/', start), out.find('?', start));
        const size_t at = out.rfind('@', end == std::string::npos ? out.size() : end);
        if (at != std::string::npos && at > start) {
            const size_t colon = out.find(':', start);
            if (colon != std::string::npos && colon < at)
                out.replace(colon + 1, at - colon - 1, "REDACTED");
        }
    }
    const size_t query = out.find('?');
    if (query == std::string::npos)
        return out;
    std::string result = out.substr(0, query + 1);
    std::string_view q = std::string_view(out).substr(query + 1);
    bool first = true;
    while (!q.empty()) {
        const size_t amp = q.find('&');
        const std::string_view pair = q.substr(0, amp);
        q = amp == std::string_view::npos ? std::string_view() : q.substr(amp + 1);
        if (!first)
            result += '&';
        first = false;
        const size_t eq = pair.find('=');
        const std::string name = lower(pair.substr(0, eq));
        const bool secret = std::find(kSecretParameters.begin(), kSecretParameters.end(), name) != kSecretParameters.end();
        if (secret && eq != std::string_view::npos) {
            result += pair.substr(0, eq + 1);
            result += "REDACTED";
        } else {
            result += pair;
        }
    }
    return result;
}

} // namespace ws
