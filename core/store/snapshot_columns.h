#pragma once

#include "model/memory_snapshot.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace ws::store {

/*
 * A PyTorch memory snapshot's own tables (model/memory_snapshot.h) in a stored session, so a
 * snapshot reopened from the library is not unpickled again: every table as columns of owner
 * "snapshot" (one column per field, index 0), its scalars and allocator settings as JSON in the meta
 * key "memory_snapshot". Writer and Reader are session_store.cpp's column classes (int64s, fixed).
 * readSnapshotColumns() checks that every table's columns agree in length and that indices between
 * tables (stack, frame, string, block) are in range: a damaged file is refused, never read past.
 */

inline nlohmann::json snapshotMetaJson(const MemorySnapshot& m) {
    nlohmann::json settings = nlohmann::json::array();
    for (const auto& [k, v] : m.allocatorSettings)
        settings.push_back({k, v});
    return {{"trace_entries", m.traceEntries}, {"first_us", m.firstUs}, {"last_us", m.lastUs}, {"settings", settings}};
}

// Throws nlohmann's exceptions on a value of the wrong type (the caller calls that damaged).
inline void snapshotFromMetaJson(const nlohmann::json& j, MemorySnapshot& m) {
    m.traceEntries = j.at("trace_entries").get<uint64_t>();
    m.firstUs = j.at("first_us").get<int64_t>();
    m.lastUs = j.at("last_us").get<int64_t>();
    for (const auto& kv : j.at("settings"))
        m.allocatorSettings.emplace_back(kv.at(0).get<std::string>(), kv.at(1).get<std::string>());
}

namespace detail {
template <typename Row, typename Field, typename Get> std::vector<Field> column(const Row& rows, Get get) {
    std::vector<Field> out;
    out.reserve(rows.size());
    for (const auto& r : rows)
        out.push_back(static_cast<Field>(get(r)));
    return out;
}
template <typename T> std::span<const T> all(const std::vector<T>& v) { return {v.data(), v.size()}; }
} // namespace detail

template <typename Writer> bool writeSnapshotColumns(const MemorySnapshot& m, Writer& w) {
    using detail::all;
    using detail::column;
    const char* o = "snapshot";
    // Strings: lengths and bytes.
    std::vector<int64_t> lengths;
    std::string bytes;
    for (const std::string& s : m.strings) {
        lengths.push_back(static_cast<int64_t>(s.size()));
        bytes += s;
    }
    const std::vector<char> chars(bytes.begin(), bytes.end());
    bool ok = w.int64s(o, 0, "string_length", all(lengths)) && w.fixed(o, 0, "string_bytes", all(chars));
    const auto& f = m.frames;
    ok = ok && w.fixed(o, 0, "frame_function", all(column<decltype(f), uint32_t>(f, [](auto& x) { return x.function; }))) &&
         w.fixed(o, 0, "frame_file", all(column<decltype(f), uint32_t>(f, [](auto& x) { return x.file; }))) &&
         w.fixed(o, 0, "frame_line", all(column<decltype(f), int32_t>(f, [](auto& x) { return x.line; }))) &&
         w.fixed(o, 0, "stack_start", all(m.stackStart)) && w.fixed(o, 0, "stack_frames", all(m.stackFrames)) &&
         w.fixed(o, 0, "devices", all(m.devices));
    const auto& a = m.allocations;
    using A = decltype(a);
    ok = ok && w.int64s(o, 0, "alloc_addr", all(column<A, int64_t>(a, [](auto& x) { return x.addr; }))) &&
         w.int64s(o, 0, "alloc_size", all(column<A, int64_t>(a, [](auto& x) { return x.size; }))) &&
         w.int64s(o, 0, "alloc_us", all(column<A, int64_t>(a, [](auto& x) { return x.allocUs; }))) &&
         w.int64s(o, 0, "alloc_free_requested_us", all(column<A, int64_t>(a, [](auto& x) { return x.freeRequestedUs; }))) &&
         w.int64s(o, 0, "alloc_free_us", all(column<A, int64_t>(a, [](auto& x) { return x.freeUs; }))) &&
         w.fixed(o, 0, "alloc_seq", all(column<A, uint32_t>(a, [](auto& x) { return x.allocSeq; }))) &&
         w.fixed(o, 0, "alloc_free_seq", all(column<A, uint32_t>(a, [](auto& x) { return x.freeSeq; }))) &&
         w.fixed(o, 0, "alloc_stack", all(column<A, uint32_t>(a, [](auto& x) { return x.stack; }))) &&
         w.fixed(o, 0, "alloc_stream", all(column<A, int32_t>(a, [](auto& x) { return x.stream; }))) &&
         w.fixed(o, 0, "alloc_device", all(column<A, int16_t>(a, [](auto& x) { return x.device; })));
    const auto& e = m.segmentEvents;
    using E = decltype(e);
    ok = ok && w.int64s(o, 0, "segev_us", all(column<E, int64_t>(e, [](auto& x) { return x.timeUs; }))) &&
         w.int64s(o, 0, "segev_addr", all(column<E, int64_t>(e, [](auto& x) { return x.addr; }))) &&
         w.int64s(o, 0, "segev_size", all(column<E, int64_t>(e, [](auto& x) { return x.size; }))) &&
         w.fixed(o, 0, "segev_seq", all(column<E, uint32_t>(e, [](auto& x) { return x.seq; }))) &&
         w.fixed(o, 0, "segev_stream", all(column<E, int32_t>(e, [](auto& x) { return x.stream; }))) &&
         w.fixed(o, 0, "segev_device", all(column<E, int16_t>(e, [](auto& x) { return x.device; }))) &&
         w.fixed(o, 0, "segev_action", all(column<E, uint8_t>(e, [](auto& x) { return x.action; })));
    const auto& q = m.ooms;
    using Q = decltype(q);
    ok = ok && w.int64s(o, 0, "oom_us", all(column<Q, int64_t>(q, [](auto& x) { return x.timeUs; }))) &&
         w.int64s(o, 0, "oom_size", all(column<Q, int64_t>(q, [](auto& x) { return x.size; }))) &&
         w.int64s(o, 0, "oom_device_free", all(column<Q, int64_t>(q, [](auto& x) { return x.deviceFree; }))) &&
         w.fixed(o, 0, "oom_seq", all(column<Q, uint32_t>(q, [](auto& x) { return x.seq; }))) &&
         w.fixed(o, 0, "oom_stack", all(column<Q, uint32_t>(q, [](auto& x) { return x.stack; }))) &&
         w.fixed(o, 0, "oom_stream", all(column<Q, int32_t>(q, [](auto& x) { return x.stream; }))) &&
         w.fixed(o, 0, "oom_device", all(column<Q, int16_t>(q, [](auto& x) { return x.device; })));
    const auto& g = m.segments;
    using G = decltype(g);
    ok = ok && w.int64s(o, 0, "seg_addr", all(column<G, int64_t>(g, [](auto& x) { return x.addr; }))) &&
         w.int64s(o, 0, "seg_total", all(column<G, int64_t>(g, [](auto& x) { return x.totalSize; }))) &&
         w.int64s(o, 0, "seg_allocated", all(column<G, int64_t>(g, [](auto& x) { return x.allocatedSize; }))) &&
         w.int64s(o, 0, "seg_active", all(column<G, int64_t>(g, [](auto& x) { return x.activeSize; }))) &&
         w.int64s(o, 0, "seg_requested", all(column<G, int64_t>(g, [](auto& x) { return x.requestedSize; }))) &&
         w.fixed(o, 0, "seg_first_block", all(column<G, uint32_t>(g, [](auto& x) { return x.firstBlock; }))) &&
         w.fixed(o, 0, "seg_block_count", all(column<G, uint32_t>(g, [](auto& x) { return x.blockCount; }))) &&
         w.fixed(o, 0, "seg_type", all(column<G, uint32_t>(g, [](auto& x) { return x.segmentType; }))) &&
         w.fixed(o, 0, "seg_stack", all(column<G, uint32_t>(g, [](auto& x) { return x.stack; }))) &&
         w.fixed(o, 0, "seg_stream", all(column<G, int32_t>(g, [](auto& x) { return x.stream; }))) &&
         w.fixed(o, 0, "seg_device", all(column<G, int16_t>(g, [](auto& x) { return x.device; }))) &&
         w.fixed(o, 0, "seg_expandable", all(column<G, uint8_t>(g, [](auto& x) { return x.expandable; })));
    const auto& b = m.blocks;
    using B = decltype(b);
    ok = ok && w.int64s(o, 0, "block_addr", all(column<B, int64_t>(b, [](auto& x) { return x.addr; }))) &&
         w.int64s(o, 0, "block_size", all(column<B, int64_t>(b, [](auto& x) { return x.size; }))) &&
         w.int64s(o, 0, "block_requested", all(column<B, int64_t>(b, [](auto& x) { return x.requestedSize; }))) &&
         w.fixed(o, 0, "block_stack", all(column<B, uint32_t>(b, [](auto& x) { return x.stack; }))) &&
         w.fixed(o, 0, "block_state", all(column<B, uint8_t>(b, [](auto& x) { return x.state; })));
    return ok;
}

// Fills `m` (scalars and settings already set from the meta JSON); false when a column is missing,
// damaged, of another length than its table's, or an index is out of range.
template <typename Reader> bool readSnapshotColumns(Reader& r, MemorySnapshot& m) {
    const char* o = "snapshot";
    std::vector<int64_t> lengths;
    std::vector<char> chars;
    if (!r.int64s(o, 0, "string_length", lengths) || !r.fixed(o, 0, "string_bytes", chars) || lengths.empty())
        return false;
    m.strings.clear();
    size_t at = 0;
    for (int64_t n : lengths) {
        if (n < 0 || static_cast<uint64_t>(n) > chars.size() - at)
            return false;
        m.strings.emplace_back(chars.data() + at, static_cast<size_t>(n));
        at += static_cast<size_t>(n);
    }
    const size_t strings = m.strings.size();
    std::vector<uint32_t> fn, file;
    std::vector<int32_t> line;
    if (!r.fixed(o, 0, "frame_function", fn) || !r.fixed(o, 0, "frame_file", file) || !r.fixed(o, 0, "frame_line", line) ||
        file.size() != fn.size() || line.size() != fn.size() || !r.fixed(o, 0, "stack_start", m.stackStart) ||
        !r.fixed(o, 0, "stack_frames", m.stackFrames) || !r.fixed(o, 0, "devices", m.devices))
        return false;
    for (size_t i = 0; i < fn.size(); ++i) {
        if (fn[i] >= strings || file[i] >= strings)
            return false;
        m.frames.push_back({fn[i], file[i], line[i]});
    }
    if (m.stackStart.empty() || m.stackStart.front() != 0 || m.stackStart.back() != m.stackFrames.size() ||
        !std::is_sorted(m.stackStart.begin(), m.stackStart.end()))
        return false;
    for (uint32_t f : m.stackFrames)
        if (f >= m.frames.size())
            return false;
    const size_t stacks = m.stackCount();

    std::vector<int64_t> i0, i1, i2, i3, i4;
    std::vector<uint32_t> u0, u1, u2, u3;
    std::vector<int32_t> s0;
    std::vector<int16_t> d0;
    std::vector<uint8_t> b0;
    auto same = [](size_t n, auto&... v) { return ((v.size() == n) && ...); };
    // Allocations.
    if (!r.int64s(o, 0, "alloc_addr", i0) || !r.int64s(o, 0, "alloc_size", i1) || !r.int64s(o, 0, "alloc_us", i2) ||
        !r.int64s(o, 0, "alloc_free_requested_us", i3) || !r.int64s(o, 0, "alloc_free_us", i4) ||
        !r.fixed(o, 0, "alloc_seq", u0) || !r.fixed(o, 0, "alloc_free_seq", u1) || !r.fixed(o, 0, "alloc_stack", u2) ||
        !r.fixed(o, 0, "alloc_stream", s0) || !r.fixed(o, 0, "alloc_device", d0) ||
        !same(i0.size(), i1, i2, i3, i4, u0, u1, u2, s0, d0))
        return false;
    for (size_t i = 0; i < i0.size(); ++i) {
        if (u2[i] >= stacks)
            return false;
        SnapshotAllocation& a = m.allocations.emplace_back();
        a.addr = i0[i], a.size = i1[i], a.allocUs = i2[i], a.freeRequestedUs = i3[i], a.freeUs = i4[i];
        a.allocSeq = u0[i], a.freeSeq = u1[i], a.stack = u2[i], a.stream = s0[i], a.device = d0[i];
    }
    // Segment entries of the trace.
    if (!r.int64s(o, 0, "segev_us", i0) || !r.int64s(o, 0, "segev_addr", i1) || !r.int64s(o, 0, "segev_size", i2) ||
        !r.fixed(o, 0, "segev_seq", u0) || !r.fixed(o, 0, "segev_stream", s0) || !r.fixed(o, 0, "segev_device", d0) ||
        !r.fixed(o, 0, "segev_action", b0) || !same(i0.size(), i1, i2, u0, s0, d0, b0))
        return false;
    for (size_t i = 0; i < i0.size(); ++i) {
        if (b0[i] > static_cast<uint8_t>(SnapshotSegmentAction::Unmap))
            return false;
        m.segmentEvents.push_back({i0[i], u0[i], i1[i], i2[i], s0[i], d0[i], static_cast<SnapshotSegmentAction>(b0[i])});
    }
    // OOMs.
    if (!r.int64s(o, 0, "oom_us", i0) || !r.int64s(o, 0, "oom_size", i1) || !r.int64s(o, 0, "oom_device_free", i2) ||
        !r.fixed(o, 0, "oom_seq", u0) || !r.fixed(o, 0, "oom_stack", u1) || !r.fixed(o, 0, "oom_stream", s0) ||
        !r.fixed(o, 0, "oom_device", d0) || !same(i0.size(), i1, i2, u0, u1, s0, d0))
        return false;
    for (size_t i = 0; i < i0.size(); ++i) {
        if (u1[i] >= stacks)
            return false;
        m.ooms.push_back({i0[i], u0[i], i1[i], i2[i], u1[i], s0[i], d0[i]});
    }
    // Blocks, then the segments that index them.
    if (!r.int64s(o, 0, "block_addr", i0) || !r.int64s(o, 0, "block_size", i1) || !r.int64s(o, 0, "block_requested", i2) ||
        !r.fixed(o, 0, "block_stack", u0) || !r.fixed(o, 0, "block_state", b0) || !same(i0.size(), i1, i2, u0, b0))
        return false;
    for (size_t i = 0; i < i0.size(); ++i) {
        if (u0[i] >= stacks || b0[i] > static_cast<uint8_t>(SnapshotBlockState::Unknown))
            return false;
        m.blocks.push_back({i0[i], i1[i], i2[i], u0[i], static_cast<SnapshotBlockState>(b0[i])});
    }
    if (!r.int64s(o, 0, "seg_addr", i0) || !r.int64s(o, 0, "seg_total", i1) || !r.int64s(o, 0, "seg_allocated", i2) ||
        !r.int64s(o, 0, "seg_active", i3) || !r.int64s(o, 0, "seg_requested", i4) ||
        !r.fixed(o, 0, "seg_first_block", u0) || !r.fixed(o, 0, "seg_block_count", u1) || !r.fixed(o, 0, "seg_type", u2) ||
        !r.fixed(o, 0, "seg_stack", u3) || !r.fixed(o, 0, "seg_stream", s0) || !r.fixed(o, 0, "seg_device", d0) ||
        !r.fixed(o, 0, "seg_expandable", b0) || !same(i0.size(), i1, i2, i3, i4, u0, u1, u2, u3, s0, d0, b0))
        return false;
    for (size_t i = 0; i < i0.size(); ++i) {
        if (static_cast<uint64_t>(u0[i]) + u1[i] > m.blocks.size() || u2[i] >= strings || u3[i] >= stacks)
            return false;
        SnapshotSegment& s = m.segments.emplace_back();
        s.addr = i0[i], s.totalSize = i1[i], s.allocatedSize = i2[i], s.activeSize = i3[i], s.requestedSize = i4[i];
        s.firstBlock = u0[i], s.blockCount = u1[i], s.segmentType = u2[i], s.stack = u3[i], s.stream = s0[i];
        s.device = d0[i], s.expandable = b0[i] != 0;
    }
    return true;
}

} // namespace ws::store
