#pragma once

#include <string>
#include <vector>

namespace ws {

/*
 * Azure Storage Shared Key authorization (learn.microsoft.com "Authorize with Shared Key"): each
 * request carries x-ms-date, x-ms-version and `Authorization: SharedKey ACCOUNT:SIGNATURE`, the
 * signature being HMAC-SHA256 (OpenSSL) with the base64-decoded account key over the verb, the
 * standard headers (only Range is ever set here), the x-ms-* headers and the canonicalized resource
 * "/ACCOUNT/PATH" plus the sorted query parameters. The key never leaves this function.
 */
struct AzureSharedKey {
    std::string account;
    std::string key; // base64, as the portal and connection strings give it
};

// The headers that authorize one request; empty when the key is not valid base64.
std::vector<std::string> azureSharedKeyHeaders(const AzureSharedKey& credentials, const std::string& method,
                                               const std::string& url, const std::string& range);
// The string the signature is computed over, for tests.
std::string azureStringToSign(const std::string& account, const std::string& method, const std::string& url,
                              const std::string& range, const std::string& date, const std::string& version);

} // namespace ws
