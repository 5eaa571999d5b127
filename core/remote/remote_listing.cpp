#include "remote/remote_listing.h"

#include "remote/remote_request.h"

#include <algorithm>
#include <cctype>
#include <map>

namespace ws {

namespace {

std::string xmlDecode(std::string_view s) {
    std::string out;
    for (size_t i = 0; i < s.size(); ++i) {
        if (s[i] != '&') {
            out += s[i];
            continue;
        }
        const size_t semi = s.find(';', i);
        const std::string_view entity = s.substr(i + 1, semi == std::string_view::npos ? 0 : semi - i - 1);
        if (entity == "amp") out += '&';
        else if (entity == "lt") out += '<';
        else if (entity == "gt") out += '>';
        else if (entity == "quot") out += '"';
        else if (entity == "apos") out += '\'';
        else if (!entity.empty() && entity[0] == '#') out += static_cast<char>(std::strtol(std::string(entity.substr(1)).c_str(), nullptr, entity.size() > 1 && entity[1] == 'x' ? 16 : 10));
        else {
            out += '&';
            continue;
        }
        i = semi;
    }
    return out;
}

// The text of the first <tag>...</tag> in s, decoded; empty when absent.
std::string element(std::string_view s, std::string_view tag) {
    std::string open(1, '<'), close("</");
    open.append(tag.data(), tag.size());
    open += '>';
    close.append(tag.data(), tag.size());
    close += '>';
    const size_t a = s.find(open);
    if (a == std::string_view::npos)
        return {};
    const size_t b = s.find(close, a + open.size());
    return b == std::string_view::npos ? std::string() : xmlDecode(s.substr(a + open.size(), b - a - open.size()));
}

// Percent-encoding of a query value as SigV4 canonicalizes it (everything but unreserved).
std::string encodeQueryValue(std::string_view v) {
    static const char hex[] = "0123456789ABCDEF";
    std::string out;
    for (unsigned char c : v) {
        if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~') {
            out += static_cast<char>(c);
        } else {
            out += '%';
            out += hex[c >> 4];
            out += hex[c & 15];
        }
    }
    return out;
}

bool endsWith(const std::string& s, std::string_view suffix) {
    return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// Sorts the objects and groups the trace-like ones into runs by folder.
void groupRuns(RemoteListing& listing) {
    std::sort(listing.objects.begin(), listing.objects.end(),
              [](const RemoteObject& a, const RemoteObject& b) { return a.key < b.key; });
    std::map<std::string, RemoteRun> runs;
    for (const RemoteObject& o : listing.objects) {
        if (!looksLikeTraceName(o.key))
            continue;
        const std::string folder = o.key.substr(0, o.key.rfind('/') + 1);
        RemoteRun& run = runs[folder];
        run.prefix = folder;
        run.workers.push_back(o);
    }
    for (auto& [folder, run] : runs)
        listing.runs.push_back(std::move(run));
}

// Azure's List Blobs: pages joined by NextMarker; a SAS token in the URL rides along.
RemoteListing listAzure(const RemoteUrl& url, const std::string& shown, int pageSize) {
    RemoteListing listing;
    const RemoteRequest request = prepareRemoteRequest(url);
    std::string base = url.httpUrl.substr(0, url.httpUrl.find('?'));
    const std::string sas = url.httpUrl.find('?') == std::string::npos ? std::string() : url.httpUrl.substr(url.httpUrl.find('?') + 1);
    base.resize(base.size() - encodeKey(url.key).size());
    if (!base.empty() && base.back() == '/')
        base.pop_back(); // the container's URL
    std::string marker;
    for (;;) {
        std::string query = "?comp=list";
        if (!marker.empty())
            query += "&marker=" + encodeQueryValue(marker);
        query += "&maxresults=" + std::to_string(std::clamp(pageSize, 1, 5000)) + "&prefix=" + encodeQueryValue(url.key) +
                 "&restype=container";
        if (!sas.empty())
            query += "&" + sas;
        const HttpResponse page = HttpClient::get(base + query, request.auth);
        ++listing.pages;
        if (page.networkError) {
            listing.error = page.error + " (" + shown + ")";
            return listing;
        }
        if (page.status < 200 || page.status >= 300) {
            listing.error = remoteHttpMessage(page.status, page.body, request, shown);
            return listing;
        }
        for (size_t at = page.body.find("<Blob>"); at != std::string::npos; at = page.body.find("<Blob>", at + 6)) {
            const size_t end = page.body.find("</Blob>", at);
            const std::string_view block =
                std::string_view(page.body).substr(at, end == std::string::npos ? std::string::npos : end - at);
            RemoteObject o;
            o.key = element(block, "Name");
            o.size = std::strtoull(element(block, "Content-Length").c_str(), nullptr, 10);
            o.etag = element(block, "Etag");
            // With a SAS token the objects keep the https form that carries it.
            o.url = sas.empty() ? "az://" + url.account + "/" + url.bucket + "/" + o.key
                                : base + "/" + encodeKey(o.key) + "?" + sas;
            if (!o.key.empty())
                listing.objects.push_back(std::move(o));
        }
        marker = element(page.body, "NextMarker");
        if (marker.empty())
            break;
    }
    groupRuns(listing);
    return listing;
}

} // namespace

bool looksLikeTraceName(const std::string& key) {
    std::string k = key;
    std::transform(k.begin(), k.end(), k.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    for (std::string_view compressed : {".gz", ".zst"})
        if (endsWith(k, compressed))
            k.resize(k.size() - compressed.size());
    for (std::string_view ext : {".json", ".sqlite", ".nvvp", ".wscap", ".warpscope"})
        if (endsWith(k, ext))
            return true;
    return false;
}

RemoteListing listRemoteFolder(const std::string& text, int pageSize) {
    RemoteListing listing;
    const std::string shown = redactUrl(text);
    std::string why;
    const auto parsed = parseRemoteUrl(text, remoteEndpointsFromEnvironment(), &why);
    if (!parsed) {
        listing.error = why + ": " + shown;
        return listing;
    }
    if (parsed->kind == RemoteUrl::Kind::AzureBlob)
        return listAzure(*parsed, shown, pageSize);
    if (parsed->kind != RemoteUrl::Kind::S3) {
        listing.error = "listing a folder works for S3, S3-compatible stores and Azure Blob Storage only, so far: " + shown;
        return listing;
    }
    const RemoteRequest request = prepareRemoteRequest(*parsed);
    // The bucket's URL: path style on custom endpoints, virtual-hosted on AWS.
    std::string bucketUrl = parsed->httpUrl;
    bucketUrl.resize(bucketUrl.size() - encodeKey(parsed->key).size());
    if (parsed->pathStyle && !bucketUrl.empty() && bucketUrl.back() == '/')
        bucketUrl.pop_back(); // endpoint/bucket
    std::string token;
    for (;;) {
        // Parameters in SigV4's canonical (sorted) order, values fully encoded.
        std::string query = "?";
        if (!token.empty())
            query += "continuation-token=" + encodeQueryValue(token) + "&";
        query += "list-type=2&max-keys=" + std::to_string(std::clamp(pageSize, 1, 1000)) +
                 "&prefix=" + encodeQueryValue(parsed->key);
        const HttpResponse page = HttpClient::get(bucketUrl + query, request.auth);
        ++listing.pages;
        if (page.networkError) {
            listing.error = page.error + " (" + shown + ")";
            return listing;
        }
        if (page.status < 200 || page.status >= 300) {
            listing.error = remoteHttpMessage(page.status, page.body, request, shown);
            return listing;
        }
        for (size_t at = page.body.find("<Contents>"); at != std::string::npos;
             at = page.body.find("<Contents>", at + 10)) {
            const size_t end = page.body.find("</Contents>", at);
            const std::string_view block = std::string_view(page.body).substr(at, end == std::string::npos ? std::string::npos : end - at);
            RemoteObject o;
            o.key = element(block, "Key");
            o.size = std::strtoull(element(block, "Size").c_str(), nullptr, 10);
            o.etag = element(block, "ETag");
            o.url = "s3://" + parsed->bucket + "/" + o.key;
            if (!o.key.empty())
                listing.objects.push_back(std::move(o));
        }
        token = element(page.body, "NextContinuationToken");
        if (element(page.body, "IsTruncated") != "true" || token.empty())
            break;
    }
    groupRuns(listing);
    return listing;
}

} // namespace ws
