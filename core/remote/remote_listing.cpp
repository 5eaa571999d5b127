#include "remote/remote_listing.h"

#include "remote/ssh_transport.h"

#include "remote/remote_request.h"

#include <algorithm>
#include <cctype>
#include <functional>
#include <map>

namespace ws {

namespace {

std::string encodeQueryValue(std::string_view v) { return percentEncode(v, false); }

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

/*
 * How one store lists a folder: the element of each object in a page and its fields, the URL of
 * the page after `marker` (marker "" = the first), the marker a page gives for the next one (""
 * = last page), and the URL an object is opened by.
 */
struct ListingDialect {
    std::string_view item, key, size, etag;
    std::function<std::string(const std::string& marker)> pageUrl;
    std::function<std::string(const std::string& page)> nextMarker;
    std::function<std::string(const std::string& key)> objectUrl;
};

} // namespace

std::vector<RemoteObject> parseListingPage(std::string_view body, std::string_view item, std::string_view key,
                                           std::string_view size, std::string_view etag) {
    std::vector<RemoteObject> objects;
    // Appended rather than operator+ (GCC 12 warns falsely of overlapping memcpy in the latter).
    std::string open("<"), close("</");
    open.append(item).append(">");
    close.append(item).append(">");
    for (size_t at = body.find(open); at != std::string_view::npos; at = body.find(open, at + open.size())) {
        const size_t end = body.find(close, at);
        const std::string_view block = body.substr(at, end == std::string_view::npos ? std::string_view::npos : end - at);
        RemoteObject o;
        o.key = xmlElementText(block, key);
        o.size = std::strtoull(xmlElementText(block, size).c_str(), nullptr, 10);
        o.etag = xmlElementText(block, etag);
        if (!o.key.empty())
            objects.push_back(std::move(o));
    }
    return objects;
}

namespace {

// Requests pages until the last, collecting their objects; then groups them into runs.
RemoteListing listPages(const RemoteRequest& request, const std::string& shown, const ListingDialect& d) {
    RemoteListing listing;
    if (!request.error.empty()) {
        listing.error = request.error;
        return listing;
    }
    std::string marker;
    do {
        const HttpResponse page = HttpClient::get(d.pageUrl(marker), request.auth);
        ++listing.pages;
        if (page.networkError) {
            listing.error = page.error + " (" + shown + ")";
            return listing;
        }
        if (page.status < 200 || page.status >= 300) {
            listing.error = remoteHttpMessage(page.status, page.body, request, shown);
            return listing;
        }
        for (RemoteObject& o : parseListingPage(page.body, d.item, d.key, d.size, d.etag)) {
            o.url = d.objectUrl(o.key);
            listing.objects.push_back(std::move(o));
        }
        marker = d.nextMarker(page.body);
    } while (!marker.empty());
    groupRuns(listing);
    return listing;
}

// Azure's List Blobs: pages joined by NextMarker; a SAS token in the URL rides along.
RemoteListing listAzure(const RemoteUrl& url, const std::string& shown, int pageSize) {
    std::string base = url.httpUrl.substr(0, url.httpUrl.find('?'));
    const std::string sas = url.httpUrl.find('?') == std::string::npos ? std::string() : url.httpUrl.substr(url.httpUrl.find('?') + 1);
    base.resize(base.size() - encodeKey(url.key).size());
    if (!base.empty() && base.back() == '/')
        base.pop_back(); // the container's URL
    ListingDialect d{"Blob", "Name", "Content-Length", "Etag", {}, {}, {}};
    d.pageUrl = [&](const std::string& marker) {
        std::string query = "?comp=list";
        if (!marker.empty())
            query += "&marker=" + encodeQueryValue(marker);
        query += "&maxresults=" + std::to_string(std::clamp(pageSize, 1, 5000)) + "&prefix=" + encodeQueryValue(url.key) +
                 "&restype=container";
        return base + query + (sas.empty() ? std::string() : "&" + sas);
    };
    d.nextMarker = [](const std::string& page) { return xmlElementText(page, "NextMarker"); };
    // With a SAS token the objects keep the https form that carries it.
    d.objectUrl = [&](const std::string& key) {
        return sas.empty() ? "az://" + url.account + "/" + url.bucket + "/" + key : base + "/" + encodeKey(key) + "?" + sas;
    };
    return listPages(prepareRemoteRequest(url), shown, d);
}

// S3's ListObjectsV2, which S3-compatible stores and Google Cloud Storage's XML API also answer:
// pages joined by continuation tokens.
RemoteListing listS3Style(const RemoteUrl& url, const std::string& shown, int pageSize) {
    // The bucket's URL: path style on custom endpoints and GCS, virtual-hosted on AWS.
    std::string bucketUrl = url.httpUrl;
    bucketUrl.resize(bucketUrl.size() - encodeKey(url.key).size());
    if ((url.pathStyle || url.kind == RemoteUrl::Kind::Gcs) && !bucketUrl.empty() && bucketUrl.back() == '/')
        bucketUrl.pop_back(); // endpoint/bucket
    ListingDialect d{"Contents", "Key", "Size", "ETag", {}, {}, {}};
    d.pageUrl = [&](const std::string& token) {
        // Parameters in SigV4's canonical (sorted) order, values fully encoded.
        std::string query = "?";
        if (!token.empty())
            query += "continuation-token=" + encodeQueryValue(token) + "&";
        return bucketUrl + query + "list-type=2&max-keys=" + std::to_string(std::clamp(pageSize, 1, 1000)) +
               "&prefix=" + encodeQueryValue(url.key);
    };
    d.nextMarker = [](const std::string& page) {
        return xmlElementText(page, "IsTruncated") == "true" ? xmlElementText(page, "NextContinuationToken") : std::string();
    };
    const std::string scheme = url.kind == RemoteUrl::Kind::Gcs ? "gs://" : "s3://";
    d.objectUrl = [&](const std::string& key) { return scheme + url.bucket + "/" + key; };
    return listPages(prepareRemoteRequest(url), shown, d);
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
    if (parsed->kind == RemoteUrl::Kind::Ssh) {
        listing = listSshFolder(*parsed);
        groupRuns(listing);
        return listing;
    }
    if (parsed->kind == RemoteUrl::Kind::Http) {
        listing.error = "a web server has no folder listing Warpscope can read; open the trace's own URL: " + shown;
        return listing;
    }
    return listS3Style(*parsed, shown, pageSize);
}

} // namespace ws
