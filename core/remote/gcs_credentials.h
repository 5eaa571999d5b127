#pragma once

#include <cstdint>
#include <string>

namespace ws {

/*
 * Google Cloud Storage credentials the way Google's client libraries find a service account,
 * never stored by Warpscope: the key file named by GOOGLE_APPLICATION_CREDENTIALS
 * ({"type": "service_account", "client_email", "private_key", "private_key_id", "token_uri"}).
 * The key signs a JWT (RS256, OpenSSL) that the key's token endpoint exchanges for an OAuth2
 * access token (RFC 7523 JWT bearer grant), sent as `Authorization: Bearer`. Tokens live in
 * memory only, reused until a minute before they expire. Without the variable requests go
 * anonymous, which public buckets allow.
 */
struct GcsServiceAccount {
    std::string email;
    std::string privateKeyPem;
    std::string keyId;
    std::string tokenUri;
    std::string keyFile; // where it came from, for messages
};

struct GcsAccess {
    bool anonymous = true;
    std::string accessToken;
    std::string note;  // where the credentials came from (or where we looked); never a secret
    std::string error; // the key file or the token exchange failed: what happened, what to do
};

// The OAuth2 scope asked for: reading objects and listings.
inline constexpr const char* kGcsReadScope = "https://www.googleapis.com/auth/devstorage.read_only";

// Reads a service-account key file; false with *error (one sentence) when it is not one.
bool readGcsServiceAccount(const std::string& keyFile, GcsServiceAccount* account, std::string* error);
// The signed assertion: base64url(header).base64url(claims).base64url(RS256 signature), with
// iss = the account, scope, aud = the token endpoint, iat = now, exp = now + 3600.
std::string makeGcsAssertion(const GcsServiceAccount& account, int64_t nowSeconds, std::string* error);
// Credentials for the next request: a (cached) access token, or anonymous access.
GcsAccess findGcsAccess();

} // namespace ws
