#include "model/args_spans.h"

#include "model/gallop.h"

namespace ws {

bool ArgsSpans::add(uint64_t ref, uint32_t offset, uint32_t length) {
    if (offset > kMaxOffset || length > kMaxLength || (!m_refs.empty() && ref <= m_refs.back()))
        return false;
    m_refs.push_back(ref);
    m_packed.push_back(offset | (length << kOffsetBits));
    return true;
}

bool ArgsSpans::append(const ArgsSpans& later) {
    if (later.empty())
        return true;
    // A block whose first ref does not follow this one's last (never, for blocks in file order)
    // keeps the order that lookups need: its spans are left out, and those events cut as before.
    if (!m_refs.empty() && later.m_refs.front() <= m_refs.back())
        return false;
    m_refs.insert(m_refs.end(), later.m_refs.begin(), later.m_refs.end());
    m_packed.insert(m_packed.end(), later.m_packed.begin(), later.m_packed.end());
    return true;
}

void ArgsSpans::truncate(size_t size) {
    if (size < m_refs.size()) {
        m_refs.resize(size);
        m_packed.resize(size);
    }
}

std::optional<ArgsSpans::Span> ArgsSpans::Cursor::find(uint64_t ref) {
    const std::vector<uint64_t>& refs = m_spans.m_refs;
    // Mostly the next span or a few further (events without a slice have spans too).
    const size_t at = gallopLowerBound(refs, m_next, ref);
    m_next = at;
    if (at == refs.size() || refs[at] != ref)
        return std::nullopt;
    return m_spans.at(at);
}

} // namespace ws
