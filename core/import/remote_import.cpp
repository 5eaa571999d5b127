#include "import/remote_import.h"

#include "import/chrome_json_importer.h"
#include "io/growing_file.h"
#include "io/input_stream.h"
#include "io/usable_cores.h"

#include <algorithm>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <thread>

namespace ws {

ImportResult importRemoteTrace(const std::string& url, const ImportControl& control, RemoteFetchResult* fetchedOut) {
    // The download thread publishes the growing file here once it knows where the bytes go.
    std::mutex mutex;
    std::condition_variable ready;
    std::shared_ptr<GrowingFile> growing;
    std::string objectPath;
    bool over = false;

    RemoteFetchOptions options;
    options.progress = [&control](uint64_t, int64_t) { return !(control.cancel && control.cancel->load()); };
    options.downloadStarts = [&](const std::string& part, const std::string& object, int64_t size) {
        std::lock_guard lock(mutex);
        growing = std::make_shared<GrowingFile>(part, size);
        objectPath = object;
        ready.notify_all();
    };
    options.written = [&](uint64_t bytes) { growing->grew(bytes); };
    RemoteFetchResult fetched;
    std::thread download([&] {
        fetched = fetchRemoteObject(url, options);
        std::lock_guard lock(mutex);
        over = true;
        if (growing)
            growing->finish();
        ready.notify_all();
    });
    {
        std::unique_lock lock(mutex);
        ready.wait(lock, [&] { return growing || over; });
    }

    ImportResult result;
    bool streamed = false;
    if (growing) {
        // The first text (inflated if compressed) shows whether this is a JSON trace, the one
        // format that is read front to back; reading it waits for the bytes.
        InputStream head;
        char text[4096];
        const size_t got = head.open(objectPath, growing) ? head.read(text, sizeof text) : 0;
        if (looksLikeJsonText(text, got)) {
            ImportControl streaming = control;
            streaming.growing = growing;
            // The download needs a core of its own (libcurl, and on loopback the server too).
            if (streaming.threads == 0)
                streaming.threads = std::max(1u, usableCores() - 1);
            result = importChromeJson(objectPath, streaming); // sources resolve to the finished file
            streamed = true;
        }
    }
    download.join();
    if (fetchedOut)
        *fetchedOut = fetched;
    if (fetched.localPath.empty()) { // what was parsed of a failed download is not the object
        ImportResult failed;
        failed.error = fetched.error;
        failed.cancelled = fetched.cancelled || result.cancelled;
        return failed;
    }
    if (streamed && !growing->restarted())
        return result;
    return importTraceFile(fetched.localPath, control);
}

} // namespace ws
