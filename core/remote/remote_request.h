#pragma once

#include "remote/http_client.h"
#include "remote/remote_url.h"

#include <string>
#include <string_view>

namespace ws {

/*
 * What every request to one remote store needs: the parsed URL, the authentication the store's
 * credentials give (aws_credentials.h for S3; azure_shared_key.h or a SAS token in the URL for
 * Azure; gcs_credentials.h for GCS), and for messages where the credentials came from. Shared by downloads (remote_fetch.h) and listings
 * (remote_listing.h).
 */
struct RemoteRequest {
    RemoteUrl url;
    HttpAuth auth;
    std::string credentialNote; // where the credentials came from, or where we looked; never a secret
    bool signedRequest = false;
    std::string error; // credentials were named but cannot be used (bad key file, token refused)
};

// Endpoints from the environment: AWS_ENDPOINT_URL(_S3) and the AWS region, a connection string's
// BlobEndpoint (Azurite), STORAGE_EMULATOR_HOST (GCS emulators).
RemoteEndpoints remoteEndpointsFromEnvironment();
RemoteRequest prepareRemoteRequest(const RemoteUrl& url);
// What to tell the user for an HTTP failure (status, the store's XML error document), naming the
// redacted URL `shown`: missing object or bucket, access denied and where credentials came from,
// expired credentials.
// The text of the first <tag>...</tag> in an S3/GCS/Azure XML document (error documents,
// listings), entities decoded; "" when absent.
std::string xmlElementText(std::string_view xml, std::string_view tag);
std::string remoteHttpMessage(long status, const std::string& body, const RemoteRequest& request,
                              const std::string& shown);

} // namespace ws
