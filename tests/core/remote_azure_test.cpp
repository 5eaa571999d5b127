// Azure Blob Storage remote traces against Azurite (Microsoft's emulator, from the npm registry,
// installed by ./test.sh into the build's test-servers folder; skipped where absent): Shared Key
// signing from AZURE_STORAGE_CONNECTION_STRING (blobs uploaded by tests/remote/azure_put.py, an
// independent Python signer), a wrong key, a missing blob, and a container folder listed across
// pages and opened as a job.
#include "import/job_files.h"
#include "import/trace_import.h"
#include "remote/azure_shared_key.h"
#include "remote/remote_fetch.h"
#include "remote/remote_listing.h"
#include "remote_test_support.h"
#include "test_util.h"

#include <cstdlib>
#include <unistd.h>

using namespace ws;
using namespace ws::test;

namespace {

const std::string kAzurite = std::string(WARPSCOPE_TEST_SERVERS_DIR) + "/node_modules/.bin/azurite-blob";
// Azurite's documented development account.
const std::string kAccount = "devstoreaccount1";
const std::string kKey = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

LoopbackServer azurite(const std::string& dir, int port) {
    return LoopbackServer({kAzurite, "--blobHost", "127.0.0.1", "--blobPort", std::to_string(port), "--location", dir,
                           "--silent", "--skipApiVersionCheck"},
                          port);
}

} // namespace

TEST(AzureSharedKey, StringToSignFollowsTheCanonicalForm) {
    EXPECT_EQ(azureStringToSign("acct", "GET", "https://acct.blob.core.windows.net/c/dir/b%20x.json?restype=container&comp=list&prefix=dir%2F",
                                "bytes=10-", "Mon, 01 Jan 2024 00:00:00 GMT", "2021-08-06"),
              "GET\n\n\n\n\n\n\n\n\n\n\nbytes=10-\nx-ms-date:Mon, 01 Jan 2024 00:00:00 GMT\nx-ms-version:2021-08-06\n"
              "/acct/c/dir/b%20x.json\ncomp:list\nprefix:dir/\nrestype:container");
    EXPECT_TRUE(azureSharedKeyHeaders({"acct", "not base64 !"}, "GET", "https://acct.blob.core.windows.net/c/b", "").size() <= 3);
}

TEST(RemoteAzure, SharedKeyDownloadsListsAndOpensAJob) {
    if (::access(kAzurite.c_str(), X_OK) != 0 || std::system("curl --version > /dev/null 2>&1") != 0 ||
        std::system("python3 -c 'import hmac' > /dev/null 2>&1") != 0)
        GTEST_SKIP() << "Azurite, curl or python3 is not installed (./test.sh installs them)";
    const std::string base = tempDir() / "remote_azure";
    std::system(("rm -rf '" + base + "' && mkdir -p '" + base + "/data' '" + base + "/cache'").c_str());
    const int port = freeLoopbackPort();
    const LoopbackServer server = azurite(base + "/data", port);
    const std::string endpoint = "http://127.0.0.1:" + std::to_string(port) + "/" + kAccount;
    const std::vector<std::string> workers = {"worker0_step_12.1694128201545.pt.trace.json.gz",
                                              "worker1_step_12.1694128201556.pt.trace.json.gz"};
    std::string put = "python3 '" + std::string(WARPSCOPE_TEST_DATA_DIR) + "/../remote/azure_put.py' " + endpoint + " " +
                      kAccount + " '" + kKey + "' traces";
    for (const std::string& w : workers)
        put += " 'job/run1/" + w + "=" + dataPath("dlrm_8ranks/" + w) + "'";
    put += " 'job/notes.txt=" + dataPath("dlrm_8ranks/" + workers[0]) + "'";
    ASSERT_EQ(std::system(put.c_str()), 0);
    const std::string connection = "DefaultEndpointsProtocol=http;AccountName=" + kAccount + ";AccountKey=" + kKey +
                                   ";BlobEndpoint=" + endpoint + ";";
    ::setenv("AZURE_STORAGE_CONNECTION_STRING", connection.c_str(), 1);
    ::setenv("WARPSCOPE_REMOTE_CACHE", (base + "/cache").c_str(), 1);

    const std::string blob = "az://" + kAccount + "/traces/job/run1/" + workers[1];
    const ImportResult remote = importTraceFile(blob);
    ASSERT_TRUE(remote.session) << remote.error;
    EXPECT_EQ(remote.textBytes, importTraceFile(dataPath("dlrm_8ranks/" + workers[1])).textBytes);
    EXPECT_TRUE(fetchRemoteObject(blob).fromCache);

    RemoteFetchResult r = fetchRemoteObject("az://" + kAccount + "/traces/job/missing.json");
    EXPECT_NE(r.error.find("no such object"), std::string::npos) << r.error;

    const RemoteListing listing = listRemoteFolder("az://" + kAccount + "/traces/job/", 2);
    ASSERT_TRUE(listing.error.empty()) << listing.error;
    EXPECT_EQ(listing.objects.size(), 3u);
    EXPECT_EQ(listing.pages, 2); // two blobs per page
    ASSERT_EQ(listing.runs.size(), 1u);
    EXPECT_EQ(listing.runs[0].prefix, "job/run1/");
    std::string error;
    const std::vector<std::string> files = expandJobInputs({"az://" + kAccount + "/traces/job/"}, &error);
    ASSERT_EQ(files.size(), 2u) << error;
    EXPECT_EQ(files[0].substr(files[0].rfind('/') + 1), workers[0]);

    const std::string wrong = "DefaultEndpointsProtocol=http;AccountName=" + kAccount + ";AccountKey=AAAA" + kKey +
                              ";BlobEndpoint=" + endpoint + ";";
    ::setenv("AZURE_STORAGE_CONNECTION_STRING", wrong.c_str(), 1);
    r = fetchRemoteObject("az://" + kAccount + "/traces/job/run1/" + workers[0], cacheAt(base + "/cache2"));
    EXPECT_NE(r.error.find("access denied"), std::string::npos) << r.error;
    EXPECT_NE(r.error.find("AZURE_STORAGE_CONNECTION_STRING"), std::string::npos) << r.error;
    EXPECT_EQ(r.error.find(kKey), std::string::npos);
    // The endpoint without a key: an anonymous request to a private container.
    ::setenv("AZURE_STORAGE_CONNECTION_STRING", ("BlobEndpoint=" + endpoint + ";").c_str(), 1);
    r = fetchRemoteObject("az://" + kAccount + "/traces/job/run1/" + workers[0], cacheAt(base + "/cache3"));
    EXPECT_NE(r.error.find("no Azure credentials"), std::string::npos) << r.error;
    ::unsetenv("AZURE_STORAGE_CONNECTION_STRING");
    ::unsetenv("WARPSCOPE_REMOTE_CACHE");
}
