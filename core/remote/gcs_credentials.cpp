#include "remote/gcs_credentials.h"

#include "remote/http_client.h"
#include "remote/remote_url.h"

#include <nlohmann/json.hpp>
#include <openssl/evp.h>
#include <openssl/pem.h>

#include <cstdlib>
#include <ctime>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>

namespace ws {

namespace {

std::string base64Url(const unsigned char* data, size_t size) {
    std::string out(4 * ((size + 2) / 3) + 1, '\0');
    const int n = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()), data, static_cast<int>(size));
    out.resize(static_cast<size_t>(n));
    while (!out.empty() && out.back() == '=')
        out.pop_back();
    for (char& c : out)
        c = c == '+' ? '-' : c == '/' ? '_' : c;
    return out;
}

std::string base64Url(const std::string& text) {
    return base64Url(reinterpret_cast<const unsigned char*>(text.data()), text.size());
}

// RS256: RSASSA-PKCS1-v1_5 over SHA-256 with the PEM private key.
bool signRs256(const std::string& pem, const std::string& data, std::string* signature) {
    std::unique_ptr<BIO, decltype(&BIO_free)> bio(BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size())), BIO_free);
    std::unique_ptr<EVP_PKEY, decltype(&EVP_PKEY_free)> key(
        bio ? PEM_read_bio_PrivateKey(bio.get(), nullptr, nullptr, nullptr) : nullptr, EVP_PKEY_free);
    std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> ctx(EVP_MD_CTX_new(), EVP_MD_CTX_free);
    size_t length = 0;
    if (!key || !ctx || EVP_DigestSignInit(ctx.get(), nullptr, EVP_sha256(), nullptr, key.get()) != 1 ||
        EVP_DigestSign(ctx.get(), nullptr, &length, reinterpret_cast<const unsigned char*>(data.data()), data.size()) != 1)
        return false;
    std::string out(length, '\0');
    if (EVP_DigestSign(ctx.get(), reinterpret_cast<unsigned char*>(out.data()), &length,
                       reinterpret_cast<const unsigned char*>(data.data()), data.size()) != 1)
        return false;
    out.resize(length);
    *signature = std::move(out);
    return true;
}

struct CachedToken {
    std::string token;
    int64_t expiresAt = 0;
};

} // namespace

bool readGcsServiceAccount(const std::string& keyFile, GcsServiceAccount* account, std::string* error) {
    std::ifstream in(keyFile);
    if (!in) {
        *error = "cannot read the key file " + keyFile + " named by GOOGLE_APPLICATION_CREDENTIALS";
        return false;
    }
    std::stringstream text;
    text << in.rdbuf();
    const nlohmann::json key = nlohmann::json::parse(text.str(), nullptr, false);
    auto field = [&](const char* name) {
        return key.is_object() && key.contains(name) && key[name].is_string() ? key[name].get<std::string>() : std::string();
    };
    if (!key.is_object() || field("type") != "service_account" || field("client_email").empty() ||
        field("private_key").empty()) {
        *error = keyFile + " (GOOGLE_APPLICATION_CREDENTIALS) is not a service-account key file: expected JSON with "
                           "\"type\": \"service_account\", client_email and private_key";
        return false;
    }
    account->email = field("client_email");
    account->privateKeyPem = field("private_key");
    account->keyId = field("private_key_id");
    account->tokenUri = field("token_uri").empty() ? "https://oauth2.googleapis.com/token" : field("token_uri");
    account->keyFile = keyFile;
    return true;
}

std::string makeGcsAssertion(const GcsServiceAccount& account, int64_t now, std::string* error) {
    nlohmann::json header = {{"alg", "RS256"}, {"typ", "JWT"}};
    if (!account.keyId.empty())
        header["kid"] = account.keyId;
    const nlohmann::json claims = {{"iss", account.email}, {"scope", kGcsReadScope}, {"aud", account.tokenUri},
                                   {"iat", now}, {"exp", now + 3600}};
    const std::string signingInput = base64Url(header.dump()) + "." + base64Url(claims.dump());
    std::string signature;
    if (!signRs256(account.privateKeyPem, signingInput, &signature)) {
        *error = "the private_key in " + account.keyFile + " is not a usable RSA key";
        return {};
    }
    return signingInput + "." + base64Url(reinterpret_cast<const unsigned char*>(signature.data()), signature.size());
}

GcsAccess findGcsAccess() {
    GcsAccess access;
    const char* keyFile = std::getenv("GOOGLE_APPLICATION_CREDENTIALS");
    if (!keyFile || !*keyFile) {
        access.note = "GOOGLE_APPLICATION_CREDENTIALS (not set: anonymous access, as public buckets allow)";
        return access;
    }
    GcsServiceAccount account;
    if (!readGcsServiceAccount(keyFile, &account, &access.error))
        return access;
    access.anonymous = false;
    access.note = "the service account " + account.email + " (GOOGLE_APPLICATION_CREDENTIALS)";

    static std::mutex mutex;
    static std::map<std::string, CachedToken> tokens; // by account and endpoint; memory only
    const std::string cacheKey = account.email + " " + account.tokenUri;
    const int64_t now = static_cast<int64_t>(std::time(nullptr));
    std::lock_guard lock(mutex);
    if (auto it = tokens.find(cacheKey); it != tokens.end() && it->second.expiresAt - 60 > now) {
        access.accessToken = it->second.token;
        return access;
    }
    const std::string assertion = makeGcsAssertion(account, now, &access.error);
    if (assertion.empty())
        return access;
    const HttpResponse r = HttpClient::post(account.tokenUri, "application/x-www-form-urlencoded",
                                            "grant_type=" + percentEncode("urn:ietf:params:oauth:grant-type:jwt-bearer", false) +
                                                "&assertion=" + assertion);
    const std::string endpoint = redactUrl(account.tokenUri);
    if (r.networkError) {
        access.error = "cannot reach the token endpoint " + endpoint + " for " + account.email + ": " + r.error;
        return access;
    }
    const nlohmann::json answer = nlohmann::json::parse(r.body, nullptr, false);
    const bool ok = r.status == 200 && answer.is_object() && answer.contains("access_token") && answer["access_token"].is_string();
    if (!ok) {
        // OAuth2 errors: {"error": "invalid_grant", "error_description": "..."}; never the body as a whole.
        std::string why = "HTTP " + std::to_string(r.status);
        if (answer.is_object() && answer.contains("error") && answer["error"].is_string())
            why += ", " + answer["error"].get<std::string>();
        if (answer.is_object() && answer.contains("error_description") && answer["error_description"].is_string())
            why += ": " + answer["error_description"].get<std::string>();
        access.error = "the token endpoint " + endpoint + " refused the service account " + account.email + " (" + why +
                       "); check that the key in " + account.keyFile + " is current and not deleted";
        return access;
    }
    const int64_t lifetime = answer.contains("expires_in") && answer["expires_in"].is_number_integer()
                                 ? answer["expires_in"].get<int64_t>()
                                 : 3600;
    tokens[cacheKey] = {answer["access_token"].get<std::string>(), now + lifetime};
    access.accessToken = tokens[cacheKey].token;
    return access;
}

} // namespace ws
