// Google Cloud Storage with a service account (issue #14): the key file named by
// GOOGLE_APPLICATION_CREDENTIALS signs a JWT that a local token endpoint (the test server's
// /token) checks with `openssl dgst -verify` against the public key, claim by claim, before it
// hands out a token; objects are then read with that Bearer token, the token is reused, and a
// wrong key, an anonymous request and a file that is no key each say what happened.
#include "import/trace_import.h"
#include "remote/gcs_credentials.h"
#include "remote/remote_fetch.h"
#include "remote_test_support.h"
#include "test_util.h"

#include <nlohmann/json.hpp>

#include <cstdlib>

using namespace ws;
using namespace ws::test;

namespace {

// An RSA key pair made by openssl: the private key PEM; the public one is written to `pub`.
std::string makeRsaKey(const std::string& dir, const std::string& name, std::string* pub) {
    const std::string key = dir + "/" + name + ".pem";
    *pub = dir + "/" + name + ".pub.pem";
    std::system(("openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out '" + key + "' 2>/dev/null && "
                 "openssl pkey -in '" + key + "' -pubout -out '" + *pub + "'").c_str());
    return readFile(key);
}

std::string writeKeyFile(const std::string& path, const std::string& email, const std::string& pem, const std::string& tokenUri) {
    const nlohmann::json key = {{"type", "service_account"}, {"project_id", "warpscope-test"},
                                {"private_key_id", "key-1"}, {"private_key", pem},
                                {"client_email", email}, {"token_uri", tokenUri}};
    std::ofstream(path) << key.dump(2);
    return path;
}

std::string decodeJwtPart(std::string part) {
    for (char& c : part)
        c = c == '-' ? '+' : c == '_' ? '/' : c;
    while (part.size() % 4)
        part += '=';
    const std::string in = tempDir() / "jwt_part.b64", out = tempDir() / "jwt_part.json";
    std::ofstream(in) << part;
    std::system(("base64 -d '" + in + "' > '" + out + "' 2>/dev/null").c_str());
    return readFile(out);
}

} // namespace

TEST(RemoteGcs, ServiceAccountTokenIsExchangedCheckedAndUsed) {
    if (!havePython() || std::system("openssl version > /dev/null 2>&1") != 0)
        GTEST_SKIP() << "python3 or openssl is not installed";
    const Dirs d = makeDirs("remote_gcs");
    const std::string keys = d.cache + "/../keys";
    std::system(("mkdir -p '" + keys + "' '" + d.root + "/bucket/run1'").c_str());
    std::string pub, otherPub;
    const std::string pem = makeRsaKey(keys, "sa", &pub);
    const std::string otherPem = makeRsaKey(keys, "other", &otherPub);
    ASSERT_NE(pem.find("PRIVATE KEY"), std::string::npos);
    copyFile(dataPath("nccl_data_rank0.json.gz"), d.root + "/bucket/run1/worker0.json.gz");
    copyFile(dataPath("cuda_event_sync_trace.json.gz"), d.root + "/bucket/run1/worker1.json.gz");
    TestServer server({d.root, "--token-key", pub});
    ASSERT_GT(server.port(), 0);
    const std::string tokenUri = server.url("/token");
    // Objects under /_auth/ need `Authorization: Bearer secret-token`, the endpoint's token.
    ::setenv("STORAGE_EMULATOR_HOST", server.url("/_auth").c_str(), 1);
    ::setenv("WARPSCOPE_REMOTE_CACHE", d.cache.c_str(), 1);

    // Anonymous: refused, and the message says where credentials would come from.
    ::unsetenv("GOOGLE_APPLICATION_CREDENTIALS");
    RemoteFetchResult r = fetchRemoteObject("gs://bucket/run1/worker0.json.gz");
    EXPECT_TRUE(r.localPath.empty());
    EXPECT_NE(r.error.find("access denied"), std::string::npos) << r.error;
    EXPECT_NE(r.error.find("GOOGLE_APPLICATION_CREDENTIALS"), std::string::npos) << r.error;

    // The right key: one token exchange, then the token is reused for the next object.
    ::setenv("GOOGLE_APPLICATION_CREDENTIALS",
             writeKeyFile(keys + "/sa.json", "reader@warpscope-test.iam.gserviceaccount.com", pem, tokenUri).c_str(), 1);
    const ImportResult imported = importTraceFile("gs://bucket/run1/worker0.json.gz");
    ASSERT_TRUE(imported.session) << imported.error;
    EXPECT_EQ(imported.textBytes, importTraceFile(dataPath("nccl_data_rank0.json.gz")).textBytes);
    r = fetchRemoteObject("gs://bucket/run1/worker1.json.gz");
    ASSERT_FALSE(r.localPath.empty()) << r.error;
    EXPECT_EQ(readFile(r.localPath), readFile(dataPath("cuda_event_sync_trace.json.gz")));
    nlohmann::json st = stats(server);
    ASSERT_EQ(st["assertions"].size(), 1u);
    // The assertion as Google specifies it (the server has checked its signature and claims).
    const std::string jwt = st["assertions"][0];
    const nlohmann::json header = nlohmann::json::parse(decodeJwtPart(jwt.substr(0, jwt.find('.'))), nullptr, false);
    EXPECT_EQ(header.value("alg", ""), "RS256");
    EXPECT_EQ(header.value("kid", ""), "key-1");
    const size_t second = jwt.find('.') + 1;
    const nlohmann::json claims =
        nlohmann::json::parse(decodeJwtPart(jwt.substr(second, jwt.find('.', second) - second)), nullptr, false);
    EXPECT_EQ(claims.value("iss", ""), "reader@warpscope-test.iam.gserviceaccount.com");
    EXPECT_EQ(claims.value("aud", ""), tokenUri);
    EXPECT_EQ(claims.value("exp", 0) - claims.value("iat", 0), 3600);

    // A key the endpoint does not know (another account signing with a different key): refused.
    ::setenv("GOOGLE_APPLICATION_CREDENTIALS",
             writeKeyFile(keys + "/other.json", "stranger@warpscope-test.iam.gserviceaccount.com", otherPem, tokenUri).c_str(), 1);
    r = fetchRemoteObject("gs://bucket/run1/worker0.json.gz", cacheAt(d.cache + "/fresh"));
    EXPECT_TRUE(r.localPath.empty());
    EXPECT_NE(r.error.find("refused the service account stranger@"), std::string::npos) << r.error;
    EXPECT_NE(r.error.find("bad signature"), std::string::npos) << r.error;
    EXPECT_EQ(r.error.find("PRIVATE"), std::string::npos) << r.error;

    // Not a key file.
    std::ofstream(keys + "/notakey.json") << "{\"type\": \"authorized_user\"}";
    ::setenv("GOOGLE_APPLICATION_CREDENTIALS", (keys + "/notakey.json").c_str(), 1);
    r = fetchRemoteObject("gs://bucket/run1/worker0.json.gz", cacheAt(d.cache + "/fresh"));
    EXPECT_NE(r.error.find("is not a service-account key file"), std::string::npos) << r.error;

    // No secret reached the cache: not the token, not the key.
    const std::string grep = tempDir() / "remote_gcs_grep.txt";
    std::system(("grep -rlE 'secret-token|PRIVATE KEY' '" + d.cache + "' > '" + grep + "'").c_str());
    EXPECT_EQ(readFile(grep), "");
    for (const char* v : {"GOOGLE_APPLICATION_CREDENTIALS", "STORAGE_EMULATOR_HOST", "WARPSCOPE_REMOTE_CACHE"})
        ::unsetenv(v);
}
