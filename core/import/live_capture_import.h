#pragma once

#include "import/capture_stream_converter.h"
#include "import/trace_import.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace ws {

namespace wscap {
class WscapReader;
}

/*
 * LiveCaptureImport: the Session of a capture folder that is still being written (issue #26: the
 * timeline live while it records), kept up to date by reading only what the streams gained.
 *
 * Each stream keeps its open reader and its CaptureStreamConverter between updates: update() reads
 * the records appended since the last update from where that one stopped (a record cut at the end
 * of what was written is read again once complete, WscapReader::resume) and feeds them to the same
 * converter, so reading and decoding cost O(new bytes). The streams are read side by side (each
 * converter has its own device slots; the merge numbers them as a sequential read would). The
 * Session is then built from finished copies of the converters (made side by side too) through
 * mergeCaptureStreams, the one-shot import's own merge: the live model holds the same records as
 * importCapture would read from the same bytes. That build (copy, merge, TraceBuilder::finish)
 * still costs O(records so far), a few hundred ns each, instead of the re-import's read, decode and
 * convert of every byte again. An update that finds nothing new (no byte, no stream, the same
 * skipped files) returns the last model without building it again.
 *
 * Streams are numbered in file-name order, as importCapture numbers them (argument references and
 * flow ids carry the number). A new stream whose name sorts before one already read starts the
 * reading over once (rare: a child process whose pid sorts lower). Compressed streams (.wscap.gz,
 * .zst) are finished files: read whole once. Not thread-safe: one thread calls update() at a time.
 */
class LiveCaptureImport {
public:
    explicit LiveCaptureImport(std::string directory);
    ~LiveCaptureImport();
    LiveCaptureImport(const LiveCaptureImport&) = delete;
    LiveCaptureImport& operator=(const LiveCaptureImport&) = delete;

    // Reads what arrived and returns the Session of everything read so far (no session and an
    // error while the folder holds no readable stream yet).
    ImportResult update(const ImportControl& control = {});

    // Bytes of complete records read from each stream so far (file name order): what the last
    // update's Session holds.
    std::vector<std::pair<std::string, uint64_t>> bytesRead() const;
    // How often reading started over (a stream appeared out of name order).
    int restarts() const { return m_restarts; }

private:
    struct Stream;
    void restart();
    bool addNewStreams(ImportReport& skipped);

    std::string m_dir;
    std::vector<std::unique_ptr<Stream>> m_streams;
    std::vector<std::string> m_unreadable; // files that could not be opened yet (retried)
    ImportResult m_last;       // the last update's model: returned again while nothing arrives
    std::string m_lastSkipped; // the streams it skipped (a change rebuilds the model)
    bool m_added = false;      // this update found a new stream
    int m_restarts = 0;
};

} // namespace ws
