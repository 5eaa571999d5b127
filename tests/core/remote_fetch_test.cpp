// Remote traces (issue #14, part): URL forms, secret redaction, AWS credential lookup, and downloads
// from a real HTTP(S) server on loopback (tests/remote/http_test_server.py, started and stopped
// here): import, the URL + ETag cache, resume after a dropped connection, cancel, errors, TLS.
#include "import/trace_import.h"
#include "remote/aws_credentials.h"
#include "remote/remote_fetch.h"
#include "remote/remote_url.h"
#include "remote_test_support.h"
#include "test_util.h"

#include <nlohmann/json.hpp>

#include <cstdlib>

using namespace ws;
using namespace ws::test;

TEST(RemoteUrl, ParsesEveryFormAndDerivesTheRequestUrl) {
    std::string why;
    RemoteEndpoints e;
    auto s3 = parseRemoteUrl("s3://runs/job 7/rank0.pt.trace.json.gz", e, &why);
    ASSERT_TRUE(s3) << why;
    EXPECT_EQ(s3->kind, RemoteUrl::Kind::S3);
    EXPECT_EQ(s3->bucket, "runs");
    EXPECT_EQ(s3->key, "job 7/rank0.pt.trace.json.gz");
    EXPECT_EQ(s3->httpUrl, "https://runs.s3.us-east-1.amazonaws.com/job%207/rank0.pt.trace.json.gz");
    EXPECT_FALSE(s3->isPrefix());
    e.s3Endpoint = "http://127.0.0.1:9000/";
    e.s3Region = "eu-west-1";
    s3 = parseRemoteUrl("s3://runs/logs/", e, &why);
    ASSERT_TRUE(s3);
    EXPECT_TRUE(s3->pathStyle);
    EXPECT_EQ(s3->region, "eu-west-1");
    EXPECT_EQ(s3->httpUrl, "http://127.0.0.1:9000/runs/logs/");
    EXPECT_TRUE(s3->isPrefix());

    const auto gs = parseRemoteUrl("gs://bucket/a/b.json", {}, &why);
    ASSERT_TRUE(gs);
    EXPECT_EQ(gs->httpUrl, "https://storage.googleapis.com/bucket/a/b.json");
    const auto az = parseRemoteUrl("az://acct/traces/w0.json", {}, &why);
    ASSERT_TRUE(az);
    EXPECT_EQ(az->account, "acct");
    EXPECT_EQ(az->bucket, "traces");
    EXPECT_EQ(az->httpUrl, "https://acct.blob.core.windows.net/traces/w0.json");
    const auto azHttps = parseRemoteUrl("https://acct.blob.core.windows.net/traces/w0.json?sv=1&sig=abc", {}, &why);
    ASSERT_TRUE(azHttps);
    EXPECT_EQ(azHttps->kind, RemoteUrl::Kind::AzureBlob);
    EXPECT_EQ(azHttps->key, "w0.json");
    EXPECT_EQ(azHttps->httpUrl, "https://acct.blob.core.windows.net/traces/w0.json?sv=1&sig=abc"); // SAS kept for requests

    EXPECT_FALSE(parseRemoteUrl("s3://", {}, &why));
    EXPECT_NE(why.find("no bucket"), std::string::npos);
    EXPECT_FALSE(parseRemoteUrl("az://acct", {}, &why));
    EXPECT_FALSE(parseRemoteUrl("ftp://x/y", {}, &why));
    EXPECT_TRUE(isRemoteUrl("HTTPS://x/y"));
    EXPECT_FALSE(isRemoteUrl("/data/s3://x"));
}

TEST(RemoteUrl, RedactionRemovesEverySecret) {
    EXPECT_EQ(redactUrl("https://a.blob.core.windows.net/c/b.json?sv=2022&se=2026&sp=r&sig=AbC%2Bd"),
              "https://a.blob.core.windows.net/c/b.json?sv=2022&se=2026&sp=r&sig=REDACTED");
    EXPECT_EQ(redactUrl("https://b.s3.amazonaws.com/k?X-Amz-Credential=AKIA%2F1&X-Amz-Signature=ff&X-Amz-Expires=60"),
              "https://b.s3.amazonaws.com/k?X-Amz-Credential=REDACTED&X-Amz-Signature=REDACTED&X-Amz-Expires=60");
    EXPECT_EQ(redactUrl("http://user:hunter2@host:8080/p?token=t1&a=b"), "http://user:REDACTED@host:8080/p?token=REDACTED&a=b");
    EXPECT_EQ(redactUrl("s3://bucket/key"), "s3://bucket/key");
}

TEST(AwsCredentials, EnvironmentFirstThenTheProfileFiles) {
    const std::string dir = tempDir() / "aws_profiles";
    std::system(("mkdir -p '" + dir + "'").c_str());
    std::ofstream(dir + "/credentials") << "[default]\naws_access_key_id = AKDEFAULT\naws_secret_access_key = s1\n"
                                           "[ci]\naws_access_key_id=AKCI\naws_secret_access_key=s2\naws_session_token=tok\n";
    std::ofstream(dir + "/config") << "[default]\nregion = us-west-2\n[profile ci]\nregion=eu-central-1\n"
                                      "endpoint_url = http://minio:9000\n";
    ::setenv("AWS_SHARED_CREDENTIALS_FILE", (dir + "/credentials").c_str(), 1);
    ::setenv("AWS_CONFIG_FILE", (dir + "/config").c_str(), 1);
    for (const char* v : {"AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_PROFILE", "AWS_REGION", "AWS_DEFAULT_REGION",
                          "AWS_ENDPOINT_URL", "AWS_ENDPOINT_URL_S3", "AWS_SESSION_TOKEN"})
        ::unsetenv(v);
    AwsSettings s = findAwsSettings();
    ASSERT_TRUE(s.credentials);
    EXPECT_EQ(s.credentials->accessKey, "AKDEFAULT");
    EXPECT_EQ(s.region, "us-west-2");
    ::setenv("AWS_PROFILE", "ci", 1);
    s = findAwsSettings();
    ASSERT_TRUE(s.credentials);
    EXPECT_EQ(s.credentials->accessKey, "AKCI");
    EXPECT_EQ(s.credentials->sessionToken, "tok");
    EXPECT_EQ(s.region, "eu-central-1");
    EXPECT_EQ(s.endpoint, "http://minio:9000");
    EXPECT_EQ(s.credentials->source.find("s2"), std::string::npos); // the source names a file, never a secret
    ::setenv("AWS_ACCESS_KEY_ID", "AKENV", 1);
    ::setenv("AWS_SECRET_ACCESS_KEY", "s3", 1);
    ::setenv("AWS_REGION", "ap-south-1", 1);
    s = findAwsSettings();
    EXPECT_EQ(s.credentials->accessKey, "AKENV");
    EXPECT_EQ(s.region, "ap-south-1");
    ::setenv("AWS_PROFILE", "nobody", 1);
    ::unsetenv("AWS_ACCESS_KEY_ID");
    s = findAwsSettings();
    EXPECT_FALSE(s.credentials);
    ASSERT_EQ(s.lookedAt.size(), 3u);
    EXPECT_NE(s.lookedAt[1].find("[nobody]"), std::string::npos);
    for (const char* v : {"AWS_SHARED_CREDENTIALS_FILE", "AWS_CONFIG_FILE", "AWS_PROFILE", "AWS_SECRET_ACCESS_KEY", "AWS_REGION"})
        ::unsetenv(v);
}

TEST(RemoteFetch, ImportsOverHttpAndReopensWithOneHeadRequest) {
    if (!havePython())
        GTEST_SKIP() << "python3 is not installed";
    const Dirs d = makeDirs("remote_http");
    copyFile(dataPath("nccl_data_rank0.json.gz"), d.root + "/rank0.json.gz");
    TestServer server({d.root});
    ASSERT_GT(server.port(), 0);
    ::setenv("WARPSCOPE_REMOTE_CACHE", d.cache.c_str(), 1);
    const ImportResult remote = importTraceFile(server.url("/rank0.json.gz"));
    const ImportResult local = importTraceFile(dataPath("nccl_data_rank0.json.gz"));
    ASSERT_TRUE(remote.session) << remote.error;
    ASSERT_TRUE(local.session);
    EXPECT_EQ(remote.session->tracks().size(), local.session->tracks().size());
    EXPECT_EQ(remote.textBytes, local.textBytes);

    RemoteFetchOptions o;
    o.cacheDir = d.cache;
    const RemoteFetchResult again = fetchRemoteObject(server.url("/rank0.json.gz"), o);
    EXPECT_TRUE(again.fromCache);
    EXPECT_FALSE(again.offline);
    EXPECT_EQ(again.localPath.substr(again.localPath.rfind('/') + 1), "rank0.json.gz"); // its own name
    const nlohmann::json st = stats(server);
    EXPECT_EQ(st["/rank0.json.gz"][0], 2); // a HEAD per open
    EXPECT_EQ(st["/rank0.json.gz"][1], 1); // one download

    // The object changes on the server: a new ETag, a new download.
    copyFile(dataPath("dlrm_8ranks/worker1_step_12.1694128201556.pt.trace.json.gz"), d.root + "/rank0.json.gz");
    const RemoteFetchResult changed = fetchRemoteObject(server.url("/rank0.json.gz"), o);
    EXPECT_FALSE(changed.fromCache);
    EXPECT_NE(changed.etag, again.etag);
    EXPECT_EQ(readFile(changed.localPath), readFile(d.root + "/rank0.json.gz"));

    // The server goes away: the stored copy still opens.
    server.stop();
    const RemoteFetchResult offline = fetchRemoteObject(server.url("/rank0.json.gz"), o);
    EXPECT_TRUE(offline.offline);
    EXPECT_EQ(offline.localPath, changed.localPath);
    ::unsetenv("WARPSCOPE_REMOTE_CACHE");
}

TEST(RemoteFetch, ResumesAfterTheServerDropsTheConnection) {
    if (!havePython())
        GTEST_SKIP() << "python3 is not installed";
    const Dirs d = makeDirs("remote_resume");
    writeRandom(d.root + "/big.bin", 24u << 20);
    TestServer server({d.root, "--drop-after", "3000000"});
    RemoteFetchOptions o;
    o.cacheDir = d.cache;
    uint64_t lastDone = 0;
    int64_t lastTotal = 0;
    o.progress = [&](uint64_t done, int64_t total) {
        lastDone = done;
        lastTotal = total;
        return true;
    };
    const RemoteFetchResult r = fetchRemoteObject(server.url("/big.bin"), o);
    ASSERT_FALSE(r.localPath.empty()) << r.error;
    EXPECT_GE(r.resumes, 1);
    EXPECT_EQ(r.bytes, 24u << 20);
    EXPECT_EQ(readFile(r.localPath), readFile(d.root + "/big.bin"));
    EXPECT_EQ(lastDone, 24u << 20);
    EXPECT_EQ(lastTotal, int64_t(24) << 20);
}

TEST(RemoteFetch, CancelMidwayLeavesNothingBehind) {
    if (!havePython())
        GTEST_SKIP() << "python3 is not installed";
    const Dirs d = makeDirs("remote_cancel");
    writeRandom(d.root + "/big.bin", 32u << 20);
    TestServer server({d.root});
    RemoteFetchOptions o;
    o.cacheDir = d.cache;
    o.progress = [](uint64_t done, int64_t) { return done < (4u << 20); };
    const RemoteFetchResult r = fetchRemoteObject(server.url("/big.bin"), o);
    EXPECT_TRUE(r.cancelled);
    EXPECT_TRUE(r.localPath.empty());
    // No object, no part file in the cache.
    const std::string leftovers = tempDir() / "remote_cancel_ls.txt";
    std::system(("find '" + d.cache + "' -type f -name 'big.bin*' > '" + leftovers + "'").c_str());
    EXPECT_EQ(readFile(leftovers), "");
}

TEST(RemoteFetch, ErrorsSayWhatHappenedAndKeepSecretsOut) {
    if (!havePython())
        GTEST_SKIP() << "python3 is not installed";
    const Dirs d = makeDirs("remote_errors");
    copyFile(dataPath("nccl_data_rank0.json.gz"), d.root + "/t.json.gz");
    TestServer server({d.root});
    RemoteFetchOptions o;
    o.cacheDir = d.cache;
    RemoteFetchResult r = fetchRemoteObject(server.url("/missing.json?sv=1&sig=TOPSECRET"), o);
    EXPECT_TRUE(r.localPath.empty());
    EXPECT_NE(r.error.find("no such object"), std::string::npos) << r.error;
    EXPECT_EQ(r.error.find("TOPSECRET"), std::string::npos) << r.error;
    EXPECT_NE(r.error.find("sig=REDACTED"), std::string::npos) << r.error;
    r = fetchRemoteObject(server.url("/_auth/t.json.gz"), o);
    EXPECT_NE(r.error.find("access denied (HTTP 401)"), std::string::npos) << r.error;
    // A successful download with a token in its URL: the cache holds no trace of the token.
    r = fetchRemoteObject(server.url("/t.json.gz?token=TOPSECRET"), o);
    ASSERT_FALSE(r.localPath.empty()) << r.error;
    const std::string grep = tempDir() / "remote_errors_grep.txt";
    std::system(("grep -rl TOPSECRET '" + d.cache + "' > '" + grep + "'").c_str());
    EXPECT_EQ(readFile(grep), "");
    server.stop();
    r = fetchRemoteObject(server.url("/other.json"), o);
    EXPECT_NE(r.error.find("could not connect"), std::string::npos) << r.error;
}

TEST(RemoteFetch, HttpsVerifiesTheServerAndTrustsAnExplicitCa) {
    if (!havePython() || std::system("openssl version > /dev/null 2>&1") != 0)
        GTEST_SKIP() << "python3 or openssl is not installed";
    const Dirs d = makeDirs("remote_tls");
    copyFile(dataPath("nccl_data_rank0.json.gz"), d.root + "/t.json.gz");
    const std::string cert = d.cache + "/../cert.pem", key = d.cache + "/../key.pem";
    ASSERT_EQ(std::system(("openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=127.0.0.1 -addext "
                           "subjectAltName=IP:127.0.0.1 -keyout '" + key + "' -out '" + cert + "' > /dev/null 2>&1")
                              .c_str()),
              0);
    TestServer server({d.root, "--tls", cert, key});
    RemoteFetchOptions o;
    o.cacheDir = d.cache;
    RemoteFetchResult r = fetchRemoteObject(server.url("/t.json.gz", true), o);
    EXPECT_TRUE(r.localPath.empty());
    EXPECT_NE(r.error.find("certificate"), std::string::npos) << r.error;
    ::setenv("WARPSCOPE_CA_FILE", cert.c_str(), 1);
    r = fetchRemoteObject(server.url("/t.json.gz", true), o);
    ::unsetenv("WARPSCOPE_CA_FILE");
    ASSERT_FALSE(r.localPath.empty()) << r.error;
    EXPECT_EQ(readFile(r.localPath), readFile(d.root + "/t.json.gz"));
}
