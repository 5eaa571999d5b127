// S3 remote traces against a real S3 server on loopback (s3rver from the npm registry, installed by
// ./test.sh into the build's test-servers folder; the test skips where it is absent): requests are
// signed with AWS SigV4 by libcurl with credentials from the environment, the object imports like
// the local file, and the errors of a wrong key, a missing key and a missing bucket say so.
#include "import/job_files.h"
#include "import/trace_import.h"
#include "remote/remote_fetch.h"
#include "remote/remote_listing.h"
#include "remote_test_support.h"
#include "test_util.h"

#include <atomic>
#include <fstream>
#include <cstdlib>
#include <unistd.h>

using namespace ws;
using namespace ws::test;

namespace {

const std::string kS3rver = std::string(WARPSCOPE_TEST_SERVERS_DIR) + "/node_modules/.bin/s3rver";

// s3rver makes continuation tokens with a cipher OpenSSL 3 keeps in its legacy provider.
LoopbackServer s3Server(const std::string& dir, int port) {
    return LoopbackServer({kS3rver, "-d", dir, "-a", "127.0.0.1", "-p", std::to_string(port), "--silent",
                           "--configure-bucket", "traces"},
                          port, {{"NODE_OPTIONS", "--openssl-legacy-provider"}});
}

} // namespace

TEST(RemoteS3, SignedRequestsImportAndErrorsNameTheProblem) {
    if (::access(kS3rver.c_str(), X_OK) != 0 || std::system("curl --version > /dev/null 2>&1") != 0)
        GTEST_SKIP() << "s3rver or curl is not installed (./test.sh installs them)";
    const std::string base = tempDir() / "remote_s3";
    std::system(("rm -rf '" + base + "' && mkdir -p '" + base + "/data' '" + base + "/cache'").c_str());
    const int port = freeLoopbackPort();
    const LoopbackServer server = s3Server(base + "/data", port);
    const std::string endpoint = "http://127.0.0.1:" + std::to_string(port);
    const std::string local = dataPath("nccl_data_rank0.json.gz");
    ASSERT_EQ(std::system(("curl -sf --aws-sigv4 aws:amz:us-east-1:s3 --user S3RVER:S3RVER -H "
                           "'x-amz-content-sha256: UNSIGNED-PAYLOAD' -T '" + local + "' " + endpoint +
                           "/traces/job%201/rank0.json.gz -o /dev/null")
                              .c_str()),
              0);
    ::setenv("AWS_ENDPOINT_URL", endpoint.c_str(), 1);
    ::setenv("AWS_ACCESS_KEY_ID", "S3RVER", 1);
    ::setenv("AWS_SECRET_ACCESS_KEY", "S3RVER", 1);
    ::setenv("AWS_REGION", "us-east-1", 1);
    ::setenv("WARPSCOPE_REMOTE_CACHE", (base + "/cache").c_str(), 1);

    const ImportResult remote = importTraceFile("s3://traces/job 1/rank0.json.gz");
    ASSERT_TRUE(remote.session) << remote.error;
    const ImportResult direct = importTraceFile(local);
    EXPECT_EQ(remote.textBytes, direct.textBytes);
    const RemoteFetchResult again = fetchRemoteObject("s3://traces/job 1/rank0.json.gz");
    EXPECT_TRUE(again.fromCache) << again.error;
    EXPECT_EQ(readFile(again.localPath), readFile(local));

    RemoteFetchResult r = fetchRemoteObject("s3://traces/job 1/missing.json");
    EXPECT_NE(r.error.find("no such object"), std::string::npos) << r.error;
    r = fetchRemoteObject("s3://nobucket/x.json");
    EXPECT_NE(r.error.find("no such bucket"), std::string::npos) << r.error;
    ::setenv("AWS_ACCESS_KEY_ID", "NOBODY", 1);
    ::setenv("AWS_SECRET_ACCESS_KEY", "not-the-secret", 1);
    r = fetchRemoteObject("s3://traces/job 1/rank0.json.gz", cacheAt(base + "/cache2"));
    EXPECT_NE(r.error.find("access denied (InvalidAccessKeyId)"), std::string::npos) << r.error;
    EXPECT_NE(r.error.find("the environment"), std::string::npos) << r.error; // where the key came from
    EXPECT_EQ(r.error.find("not-the-secret"), std::string::npos) << r.error;
    for (const char* v : {"AWS_ENDPOINT_URL", "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_REGION", "WARPSCOPE_REMOTE_CACHE"})
        ::unsetenv(v);
}

// A bucket folder lists across pages (1,005 log objects and the traces: more than S3's 1,000 keys
// per page) and groups into runs as torch-tb-profiler did; a run's folder opens as a job.
TEST(RemoteS3, FoldersListAcrossPagesAndOpenAsJobs) {
    if (::access(kS3rver.c_str(), X_OK) != 0 || std::system("curl --version > /dev/null 2>&1") != 0)
        GTEST_SKIP() << "s3rver or curl is not installed (./test.sh installs them)";
    const std::string base = tempDir() / "remote_s3_list";
    std::system(("rm -rf '" + base + "' && mkdir -p '" + base + "/data' '" + base + "/cache' '" + base + "/up'").c_str());
    const int port = freeLoopbackPort();
    const LoopbackServer server = s3Server(base + "/data", port);
    const std::string endpoint = "http://127.0.0.1:" + std::to_string(port);
    const std::string put = "curl -sf --aws-sigv4 aws:amz:us-east-1:s3 --user S3RVER:S3RVER -H "
                            "'x-amz-content-sha256: UNSIGNED-PAYLOAD' -o /dev/null ";
    for (int i = 1; i <= 1005; ++i)
        std::ofstream(base + "/up/log" + std::to_string(i) + ".txt") << i;
    ASSERT_EQ(std::system((put + "-T '" + base + "/up/log[1-1005].txt' " + endpoint + "/traces/job/logs/").c_str()), 0);
    const std::vector<std::string> workers = {"worker0_step_12.1694128201545.pt.trace.json.gz",
                                              "worker1_step_12.1694128201556.pt.trace.json.gz",
                                              "worker2_step_12.1694128201554.pt.trace.json.gz"};
    for (const std::string& w : workers)
        ASSERT_EQ(std::system((put + "-T '" + dataPath("dlrm_8ranks/" + w) + "' " + endpoint + "/traces/job/run1/" + w).c_str()), 0);
    ASSERT_EQ(std::system((put + "-T '" + dataPath("dlrm_8ranks/" + workers[0]) + "' " + endpoint + "/traces/job/run2/" + workers[0]).c_str()), 0);
    ::setenv("AWS_ENDPOINT_URL", endpoint.c_str(), 1);
    ::setenv("AWS_ACCESS_KEY_ID", "S3RVER", 1);
    ::setenv("AWS_SECRET_ACCESS_KEY", "S3RVER", 1);
    ::setenv("WARPSCOPE_REMOTE_CACHE", (base + "/cache").c_str(), 1);

    const RemoteListing all = listRemoteFolder("s3://traces/job/");
    ASSERT_TRUE(all.error.empty()) << all.error;
    EXPECT_EQ(all.objects.size(), 1009u);
    EXPECT_EQ(all.pages, 2); // 1,000 keys, then the rest
    ASSERT_EQ(all.runs.size(), 2u); // the logs are not traces
    EXPECT_EQ(all.runs[0].prefix, "job/run1/");
    EXPECT_EQ(all.runs[0].workers.size(), 3u);
    EXPECT_EQ(all.runs[1].prefix, "job/run2/");
    const RemoteListing small = listRemoteFolder("s3://traces/job/run1/", 2);
    EXPECT_EQ(small.objects.size(), 3u);
    EXPECT_EQ(small.pages, 2);

    std::string error;
    EXPECT_TRUE(expandJobInputs({"s3://traces/job/"}, &error).empty());
    EXPECT_NE(error.find("2 runs"), std::string::npos) << error;
    error.clear();
    const std::vector<std::string> files = expandJobInputs({"s3://traces/job/run1/"}, &error);
    ASSERT_EQ(files.size(), 3u) << error;
    for (size_t i = 0; i < files.size(); ++i) {
        EXPECT_EQ(files[i].substr(files[i].rfind('/') + 1), workers[i]); // rank order, by name
        EXPECT_EQ(readFile(files[i]), readFile(dataPath("dlrm_8ranks/" + workers[i])));
    }
    EXPECT_TRUE(expandJobInputs({"s3://traces/nothing-here/"}, &error).empty());
    EXPECT_NE(error.find("no trace files"), std::string::npos) << error;
    // Cancelled while the ranks download: nothing, and nothing half-written in the cache.
    ::setenv("WARPSCOPE_REMOTE_CACHE", (base + "/cache_cancel").c_str(), 1);
    const std::atomic<bool> stop{true};
    std::string progressUrl;
    EXPECT_TRUE(expandJobInputs({"s3://traces/job/run1/"}, &error, &stop,
                                [&](const std::string& url, uint64_t, int64_t) { progressUrl = url; })
                    .empty());
    EXPECT_NE(error.find("cancelled"), std::string::npos) << error;
    EXPECT_EQ(progressUrl.rfind("s3://traces/job/run1/", 0), 0u) << progressUrl;
    const std::string leftovers = tempDir() / "remote_s3_cancel_ls.txt";
    std::system(("find '" + base + "/cache_cancel' -type f -name 'worker*' > '" + leftovers + "'").c_str());
    EXPECT_EQ(readFile(leftovers), "");
    ::setenv("WARPSCOPE_REMOTE_CACHE", (base + "/cache").c_str(), 1);

    // Google Cloud Storage's XML API answers the same ListObjectsV2: a gs:// folder lists through it
    // (s3rver standing in for storage.googleapis.com, read anonymously as a public bucket is).
    for (const char* v : {"AWS_ENDPOINT_URL", "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"})
        ::unsetenv(v);
    ::unsetenv("GOOGLE_APPLICATION_CREDENTIALS");
    ::setenv("STORAGE_EMULATOR_HOST", endpoint.c_str(), 1);
    const RemoteListing gcs = listRemoteFolder("gs://traces/job/");
    ASSERT_TRUE(gcs.error.empty()) << gcs.error;
    EXPECT_EQ(gcs.objects.size(), 1009u);
    EXPECT_EQ(gcs.pages, 2);
    ASSERT_EQ(gcs.runs.size(), 2u);
    EXPECT_EQ(gcs.runs[0].workers[0].url, "gs://traces/job/run1/" + workers[0]);
    const std::vector<std::string> gcsFiles = expandJobInputs({"gs://traces/job/run2/"}, &error);
    ASSERT_EQ(gcsFiles.size(), 1u) << error;
    EXPECT_EQ(readFile(gcsFiles[0]), readFile(dataPath("dlrm_8ranks/" + workers[0])));
    for (const char* v : {"STORAGE_EMULATOR_HOST", "WARPSCOPE_REMOTE_CACHE"})
        ::unsetenv(v);
}

// A 300 MB object (issue #14's size) downloads whole and byte for byte, and reopens from the cache.
TEST(RemoteS3, A300MBObjectDownloadsWhole) {
    if (::access(kS3rver.c_str(), X_OK) != 0 || std::system("curl --version > /dev/null 2>&1") != 0)
        GTEST_SKIP() << "s3rver or curl is not installed (./test.sh installs them)";
    const std::string base = tempDir() / "remote_s3_large";
    std::system(("rm -rf '" + base + "' && mkdir -p '" + base + "/data' '" + base + "/cache'").c_str());
    const std::string object = base + "/big.bin";
    // Incompressible bytes: what goes over the wire really is 300 MB.
    ASSERT_EQ(std::system(("head -c 314572800 /dev/urandom > '" + object + "'").c_str()), 0);
    const int port = freeLoopbackPort();
    const LoopbackServer server = s3Server(base + "/data", port);
    const std::string endpoint = "http://127.0.0.1:" + std::to_string(port);
    ASSERT_EQ(std::system(("curl -sf --aws-sigv4 aws:amz:us-east-1:s3 --user S3RVER:S3RVER -H "
                           "'x-amz-content-sha256: UNSIGNED-PAYLOAD' -o /dev/null -T '" + object + "' " + endpoint +
                           "/traces/large/big.bin").c_str()),
              0);
    ::setenv("AWS_ENDPOINT_URL", endpoint.c_str(), 1);
    ::setenv("AWS_ACCESS_KEY_ID", "S3RVER", 1);
    ::setenv("AWS_SECRET_ACCESS_KEY", "S3RVER", 1);
    uint64_t lastDone = 0;
    RemoteFetchOptions o = cacheAt(base + "/cache");
    o.progress = [&](uint64_t done, int64_t) {
        lastDone = done;
        return true;
    };
    const RemoteFetchResult r = fetchRemoteObject("s3://traces/large/big.bin", o);
    ASSERT_FALSE(r.localPath.empty()) << r.error;
    EXPECT_EQ(r.bytes, 314572800u);
    EXPECT_EQ(lastDone, 314572800u);
    EXPECT_EQ(std::system(("cmp -s '" + object + "' '" + r.localPath + "'").c_str()), 0);
    const RemoteFetchResult again = fetchRemoteObject("s3://traces/large/big.bin", cacheAt(base + "/cache"));
    EXPECT_TRUE(again.fromCache);
    for (const char* v : {"AWS_ENDPOINT_URL", "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"})
        ::unsetenv(v);
    std::system(("rm -rf '" + base + "'").c_str()); // 600 MB of test files
}
