#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ws {

/*
 * ImportReport: what an importer found odd or skipped, counted rather than thrown.
 *
 * Each problem kind ("unknown phase", "E without B", "truncated input", ...) keeps a count and up to
 * kMaxExamples first examples (short text, usually with a byte offset or row id), so a file with a
 * million bad events costs a few hundred bytes here. Reports from parallel chunks merge; merging keeps
 * the order in which kinds were first seen in the first report, then the new kinds of the second.
 * Notes are problems that well-formed files from real profilers have too; the UI lists them but
 * does not warn about them. `truncated` is set when the input ended early (a job killed mid-write): the events before the cut
 * are imported and the UI says so.
 */
class ImportReport {
public:
    static constexpr size_t kMaxExamples = 3;

    struct Problem {
        std::string kind;
        uint64_t count = 0;
        std::vector<std::string> examples;
        bool note = false; // expected in healthy files (e.g. Kineto's unmatched flow ends): no warning
    };

    void add(std::string_view kind, std::string_view example = {}, uint64_t count = 1);
    // Like add(), for what real profilers routinely write: reported, but no reason to warn the user.
    void addNote(std::string_view kind, std::string_view example = {}, uint64_t count = 1);
    void merge(const ImportReport& other);

    void setTruncated(std::string_view where);
    // Sets the flag alone (the "input truncated" problem is already counted), for reports read back.
    void markTruncated() { m_truncated = true; }
    bool truncated() const { return m_truncated; }

    bool empty() const { return m_problems.empty() && !m_truncated; }
    // Problems that deserve a warning (everything but notes), summed.
    uint64_t warningCount() const;
    const std::vector<Problem>& problems() const { return m_problems; }
    uint64_t count(std::string_view kind) const;

    // One line per problem kind, for logs, the CLI and the UI banner's details.
    std::string toText() const;

private:
    std::vector<Problem> m_problems;
    bool m_truncated = false;
};

} // namespace ws
