#include "store/session_store.h"

#include "store/source_archive.h"
#include "store/stored_results.h"

#include "model/event_text_reader.h"
#include "model/import_revision.h"
#include "io/usable_cores.h"
#include "model/gallop.h"
#include "model/json_members.h"
#include "model/json_numbers.h"
#include "model/session.h"
#include "io/column_codec.h"
#include "model/event_args_pack.h"
#include "io/file_fingerprint.h"
#include "store/snapshot_columns.h"
#include "io/sqlite_database.h"
#include "store/stored_event_text.h"
#include "warpscope_version.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <deque>
#include <future>
#include <iterator>
#include <limits>
#include <span>
#include <thread>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fcntl.h> // AT_FDCWD for renameat2
#include <unistd.h>
#include <unordered_map>

namespace ws {

namespace {

using json = nlohmann::json;

const char kSchema[] = R"sql(
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE processes(idx INTEGER PRIMARY KEY, pid INTEGER, pid_string INTEGER, pid_is_string INTEGER,
                       name INTEGER, labels INTEGER, sort_index INTEGER, has_sort_index INTEGER, device_id INTEGER);
CREATE TABLE categories(idx INTEGER PRIMARY KEY, name INTEGER, kind INTEGER);
CREATE TABLE tracks(idx INTEGER PRIMARY KEY, kind INTEGER, process INTEGER, tid INTEGER, tid_string INTEGER,
                    tid_is_string INTEGER, name INTEGER, sort_index INTEGER, has_sort_index INTEGER, gpu INTEGER,
                    lane_count INTEGER);
CREATE TABLE counters(idx INTEGER PRIMARY KEY, process INTEGER, name INTEGER, series INTEGER, category INTEGER);
CREATE TABLE frames(name INTEGER PRIMARY KEY, file INTEGER, line INTEGER, function INTEGER);
CREATE TABLE columns(owner TEXT, idx INTEGER, name TEXT, chunk INTEGER, data BLOB NOT NULL,
                     PRIMARY KEY(owner, idx, name, chunk)) WITHOUT ROWID;
CREATE TABLE event_args(first_rank INTEGER PRIMARY KEY, lengths BLOB NOT NULL, text BLOB NOT NULL);
)sql";

/* Writes the model's columns chunk by chunk through one prepared statement. */
class ColumnWriter {
public:
    // Held: the encoded chunks wait in memory until flush(), so that another thread encodes them
    // while this one writes something else through the connection (one writer at a time).
    enum class Mode { Insert, Hold };
    ColumnWriter(SqliteDatabase& db, int level, Mode mode = Mode::Insert)
        : m_stmt(db, "INSERT INTO columns(owner, idx, name, chunk, data) VALUES (?1, ?2, ?3, ?4, ?5)"), m_level(level),
          m_mode(mode) {}

    bool ok() const { return m_stmt.ok(); }

    // Inserts the held chunks (on the connection's thread).
    bool flush() {
        for (const Held& h : m_held)
            if (!insert(h.owner, h.idx, h.name, h.chunk, h.blob))
                return false;
        m_held.clear();
        return true;
    }

    bool int64s(const char* owner, int64_t idx, const char* name, std::span<const int64_t> v) {
        for (size_t c = 0, chunk = 0; c < v.size(); c += SessionStore::kRowsPerChunk, ++chunk) {
            const size_t n = std::min<size_t>(SessionStore::kRowsPerChunk, v.size() - c);
            if (!put(owner, idx, name, chunk, ColumnCodec::encodeInt64(v.subspan(c, n), m_level)))
                return false;
        }
        return true;
    }

    template <typename T> bool fixed(const char* owner, int64_t idx, const char* name, std::span<const T> v) {
        for (size_t c = 0, chunk = 0; c < v.size(); c += SessionStore::kRowsPerChunk, ++chunk) {
            const size_t n = std::min<size_t>(SessionStore::kRowsPerChunk, v.size() - c);
            if (!put(owner, idx, name, chunk, ColumnCodec::encode<T>(v.subspan(c, n), m_level)))
                return false;
        }
        return true;
    }

private:
    struct Held {
        const char* owner;
        int64_t idx;
        const char* name;
        size_t chunk;
        std::string blob;
    };

    bool put(const char* owner, int64_t idx, const char* name, size_t chunk, std::string&& blob) {
        if (m_mode == Mode::Hold) {
            m_held.push_back({owner, idx, name, chunk, std::move(blob)});
            return true;
        }
        return insert(owner, idx, name, chunk, blob);
    }

    bool insert(const char* owner, int64_t idx, const char* name, size_t chunk, const std::string& blob) {
        m_stmt.reset();
        m_stmt.bind(1, std::string_view(owner));
        m_stmt.bind(2, idx);
        m_stmt.bind(3, std::string_view(name));
        m_stmt.bind(4, static_cast<int64_t>(chunk));
        m_stmt.bindBlob(5, blob.data(), blob.size());
        m_stmt.step();
        return m_stmt.ok();
    }

    SqliteStatement m_stmt;
    int m_level;
    Mode m_mode;
    std::vector<Held> m_held;
};

/* Reads columns back, concatenating chunks in order; any damaged chunk fails the read. */
class ColumnReader {
public:
    explicit ColumnReader(SqliteDatabase& db)
        : m_stmt(db, "SELECT data FROM columns WHERE owner = ?1 AND idx = ?2 AND name = ?3 ORDER BY chunk") {}

    bool int64s(const char* owner, int64_t idx, const char* name, std::vector<int64_t>& out) {
        out.clear();
        std::vector<int64_t> part;
        return each(owner, idx, name, out, [&](std::string_view blob) {
            if (!ColumnCodec::decodeInt64(blob, part))
                return false;
            out.insert(out.end(), part.begin(), part.end());
            return true;
        });
    }

    template <typename T> bool fixed(const char* owner, int64_t idx, const char* name, std::vector<T>& out) {
        out.clear();
        std::vector<T> part;
        return each(owner, idx, name, out, [&](std::string_view blob) {
            if (!ColumnCodec::decode<T>(blob, part))
                return false;
            out.insert(out.end(), part.begin(), part.end());
            return true;
        });
    }

private:
    // The chunks are fetched first, so that `out` gets exactly the room their headers announce:
    // growing a column of millions of rows chunk by chunk, then shrinking it, touched about three
    // times its memory (the model stays resident, so it must not keep slack either).
    template <typename T, typename F>
    bool each(const char* owner, int64_t idx, const char* name, std::vector<T>& out, F&& f) {
        m_stmt.reset();
        m_stmt.bind(1, std::string_view(owner));
        m_stmt.bind(2, idx);
        m_stmt.bind(3, std::string_view(name));
        size_t blobs = 0;
        uint64_t rows = 0;
        while (m_stmt.step()) {
            if (blobs == m_blobs.size())
                m_blobs.emplace_back();
            m_blobs[blobs++].assign(m_stmt.blob(0));
            uint64_t n = 0;
            if (!ColumnCodec::rowCount(m_blobs[blobs - 1], n))
                return false;
            rows += n;
        }
        if (!m_stmt.ok())
            return false;
        if (rows > SessionStore::kRowsPerChunk * uint64_t(blobs))
            return false; // a damaged header: no reservation from it
        out.reserve(static_cast<size_t>(rows));
        for (size_t b = 0; b < blobs; ++b)
            if (!f(std::string_view(m_blobs[b])))
                return false;
        return true;
    }

    SqliteStatement m_stmt;
    std::vector<std::string> m_blobs; // the chunks of the column being read, reused
};

template <typename T> std::span<const T> span(const std::vector<T>& v) { return {v.data(), v.size()}; }

json reportToJson(const ImportReport& r) {
    json problems = json::array();
    for (const auto& p : r.problems())
        problems.push_back({{"kind", p.kind}, {"count", p.count}, {"examples", p.examples}, {"note", p.note}});
    return {{"truncated", r.truncated()}, {"problems", problems}};
}

ImportReport reportFromJson(const json& j) {
    ImportReport r;
    if (!j.is_object())
        return r;
    for (const auto& p : j.value("problems", json::array())) {
        const std::string kind = p.value("kind", "");
        if (p.value("note", false))
            r.addNote(kind, {}, p.value("count", uint64_t(0)));
        else
            r.add(kind, {}, p.value("count", uint64_t(0)));
        for (const auto& ex : p.value("examples", json::array()))
            if (ex.is_string())
                r.add(kind, ex.get<std::string>(), 0);
    }
    if (j.value("truncated", false))
        r.markTruncated();
    return r;
}

json devicesToJson(const std::vector<DeviceInfo>& devices) {
    json out = json::array();
    for (const DeviceInfo& d : devices) {
        json o = {{"id", d.id}, {"name", d.name}};
        if (d.totalGlobalMem)
            o["totalGlobalMem"] = *d.totalGlobalMem;
        if (d.numSms)
            o["numSms"] = *d.numSms;
        if (d.computeMajor)
            o["computeMajor"] = *d.computeMajor;
        if (d.computeMinor)
            o["computeMinor"] = *d.computeMinor;
        if (d.maxThreadsPerMultiprocessor)
            o["maxThreadsPerMultiprocessor"] = *d.maxThreadsPerMultiprocessor;
        out.push_back(o);
    }
    return out;
}

template <typename T> std::optional<T> optionalOf(const json& o, const char* key) {
    const std::optional<int64_t> v = jsonInteger(o, key, std::numeric_limits<T>::min(), std::numeric_limits<T>::max());
    return v ? std::optional<T>(static_cast<T>(*v)) : std::nullopt;
}

std::vector<DeviceInfo> devicesFromJson(const json& j) {
    std::vector<DeviceInfo> out;
    for (const auto& o : j) {
        if (!o.is_object())
            continue;
        DeviceInfo d;
        d.id = static_cast<int>(jsonInteger(o, "id", INT32_MIN, INT32_MAX).value_or(0));
        d.name = o.contains("name") && o["name"].is_string() ? o["name"].get<std::string>() : std::string();
        d.totalGlobalMem = optionalOf<int64_t>(o, "totalGlobalMem");
        d.numSms = optionalOf<int>(o, "numSms");
        d.computeMajor = optionalOf<int>(o, "computeMajor");
        d.computeMinor = optionalOf<int>(o, "computeMinor");
        d.maxThreadsPerMultiprocessor = optionalOf<int>(o, "maxThreadsPerMultiprocessor");
        out.push_back(std::move(d));
    }
    return out;
}

std::string hostName() {
    char buf[256] = {};
    return ::gethostname(buf, sizeof buf - 1) == 0 ? buf : "";
}

/*
 * Arguments go into event_args: every distinct argRef of the session gets a rank, and the rows hold
 * the args of consecutive ranks (event_args_pack.h). Ranks are one of two orders:
 * - the import packed the args (StorePreparation::packed): its spans' refs in file order, then the
 *   refs it had no span for, in file order, cut from the source here. The packed blocks are
 *   inserted as they are: the source is not read again.
 * - otherwise: file order. Chunks of kArgsPerChunk ranks are extracted with one sequential pass over
 *   the source (or from the session's EventTextSource) and compressed.
 * ranks() maps a track's argRefs to their ranks.
 */
class ArgsWriter {
public:
    ArgsWriter(const Session& s, SqliteDatabase& db, int level, const std::atomic<bool>* cancel)
        : m_session(s), m_db(db), m_level(level), m_cancel(cancel) {}

    // The refs of every slice and instant with args, in file order: their ranks (ranks()) are known
    // from here on, before write() copies their texts.
    void collectRefs() {
        // The refs come in ascending runs (a row's slices are in time order, and so, mostly, is the
        // file): merging the runs costs n log(runs) where sorting cost n log n, 1.2 s on a 10 GB
        // trace before the arguments' pass could start. Many runs (a file far from time order)
        // are sorted instead.
        size_t total = 0;
        for (const Track& t : m_session.tracks())
            total += t.argRef.size() + t.instantArgRef.size();
        m_refs.reserve(total);
        std::vector<size_t> runs; // where each run starts
        auto add = [&](const std::vector<uint64_t>& refs) {
            for (const uint64_t r : refs) {
                if (r == Track::kNoArgs)
                    continue;
                if (m_refs.empty() || r < m_refs.back())
                    runs.push_back(m_refs.size());
                m_refs.push_back(r);
            }
        };
        for (const Track& t : m_session.tracks()) {
            add(t.argRef);
            add(t.instantArgRef);
        }
        constexpr size_t kMaxRuns = 1024;
        if (runs.size() > kMaxRuns) {
            std::sort(m_refs.begin(), m_refs.end());
        } else {
            // Neighbouring runs merged pairwise until one is left.
            runs.push_back(m_refs.size());
            while (runs.size() > 2) {
                std::vector<size_t> merged;
                for (size_t i = 0; i + 2 < runs.size(); i += 2) {
                    std::inplace_merge(m_refs.begin() + static_cast<std::ptrdiff_t>(runs[i]),
                                       m_refs.begin() + static_cast<std::ptrdiff_t>(runs[i + 1]),
                                       m_refs.begin() + static_cast<std::ptrdiff_t>(runs[i + 2]));
                    merged.push_back(runs[i]);
                }
                if (runs.size() % 2 == 0) // an odd number of runs: the last one waits for the next round
                    merged.push_back(runs[runs.size() - 2]);
                merged.push_back(runs.back());
                runs.swap(merged);
            }
        }
        m_refs.erase(std::unique(m_refs.begin(), m_refs.end()), m_refs.end());

        // The import's packed args are used when they are every span's, at this store's level, and
        // no slice merges its E event's args into its own (packed are the B event's alone).
        const StorePreparation* prepared = m_session.storePreparation();
        m_packed = prepared && prepared->packedComplete && prepared->packedLevel == m_level &&
                   m_session.format() == TraceFormat::ChromeJson &&
                   std::none_of(m_refs.begin(), m_refs.end(),
                                [this](uint64_t r) { return m_session.endArgRef(r) != Track::kNoArgs; })
                       ? prepared
                       : nullptr;
        if (m_packed) {
            const std::vector<uint64_t>& spanRefs = m_packed->spans.refs();
            std::set_difference(m_refs.begin(), m_refs.end(), spanRefs.begin(), spanRefs.end(),
                                std::back_inserter(m_unspanned));
            m_refs.clear();
            m_refs.shrink_to_fit();
        }
    }

    bool write(std::string* error) {
        if (m_packed)
            return writePacked(error);

        // A trace imported from JSON is read back from its source text in one pass; any other
        // session (stored, Nsight Systems, nvprof, capture) asks its own EventTextSource.
        EventTextReader reader;
        const bool fromSource = m_session.format() == TraceFormat::ChromeJson && reader.open(m_session.sourcePath());
        // That pass reads the whole source anyway: it hashes it for the fingerprint on the way
        // (a plain file; a compressed one is fingerprinted by the caller, reading it again).
        std::optional<FingerprintOnReads> hashing;
        if (fromSource) {
            hashing.emplace(m_session.sourcePath());
            if (!hashing->started() ||
                !reader.observeFileBytes([&hashing](const char* p, size_t n) { hashing->update(p, n); }))
                hashing.reset();
        }
        // Duration slices whose E event has args (Session::endArgRef) are stored with both merged,
        // as the session reads them; the pass below reads B events only, so those come first.
        std::unordered_map<uint64_t, std::string> mergedArgs;
        if (fromSource) {
            std::vector<uint64_t> withEnd;
            for (const uint64_t r : m_refs)
                if (m_session.endArgRef(r) != Track::kNoArgs)
                    withEnd.push_back(r);
            if (!withEnd.empty())
                m_session.forEachEventJson(
                    withEnd,
                    [&](size_t i, std::string_view text, uint64_t) {
                        mergedArgs.emplace(withEnd[i], std::string(topLevelMember(text, "args")));
                    },
                    m_cancel);
        }
        SqliteStatement insert(m_db, kInsertArgs);
        // Chunks being made, oldest first; one per core besides this thread. zstd is most of a
        // store's time, so chunks are compressed off this thread and inserted in order. A source
        // that reads in parallel (a capture's records) has its chunks read side by side too.
        std::deque<std::future<StorePreparation::PackedArgs>> pending;
        const size_t inFlight = usableCores();
        const bool parallel = m_session.eventTextReadsInParallel();
        // Where the import found each event's args, when it kept that: copied, not cut again.
        std::optional<ArgsSpans::Cursor> spans;
        if (fromSource && m_session.storePreparation())
            spans.emplace(m_session.storePreparation()->spans);
        for (size_t from = 0; from < m_refs.size(); from += SessionStore::kArgsPerChunk) {
            if (m_cancel && *m_cancel) {
                *error = "cancelled";
                return false;
            }
            const std::span<const uint64_t> refs = chunkAt(m_refs, from);
            if (parallel)
                pending.push_back(std::async(std::launch::async, [this, refs] {
                    return compressChunk(readChunk(refs, nullptr, {}, nullptr));
                }));
            else
                pending.push_back(std::async(std::launch::async,
                                             [this, c = readChunk(refs, fromSource ? &reader : nullptr, mergedArgs,
                                                                  spans ? &*spans : nullptr)] {
                                                 return compressChunk(c);
                                             }));
            if (!insertDone(pending, inFlight, insert, error))
                return false;
        }
        if (!insertDone(pending, 0, insert, error))
            return false;
        if (hashing && reader.readToEnd())
            m_fingerprint = hashing->finish();
        return true;
    }

    // The source's fingerprint when write() hashed it during its pass; nullopt otherwise.
    const std::optional<FileFingerprint>& fingerprint() const { return m_fingerprint; }

    // A track's refs mostly ascend (its slices are in time order, and so is the file, mostly): each
    // is searched from the previous one's rank, galloping, rather than by a binary search over all
    // refs, which missed the cache on every level for every slice. With packed args, the few refs
    // without a span rank after every spanned one.
    std::vector<uint64_t> ranks(const std::vector<uint64_t>& refs) const {
        std::vector<uint64_t> out(refs.size());
        const std::vector<uint64_t>& ranked = m_packed ? m_packed->spans.refs() : m_refs;
        const size_t n = ranked.size();
        size_t hint = 0;
        for (size_t i = 0; i < refs.size(); ++i) {
            const uint64_t r = refs[i];
            if (r == Track::kNoArgs) {
                out[i] = r;
                continue;
            }
            const size_t rank = hint < n && ranked[hint] <= r
                                    ? gallopLowerBound(ranked, hint, r)
                                    : static_cast<size_t>(std::lower_bound(ranked.begin(), ranked.end(), r) - ranked.begin());
            if (rank < n && ranked[rank] == r) {
                out[i] = rank;
                hint = rank + 1;
            } else { // a packed session's ref without a span
                out[i] = n + static_cast<uint64_t>(std::lower_bound(m_unspanned.begin(), m_unspanned.end(), r) -
                                                   m_unspanned.begin());
            }
        }
        return out;
    }

private:
    // The args of ranks [from, to) as {"args":...} texts one after the other, and their lengths.
    struct ChunkText {
        std::string text;
        std::vector<int64_t> lengths;
    };

    // The refs of the chunk that starts at `from`: kArgsPerChunk, or the rest.
    static std::span<const uint64_t> chunkAt(const std::vector<uint64_t>& refs, size_t from) {
        return std::span(refs).subspan(from, std::min<size_t>(SessionStore::kArgsPerChunk, refs.size() - from));
    }

    static constexpr const char* kInsertArgs = "INSERT INTO event_args(first_rank, lengths, text) VALUES (?1, ?2, ?3)";

    // The import's packed blocks as they are, then the refs it had no span for, cut from the source.
    bool writePacked(std::string* error) {
        SqliteStatement insert(m_db, kInsertArgs);
        for (const StorePreparation::PackedArgs& block : m_packed->packed) {
            if (m_cancel && *m_cancel) {
                *error = "cancelled";
                return false;
            }
            if (!insertChunk(insert, block, error))
                return false;
        }
        if (m_unspanned.empty())
            return true;
        EventTextReader reader;
        const bool opened = reader.open(m_session.sourcePath());
        for (size_t from = 0; from < m_unspanned.size(); from += SessionStore::kArgsPerChunk) {
            const std::span<const uint64_t> refs = chunkAt(m_unspanned, from);
            if (!insertChunk(insert, compressChunk(readChunk(refs, opened ? &reader : nullptr, {}, nullptr)), error))
                return false;
        }
        return true;
    }

    // From the JSON source through `reader` (merged: B/E pairs whose E has args; spans: where the
    // import found the others' args), or from the session's EventTextSource when reader is null.
    ChunkText readChunk(std::span<const uint64_t> refs, EventTextReader* reader,
                        const std::unordered_map<uint64_t, std::string>& merged, ArgsSpans::Cursor* spans) const {
        ChunkText c;
        c.lengths.reserve(refs.size());
        std::string object;
        std::vector<uint32_t> separators;
        for (const uint64_t ref : refs) {
            std::string_view args;
            if (!reader) {
                object = m_session.eventJsonAt(ref);
                args = topLevelMember(object, "args");
            } else if (const auto it = merged.find(ref); it != merged.end()) {
                args = it->second;
            } else if (const auto span = spans ? spans->find(ref) : std::nullopt) {
                reader->bytesAt(span->begin, span->length, args, object);
            } else if (std::string_view view; reader->objectViewAt(ref, view, object, &separators)) {
                args = EventTextReader::member(view, separators, "args");
            }
            const size_t before = c.text.size();
            appendStoredArgs(c.text, args);
            c.lengths.push_back(static_cast<int64_t>(c.text.size() - before));
        }
        return c;
    }

    StorePreparation::PackedArgs compressChunk(const ChunkText& c) const { return packStoredArgs(c.lengths, c.text, m_level); }

    // Inserts one chunk of args; its first rank follows the previous chunk's last.
    bool insertChunk(SqliteStatement& insert, const StorePreparation::PackedArgs& chunk, std::string* error) {
        insert.reset();
        insert.bind(1, static_cast<int64_t>(m_ranksInserted));
        insert.bindBlob(2, chunk.lengths.data(), chunk.lengths.size());
        insert.bindBlob(3, chunk.text.data(), chunk.text.size());
        insert.step();
        if (!insert.ok()) {
            *error = insert.error();
            return false;
        }
        m_ranksInserted += chunk.count;
        return true;
    }

    // Inserts the compressed chunks in order until at most `keep` are still being compressed.
    bool insertDone(std::deque<std::future<StorePreparation::PackedArgs>>& pending, size_t keep, SqliteStatement& insert,
                    std::string* error) {
        while (pending.size() > keep) {
            const StorePreparation::PackedArgs chunk = pending.front().get();
            pending.pop_front();
            if (!insertChunk(insert, chunk, error))
                return false;
        }
        return true;
    }

    const Session& m_session;
    SqliteDatabase& m_db;
    int m_level;
    uint64_t m_ranksInserted = 0;
    const std::atomic<bool>* m_cancel;
    std::vector<uint64_t> m_refs;              // every distinct argRef, in file order (none when packed)
    const StorePreparation* m_packed = nullptr; // the import's packed args, when they are used
    std::vector<uint64_t> m_unspanned;         // packed: the refs without a span, in file order
    std::optional<FileFingerprint> m_fingerprint;
};

// The model's columns (tracks, counters, flows, memory, a memory snapshot's tables) into `columns`;
// their arg refs as ranks in `args`, whose refs are collected.
bool encodeModelColumns(const Session& s, const ArgsWriter& args, ColumnWriter& columns) {
    for (size_t i = 0; i < s.tracks().size(); ++i) {
        const Track& t = s.tracks()[i];
        const auto idx = static_cast<int64_t>(i);
        const std::vector<uint64_t> argRanks = args.ranks(t.argRef), instantRanks = args.ranks(t.instantArgRef);
        const bool ok = columns.int64s("track", idx, "start", span(t.start)) &&
                        columns.int64s("track", idx, "dur", span(t.dur)) &&
                        columns.fixed("track", idx, "names", span(t.names)) &&
                        columns.fixed("track", idx, "category", span(t.category)) &&
                        columns.fixed("track", idx, "arg_ref", span(argRanks)) &&
                        columns.fixed("track", idx, "correlation", span(t.correlation)) &&
                        columns.fixed("track", idx, "external_id", span(t.externalId)) &&
                        columns.int64s("track", idx, "bytes", span(t.bytes)) &&
                        columns.fixed("track", idx, "blocks_per_sm", span(t.blocksPerSm)) &&
                        columns.fixed("track", idx, "occupancy", span(t.occupancy)) &&
                        columns.fixed("track", idx, "launch_args", span(t.launchArgs)) &&
                        columns.fixed("track", idx, "op_args", span(t.opArgs)) &&
                        columns.fixed("track", idx, "row_begin", span(t.rowBegin)) &&
                        columns.fixed("track", idx, "row_depth", span(t.rowDepth)) &&
                        columns.fixed("track", idx, "row_lane", span(t.rowLane)) &&
                        columns.int64s("track", idx, "instant_ts", span(t.instantTs)) &&
                        columns.fixed("track", idx, "instant_names", span(t.instantNames)) &&
                        columns.fixed("track", idx, "instant_category", span(t.instantCategory)) &&
                        columns.fixed("track", idx, "instant_arg_ref", span(instantRanks));
        if (!ok)
            return false;
    }

    for (size_t i = 0; i < s.counters().size(); ++i) {
        const CounterSeries& c = s.counters()[i];
        if (!columns.int64s("counter", static_cast<int64_t>(i), "ts", span(c.ts)) ||
            !columns.fixed("counter", static_cast<int64_t>(i), "value", span(c.value)))
            return false;
    }

    {
        std::vector<uint32_t> fromTrack, fromSlice, toTrack, toSlice, category;
        std::vector<uint64_t> ids;
        for (const Flow& f : s.flows()) {
            fromTrack.push_back(f.fromTrack);
            fromSlice.push_back(f.fromSlice);
            toTrack.push_back(f.toTrack);
            toSlice.push_back(f.toSlice);
            category.push_back(f.category);
            ids.push_back(f.id);
        }
        const bool ok = columns.fixed("flows", 0, "from_track", span(fromTrack)) &&
                        columns.fixed("flows", 0, "from_slice", span(fromSlice)) &&
                        columns.fixed("flows", 0, "to_track", span(toTrack)) &&
                        columns.fixed("flows", 0, "to_slice", span(toSlice)) &&
                        columns.fixed("flows", 0, "category", span(category)) &&
                        columns.fixed("flows", 0, "id", span(ids));
        if (!ok)
            return false;
    }

    {
        std::vector<int64_t> ts, addr, bytes, allocated, reserved;
        std::vector<uint32_t> track;
        std::vector<int16_t> deviceType, deviceId;
        for (const MemoryEvent& m : s.memoryEvents()) {
            ts.push_back(m.ts);
            addr.push_back(m.addr);
            bytes.push_back(m.bytes);
            allocated.push_back(m.totalAllocated);
            reserved.push_back(m.totalReserved);
            track.push_back(m.track);
            deviceType.push_back(m.deviceType);
            deviceId.push_back(m.deviceId);
        }
        const bool ok = columns.int64s("memory", 0, "ts", span(ts)) && columns.int64s("memory", 0, "addr", span(addr)) &&
                        columns.int64s("memory", 0, "bytes", span(bytes)) &&
                        columns.int64s("memory", 0, "total_allocated", span(allocated)) &&
                        columns.int64s("memory", 0, "total_reserved", span(reserved)) &&
                        columns.fixed("memory", 0, "track", span(track)) &&
                        columns.fixed("memory", 0, "device_type", span(deviceType)) &&
                        columns.fixed("memory", 0, "device_id", span(deviceId));
        if (!ok)
            return false;
    }
    // A memory snapshot's own tables: reopened from the library, it is not unpickled again.
    if (const MemorySnapshot* snapshot = s.memorySnapshot())
        if (!store::writeSnapshotColumns(*snapshot, columns))
            return false;

    return true;
}

// The source's fingerprint from the hash the import made on its reads (StorePreparation::sourceHash),
// when the file still has the size and time it had then.
std::optional<FileFingerprint> importHashed(const Session& s) {
    const StorePreparation* prepared = s.storePreparation();
    if (!prepared || !prepared->sourceHash)
        return std::nullopt;
    std::optional<FileFingerprint> fp =
        unchangedIdentity(s.sourcePath(), prepared->sourceHash->size, prepared->sourceHash->mtimeNs);
    if (fp)
        fp->hash = prepared->sourceHash->hash;
    return fp;
}

bool writeBody(const Session& s, SqliteDatabase& db, const SessionWriteOptions& o, std::string* error) {
    auto fail = [&](const std::string& what) {
        *error = what.empty() ? db.error() : what;
        return false;
    };
    if (!db.exec(kSchema))
        return fail({});
    // The analyses' results (stored_results.h), computed alongside the columns' encoding.
    std::future<std::string> results;
    if (o.cacheResults)
        results = std::async(std::launch::async, [&s, &o] { return storedResultsBlobFor(s, o.analyses.get()); });

    // meta
    std::map<std::string, std::string> meta;
    meta["schema_version"] = std::to_string(SessionStore::kSchemaVersion);
    meta["warpscope_version"] = WARPSCOPE_VERSION;
    meta["import_revision"] = std::to_string(kImportRevision);
    meta["format"] = formatName(s.sourceFormat());
    meta["name"] = o.name;
    meta["capture_command"] = o.captureCommand;
    meta["host"] = hostName();
    meta["created_at_ns"] = std::to_string(
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch()).count());
    meta["start_ns"] = std::to_string(s.startNs());
    meta["end_ns"] = std::to_string(s.endNs());
    meta["source_event_count"] = std::to_string(s.sourceEventCount());
    meta["slice_count"] = std::to_string(s.sliceCount());
    meta["display_time_unit"] = s.displayTimeUnit();
    if (s.argColumns())
        meta["arg_columns"] = "1"; // the launch_args and op_args columns are complete (Session::argColumns)
    if (s.baseTimeNs())
        meta["base_time_ns"] = std::to_string(*s.baseTimeNs());
    meta["devices"] = devicesToJson(s.devices()).dump();
    if (const auto& d = s.distributedInfo()) {
        json dj = {{"backend", d->backend}};
        if (d->rank)
            dj["rank"] = *d->rank;
        if (d->worldSize)
            dj["world_size"] = *d->worldSize;
        meta["distributed"] = dj.dump();
    }
    meta["metadata"] = json(s.metadata()).dump();
    meta["import_report"] = reportToJson(s.report()).dump();
    meta["source_path"] = s.sourcePath();
    if (const MemorySnapshot* snapshot = s.memorySnapshot())
        meta["memory_snapshot"] = store::snapshotMetaJson(*snapshot).dump();
    {
        SqliteStatement q(db, "INSERT INTO meta(key, value) VALUES (?1, ?2)");
        for (const auto& [k, v] : meta) {
            q.reset();
            q.bind(1, std::string_view(k));
            q.bind(2, std::string_view(v));
            q.step();
            if (!q.ok())
                return fail({});
        }
    }

    ColumnWriter columns(db, o.zstdLevel);
    if (!columns.ok())
        return fail({});

    // strings: lengths + bytes
    {
        std::vector<int64_t> lengths;
        std::string bytes;
        lengths.reserve(s.strings().size());
        for (StringId id = 0; id < s.strings().size(); ++id) {
            const std::string_view v = s.strings().str(id);
            lengths.push_back(static_cast<int64_t>(v.size()));
            bytes += v;
        }
        if (!columns.int64s("strings", 0, "length", span(lengths)) ||
            !columns.fixed<char>("strings", 0, "bytes", std::span<const char>(bytes.data(), bytes.size())))
            return fail({});
    }

    {
        SqliteStatement q(db, "INSERT INTO processes VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)");
        for (size_t i = 0; i < s.processes().size(); ++i) {
            const ProcessInfo& p = s.processes()[i];
            q.reset();
            q.bind(1, static_cast<int64_t>(i));
            q.bind(2, p.pid.number);
            q.bind(3, static_cast<int64_t>(p.pid.string));
            q.bind(4, static_cast<int64_t>(p.pid.isString));
            q.bind(5, static_cast<int64_t>(p.name));
            q.bind(6, static_cast<int64_t>(p.labels));
            q.bind(7, p.sortIndex);
            q.bind(8, static_cast<int64_t>(p.hasSortIndex));
            q.bind(9, static_cast<int64_t>(p.deviceId));
            q.step();
        }
        SqliteStatement c(db, "INSERT INTO categories VALUES (?1, ?2, ?3)");
        for (size_t i = 0; i < s.categories().size(); ++i) {
            c.reset();
            c.bind(1, static_cast<int64_t>(i));
            c.bind(2, static_cast<int64_t>(s.categories()[i].name));
            c.bind(3, static_cast<int64_t>(s.categories()[i].kind));
            c.step();
        }
        if (!q.ok() || !c.ok())
            return fail({});
    }

    // The model's columns are encoded on another thread while the arguments' pass reads the source;
    // they are inserted after it, through this thread (one writer on the connection).
    ArgsWriter args(s, db, o.argsZstdLevel, o.cancel);
    args.collectRefs();
    ColumnWriter held(db, o.zstdLevel, ColumnWriter::Mode::Hold);
    if (!held.ok())
        return fail({});
    std::future<bool> encoded = std::async(std::launch::async, [&] { return encodeModelColumns(s, args, held); });
    if (!args.write(error))
        return false;
    // The source's fingerprint hashes the whole file: the arguments' pass did it on the way when it
    // read the source; otherwise it is read again, on its own thread while the rest is written.
    std::future<std::optional<FileFingerprint>> fingerprint;
    if (args.fingerprint())
        fingerprint = std::async(std::launch::deferred, [&args] { return args.fingerprint(); });
    else if (const std::optional<FileFingerprint> hashed = importHashed(s))
        fingerprint = std::async(std::launch::deferred, [hashed] { return hashed; });
    else if (s.format() != TraceFormat::WarpscopeSession)
        fingerprint = std::async(std::launch::async, [&s] { return fingerprintFile(s.sourcePath()); });

    {
        SqliteStatement q(db, "INSERT INTO tracks VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)");
        for (size_t i = 0; i < s.tracks().size(); ++i) {
            const Track& t = s.tracks()[i];
            q.reset();
            q.bind(1, static_cast<int64_t>(i));
            q.bind(2, static_cast<int64_t>(t.kind));
            q.bind(3, static_cast<int64_t>(t.process));
            q.bind(4, t.tid.number);
            q.bind(5, static_cast<int64_t>(t.tid.string));
            q.bind(6, static_cast<int64_t>(t.tid.isString));
            q.bind(7, static_cast<int64_t>(t.name));
            q.bind(8, t.sortIndex);
            q.bind(9, static_cast<int64_t>(t.hasSortIndex));
            q.bind(10, static_cast<int64_t>(t.gpu));
            q.bind(11, static_cast<int64_t>(t.laneCount));
            q.step();
            if (!q.ok())
                return fail({});
        }
    }
    {
        SqliteStatement q(db, "INSERT INTO counters VALUES (?1, ?2, ?3, ?4, ?5)");
        for (size_t i = 0; i < s.counters().size(); ++i) {
            const CounterSeries& c = s.counters()[i];
            q.reset();
            q.bind(1, static_cast<int64_t>(i));
            q.bind(2, static_cast<int64_t>(c.process));
            q.bind(3, static_cast<int64_t>(c.name));
            q.bind(4, static_cast<int64_t>(c.series));
            q.bind(5, static_cast<int64_t>(c.category));
            q.step();
            if (!q.ok())
                return fail({});
        }
    }
    if (!encoded.get() || !held.flush())
        return fail({});

    {
        SqliteStatement q(db, "INSERT INTO frames VALUES (?1, ?2, ?3, ?4)");
        for (const auto& [name, f] : s.frames()) {
            q.reset();
            q.bind(1, static_cast<int64_t>(name));
            q.bind(2, static_cast<int64_t>(f.file));
            q.bind(3, static_cast<int64_t>(f.line));
            q.bind(4, static_cast<int64_t>(f.function));
            q.step();
        }
        if (!q.ok())
            return fail({});
    }
    // Copies of the source files the frames name, while they are still at hand.
    if (!SourceArchive::write(db, SourceArchive::collect(s), o.argsZstdLevel))
        return fail({});
    if (results.valid() && !writeStoredResults(db, results.get()))
        return fail({});
    if (fingerprint.valid())
        if (const auto fp = fingerprint.get()) {
            SqliteStatement q(db, "INSERT OR REPLACE INTO meta(key, value) VALUES (?1, ?2)");
            for (const auto& [k, v] : {std::pair<const char*, std::string>{"source_path", fp->path},
                                       {"source_size", std::to_string(fp->size)},
                                       {"source_mtime_ns", std::to_string(fp->mtimeNs)},
                                       {"source_hash2", fp->hashHex()}}) {
                q.reset();
                q.bind(1, std::string_view(k));
                q.bind(2, std::string_view(v));
                q.step();
                if (!q.ok())
                    return fail({});
            }
        }
    return true;
}

} // namespace

namespace {

// Moves the finished temp file to its name (see SessionWriteOptions::keepExisting).
bool publishFile(const std::string& temp, const std::string& path, bool keepExisting, std::string* target, std::string* error) {
    if (!keepExisting) {
        std::error_code ec;
        std::filesystem::rename(temp, path, ec);
        if (ec) {
            *error = "cannot move the session into place: " + ec.message();
            return false;
        }
        *target = path;
        return true;
    }
    // renameat2(RENAME_NOREPLACE) is atomic: of two processes moving to one name, one gets EEXIST.
    const std::filesystem::path p(path);
    for (int i = 1; i < 10000; ++i) {
        const std::string candidate =
            i == 1 ? path : (p.parent_path() / (p.stem().string() + "-" + std::to_string(i) + p.extension().string())).string();
        if (::renameat2(AT_FDCWD, temp.c_str(), AT_FDCWD, candidate.c_str(), RENAME_NOREPLACE) == 0) {
            *target = candidate;
            return true;
        }
        if (errno != EEXIST) {
            *error = std::string("cannot move the session into place: ") + std::strerror(errno);
            return false;
        }
    }
    *error = "cannot move the session into place: no free name next to " + path;
    return false;
}

} // namespace

bool SessionStore::write(const Session& session, const std::string& path, const SessionWriteOptions& options,
                         std::string* error) {
    std::string ignored;
    if (!error)
        error = &ignored;
    const std::string temp = path + ".tmp-" + std::to_string(::getpid());
    std::remove(temp.c_str());
    {
        SqliteDatabase db;
        if (!db.open(temp, SqliteDatabase::Mode::ReadWriteCreate)) {
            *error = db.error();
            return false;
        }
        // A fresh private file: no journal needed, the rename below is the commit point.
        const bool ok = db.exec("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;") &&
                        db.exec("PRAGMA application_id = " + std::to_string(kApplicationId)) &&
                        db.exec("PRAGMA user_version = " + std::to_string(kSchemaVersion)) && db.exec("BEGIN") &&
                        writeBody(session, db, options, error) && db.exec("COMMIT");
        if (!ok) {
            if (error->empty())
                *error = db.error();
            db.close();
            std::remove(temp.c_str());
            // SQLite says "disk I/O error" or "database or disk is full": say how full the disk is.
            std::error_code ec;
            const auto space = std::filesystem::space(std::filesystem::absolute(path).parent_path(), ec);
            if (!ec && (error->find("disk") != std::string::npos || error->find("full") != std::string::npos))
                *error += " (" + std::to_string(space.available / (1024 * 1024)) + " MB free on the disk of " +
                          std::filesystem::absolute(path).parent_path().string() + ", or the file may not grow)";
            return false;
        }
    }
    // Make the bytes durable before the rename makes them visible.
    if (FILE* f = std::fopen(temp.c_str(), "rb")) {
        ::fsync(::fileno(f));
        std::fclose(f);
    }
    std::string target = path;
    if (!publishFile(temp, path, options.keepExisting, &target, error)) {
        std::remove(temp.c_str());
        return false;
    }
    if (options.writtenPath)
        *options.writtenPath = target;
    return true;
}

namespace {

// Checks application id and schema version; the reason in *error when the file is not ours or too new.
bool checkHeader(SqliteDatabase& db, std::string* error) {
    const auto appId = db.queryInt("PRAGMA application_id");
    if (!appId || *appId != SessionStore::kApplicationId) {
        *error = "not a Warpscope session (a SQLite database of another application)";
        return false;
    }
    const auto version = db.queryInt("PRAGMA user_version").value_or(0);
    if (version > SessionStore::kSchemaVersion) {
        *error = "this session was written by a newer Warpscope (session format " + std::to_string(version) +
                 "; this version reads up to " + std::to_string(SessionStore::kSchemaVersion) + "); please update Warpscope";
        return false;
    }
    if (version < 1) {
        *error = "the session file has no format version; it is damaged";
        return false;
    }
    return true;
}

std::map<std::string, std::string> readMetaTable(SqliteDatabase& db) {
    std::map<std::string, std::string> meta;
    SqliteStatement q(db, "SELECT key, value FROM meta");
    while (q.step())
        meta.emplace(std::string(q.text(0)), std::string(q.text(1)));
    return meta;
}

int64_t toInt(const std::map<std::string, std::string>& m, const char* key, int64_t fallback = 0) {
    auto it = m.find(key);
    if (it == m.end())
        return fallback;
    try {
        return std::stoll(it->second);
    } catch (...) {
        return fallback;
    }
}

json parseJson(const std::map<std::string, std::string>& m, const char* key) {
    auto it = m.find(key);
    if (it == m.end())
        return json();
    return json::parse(it->second, nullptr, false);
}

} // namespace

bool SessionStore::publish(const std::string& temp, const std::string& path, std::string* written, std::string* error) {
    return publishFile(temp, path, true, written, error);
}

bool SessionStore::isSessionFile(const std::string& path) {
    SqliteDatabase db;
    std::string error;
    return db.open(path, SqliteDatabase::Mode::ReadOnly) && checkHeader(db, &error);
}

std::optional<std::map<std::string, std::string>> SessionStore::readMeta(const std::string& path, std::string* error) {
    SqliteDatabase db;
    if (!db.open(path, SqliteDatabase::Mode::ReadOnly)) {
        *error = db.error();
        return std::nullopt;
    }
    if (!checkHeader(db, error))
        return std::nullopt;
    return readMetaTable(db);
}

bool SessionStore::writeMetaValue(const std::string& path, const std::string& key, const std::string& value) {
    SqliteDatabase db;
    std::string error;
    if (!db.open(path, SqliteDatabase::Mode::ReadWrite) || !checkHeader(db, &error))
        return false;
    SqliteStatement q(db, "INSERT OR REPLACE INTO meta(key, value) VALUES (?1, ?2)");
    q.bind(1, std::string_view(key));
    q.bind(2, std::string_view(value));
    q.step();
    return q.ok();
}

std::shared_ptr<Session> SessionStore::read(const std::string& path, std::string* error, const SessionReadParts& parts) {
    std::string ignored;
    if (!error)
        error = &ignored;
    SqliteDatabase db;
    if (!db.open(path, SqliteDatabase::Mode::ReadOnly)) {
        *error = db.error();
        return nullptr;
    }
    if (!checkHeader(db, error))
        return nullptr;
    const auto meta = readMetaTable(db);
    auto s = std::make_shared<Session>();
    auto damaged = [&](const std::string& what) {
        *error = "the session file is damaged (" + what + ")";
        return nullptr;
    };

    s->m_format = TraceFormat::WarpscopeSession;
    if (auto it = meta.find("format"); it != meta.end())
        s->m_sourceFormat = formatFromName(it->second);
    s->m_sourcePath = path;
    s->m_storedResults = readStoredResults(db);
    s->m_startNs = toInt(meta, "start_ns");
    s->m_endNs = toInt(meta, "end_ns");
    s->m_sourceEventCount = static_cast<uint64_t>(toInt(meta, "source_event_count"));
    // Sessions stored before the argument columns have none: their analyses read the stored text.
    if (auto it = meta.find("arg_columns"); it != meta.end() && it->second == "1")
        s->m_argColumns = true;
    if (meta.count("base_time_ns"))
        s->m_baseTimeNs = toInt(meta, "base_time_ns");
    if (auto it = meta.find("display_time_unit"); it != meta.end())
        s->m_displayTimeUnit = it->second;
    // The JSON blocks of the metadata: a value of the wrong type (a damaged or hand-edited file)
    // makes nlohmann's value() throw; that is a damaged file, not a crash.
    try {
        s->m_devices = devicesFromJson(parseJson(meta, "devices"));
        if (const json d = parseJson(meta, "distributed"); d.is_object()) {
            DistributedInfo info;
            info.backend = d.value("backend", "");
            info.rank = optionalOf<int>(d, "rank");
            info.worldSize = optionalOf<int>(d, "world_size");
            s->m_distributed = info;
        }
        if (const json m = parseJson(meta, "metadata"); m.is_object())
            for (auto it = m.begin(); it != m.end(); ++it)
                if (it.value().is_string())
                    s->m_metadata[it.key()] = it.value().get<std::string>();
        s->m_report = reportFromJson(parseJson(meta, "import_report"));
    } catch (const json::exception&) {
        return damaged("metadata");
    }

    ColumnReader columns(db);
    {
        std::vector<int64_t> lengths;
        std::vector<char> bytes;
        if (!columns.int64s("strings", 0, "length", lengths) || !columns.fixed("strings", 0, "bytes", bytes))
            return damaged("strings");
        size_t at = 0;
        for (size_t i = 0; i < lengths.size(); ++i) {
            const auto n = static_cast<size_t>(lengths[i]);
            if (lengths[i] < 0 || at + n > bytes.size())
                return damaged("strings");
            const StringId id = s->m_strings.intern(std::string_view(bytes.data() + at, n));
            if (id != i)
                return damaged("duplicate strings");
            at += n;
        }
    }
    const auto stringCount = static_cast<int64_t>(s->m_strings.size());
    auto validString = [&](int64_t id) { return id >= 0 && id < stringCount; };
    // A lane's rows are consecutive by depth (track.h): a row below the top follows its parent row.
    auto rowsNested = [](const Track& t) {
        for (size_t r = 0; r < t.rowDepth.size(); ++r)
            if (t.rowDepth[r] > 0 && (r == 0 || t.rowLane[r - 1] != t.rowLane[r] || t.rowDepth[r - 1] + 1 != t.rowDepth[r]))
                return false;
        return true;
    };
    // Columns a track may lack (track.h): empty, or one value per slice.
    auto optionalColumn = [](size_t size, size_t n) { return size == 0 || size == n; };

    {
        SqliteStatement q(db, "SELECT pid, pid_string, pid_is_string, name, labels, sort_index, has_sort_index, device_id "
                              "FROM processes ORDER BY idx");
        while (q.step()) {
            ProcessInfo p;
            p.pid = IdValue{q.int64(0), static_cast<StringId>(q.int64(1)), q.int64(2) != 0};
            p.name = static_cast<StringId>(q.int64(3));
            p.labels = static_cast<StringId>(q.int64(4));
            p.sortIndex = q.int64(5);
            p.hasSortIndex = q.int64(6) != 0;
            p.deviceId = static_cast<int>(q.int64(7));
            if (!validString(q.int64(1)) || !validString(q.int64(3)) || !validString(q.int64(4)))
                return damaged("processes");
            s->m_processes.push_back(p);
        }
        SqliteStatement c(db, "SELECT name, kind FROM categories ORDER BY idx");
        while (c.step()) {
            if (!validString(c.int64(0)))
                return damaged("categories");
            s->m_categories.push_back({static_cast<StringId>(c.int64(0)), static_cast<EventKind>(c.int64(1))});
        }
    }

    {
        SqliteStatement q(db, "SELECT idx, kind, process, tid, tid_string, tid_is_string, name, sort_index, "
                              "has_sort_index, gpu, lane_count FROM tracks ORDER BY idx");
        while (q.step()) {
            Track t;
            const int64_t idx = q.int64(0);
            t.kind = static_cast<Track::Kind>(q.int64(1));
            t.process = static_cast<uint32_t>(q.int64(2));
            t.tid = IdValue{q.int64(3), static_cast<StringId>(q.int64(4)), q.int64(5) != 0};
            t.name = static_cast<StringId>(q.int64(6));
            t.sortIndex = q.int64(7);
            t.hasSortIndex = q.int64(8) != 0;
            t.gpu = q.int64(9) != 0;
            t.laneCount = static_cast<uint32_t>(q.int64(10));
            const bool ok =
                columns.int64s("track", idx, "start", t.start) && columns.int64s("track", idx, "dur", t.dur) &&
                columns.fixed("track", idx, "names", t.names) && columns.fixed("track", idx, "category", t.category) &&
                columns.fixed("track", idx, "arg_ref", t.argRef) &&
                columns.fixed("track", idx, "correlation", t.correlation) &&
                columns.fixed("track", idx, "external_id", t.externalId) &&
                columns.int64s("track", idx, "bytes", t.bytes) &&
                columns.fixed("track", idx, "blocks_per_sm", t.blocksPerSm) &&
                columns.fixed("track", idx, "occupancy", t.occupancy) &&
                columns.fixed("track", idx, "launch_args", t.launchArgs) &&
                columns.fixed("track", idx, "op_args", t.opArgs) &&
                columns.fixed("track", idx, "row_begin", t.rowBegin) &&
                columns.fixed("track", idx, "row_depth", t.rowDepth) &&
                columns.fixed("track", idx, "row_lane", t.rowLane) &&
                (!parts.instants ||
                 (columns.int64s("track", idx, "instant_ts", t.instantTs) &&
                  columns.fixed("track", idx, "instant_names", t.instantNames) &&
                  columns.fixed("track", idx, "instant_category", t.instantCategory) &&
                  columns.fixed("track", idx, "instant_arg_ref", t.instantArgRef)));
            const size_t n = t.start.size();
            // Every index the views follow must be in range: a damaged file fails here, not later.
            const bool consistent =
                ok && t.process < s->m_processes.size() && t.dur.size() == n && t.names.size() == n &&
                t.category.size() == n && t.argRef.size() == n && (t.rowBegin.empty() ? n == 0 : t.rowBegin.back() == n) &&
                t.rowDepth.size() + 1 == std::max<size_t>(1, t.rowBegin.size()) && t.rowLane.size() == t.rowDepth.size() &&
                rowsNested(t) &&
                std::is_sorted(t.rowBegin.begin(), t.rowBegin.end()) && t.instantNames.size() == t.instantTs.size() &&
                t.instantCategory.size() == t.instantTs.size() && t.instantArgRef.size() == t.instantTs.size() &&
                optionalColumn(t.correlation.size(), n) && optionalColumn(t.externalId.size(), n) &&
                optionalColumn(t.bytes.size(), n) && optionalColumn(t.blocksPerSm.size(), n) &&
                optionalColumn(t.occupancy.size(), n) && optionalColumn(t.launchArgs.size(), n) &&
                optionalColumn(t.opArgs.size(), n) && validString(t.name) &&
                std::all_of(t.launchArgs.begin(), t.launchArgs.end(), [&](StringId id) { return validString(id); }) &&
                std::all_of(t.opArgs.begin(), t.opArgs.end(), [&](StringId id) { return validString(id); }) &&
                (!t.tid.isString || validString(t.tid.string)) &&
                std::all_of(t.names.begin(), t.names.end(), [&](StringId id) { return validString(id); }) &&
                std::all_of(t.instantNames.begin(), t.instantNames.end(), [&](StringId id) { return validString(id); }) &&
                std::all_of(t.category.begin(), t.category.end(),
                            [&](uint16_t c) { return c < s->m_categories.size(); }) &&
                std::all_of(t.instantCategory.begin(), t.instantCategory.end(),
                            [&](uint16_t c) { return c < s->m_categories.size(); });
            if (!consistent)
                return damaged("track " + std::to_string(idx));
            s->m_tracks.push_back(std::move(t));
        }
        if (!q.ok())
            return damaged("tracks");
    }

    {
        SqliteStatement q(db, "SELECT idx, process, name, series, category FROM counters ORDER BY idx");
        while (parts.counters && q.step()) {
            CounterSeries c;
            c.process = static_cast<uint32_t>(q.int64(1));
            c.name = static_cast<StringId>(q.int64(2));
            c.series = static_cast<StringId>(q.int64(3));
            c.category = static_cast<StringId>(q.int64(4));
            if (!columns.int64s("counter", q.int64(0), "ts", c.ts) || !columns.fixed("counter", q.int64(0), "value", c.value) ||
                c.ts.size() != c.value.size() || c.process >= s->m_processes.size())
                return damaged("counters");
            s->m_counters.push_back(std::move(c));
        }
    }

    {
        std::vector<uint32_t> fromTrack, fromSlice, toTrack, toSlice, category;
        std::vector<uint64_t> ids;
        const bool ok = columns.fixed("flows", 0, "from_track", fromTrack) &&
                        columns.fixed("flows", 0, "from_slice", fromSlice) &&
                        columns.fixed("flows", 0, "to_track", toTrack) && columns.fixed("flows", 0, "to_slice", toSlice) &&
                        columns.fixed("flows", 0, "category", category) && columns.fixed("flows", 0, "id", ids);
        const size_t n = fromTrack.size();
        if (!ok || fromSlice.size() != n || toTrack.size() != n || toSlice.size() != n || category.size() != n ||
            ids.size() != n)
            return damaged("flows");
        auto validSlice = [&](uint32_t t, uint32_t i) { return t < s->m_tracks.size() && i < s->m_tracks[t].sliceCount(); };
        // Exactly sized: grown by doubling, the 10 GB session's 8 M flows were copied into new
        // mappings again and again (their page faults are a large share of a reopen).
        s->m_flows.reserve(s->m_flows.size() + n);
        for (size_t i = 0; i < n; ++i) {
            if (!validSlice(fromTrack[i], fromSlice[i]) || !validSlice(toTrack[i], toSlice[i]))
                return damaged("flows");
            s->m_flows.push_back({fromTrack[i], fromSlice[i], toTrack[i], toSlice[i], category[i], ids[i]});
        }
    }

    if (parts.memoryEvents) {
        std::vector<int64_t> ts, addr, bytes, allocated, reserved;
        std::vector<uint32_t> track;
        std::vector<int16_t> deviceType, deviceId;
        const bool ok = columns.int64s("memory", 0, "ts", ts) && columns.int64s("memory", 0, "addr", addr) &&
                        columns.int64s("memory", 0, "bytes", bytes) &&
                        columns.int64s("memory", 0, "total_allocated", allocated) &&
                        columns.int64s("memory", 0, "total_reserved", reserved) &&
                        columns.fixed("memory", 0, "track", track) &&
                        columns.fixed("memory", 0, "device_type", deviceType) &&
                        columns.fixed("memory", 0, "device_id", deviceId);
        const size_t n = ts.size();
        if (!ok || addr.size() != n || bytes.size() != n || allocated.size() != n || reserved.size() != n ||
            track.size() != n || deviceType.size() != n || deviceId.size() != n)
            return damaged("memory events");
        s->m_memoryEvents.reserve(s->m_memoryEvents.size() + n); // as the flows
        for (size_t i = 0; i < n; ++i)
            s->m_memoryEvents.push_back({ts[i], addr[i], bytes[i], allocated[i], reserved[i], track[i], deviceType[i], deviceId[i]});
    }

    {
        SqliteStatement q(db, "SELECT name, file, line, function FROM frames");
        while (q.step()) {
            if (!validString(q.int64(0)) || !validString(q.int64(1)) || !validString(q.int64(3)))
                return damaged("frames");
            s->m_frames.emplace(static_cast<StringId>(q.int64(0)),
                                SourceFrame{static_cast<StringId>(q.int64(1)), static_cast<int32_t>(q.int64(2)),
                                            static_cast<StringId>(q.int64(3))});
        }
    }
    if (parts.memorySnapshot && meta.count("memory_snapshot")) {
        auto snapshot = std::make_shared<MemorySnapshot>();
        try {
            store::snapshotFromMetaJson(parseJson(meta, "memory_snapshot"), *snapshot);
        } catch (const std::exception&) {
            return damaged("memory snapshot");
        }
        if (!store::readSnapshotColumns(columns, *snapshot))
            return damaged("memory snapshot");
        s->m_memorySnapshot = std::move(snapshot);
    }
    s->rebuildFlowIndex(usableCores());
    s->m_eventText = std::make_shared<StoredEventText>(path);
    return s;
}

} // namespace ws
