// Session::forEachArgValues: the one-pass argument reader behind every analysis that needs
// arguments of many events (kernel launch geometry, operator input shapes). Reading per event
// (Session::args) reopens and re-seeks the source and builds a DOM: ~260 us per event. Here the
// source is read once in argRef order and each object is scanned with simdjson On-Demand, touching
// only the requested keys.
#include "model/session.h"

#include "io/input_stream.h"
#include "model/arg_columns.h"
#include "model/end_args_merge.h"
#include "model/event_object_reader.h"
#include "model/json_string_scan.h"

#include <simdjson.h>

#include <algorithm>
#include <numeric>
#include <unordered_map>

namespace ws {

namespace {

/* Extracts the requested args of one event object into views valid until the next parse. */
class ArgExtractor {
public:
    explicit ArgExtractor(const std::vector<std::string>& keys)
        : m_keys(keys), m_values(keys.size()), m_storage(keys.size()) {}

    const std::vector<std::string_view>& extract(std::string_view object) {
        std::fill(m_values.begin(), m_values.end(), std::string_view());
        m_padded.assign(object.data(), object.size());
        m_padded.resize(object.size() + simdjson::SIMDJSON_PADDING);
        simdjson::ondemand::document doc;
        if (m_parser.iterate(m_padded.data(), object.size(), m_padded.size()).get(doc))
            return m_values;
        simdjson::ondemand::object event;
        if (doc.get_object().get(event))
            return m_values;
        for (auto field : event) {
            std::string_view key;
            if (field.unescaped_key().get(key))
                return m_values;
            if (key != "args")
                continue;
            simdjson::ondemand::object args;
            if (field.value().get_object().get(args))
                return m_values;
            readArgs(args);
            break;
        }
        return m_values;
    }

private:
    void readArgs(simdjson::ondemand::object& args) {
        for (auto field : args) {
            std::string_view key;
            if (field.unescaped_key().get(key))
                return;
            const auto it = std::find(m_keys.begin(), m_keys.end(), key);
            if (it == m_keys.end())
                continue;
            const size_t k = static_cast<size_t>(it - m_keys.begin());
            simdjson::ondemand::value value;
            if (field.value().get(value))
                return;
            simdjson::ondemand::json_type type;
            if (value.type().get(type))
                return;
            if (type == simdjson::ondemand::json_type::string) {
                std::string_view text;
                if (value.get_string().get(text))
                    return;
                m_values[k] = text;
            } else {
                // simdjson 3.1 (Debian 12) has raw_json() on arrays and objects only.
                std::string_view raw;
                if (type == simdjson::ondemand::json_type::array) {
                    simdjson::ondemand::array array;
                    if (value.get_array().get(array) || array.raw_json().get(raw))
                        return;
                } else if (type == simdjson::ondemand::json_type::object) {
                    simdjson::ondemand::object object;
                    if (value.get_object().get(object) || object.raw_json().get(raw))
                        return;
                } else {
                    raw = value.raw_json_token();
                }
                compactJson(raw, m_storage[k]);
                m_values[k] = m_storage[k];
            }
        }
    }

    const std::vector<std::string>& m_keys;
    std::vector<std::string_view> m_values;
    std::vector<std::string> m_storage;
    std::string m_padded;
    simdjson::ondemand::parser m_parser;
};

} // namespace

void Session::forEachEventJson(const std::vector<uint64_t>& argRefs, const EventJsonFn& fn,
                               const std::atomic<bool>* stop) const {
    auto stopped = [stop] { return stop && stop->load(std::memory_order_relaxed); };
    std::vector<uint32_t> order;
    order.reserve(argRefs.size());
    for (size_t i = 0; i < argRefs.size(); ++i)
        if (argRefs[i] != Track::kNoArgs)
            order.push_back(static_cast<uint32_t>(i));
    std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
        return argRefs[a] != argRefs[b] ? argRefs[a] < argRefs[b] : a < b;
    });
    if (order.empty())
        return;
    if (m_eventText) {
        // Stored and SQLite-backed sessions: their sources cache by neighbourhood, so argRef order
        // is already the cheap order.
        for (const uint32_t i : order) {
            if (stopped())
                return;
            const std::string text = m_eventText->eventJson(argRefs[i]);
            fn(i, text, argRefs[i]);
        }
        return;
    }
    if (m_sourcePath.empty())
        return;
    const std::unordered_map<uint64_t, std::string> endObjects = endObjectsFor(argRefs, stop);
    InputStream in;
    if (!in.open(m_sourcePath))
        return;
    EventObjectReader reader(in);
    uint64_t lastRef = Track::kNoArgs;
    std::string_view object;
    std::string merged;
    for (const uint32_t i : order) {
        if (stopped())
            return;
        if (argRefs[i] != lastRef) { // equal refs (shared events) are read once
            lastRef = argRefs[i];
            object = reader.objectAt(lastRef);
            if (const auto it = endObjects.find(lastRef); it != endObjects.end() && !object.empty()) {
                merged = mergeEndArgs(object, it->second);
                object = merged;
            }
        }
        if (!object.empty())
            fn(i, object, lastRef);
    }
}

std::unordered_map<uint64_t, std::string> Session::endObjectsFor(const std::vector<uint64_t>& argRefs,
                                                                 const std::atomic<bool>* stop) const {
    std::unordered_map<uint64_t, std::string> out;
    if (m_endArgRefs.empty())
        return out;
    std::vector<std::pair<uint64_t, uint64_t>> wanted; // (E argRef, B argRef)
    for (const uint64_t ref : argRefs)
        if (const uint64_t end = ref == Track::kNoArgs ? Track::kNoArgs : endArgRef(ref); end != Track::kNoArgs)
            wanted.emplace_back(end, ref);
    if (wanted.empty())
        return out;
    // E events come in their own order (nested slices end in reverse): a second pass over the
    // source, only for traces with such slices, keeps the main pass sequential.
    std::sort(wanted.begin(), wanted.end());
    wanted.erase(std::unique(wanted.begin(), wanted.end()), wanted.end());
    InputStream in;
    if (!in.open(m_sourcePath))
        return out;
    EventObjectReader reader(in);
    for (const auto& [end, begin] : wanted) {
        if (stop && stop->load(std::memory_order_relaxed))
            break;
        out.emplace(begin, std::string(reader.objectAt(end)));
    }
    return out;
}

void Session::forEachArgValues(const std::vector<uint64_t>& argRefs, const std::vector<std::string>& keys,
                               const ArgValuesFn& fn, const std::atomic<bool>* stop) const {
    ArgExtractor extractor(keys);
    uint64_t lastRef = Track::kNoArgs;
    const std::vector<std::string_view>* last = nullptr;
    forEachEventJson(
        argRefs,
        [&](size_t i, std::string_view text, uint64_t argRef) {
            if (argRef != lastRef || m_eventText) { // equal refs (shared events) parse once
                lastRef = argRef;
                last = &extractor.extract(text);
            }
            fn(i, *last);
        },
        stop);
}

} // namespace ws
