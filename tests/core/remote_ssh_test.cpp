// ssh:// objects and folders (issue #26, File > Open Remote Folder (SSH)) through the same fetch and
// listing code as the clouds'. ssh is tests/remote/fake_ssh (WARPSCOPE_SSH), a stand-in that runs
// the remote command here with sh, so the commands Warpscope sends (stat, tail -c, find) really run;
// the real OpenSSH client and a loopback sshd are exercised by the remote capture tests, which build
// their command line with the same remote::sshCommand().

#include "test_util.h"

#include "remote/remote_fetch.h"
#include "remote/remote_listing.h"
#include "remote/remote_url.h"

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

namespace ws {
namespace {

namespace fs = std::filesystem;

class RemoteSsh : public ::testing::Test {
protected:
    void SetUp() override {
        ::setenv("WARPSCOPE_SSH", WARPSCOPE_FAKE_SSH, 1);
        root = test::tempDir() / "ssh_remote";
        fs::remove_all(root);
        fs::create_directories(root / "runs/a");
        fs::create_directories(root / "runs/b");
        cache = (root / "cache").string();
        for (const char* f : {"runs/a/rank0.pt.trace.json", "runs/a/rank1.pt.trace.json", "runs/b/host-7.wscap"})
            std::ofstream(root / f) << "{\"traceEvents\": []}\n";
        std::ofstream(root / "runs/a/notes.txt") << "not a trace\n";
    }
    void TearDown() override { ::unsetenv("WARPSCOPE_SSH"); }
    std::string url(const std::string& path) const { return "ssh://gpu7" + (root / path).string(); }
    RemoteFetchResult fetch(const std::string& u) const {
        RemoteFetchOptions o;
        o.cacheDir = cache;
        return fetchRemoteObject(u, o);
    }
    fs::path root;
    std::string cache;
};

TEST(RemoteSshUrl, FormsOfTheUrl) {
    std::string why;
    auto u = parseRemoteUrl("ssh://alice@gpu7:2222/data/run1/", {}, &why);
    ASSERT_TRUE(u) << why;
    EXPECT_EQ(u->kind, RemoteUrl::Kind::Ssh);
    EXPECT_EQ(u->account, "alice@gpu7");
    EXPECT_EQ(u->port, 2222);
    EXPECT_EQ(u->key, "/data/run1/");
    EXPECT_TRUE(u->isPrefix());
    u = parseRemoteUrl("ssh://gpu7/~/runs/t.json", {}, &why);
    ASSERT_TRUE(u) << why;
    EXPECT_EQ(u->key, "~/runs/t.json");
    EXPECT_FALSE(u->isPrefix());
    EXPECT_TRUE(isRemoteUrl("ssh://gpu7/x"));
    EXPECT_FALSE(parseRemoteUrl("ssh://gpu7", {}, &why));
    EXPECT_FALSE(parseRemoteUrl("ssh://gpu7:port/x", {}, &why));
}

TEST_F(RemoteSsh, AFileIsFetchedOnceAndAgainWhenItChanges) {
    const std::string u = url("runs/a/rank0.pt.trace.json");
    RemoteFetchResult r = fetch(u);
    ASSERT_TRUE(r.error.empty()) << r.error;
    EXPECT_FALSE(r.fromCache);
    EXPECT_EQ(test::readFile(r.localPath), "{\"traceEvents\": []}\n");
    r = fetch(u);
    EXPECT_TRUE(r.fromCache) << r.error;
    // Changed (size and time): fetched again.
    std::this_thread::sleep_for(std::chrono::milliseconds(1100));
    std::ofstream(root / "runs/a/rank0.pt.trace.json") << "{\"traceEvents\": [{}]}\n";
    r = fetch(u);
    ASSERT_TRUE(r.error.empty()) << r.error;
    EXPECT_FALSE(r.fromCache);
    EXPECT_EQ(test::readFile(r.localPath), "{\"traceEvents\": [{}]}\n");
}

TEST_F(RemoteSsh, AnInterruptedFetchResumesWhereItStopped) {
    const std::string u = url("runs/a/rank1.pt.trace.json");
    RemoteFetchResult r = fetch(u);
    ASSERT_TRUE(r.error.empty()) << r.error;
    // As if the download had stopped after 5 bytes: the cache holds the `.part` of this version.
    const fs::path dir = fs::path(r.localPath).parent_path();
    fs::remove(r.localPath);
    fs::remove(dir / "meta");
    std::ofstream(r.localPath + ".part") << "{\"tra";
    std::ofstream(dir / "meta.part") << "etag " << r.etag << "\nurl " << u << "\n";
    r = fetch(u);
    ASSERT_TRUE(r.error.empty()) << r.error;
    EXPECT_EQ(r.resumes, 1);
    EXPECT_EQ(test::readFile(r.localPath), "{\"traceEvents\": []}\n");
}

TEST_F(RemoteSsh, CancelLeavesNothingHalfWritten) {
    RemoteFetchOptions o;
    o.cacheDir = cache;
    o.progress = [](uint64_t, int64_t) { return false; };
    const RemoteFetchResult r = fetchRemoteObject(url("runs/a/rank1.pt.trace.json"), o);
    EXPECT_TRUE(r.cancelled);
    for (const auto& e : fs::recursive_directory_iterator(cache))
        EXPECT_NE(e.path().extension(), ".part") << e.path();
}

TEST_F(RemoteSsh, FailuresSayWhatHappened) {
    RemoteFetchResult r = fetch(url("runs/missing.json"));
    EXPECT_NE(r.error.find("no such file or folder on gpu7"), std::string::npos) << r.error;
    r = fetch("ssh://unreachable/data/t.json");
    EXPECT_NE(r.error.find("cannot reach unreachable"), std::string::npos) << r.error;
    const RemoteListing l = listRemoteFolder("ssh://gpu7" + (root / "nothere").string() + "/");
    EXPECT_NE(l.error.find("no such file or folder on gpu7"), std::string::npos) << l.error;
}

TEST_F(RemoteSsh, AFolderListsItsRunsLikeABucket) {
    const RemoteListing l = listRemoteFolder(url("runs/"));
    ASSERT_TRUE(l.error.empty()) << l.error;
    EXPECT_EQ(l.objects.size(), 4u);
    ASSERT_EQ(l.runs.size(), 2u);
    EXPECT_EQ(l.runs[0].prefix, (root / "runs/a").string() + "/");
    ASSERT_EQ(l.runs[0].workers.size(), 2u); // notes.txt is no trace
    EXPECT_EQ(l.runs[0].workers[1].url, url("runs/a/rank1.pt.trace.json"));
    EXPECT_EQ(l.runs[1].workers.size(), 1u);
    // Each listed object opens through its URL.
    const RemoteFetchResult r = fetch(l.runs[1].workers[0].url);
    EXPECT_TRUE(r.error.empty()) << r.error;
}

} // namespace
} // namespace ws
