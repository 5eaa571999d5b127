#include "import/json_record_reader.h"

#include "import/input_stream.h"
#include "model/import_report.h"

#include <algorithm>
#include <cstring>

namespace ws {

JsonRecordReadResult readJsonRecords(const std::string& path, const std::vector<std::string>& paths,
                                     const ImportControl& control, ImportReport& report,
                                     const std::function<bool(const JsonRecord&)>& onRecord) {
    JsonRecordReadResult r;
    InputStream in;
    if (!in.open(path, control.growing)) {
        r.error = in.error();
        return r;
    }
    r.opened = true;
    JsonRecordScanner scanner;
    for (const std::string& p : paths)
        scanner.want(p);
    size_t capacity = control.blockBytes ? std::max<size_t>(control.blockBytes, 64) : size_t(4) << 20;
    std::vector<char> buf(capacity + kRecordPadding, ' ');
    std::vector<JsonRecordScanner::Span> spans;
    size_t len = 0;
    uint64_t base = 0; // text offset of buf[0]
    bool eof = false, stopped = false;
    while (!eof && !stopped && !scanner.failed()) {
        if (control.cancel && control.cancel->load()) {
            r.cancelled = true;
            return r;
        }
        const size_t got = in.read(buf.data() + len, capacity - len);
        r.textBytes += got;
        eof = got == 0;
        scanner.scan(buf.data(), len, len + got, spans);
        len += got;
        std::memset(buf.data() + len, ' ', kRecordPadding); // what simdjson may read past a record
        for (const JsonRecordScanner::Span& s : spans) {
            ++r.records;
            if (!onRecord({std::string_view(buf.data() + s.begin, s.end - s.begin), s.path, s.outerIndex,
                           base + s.begin})) {
                stopped = true;
                break;
            }
        }
        spans.clear();
        const size_t keep = std::min(scanner.openStart(), len); // a record still being read
        if (keep == 0 && len == capacity) {
            capacity *= 2; // one record larger than the block
            buf.resize(capacity + kRecordPadding, ' ');
            continue;
        }
        std::memmove(buf.data(), buf.data() + keep, len - keep);
        len -= keep;
        base += keep;
        scanner.shift(keep);
        if (control.progress && in.fileSize() > 0)
            control.progress(0.8 * static_cast<double>(in.fileBytesConsumed()) / static_cast<double>(in.fileSize()));
    }
    r.firstKey = scanner.firstKey();
    if (scanner.failed()) {
        if (r.records == 0)
            r.error = "malformed JSON: " + scanner.error();
        else
            report.add("malformed JSON (the rest of the file is ignored)", scanner.error());
    } else if (!scanner.complete() && !stopped) {
        report.setTruncated("the file ends at byte " + std::to_string(scanner.position()) + ", inside the document; " +
                            std::to_string(r.records) + " complete records before the cut were imported");
    } else if (scanner.trailingGarbage()) {
        report.add("data after the end of the JSON document (ignored)");
    }
    if (in.truncated())
        report.setTruncated(in.error().empty() ? "the compressed stream ends early" : in.error());
    return r;
}

} // namespace ws
