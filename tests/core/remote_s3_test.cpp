// S3 remote traces against a real S3 server on loopback (s3rver from the npm registry, installed by
// ./test.sh into the build's test-servers folder; the test skips where it is absent): requests are
// signed with AWS SigV4 by libcurl with credentials from the environment, the object imports like
// the local file, and the errors of a wrong key, a missing key and a missing bucket say so.
#include "import/job_files.h"
#include "import/trace_import.h"
#include "remote/remote_listing.h"
#include "remote/remote_fetch.h"
#include "test_util.h"

#include <arpa/inet.h>
#include <fstream>
#include <csignal>
#include <cstdlib>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

using namespace ws;
using namespace ws::test;

namespace {

const std::string kS3rver = std::string(WARPSCOPE_TEST_SERVERS_DIR) + "/node_modules/.bin/s3rver";

int freePort() {
    const int s = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ::bind(s, reinterpret_cast<sockaddr*>(&a), sizeof a);
    socklen_t len = sizeof a;
    ::getsockname(s, reinterpret_cast<sockaddr*>(&a), &len);
    ::close(s);
    return ntohs(a.sin_port);
}

class S3Server {
public:
    S3Server(const std::string& dir, int port) {
        m_pid = ::fork();
        if (m_pid == 0) {
            const std::string p = std::to_string(port);
            // s3rver makes continuation tokens with a cipher OpenSSL 3 keeps in its legacy provider.
            ::setenv("NODE_OPTIONS", "--openssl-legacy-provider", 1);
            ::execl(kS3rver.c_str(), "s3rver", "-d", dir.c_str(), "-a", "127.0.0.1", "-p", p.c_str(), "--silent",
                    "--configure-bucket", "traces", static_cast<char*>(nullptr));
            ::_exit(127);
        }
        // Ready when the port answers.
        for (int i = 0; i < 100 && std::system(("curl -s -o /dev/null http://127.0.0.1:" + std::to_string(port) + "/").c_str()) != 0; ++i)
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    ~S3Server() {
        ::kill(m_pid, SIGTERM);
        ::waitpid(m_pid, nullptr, 0);
    }

private:
    pid_t m_pid = -1;
};

} // namespace

TEST(RemoteS3, SignedRequestsImportAndErrorsNameTheProblem) {
    if (::access(kS3rver.c_str(), X_OK) != 0 || std::system("curl --version > /dev/null 2>&1") != 0)
        GTEST_SKIP() << "s3rver or curl is not installed (./test.sh installs them)";
    const std::string base = tempDir() / "remote_s3";
    std::system(("rm -rf '" + base + "' && mkdir -p '" + base + "/data' '" + base + "/cache'").c_str());
    const int port = freePort();
    S3Server server(base + "/data", port);
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
    r = fetchRemoteObject("s3://traces/job 1/rank0.json.gz", RemoteFetchOptions{base + "/cache2", {}});
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
    const int port = freePort();
    S3Server server(base + "/data", port);
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
    for (const char* v : {"AWS_ENDPOINT_URL", "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "WARPSCOPE_REMOTE_CACHE"})
        ::unsetenv(v);
}
