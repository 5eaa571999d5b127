#include "import/json_event_parser.h"

#include "import/loose_number.h"
#include "import/time_lexeme.h"
#include "model/arg_columns.h"
#include "model/event_kind.h"
#include "model/json_trailing_commas.h"
#include "model/track.h"

// simdjson's inlined iterator code trips -Wnull-dereference in its own header; not ours to fix.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wnull-dereference"
#include <simdjson.h>
#pragma GCC diagnostic pop

#include <cstring>
#include <string>
#include <string_view>
#include <unordered_map>

namespace ws {

namespace od = simdjson::ondemand;

namespace {

struct StringHash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const noexcept { return std::hash<std::string_view>()(s); }
};

struct TrackKeyHash {
    size_t operator()(const ChunkResult::TrackKey& k) const noexcept {
        IdValueHash h;
        return h(k.pid) * 1000003u ^ h(k.tid) ^ k.kind;
    }
};

// One event's fields, collected in document order before the record is built.
struct Fields {
    std::string_view ph;
    std::string_view name;
    std::string_view cat;
    std::string_view scope;
    std::string_view bp;
    std::string_view tsLex;
    std::string_view durLex;
    bool hasName = false;
    bool hasTs = false;
    bool hasDur = false;
    bool hasPid = false;
    bool hasTid = false;
    bool hasId = false;
    bool idIsString = false;
    bool flowIn = false;
    bool flowOut = false;
    bool hasBindId = false;
    int64_t pidNum = 0, tidNum = 0;
    std::string_view pidStr, tidStr;
    bool pidIsString = false, tidIsString = false;
    uint64_t id = 0;
    std::string_view idStr;
    uint64_t bindId = 0;
    // args
    uint8_t have = 0;
    uint32_t corr = 0, ext = 0;
    int64_t bytes = 0;
    float bps = 0, occ = 0;
    int64_t memDevType = -1, memDevId = -1;
    int64_t memAddr = INT64_MIN, memBytes = INT64_MIN, memTotalAlloc = INT64_MIN, memTotalRes = INT64_MIN;
    std::string_view argName, argLabels;
    // The argument columns (arg_columns.h): kLaunchArgKeys and kOpArgKeys as the event gives them.
    std::array<ArgColumnField, kLaunchArgKeys.size()> launch{};
    std::array<ArgColumnField, kOpArgKeys.size()> op{};
    bool hasArgs = false; // args is an object with at least one member
    // Where the args object lies (ArgsSpans): its '{', and the opening quote of the member after
    // it (null when args is the last member; then the event's closing brace ends it). eventBegin
    // and eventLast (its closing '}') are set by the caller before emit().
    const char* argsBegin = nullptr;
    const char* argsNext = nullptr;
    bool argsTwice = false;
    const char* eventBegin = nullptr;
    const char* eventLast = nullptr;
    bool hasArgName = false, hasArgLabels = false, hasSortIndex = false;
    int64_t sortIndex = 0;
    std::vector<std::pair<std::string_view, double>>* series = nullptr;
    // Counter values that are strings but not numbers: how many, and the first one.
    uint32_t badSeries = 0;
    std::string_view badSeriesName, badSeriesText;
};

// Compares a raw (still escaped) key, which starts right after its opening quote, with a literal
// without unescaping it: keys we look for contain no escapes, so a key with one never matches.
template <size_t N>
bool keyIs(const char* raw, const char (&literal)[N]) {
    return std::memcmp(raw, literal, N - 1) == 0 && raw[N - 1] == '"';
}

// Which args keys an event still needs; once all are found the rest of args is skipped.
enum ArgWant : uint16_t {
    kWantExt = 1, kWantCorr = 2, kWantBytes = 4, kWantBps = 8, kWantOcc = 16, kWantMemory = 32, kWantMeta = 64,
    kWantAll = 0xffff
};

// Reads any JSON number as int64 (doubles truncated), false if not a number.
bool readInt(od::value& v, int64_t& out) {
    od::number n;
    if (v.get_number().get(n))
        return false;
    switch (n.get_number_type()) {
    case od::number_type::signed_integer: out = n.get_int64(); return true;
    case od::number_type::unsigned_integer: out = static_cast<int64_t>(n.get_uint64()); return true;
    case od::number_type::floating_point_number: {
        const double d = n.get_double();
        if (!(d > -9.2e18 && d < 9.2e18))
            return false;
        out = static_cast<int64_t>(d);
        return true;
    }
    default: return false;
    }
}

// An argument column field (arg_columns.h): a string's unescaped text, any other value's raw JSON.
void readColumnField(od::value& v, ArgColumnField& out) {
    od::json_type t;
    if (v.type().get(t))
        return;
    std::string_view text;
    if (t == od::json_type::string) {
        if (v.get_string().get(text))
            return;
        out = {true, true, text};
        return;
    }
    // simdjson 3.0 has raw_json() on arrays and objects only.
    if (t == od::json_type::array) {
        od::array array;
        if (v.get_array().get(array) || array.raw_json().get(text))
            return;
    } else if (t == od::json_type::object) {
        od::object object;
        if (v.get_object().get(object) || object.raw_json().get(text))
            return;
    } else {
        text = v.raw_json_token();
    }
    out = {true, false, text};
}

bool readDouble(od::value& v, double& out) {
    od::number n;
    if (v.get_number().get(n))
        return false;
    out = n.as_double();
    return true;
}

// A number or a string holding a number (some writers quote ids and ts).
bool readLexeme(od::value& v, std::string_view& out) {
    od::json_type t;
    if (v.type().get(t))
        return false;
    if (t == od::json_type::string)
        return !v.get_string().get(out);
    if (t != od::json_type::number)
        return false;
    out = v.raw_json_token();
    return true;
}

} // namespace

struct JsonEventParser::Impl {
    uint32_t worker;
    od::parser parser;
    std::unordered_map<std::string, uint32_t, StringHash, std::equal_to<>> strings;
    uint32_t nextString = 1; // 0 is the empty string in every table
    std::unordered_map<ChunkResult::TrackKey, uint32_t, TrackKeyHash> tracks;
    std::vector<std::pair<std::string_view, double>> series;
    std::unordered_map<std::string, EventKind, StringHash, std::equal_to<>> kinds; // category cache
    ChunkResult* out = nullptr;

    uint32_t intern(std::string_view s) {
        if (s.empty())
            return 0;
        auto it = strings.find(s);
        if (it != strings.end())
            return it->second;
        const uint32_t id = nextString++;
        strings.emplace(std::string(s), id);
        out->newStrings.emplace_back(s);
        return id;
    }

    // The local string id of an argument column value (0: none); a value that cannot be kept
    // marks the chunk (ChunkResult::argColumnsLost).
    template <size_t N>
    uint32_t internColumn(const std::array<ArgColumnField, N>& fields) {
        bool any = false;
        for (const ArgColumnField& field : fields)
            any = any || field.present;
        if (!any)
            return 0;
        if (!joinArgColumn(fields, columnText)) {
            out->argColumnsLost = true;
            return 0;
        }
        return intern(columnText);
    }
    std::string columnText;

    IdValue idValue(bool isString, int64_t num, std::string_view str) {
        IdValue v;
        // "25738" and 25738 name the same thread (JavaScript object keys; 2021 Kineto mixes them).
        uint64_t parsed = 0;
        if (isString && !str.empty() && str.size() < 19 && str.find_first_not_of("-0123456789") == std::string_view::npos &&
            (str[0] != '0' || str.size() == 1) && parseIntegerId(str, parsed)) {
            isString = false;
            num = static_cast<int64_t>(parsed);
        }
        v.isString = isString;
        if (isString)
            v.string = intern(str);
        else
            v.number = num;
        return v;
    }

    uint32_t track(const IdValue& pid, const IdValue& tid, uint8_t kind) {
        ChunkResult::TrackKey key{pid, tid, kind};
        auto it = tracks.find(key);
        if (it != tracks.end())
            return it->second;
        const auto idx = static_cast<uint32_t>(out->tracks.size());
        out->tracks.push_back(key);
        tracks.emplace(key, idx);
        return idx;
    }

    simdjson::error_code readArgs(od::value& argsValue, Fields& f, bool wantSeries);
    simdjson::error_code readEvent(od::object& obj, Fields& f);
    // Records where the event's args lie, when the import keeps them (keepArgsSpans).
    void keepArgsSpan(const Fields& f, uint64_t argRef);
    bool keepArgsSpans = false;
    bool spansPaused = false; // events whose text the trailing-comma repair changed get none
    void emit(Fields& f, uint64_t argRef, uint64_t seq, uint64_t offset);
    // spans[from, to) as one array document; false (and nothing kept) if any event is odd.
    bool parseBatch(char* buf, size_t bufCapacity, const std::vector<std::pair<size_t, size_t>>& spans, size_t from,
                    size_t to, uint64_t absOffset, uint64_t seqBase);
    // Blanks the trailing commas of spans[from, to) in the block (json_trailing_commas.h) and notes
    // each event that had some; true if any had.
    bool repairTrailingCommas(char* buf, const std::vector<std::pair<size_t, size_t>>& spans, size_t from,
                              size_t to, uint64_t absOffset);
    // spans[from, to) one document each; a malformed event is reported and skipped.
    void parseEach(char* buf, size_t bufCapacity, const std::vector<std::pair<size_t, size_t>>& spans, size_t from,
                   size_t to, uint64_t absOffset, uint64_t seqBase);
};

simdjson::error_code JsonEventParser::Impl::readArgs(od::value& argsValue, Fields& f, bool wantSeries) {
    od::object args;
    if (auto err = argsValue.get_object().get(args))
        return err;
    // What this event can use, from its category and phase when they came before args (Kineto
    // writes them first); otherwise look at every key.
    uint16_t want = kWantAll;
    if (!wantSeries && !f.cat.empty()) {
        auto it = kinds.find(f.cat);
        if (it == kinds.end())
            it = kinds.emplace(std::string(f.cat), eventKindForCategory(f.cat)).first;
        const EventKind kind = it->second;
        switch (kind) {
        case EventKind::CpuOp: break; // the operator's argument columns may be anywhere in args
        case EventKind::UserAnnotation:
        case EventKind::GpuUserAnnotation:
        case EventKind::PythonFunction: want = kWantExt; break;
        case EventKind::Runtime:
        case EventKind::Driver: want = kWantExt | kWantCorr; break;
        case EventKind::Memcpy:
        case EventKind::Memset: want = kWantExt | kWantCorr | kWantBytes; break;
        default: break;
        }
    }
    uint16_t found = 0;
    for (auto field : args) {
        f.hasArgs = true;
        od::raw_json_string rawKey;
        if (auto err = field.key().get(rawKey))
            return err;
        const char* k = rawKey.raw();
        od::value v;
        if (auto err = field.value().get(v))
            return err;
        int64_t i = 0;
        double d = 0;
        bool used = true;
        switch (k[0]) {
        case 'E':
            if (keyIs(k, "External id") && readInt(v, i)) {
                f.ext = static_cast<uint32_t>(i);
                f.have |= ChunkResult::kExt;
                found |= kWantExt;
            } else
                used = false;
            break;
        case 'e':
            if (keyIs(k, "external id") && readInt(v, i)) {
                f.ext = static_cast<uint32_t>(i);
                f.have |= ChunkResult::kExt;
                found |= kWantExt;
            } else if (keyIs(k, "est. achieved occupancy %") && readDouble(v, d)) {
                f.occ = static_cast<float>(d);
                f.have |= ChunkResult::kOcc;
            } else
                used = false;
            break;
        case 'c':
            if (keyIs(k, "correlation") && readInt(v, i)) {
                f.corr = static_cast<uint32_t>(i);
                f.have |= ChunkResult::kCorr;
                found |= kWantCorr;
            } else
                used = false;
            break;
        case 'g':
            if (keyIs(k, "grid"))
                readColumnField(v, f.launch[0]);
            else
                used = false;
            break;
        case 'r':
            if (keyIs(k, "registers per thread"))
                readColumnField(v, f.launch[2]);
            else
                used = false;
            break;
        case 'I':
            if (keyIs(k, "Input Dims"))
                readColumnField(v, f.op[0]);
            else if (keyIs(k, "Input type"))
                readColumnField(v, f.op[1]);
            else
                used = false;
            break;
        case 'C':
            if (keyIs(k, "Concrete Inputs"))
                readColumnField(v, f.op[2]);
            else if (keyIs(k, "Call stack"))
                readColumnField(v, f.op[3]);
            else
                used = false;
            break;
        case 'b':
            if (keyIs(k, "block")) {
                readColumnField(v, f.launch[1]);
            } else if (keyIs(k, "bytes") && readInt(v, i)) {
                f.bytes = i;
                f.have |= ChunkResult::kBytes;
                found |= kWantBytes;
            } else if (keyIs(k, "blocks per SM") && readDouble(v, d)) {
                f.bps = static_cast<float>(d);
                f.have |= ChunkResult::kBps;
            } else
                used = false;
            break;
        case 'D':
            if (keyIs(k, "Device Type") && readInt(v, i))
                f.memDevType = i;
            else if (keyIs(k, "Device Id") && readInt(v, i))
                f.memDevId = i;
            else
                used = false;
            break;
        case 'A':
            if (keyIs(k, "Addr") && readInt(v, i))
                f.memAddr = i;
            else
                used = false;
            break;
        case 'B':
            if (keyIs(k, "Bytes") && readInt(v, i))
                f.memBytes = i;
            else
                used = false;
            break;
        case 'T':
            if (keyIs(k, "Total Allocated") && readInt(v, i))
                f.memTotalAlloc = i;
            else if (keyIs(k, "Total Reserved") && readInt(v, i))
                f.memTotalRes = i;
            else
                used = false;
            break;
        case 'n':
            if (keyIs(k, "name")) {
                std::string_view str;
                if (!v.get_string().get(str)) {
                    f.argName = str;
                    f.hasArgName = true;
                }
            } else
                used = false;
            break;
        case 'l':
            if (keyIs(k, "labels")) {
                std::string_view str;
                if (!v.get_string().get(str)) {
                    f.argLabels = str;
                    f.hasArgLabels = true;
                }
            } else
                used = false;
            break;
        case 's':
            if (keyIs(k, "sort_index") && readInt(v, i)) {
                f.sortIndex = i;
                f.hasSortIndex = true;
            } else if (keyIs(k, "shared memory")) {
                readColumnField(v, f.launch[3]);
            } else
                used = false;
            break;
        default: used = false; break;
        }
        if (!used && wantSeries) {
            // Series names are taken as written (escapes are not decoded).
            auto seriesName = [k] {
                const char* q = k;
                while (*q != '"' || (q > k && q[-1] == '\\'))
                    ++q;
                return std::string_view(k, static_cast<size_t>(q - k));
            };
            od::json_type t;
            const bool typed = !v.type().get(t);
            std::string_view text;
            if (typed && t == od::json_type::number && readDouble(v, d)) {
                series.emplace_back(seriesName(), d);
            } else if (typed && t == od::json_type::string && !v.get_string().get(text)) {
                // Writers other than Kineto quote counter values ("25.7"); Chrome trace readers take
                // them as numbers. Other text is counted by emit() if the event is a counter.
                if (parseLooseNumber(text, d)) {
                    series.emplace_back(seriesName(), d);
                } else if (f.badSeries++ == 0) {
                    f.badSeriesName = seriesName();
                    f.badSeriesText = text;
                }
            }
        }
        if ((found & want) == want)
            break; // the rest of args is skipped structurally by the parent's iteration
    }
    return simdjson::SUCCESS;
}

simdjson::error_code JsonEventParser::Impl::readEvent(od::object& obj, Fields& f) {
    for (auto field : obj) {
        od::raw_json_string nextKey;
        if (f.argsBegin && !f.argsNext && !field.key().get(nextKey))
            f.argsNext = nextKey.raw() - 1;
        std::string_view key;
        if (auto err = field.unescaped_key().get(key))
            return err;
        od::value v;
        if (auto err = field.value().get(v))
            return err;
        if (key.empty())
            continue;
        switch (key[0]) {
        case 'p':
            if (key == "ph") {
                if (v.get_string().get(f.ph))
                    out->report.add("event field of the wrong type", "ph is not a string");
            } else if (key == "pid") {
                od::json_type t;
                if (v.type().get(t))
                    return simdjson::TAPE_ERROR;
                if (t == od::json_type::string) {
                    if (!v.get_string().get(f.pidStr))
                        f.pidIsString = f.hasPid = true;
                } else if (readInt(v, f.pidNum)) {
                    f.hasPid = true;
                } else {
                    out->report.add("event field of the wrong type", "pid is neither a number nor a string");
                }
            }
            break;
        case 't':
            if (key == "ts") {
                // A non-number (NaN, an object, ...) is kept as text and rejected as an invalid ts.
                if (!readLexeme(v, f.tsLex))
                    f.tsLex = v.raw_json_token();
                f.hasTs = true;
            } else if (key == "tid") {
                od::json_type t;
                if (v.type().get(t))
                    return simdjson::TAPE_ERROR;
                if (t == od::json_type::string) {
                    if (!v.get_string().get(f.tidStr))
                        f.tidIsString = f.hasTid = true;
                } else if (readInt(v, f.tidNum)) {
                    f.hasTid = true;
                } else {
                    out->report.add("event field of the wrong type", "tid is neither a number nor a string");
                }
            }
            break;
        case 'd':
            if (key == "dur") {
                if (!readLexeme(v, f.durLex))
                    f.durLex = v.raw_json_token();
                f.hasDur = true;
            }
            break;
        case 'n':
            if (key == "name") {
                od::json_type t;
                if (!v.type().get(t) && t == od::json_type::string) {
                    if (!v.get_string().get(f.name))
                        f.hasName = true;
                } else {
                    f.name = v.raw_json_token();
                    f.hasName = true;
                    out->report.add("event field of the wrong type", "name is not a string");
                }
            }
            break;
        case 'c':
            if (key == "cat") {
                if (v.get_string().get(f.cat))
                    out->report.add("event field of the wrong type", "cat is not a string");
            }
            break;
        case 's':
            if (key == "s")
                if (v.get_string().get(f.scope))
                    f.scope = {};
            break;
        case 'b':
            if (key == "bp") {
                if (v.get_string().get(f.bp))
                    f.bp = {};
            } else if (key == "bind_id") {
                std::string_view lex;
                if (readLexeme(v, lex) && parseIntegerId(lex, f.bindId))
                    f.hasBindId = true;
            }
            break;
        case 'f':
            if (key == "flow_in") {
                bool b = false;
                f.flowIn = !v.get_bool().get(b) && b;
            } else if (key == "flow_out") {
                bool b = false;
                f.flowOut = !v.get_bool().get(b) && b;
            }
            break;
        case 'i':
            if (key == "id" || key == "id2") {
                od::json_type t;
                if (v.type().get(t))
                    return simdjson::TAPE_ERROR;
                if (t == od::json_type::object) {
                    od::object o;
                    if (v.get_object().get(o))
                        break;
                    for (auto inner : o) {
                        od::value iv;
                        if (inner.value().get(iv))
                            break;
                        std::string_view lex;
                        if (readLexeme(iv, lex)) {
                            f.hasId = true;
                            if (!parseIntegerId(lex, f.id)) {
                                f.idIsString = true;
                                f.idStr = lex;
                            }
                        }
                        break;
                    }
                    break;
                }
                std::string_view lex;
                if (readLexeme(v, lex)) {
                    f.hasId = true;
                    if (!parseIntegerId(lex, f.id)) {
                        f.idIsString = true;
                        f.idStr = lex;
                    }
                }
            }
            break;
        case 'a':
            if (key == "args") {
                od::json_type t;
                if (v.type().get(t))
                    return simdjson::TAPE_ERROR;
                if (t == od::json_type::object) {
                    if (keepArgsSpans) { // an import that is not stored pays nothing for the spans
                        f.argsTwice = f.argsBegin != nullptr;
                        f.argsBegin = v.raw_json_token().data();
                        f.argsNext = nullptr;
                    }
                    const bool wantSeries = f.ph.empty() || f.ph == "C";
                    if (auto err = readArgs(v, f, wantSeries))
                        return err;
                }
            }
            break;
        default: break;
        }
    }
    return simdjson::SUCCESS;
}

void JsonEventParser::Impl::keepArgsSpan(const Fields& f, uint64_t argRef) {
    if (spansPaused || !f.argsBegin || f.argsTwice || !f.eventBegin || !f.eventLast)
        return; // argsBegin is only set when the import keeps spans
    // The value ends before the next member's key (and the comma before it), or before the
    // event's closing brace; whitespace in between is not part of it.
    auto space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
    const char* end = f.argsNext ? f.argsNext : f.eventLast;
    while (end > f.argsBegin && space(end[-1]))
        --end;
    if (f.argsNext) {
        if (end == f.argsBegin || end[-1] != ',')
            return;
        --end;
        while (end > f.argsBegin && space(end[-1]))
            --end;
    }
    if (end - f.argsBegin < 2 || *f.argsBegin != '{' || end[-1] != '}' || f.argsBegin < f.eventBegin)
        return;
    out->argsSpans.add(argRef, static_cast<uint32_t>(f.argsBegin - f.eventBegin), static_cast<uint32_t>(end - f.argsBegin));
}

void JsonEventParser::Impl::emit(Fields& f, uint64_t argRef, uint64_t seq, uint64_t offset) {
    ChunkResult& r = *out;
    auto where = [&] { return "event at byte " + std::to_string(offset); };
    if (f.ph.size() != 1) {
        // The format document defines ph as one character. Perfetto reads the first of a longer
        // text, catapult refuses it; guessing that "XXX" or "Begin" meant X or B would make up
        // slices, so such an event is skipped and counted under its own name (FORMAT_NOTES.md).
        if (f.ph.empty())
            r.report.add("event without a phase", where());
        else
            r.report.add("phase longer than one character (skipped)",
                         where() + ": ph \"" + std::string(f.ph.substr(0, 8)) + "\"");
        return;
    }
    const char ph = f.ph[0];
    int64_t ts = 0;
    if (f.hasTs && !parseMicrosToNs(f.tsLex, ts)) {
        r.report.add("invalid timestamp", where() + ": ts " + std::string(f.tsLex.substr(0, 40)));
        return;
    }
    const bool needsTs = ph != 'M';
    if (needsTs && !f.hasTs) {
        r.report.add("event without ts", where());
        return;
    }
    if (needsTs) {
        r.minTs = std::min(r.minTs, ts);
        r.maxTs = std::max(r.maxTs, ts);
    }
    const IdValue pid = idValue(f.pidIsString, f.pidNum, f.pidStr);
    // An event without tid belongs to its process's own thread (tid == pid), as Perfetto reads it:
    // single-threaded writers leave tid out, and their X events must nest under their parents.
    const IdValue tid = f.hasTid ? idValue(f.tidIsString, f.tidNum, f.tidStr) : pid;
    switch (ph) {
    case 'X': {
        int64_t dur = 0;
        if (f.hasDur && !parseMicrosToNs(f.durLex, dur)) {
            r.report.add("invalid duration", where() + ": dur " + std::string(f.durLex.substr(0, 40)));
            dur = 0;
        } else if (!f.hasDur) {
            r.report.add("complete event without dur", where());
        }
        if (dur < 0) {
            r.report.add("negative duration (set to 0)", where());
            dur = 0;
        }
        r.maxTs = std::max(r.maxTs, ts + dur);
        ChunkResult::Slice s;
        s.ts = ts;
        s.dur = dur;
        s.argRef = argRef;
        s.track = track(pid, tid, ChunkResult::kThread);
        s.name = intern(f.name);
        s.cat = intern(f.cat);
        s.have = f.have;
        s.corr = f.corr;
        s.ext = f.ext;
        s.bytes = f.bytes;
        s.bps = f.bps;
        s.occ = f.occ;
        s.launchArgs = internColumn(f.launch);
        s.opArgs = internColumn(f.op);
        r.slices.push_back(s);
        keepArgsSpan(f, argRef);
        if (f.hasBindId && (f.flowIn || f.flowOut)) {
            // Flow v2: the slice itself is the flow end.
            ChunkResult::FlowEnd fe;
            fe.ts = ts;
            fe.seq = seq;
            fe.id = f.bindId;
            fe.track = s.track;
            fe.cat = s.cat;
            fe.bindEnclosing = true;
            if (f.flowIn) {
                fe.ph = f.flowOut ? 't' : 'f';
                r.flows.push_back(fe);
            } else {
                fe.ph = 's';
                r.flows.push_back(fe);
            }
        }
        break;
    }
    case 'B':
    case 'E': {
        ChunkResult::BeginEnd be;
        be.ts = ts;
        // An E event matters for its args only (merged into the slice its B opened).
        be.argRef = ph == 'E' && !f.hasArgs ? Track::kNoArgs : argRef;
        be.seq = seq;
        be.track = track(pid, tid, ChunkResult::kThread);
        be.name = intern(f.name);
        be.cat = intern(f.cat);
        be.ph = ph;
        r.beginEnds.push_back(be);
        if (be.argRef != Track::kNoArgs)
            keepArgsSpan(f, argRef);
        break;
    }
    case 'i':
    case 'I':
    case 'R': {
        if (f.name == "[memory]") {
            ChunkResult::Memory m;
            m.ts = ts;
            m.track = track(pid, tid, ChunkResult::kThread);
            m.deviceType = static_cast<int16_t>(f.memDevType);
            m.deviceId = static_cast<int16_t>(f.memDevId);
            m.addr = f.memAddr;
            m.bytes = f.memBytes;
            m.totalAllocated = f.memTotalAlloc;
            m.totalReserved = f.memTotalRes;
            r.memory.push_back(m);
            break;
        }
        ChunkResult::Instant in;
        in.ts = ts;
        in.argRef = argRef;
        in.name = intern(f.name);
        in.cat = intern(f.cat);
        const char scope = f.scope.empty() ? 't' : f.scope[0];
        if (scope == 'g')
            in.track = track(IdValue{0, kEmptyString, true}, IdValue{}, ChunkResult::kGlobalInstants);
        else if (scope == 'p')
            in.track = track(pid, IdValue{}, ChunkResult::kProcessInstants);
        else
            in.track = track(pid, tid, ChunkResult::kThread);
        r.instants.push_back(in);
        keepArgsSpan(f, argRef);
        break;
    }
    case 'C': {
        if (f.badSeries > 0)
            r.report.add("counter value that is not a number (skipped)",
                         where() + ": " + std::string(f.badSeriesName.substr(0, 40)) + " \"" +
                             std::string(f.badSeriesText.substr(0, 40)) + "\"",
                         f.badSeries);
        if (series.empty()) {
            if (f.badSeries == 0)
                r.report.add("counter without numeric values", where());
            break;
        }
        for (const auto& [key, value] : series) {
            ChunkResult::Counter c;
            c.pid = pid;
            c.ts = ts;
            c.value = value;
            c.seq = seq;
            c.name = intern(f.name);
            c.series = intern(key);
            c.cat = intern(f.cat);
            if (f.hasId) {
                c.hasId = true;
                c.idString = intern(f.idIsString ? f.idStr : std::string_view(std::to_string(f.id)));
            }
            r.counters.push_back(c);
        }
        break;
    }
    case 's':
    case 't':
    case 'f': {
        if (!f.hasId) {
            r.report.add("flow event without id", where());
            break;
        }
        ChunkResult::FlowEnd fe;
        fe.ts = ts;
        fe.seq = seq;
        fe.track = track(pid, tid, ChunkResult::kThread);
        fe.cat = intern(f.cat.empty() ? f.name : f.cat);
        fe.ph = ph;
        fe.bindEnclosing = ph != 'f' || f.bp == "e";
        fe.idIsString = f.idIsString;
        fe.id = f.idIsString ? intern(f.idStr) : f.id;
        r.flows.push_back(fe);
        break;
    }
    case 'b':
    case 'e':
    case 'n': {
        if (!f.hasId) {
            r.report.add("async event without id", where());
            break;
        }
        ChunkResult::Async a;
        a.pid = pid;
        a.ts = ts;
        a.seq = seq;
        a.argRef = argRef;
        a.cat = intern(f.cat);
        a.name = intern(f.name);
        a.ph = ph;
        a.idIsString = f.idIsString;
        a.id = f.idIsString ? intern(f.idStr) : f.id;
        r.asyncs.push_back(a);
        keepArgsSpan(f, argRef);
        break;
    }
    case 'M': {
        ChunkResult::Meta m;
        m.pid = pid;
        m.tid = tid;
        m.seq = seq;
        if (f.name == "process_name" && f.hasArgName) {
            m.kind = ChunkResult::MetaKind::ProcessName;
            m.str = intern(f.argName);
        } else if (f.name == "process_labels" && f.hasArgLabels) {
            m.kind = ChunkResult::MetaKind::ProcessLabels;
            m.str = intern(f.argLabels);
        } else if (f.name == "process_sort_index" && f.hasSortIndex) {
            m.kind = ChunkResult::MetaKind::ProcessSortIndex;
            m.number = f.sortIndex;
        } else if (f.name == "thread_name" && f.hasArgName) {
            m.kind = ChunkResult::MetaKind::ThreadName;
            m.str = intern(f.argName);
        } else if (f.name == "thread_sort_index" && f.hasSortIndex) {
            m.kind = ChunkResult::MetaKind::ThreadSortIndex;
            m.number = f.sortIndex;
        } else {
            r.report.add("ignored metadata event", std::string(f.name.substr(0, 60)));
            break;
        }
        r.metas.push_back(m);
        break;
    }
    case 'P': case 'S': case 'T': case 'p': case 'F': case 'N': case 'O': case 'D':
    case 'V': case 'v': case 'c': case '(': case ')':
        r.report.add(std::string("ignored phase '") + ph + "'", where());
        break;
    default:
        r.report.add("unknown phase", where() + ": ph \"" + std::string(f.ph.substr(0, 8)) + "\"");
        break;
    }
}

JsonEventParser::JsonEventParser(uint32_t worker) : m_impl(std::make_unique<Impl>()) {
    m_impl->worker = worker;
}

JsonEventParser::~JsonEventParser() = default;

void JsonEventParser::setKeepArgsSpans(bool on) { m_impl->keepArgsSpans = on; }

void JsonEventParser::parse(char* buf, size_t bufCapacity, const std::vector<std::pair<size_t, size_t>>& spans,
                            uint64_t absOffset, uint64_t seqBase, ChunkResult& out) {
    Impl& d = *m_impl;
    d.out = &out;
    out.worker = d.worker;
    out.firstNewString = d.nextString;
    d.tracks.clear();
    // Groups of events of at most kBatchBytes are parsed as one array document each: fewer
    // documents than one per event, while simdjson's buffers (several bytes per input byte)
    // stay small. A group with anything odd is redone one event at a time.
    constexpr size_t kBatchBytes = 256 * 1024;
    size_t k = 0;
    while (k < spans.size()) {
        size_t end = k + 1;
        while (end < spans.size() && spans[end].second - spans[k].first <= kBatchBytes)
            ++end;
        if (end - k >= 2 && d.parseBatch(buf, bufCapacity, spans, k, end, absOffset, seqBase)) {
            k = end;
            continue;
        }
        // An odd event in the group, or a group of one. Trailing commas are the one oddity that is
        // repaired; only this path pays for looking for them, so well-formed files cost nothing more.
        const bool repaired = d.repairTrailingCommas(buf, spans, k, end, absOffset);
        // The store reads args from the source, where the repaired commas still are: it cuts those.
        d.spansPaused = repaired;
        if (!(repaired && end - k >= 2 && d.parseBatch(buf, bufCapacity, spans, k, end, absOffset, seqBase)))
            d.parseEach(buf, bufCapacity, spans, k, end, absOffset, seqBase);
        d.spansPaused = false;
        k = end;
    }
    d.out = nullptr;
}

bool JsonEventParser::Impl::repairTrailingCommas(char* buf, const std::vector<std::pair<size_t, size_t>>& spans,
                                                 size_t from, size_t to, uint64_t absOffset) {
    bool any = false;
    for (size_t k = from; k < to; ++k) {
        const auto [begin, end] = spans[k];
        if (blankTrailingCommas(buf + begin, end - begin) > 0) {
            any = true;
            out->report.addNote("trailing comma in an event (accepted)",
                                "event at byte " + std::to_string(absOffset + begin));
        }
    }
    return any;
}

void JsonEventParser::Impl::parseEach(char* buf, size_t bufCapacity, const std::vector<std::pair<size_t, size_t>>& spans,
                                      size_t from, size_t to, uint64_t absOffset, uint64_t seqBase) {
    for (size_t k = from; k < to; ++k) {
        const auto [begin, end] = spans[k];
        const uint64_t offset = absOffset + begin;
        Fields f;
        series.clear();
        od::document doc;
        simdjson::error_code err = parser.iterate(buf + begin, end - begin, bufCapacity - begin).get(doc);
        if (!err) {
            od::object obj;
            err = doc.get_object().get(obj);
            if (!err)
                err = readEvent(obj, f);
        }
        f.eventBegin = buf + begin;
        f.eventLast = buf + end - 1;
        if (err) {
            out->report.add("malformed event (skipped)",
                            "event at byte " + std::to_string(offset) + ": " + simdjson::error_message(err));
            continue;
        }
        ++out->events;
        emit(f, offset, seqBase + k, offset);
    }
}

bool JsonEventParser::Impl::parseBatch(char* buf, size_t bufCapacity, const std::vector<std::pair<size_t, size_t>>& spans,
                                       size_t from, size_t to, uint64_t absOffset, uint64_t seqBase) {
    ChunkResult& r = *out;
    // Snapshot for the rollback: records are only appended, so sizes suffice.
    const size_t nTracks = r.tracks.size(), nSlices = r.slices.size(), nBe = r.beginEnds.size(),
                 nInstants = r.instants.size(), nMemory = r.memory.size(), nCounters = r.counters.size(),
                 nFlows = r.flows.size(), nAsyncs = r.asyncs.size(), nMetas = r.metas.size(),
                 nSpans = r.argsSpans.size();
    const uint64_t nEvents = r.events;
    const int64_t minTs = r.minTs, maxTs = r.maxTs;
    const ImportReport report = r.report;

    const size_t first = spans[from].first;
    const size_t last = spans[to - 1].second;
    // The byte before the first event (buf[-1] when first is 0: the caller's slack byte). Indexed
    // from a pointer, not as buf[first - 1], whose unsigned index wraps when first is 0.
    char* const open = buf + first - 1;
    const char before = *open;
    const char after = buf[last];
    *open = '[';
    buf[last] = ']';
    size_t k = from;
    od::document doc;
    simdjson::error_code err = parser.iterate(open, last - first + 2, bufCapacity + 1 - first).get(doc);
    od::array arr;
    if (!err)
        err = doc.get_array().get(arr);
    // Not iterated unless it is an array: a failed get_array leaves arr unusable (simdjson assumes
    // a valid iterator; the fuzzer reached its unreachable branch).
    if (!err) {
        for (auto element : arr) {
            if (err)
                break;
            if (k == to) {
                err = simdjson::TAPE_ERROR; // more elements than spans: a non-object element
                break;
            }
            od::object obj;
            if ((err = element.get_object().get(obj)))
                break;
            Fields f;
            series.clear();
            if ((err = readEvent(obj, f)))
                break;
            f.eventBegin = buf + spans[k].first;
            f.eventLast = buf + spans[k].second - 1;
            const uint64_t offset = absOffset + spans[k].first;
            ++r.events;
            emit(f, offset, seqBase + k, offset);
            ++k;
        }
    }
    *open = before;
    buf[last] = after;
    if (!err && k == to)
        return true;
    // Undo the group (interned strings stay: their ids are already handed out).
    for (size_t t = nTracks; t < r.tracks.size(); ++t)
        tracks.erase(r.tracks[t]);
    r.tracks.resize(nTracks);
    r.slices.resize(nSlices);
    r.beginEnds.resize(nBe);
    r.instants.resize(nInstants);
    r.memory.resize(nMemory);
    r.counters.resize(nCounters);
    r.flows.resize(nFlows);
    r.asyncs.resize(nAsyncs);
    r.metas.resize(nMetas);
    r.argsSpans.truncate(nSpans);
    r.events = nEvents;
    r.minTs = minTs;
    r.maxTs = maxTs;
    r.report = report;
    return false;
}

} // namespace ws
