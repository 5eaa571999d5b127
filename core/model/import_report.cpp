#include "model/import_report.h"

#include <algorithm>

namespace ws {

void ImportReport::add(std::string_view kind, std::string_view example, uint64_t count) {
    auto it = std::find_if(m_problems.begin(), m_problems.end(),
                           [&](const Problem& p) { return p.kind == kind; });
    if (it == m_problems.end()) {
        m_problems.push_back(Problem{std::string(kind), 0, {}});
        it = m_problems.end() - 1;
    }
    it->count += count;
    if (!example.empty() && it->examples.size() < kMaxExamples)
        it->examples.emplace_back(example);
}

void ImportReport::addNote(std::string_view kind, std::string_view example, uint64_t count) {
    add(kind, example, count);
    for (Problem& p : m_problems)
        if (p.kind == kind)
            p.note = true;
}

uint64_t ImportReport::warningCount() const {
    uint64_t n = 0;
    for (const Problem& p : m_problems)
        n += p.note ? 0 : p.count;
    return n;
}

void ImportReport::merge(const ImportReport& other) {
    for (const Problem& p : other.m_problems) {
        if (p.note)
            addNote(p.kind, {}, p.count);
        else
            add(p.kind, {}, p.count);
        auto it = std::find_if(m_problems.begin(), m_problems.end(),
                               [&](const Problem& q) { return q.kind == p.kind; });
        for (const std::string& ex : p.examples)
            if (it->examples.size() < kMaxExamples)
                it->examples.push_back(ex);
    }
    m_truncated = m_truncated || other.m_truncated;
}

void ImportReport::setTruncated(std::string_view where) {
    m_truncated = true;
    add("input truncated", where);
}

uint64_t ImportReport::count(std::string_view kind) const {
    for (const Problem& p : m_problems)
        if (p.kind == kind)
            return p.count;
    return 0;
}

std::string ImportReport::toText() const {
    std::string out;
    for (const Problem& p : m_problems) {
        out += p.kind;
        if (p.note)
            out += " (note)";
        out += ": ";
        out += std::to_string(p.count);
        if (!p.examples.empty()) {
            out += " (e.g. ";
            for (size_t i = 0; i < p.examples.size(); ++i) {
                if (i)
                    out += "; ";
                out += p.examples[i];
            }
            out += ')';
        }
        out += '\n';
    }
    return out;
}

} // namespace ws
