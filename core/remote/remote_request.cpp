#include "remote/remote_request.h"

#include "remote/aws_credentials.h"
#include "remote/azure_shared_key.h"
#include "remote/environment.h"
#include "remote/gcs_credentials.h"

#include <cstdlib>

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
        else if (!entity.empty() && entity[0] == '#') {
            const bool hex = entity.size() > 1 && entity[1] == 'x';
            out += static_cast<char>(std::strtol(std::string(entity.substr(hex ? 2 : 1)).c_str(), nullptr, hex ? 16 : 10));
        }
        else {
            out += '&';
            continue;
        }
        i = semi;
    }
    return out;
}

} // namespace

std::string xmlElementText(std::string_view s, std::string_view tag) {
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

// What to tell the user for an HTTP failure, with the kind of store in mind.
std::string remoteHttpMessage(long status, const std::string& body, const RemoteRequest& r, const std::string& shown) {
    const std::string code = xmlElementText(body, "Code");
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
        if (r.url.kind == RemoteUrl::Kind::AzureBlob && !r.signedRequest)
            return "access denied" + suffix + " and no Azure credentials were found (looked in " + r.credentialNote +
                   "); set AZURE_STORAGE_CONNECTION_STRING or put a SAS token in the URL";
        if (r.url.kind == RemoteUrl::Kind::AzureBlob)
            return "access denied" + suffix + ": the credentials from " + r.credentialNote + " may not read " + shown;
        if (r.url.kind == RemoteUrl::Kind::Gcs && !r.signedRequest)
            return "access denied" + suffix + " to anonymous requests, and no Google credentials were found (looked in " +
                   r.credentialNote + "); set GOOGLE_APPLICATION_CREDENTIALS to a service-account key file";
        if (r.url.kind == RemoteUrl::Kind::Gcs)
            return "access denied" + suffix + ": " + r.credentialNote + " may not read " + shown +
                   " (it needs storage.objects.get and storage.objects.list)";
        if (r.url.kind == RemoteUrl::Kind::S3)
            return "access denied" + suffix + ": the credentials from " + r.credentialNote +
                   " may not read " + shown + " (wrong key or secret, or no permission)";
        return "access denied (HTTP " + std::to_string(status) + ")" + suffix + ": " + shown +
               (r.url.kind == RemoteUrl::Kind::AzureBlob ? "; a SAS token with read permission in the URL grants access"
                                                         : std::string());
    }
    return "the server answered HTTP " + std::to_string(status) + suffix + " for " + shown;
}

RemoteRequest prepareRemoteRequest(const RemoteUrl& parsed) {
    RemoteRequest r;
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
    if (parsed.kind == RemoteUrl::Kind::Gcs) {
        const GcsAccess access = findGcsAccess();
        r.credentialNote = access.note;
        r.error = access.error;
        if (!access.anonymous && access.error.empty()) {
            r.signedRequest = true;
            r.auth.headers.push_back("Authorization: Bearer " + access.accessToken);
        }
    }
    if (parsed.kind == RemoteUrl::Kind::AzureBlob) {
        if (parsed.httpUrl.find("sig=") != std::string::npos) {
            r.signedRequest = true;
            r.credentialNote = "the SAS token in the URL";
            return r;
        }
        // A connection string (AccountName + AccountKey), else AZURE_STORAGE_ACCOUNT + AZURE_STORAGE_KEY.
        AzureSharedKey key;
        const std::string connection = environmentValue("AZURE_STORAGE_CONNECTION_STRING");
        auto field = [&](std::string_view name) { return connectionStringField(connection, name); };
        if (!field("AccountKey").empty()) {
            key = {field("AccountName"), field("AccountKey")};
            r.credentialNote = "AZURE_STORAGE_CONNECTION_STRING";
        } else if (!environmentValue("AZURE_STORAGE_KEY").empty()) {
            key = {environmentValue("AZURE_STORAGE_ACCOUNT"), environmentValue("AZURE_STORAGE_KEY")};
            r.credentialNote = "AZURE_STORAGE_ACCOUNT/AZURE_STORAGE_KEY";
        }
        if (!key.key.empty() && (key.account.empty() || key.account == parsed.account)) {
            key.account = parsed.account;
            r.signedRequest = true;
            r.auth.signer = [key](const std::string& method, const std::string& url, const std::string& range) {
                return azureSharedKeyHeaders(key, method, url, range);
            };
        } else {
            r.credentialNote = "AZURE_STORAGE_CONNECTION_STRING, AZURE_STORAGE_ACCOUNT/AZURE_STORAGE_KEY, a SAS token in the URL";
        }
    }
    return r;
}

RemoteEndpoints remoteEndpointsFromEnvironment() {
    RemoteEndpoints e;
    const AwsSettings aws = findAwsSettings();
    e.s3Endpoint = aws.endpoint;
    e.s3Region = aws.region;
    // Azurite and other emulators: the connection string's BlobEndpoint.
    e.azureEndpoint = connectionStringField(environmentValue("AZURE_STORAGE_CONNECTION_STRING"), "BlobEndpoint");
    if (const std::string host = environmentValue("STORAGE_EMULATOR_HOST"); !host.empty())
        e.gcsEndpoint = host.rfind("http", 0) == 0 ? host : "http://" + host;
    return e;
}

} // namespace ws
