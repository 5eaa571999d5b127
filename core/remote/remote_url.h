#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace ws {

/*
 * RemoteUrl: a trace that lives in object storage or on a web server, as the user wrote it:
 *   s3://bucket/key                      Amazon S3, or an S3-compatible store (AWS_ENDPOINT_URL)
 *   gs://bucket/key                      Google Cloud Storage (XML API)
 *   az://account/container/blob          Azure Blob Storage
 *   https://ACCOUNT.blob.core.windows.net/container/blob[?SAS]
 *   https://host/path, http://host/path  a web server
 *   ssh://[user@]host[:port]/path        a file on a machine the user's own ssh reaches (issue #26);
 *                                        ssh://host/~/path is under the login's home
 * A key ending in '/' (or empty) names a prefix: the traces under it (issue #14).
 *
 * The URL the requests go to (httpUrl) is derived here and holds no secret of Warpscope's making;
 * a SAS token the user put in the URL stays in httpUrl, and redactUrl() takes it out of everything
 * shown or stored (messages, logs, recent files, session names).
 */
struct RemoteUrl {
    enum class Kind { Http, S3, Gcs, AzureBlob, Ssh };
    Kind kind = Kind::Http;
    std::string bucket;  // S3/GCS bucket; Azure container
    std::string key;     // object key / blob name, undecoded as written; ssh: the path (/abs or ~/rel)
    std::string account; // Azure storage account; ssh: the destination, [user@]host
    int port = 0;        // ssh: the port when the URL gives one
    std::string httpUrl; // where requests go (percent-encoded path; the SAS query kept for Azure)
    std::string region;  // S3 signing region
    bool pathStyle = false; // S3: endpoint/bucket/key (custom endpoints) rather than bucket.s3.region...
    bool isPrefix() const { return kind != Kind::Http && (key.empty() || key.back() == '/'); }
};

// Settings that change where an S3 or Azure URL points, taken from the environment by the caller.
struct RemoteEndpoints {
    std::string s3Endpoint;    // AWS_ENDPOINT_URL_S3 or AWS_ENDPOINT_URL, "" = AWS
    std::string s3Region;      // AWS_REGION / AWS_DEFAULT_REGION / the profile's, "" = us-east-1
    std::string azureEndpoint; // a connection string's BlobEndpoint (Azurite), "" = ACCOUNT.blob.core.windows.net
    std::string gcsEndpoint;   // STORAGE_EMULATOR_HOST style override, "" = storage.googleapis.com
};

// True for text that names a remote object rather than a local path.
bool isRemoteUrl(std::string_view text);
// Parses one of the forms above; nullopt with *error (one sentence) otherwise.
std::optional<RemoteUrl> parseRemoteUrl(std::string_view text, const RemoteEndpoints& endpoints, std::string* error);
// The text with every secret removed: a password in user info, and the values of query parameters
// that carry signatures or tokens (SAS `sig`, `X-Amz-Signature`, `X-Amz-Credential`,
// `X-Amz-Security-Token`, `token`, `access_token`, `key`, ...) become "REDACTED".
std::string redactUrl(std::string_view url);
// Percent-encodes all but RFC 3986's unreserved characters (and '/' when keepSlash), as SigV4 and
// Shared Key canonicalize: object keys in paths keep their slashes, query values do not.
std::string percentEncode(std::string_view text, bool keepSlash);
inline std::string encodeKey(std::string_view key) { return percentEncode(key, true); }

} // namespace ws
